import { describe, expect, it } from 'vitest';
import { runFile } from '../src/corpus.mjs';

describe('the corpus harness', () => {
  it('tells typed errors, crashes, hangs, wrong results and budget overruns apart, and goes on after a hang', async () => {
    const results = await runFile(new URL('./fixtures/harness-cases.mjs', import.meta.url).href, 4);
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
      ['right, but 2.5 s past its 0.1 s budget', 'overrun'],
      ['right, within its budget', 'correct'],
    ]);
  });
});
