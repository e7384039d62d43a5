import { describe, expect, it } from 'vitest';
import type { SkillRow } from '../src/analyse/skill.js';
import { skillBrief, skillSummary } from '../src/report/skill-summary.js';

const interval = (mean: number) => ({ n: 8, mean, lo: mean - 0.1, hi: mean + 0.1 });

function row(
  label: string,
  value: number,
  floor: number,
  finds: boolean,
  baseline: SkillRow['baseline'] = null,
): SkillRow {
  return {
    question: 'data',
    scenario: 'bias=1.5–3',
    model: 'σ(η)',
    family: 'subgroup',
    measure: 'localisation',
    label,
    method: label,
    baseline,
    unranked: null,
    seeds: 8,
    value: interval(value),
    floors: [{ name: 'largest protected cells', value: interval(floor) }],
    strongest: 'largest protected cells',
    excess: interval(value - floor),
    p: finds ? 0.004 : 0.5,
    pHolm: finds ? 0.012 : 1,
    finds,
    twin: interval(0.05),
    alarm: null,
  };
}

describe('the terminal summary', () => {
  it('names the method with the largest excess, its floor, its test and every method that finds the bias', () => {
    const text = skillSummary([
      row('SliceLine', 0.3, 0.2, false),
      row('BiasScan', 0.6, 0.2, true),
      row('random subgroups', 0.9, 0.2, false, 'trivial'),
    ]);
    const line = text.split('\n').find((l) => l.startsWith('data'))!;
    // The trivial row never heads the summary, however high it scores.
    expect(line).toContain('BiasScan');
    expect(line).toContain('largest protected cells 0.20');
    expect(line).toContain('0.40');
    expect(line).toContain('0.012');
    expect(line.trimEnd().endsWith('BiasScan')).toBe(true);
    // ... and the summary says that it scores above the best method.
    expect(text).toMatch(/random subgroups above BiasScan/);
  });

  it('says so when nothing was scored', () => {
    expect(skillSummary([])).toMatch(/no summary/);
  });
});

describe('the brief at the top of the report', () => {
  it('names the methods that find the bias and counts the tables a trivial output wins', () => {
    const [line] = skillBrief([
      row('SliceLine', 0.3, 0.2, false),
      row('BiasScan', 0.6, 0.2, true),
      row('random subgroups', 0.9, 0.2, false, 'trivial'),
    ]);
    expect(line).toContain('one method finds the planted bias');
    expect(line).toContain('BiasScan (data question, bias=1.5–3, σ(η))');
    expect(line).toContain('In 1 of them an output that knows nothing');
  });

  it('says when no method finds it', () => {
    const [line] = skillBrief([row('SliceLine', 0.3, 0.2, false)]);
    expect(line).toContain('no method finds the planted bias');
    expect(line).toContain('In none of them');
  });
});
