import { describe, expect, it } from 'vitest';
import { runFile } from '../src/corpus.mjs';

describe('the corpus harness', () => {
  it('tells typed errors, crashes, hangs and wrong results apart, and goes on after a hang', async () => {
    const results = await runFile(new URL('./fixtures/harness-cases.mjs', import.meta.url).href, 2);
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ['typed error', 'typed-error'],
      ['another typed error', 'wrong-error'],
      ['a raw RangeError', 'crash'],
      ['a plain Error', 'crash'],
      ['returns where an error is due', 'silent-wrong'],
      ['returns a right value', 'correct'],
      ['returns a wrong value', 'silent-wrong'],
      ['loops forever, synchronously', 'hang'],
      ['still counted after a hang', 'correct'],
      ['rejects asynchronously with a TypeError', 'crash'],
    ]);
  });
});
