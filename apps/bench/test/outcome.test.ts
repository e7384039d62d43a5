import { describe, expect, it } from 'vitest';
import { describeOutcome } from '../src/run/run-study.js';

describe('the line a run ends with', () => {
  const base = { cells: 100, skipped: 30, ran: 70, failed: 2, reportPath: null, summary: null };

  it('gives the time and the cells per hour', () => {
    // 70 cells in half an hour: 140 an hour.
    expect(describeOutcome({ ...base, runSeconds: 1800 })).toBe(
      '70 cells run (2 failed) in 30.0 min, 140 cells/h; 30 already stored, of 100',
    );
    // Under two minutes the time is in seconds: 70 cells in 63 s are 4,000 an hour.
    expect(describeOutcome({ ...base, runSeconds: 63 })).toBe(
      '70 cells run (2 failed) in 63.0 s, 4000 cells/h; 30 already stored, of 100',
    );
  });

  it('gives no rate when nothing ran', () => {
    expect(describeOutcome({ ...base, ran: 0, failed: 0, skipped: 100, runSeconds: 0.01 })).toBe(
      '0 cells run (0 failed) in 0.0 s; 100 already stored, of 100',
    );
  });
});
