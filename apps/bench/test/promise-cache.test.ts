import { describe, expect, it } from 'vitest';
import { PromiseCache } from '../src/run/promise-cache.js';

describe('PromiseCache', () => {
  it('makes each key once, keeps the newest max keys, and forgets a failure', async () => {
    const made: string[] = [];
    const cache = new PromiseCache<string>(2);
    const get = (k: string) =>
      cache.get(k, async () => {
        made.push(k);
        return k.toUpperCase();
      });
    expect(await get('a')).toBe('A');
    expect(await get('a')).toBe('A');
    await get('b');
    await get('c'); // 'a' leaves
    await get('b');
    await get('a');
    expect(made).toEqual(['a', 'b', 'c', 'a']);
    let tries = 0;
    const failing = () =>
      cache.get('x', async () => {
        tries++;
        throw new Error('no');
      });
    await expect(failing()).rejects.toThrow('no');
    await expect(failing()).rejects.toThrow('no');
    expect(tries).toBe(2);
  });
});
