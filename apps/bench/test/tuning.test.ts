import type { AuditScore } from '@fb/eval';
import { describe, expect, it } from 'vitest';
import { skill, tunedSkill } from '../src/analyse/skill.js';
import { expandCells } from '../src/plan/cells.js';
import { validateStudy } from '../src/plan/config.js';
import type { CellRecord } from '../src/run/record.js';
import { record, score } from './records.js';

/** An individual run on `dataset` whose true pairs per 1,000 queries are `value`, its row floor `floor`. */
function run(
  label: string,
  dataset: string,
  seed: number,
  value: number,
  floor: number,
  tuned?: number | 'default',
): CellRecord {
  const s: AuditScore = { ...score(0.5, 0.5), truePerKQueries: value };
  const r = record(label, seed, 'bias', s);
  return {
    ...r,
    key: `${label}|${dataset}|${seed}`,
    block: `${dataset}|${seed}`,
    dataset: { ...r.dataset, label: dataset },
    plan: {
      ...r.plan,
      label,
      entry: 'A',
      ...(tuned === 'default'
        ? { gridDefault: true as const }
        : tuned !== undefined
          ? { tuned: { option: 'globalShare', value: tuned } }
          : {}),
    },
    floors: [{ name: 'random audited rows', measures: { truePerKQueries: floor } }],
  };
}

const seeds = [1, 2, 3, 4, 5, 6];
const tuningSeeds = [11, 12, 13, 14, 15, 16];

/**
 * On the tuning seeds the grid point 0.3 leads (excess 5 against 1); on the evaluation seeds 0.1
 * would (excess 4 against 2). The tuned table must show 0.3: the evaluation seeds never choose.
 */
const records: CellRecord[] = [
  ...tuningSeeds.map((s) => run('A [globalShare=0.1]', 'base (tuning)', s, 11 + s / 100, 10, 0.1)),
  ...tuningSeeds.map((s) => run('A [globalShare=0.3]', 'base (tuning)', s, 15 + s / 100, 10, 0.3)),
  ...seeds.map((s) => run('A [globalShare=0.1]', 'base', s, 14 + s / 100, 10, 0.1)),
  ...seeds.map((s) => run('A [globalShare=0.3]', 'base', s, 12 + s / 100, 10, 0.3)),
  ...seeds.map((s) => run('A', 'base', s, 13 + s / 100, 10)),
];

describe('the tuned table (planted choice)', () => {
  it('chooses each grid point on the tuning seeds and scores it on the evaluation seeds only', () => {
    const { choices, rows } = tunedSkill(records);
    expect(choices).toHaveLength(1);
    expect(choices[0]).toMatchObject({ entry: 'A', label: 'A [globalShare=0.3]', value: 0.3 });
    expect(choices[0]!.grid.map((g) => [g.value, Math.round(g.excess!)])).toEqual([
      [0.1, 1],
      [0.3, 5],
    ]);
    const headline = rows.filter((r) => r.measure === 'truePerKQueries');
    expect(headline.map((r) => [r.scenario, r.label, r.seeds])).toEqual([['base', 'A [globalShare=0.3]', 6]]);
    expect(headline[0]!.excess.mean).toBeCloseTo(2.035, 6);
  });

  it('the default point competes on the tuning seeds and is scored on the grid’s evaluation seeds only', () => {
    const withDefault = [
      ...records.filter((r) => r.plan.label !== 'A'),
      ...tuningSeeds.map((s) => run('A', 'base (tuning)', s, 16 + s / 100, 10, 'default')),
      // The default also runs on base seeds 7-9, where the grid did not: they stay out of the tuned table.
      ...[...seeds, 7, 8, 9].map((s) => run('A', 'base', s, 13 + s / 100, 10, 'default')),
    ];
    const { choices, rows } = tunedSkill(withDefault);
    expect(choices[0]).toMatchObject({ label: 'A', option: 'globalShare', value: 'default' });
    expect(choices[0]!.grid.map((g) => g.value)).toEqual(['default', 0.1, 0.3]);
    const headline = rows.filter((r) => r.measure === 'truePerKQueries');
    expect(headline.map((r) => [r.label, r.seeds])).toEqual([['A', 6]]);
  });

  it('the primary table holds the study plans only, never a grid point or the tuning seeds', () => {
    const labels = new Set(skill(records).map((r) => `${r.scenario}|${r.label}`));
    expect([...labels]).toEqual(['base|A']);
  });
});

describe('a study with a tuning grid', () => {
  const study = (extra: Record<string, unknown> = {}) => ({
    name: 'x',
    seeds: [1, 2],
    synthetic: {
      generator: 'planted-pair',
      factors: { bias: [-2, -1] },
      oneAtATime: ['bias'],
    },
    questions: ['model'],
    models: [{ kind: 'logistic-regression' }],
    methods: [
      { label: 'AEQUITAS', method: 'aequitas', tune: { globalShare: [0.05, 0.3] } },
      { label: 'KOSEI', method: 'kosei', tune: { localLimit: [100, 4000] } },
    ],
    budget: { maxQueries: 1000 },
    phases: { globalShare: 0.1 },
    tuning: { seeds: [9] },
    ...extra,
  });

  it('runs grid points on the base scenario (evaluation and tuning seeds), study plans off the tuning seeds', async () => {
    const cells = await expandCells(validateStudy(study()));
    const where = (label: string) =>
      cells.filter((c) => c.plan.label === label).map((c) => `${c.dataset.label}:${c.seed}`);
    // The default point runs on the tuning seeds too: the grid lists only the other values.
    expect(where('AEQUITAS')).toEqual(['base:1', 'base:2', 'bias=-1:1', 'bias=-1:2', 'base (tuning):9']);
    expect(where('AEQUITAS [globalShare=0.3]')).toEqual(['base:1', 'base:2', 'base (tuning):9']);
    expect(where('KOSEI [localLimit=4000]')).toEqual(['base:1', 'base:2', 'base (tuning):9']);
    const share = cells.find((c) => c.plan.label === 'AEQUITAS [globalShare=0.3]')!;
    expect([share.phases, share.plan.options]).toEqual([{ globalShare: 0.3 }, {}]);
    expect(cells.find((c) => c.plan.label === 'KOSEI [localLimit=4000]')!.plan.options).toEqual({
      localLimit: 4000,
    });
  });

  it('refuses a grid without tuning seeds, a share outside (0, 1), a value the method refuses, and reused seeds', () => {
    expect(() => validateStudy(study({ tuning: null }))).toThrow(/needs tuning seeds/);
    const badShare = study();
    badShare.methods[0]!.tune = { globalShare: [0.1, 2] };
    expect(() => validateStudy(badShare)).toThrow(/globalShare 2 is not a share/);
    const badValue = study();
    badValue.methods[1]!.tune = { localLimit: [10, -1] };
    expect(() => validateStudy(badValue)).toThrow(/localLimit = -1/);
    expect(() => validateStudy(study({ tuning: { seeds: [2] } }))).toThrow(
      /tuning needs fresh seeds; 2 already used/,
    );
  });
});
