import { describe, expect, it } from 'vitest';
import { monteCarloPValue } from '../src/index.js';

describe('monteCarloPValue', () => {
  it('counts the observed scan as one draw', () => {
    expect(monteCarloPValue(0, 99)).toBe(0.01);
    expect(monteCarloPValue(99, 99)).toBe(1);
    expect(monteCarloPValue(4, 19)).toBe(0.25);
    expect(monteCarloPValue(0, 0)).toBeNull();
  });
});
