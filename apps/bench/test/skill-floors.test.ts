/**
 * The skill floors: on the study's own generator settings, outputs that know nothing score no excess
 * over their floors, planted subgroups are not density anomalies, and a method that locates bias
 * clears the floors. Real cells through `runCell`, small data.
 */
import { memberMask } from '@fb/core';
import { signTest } from '@fb/eval';
import * as synth from '@fb/synth';
import { describe, expect, it } from 'vitest';
import { type SkillRow, skill } from '../src/analyse/skill.js';
import { expandCells } from '../src/plan/cells.js';
import { loadStudy, validateStudy } from '../src/plan/config.js';
import { auditSplit } from '../src/run/prepare.js';
import type { CellRecord } from '../src/run/record.js';
import { runCell } from '../src/run/run-cell.js';
import type { FloorName } from '../src/score/floors.js';
import { type Measure, measureValues } from '../src/score/measures.js';

async function run(study: Record<string, unknown>): Promise<CellRecord[]> {
  const cells = await expandCells(validateStudy({ name: 'skill-floors', workers: 1, ...study }));
  const out: CellRecord[] = [];
  for (const c of cells) out.push(await runCell(c));
  return out;
}

// The default study's own generator settings and bias levels.
const study = loadStudy('default');
const synthetic = study.synthetic!;
const base = synthetic.base as Record<string, unknown>;
const strong = (synthetic.factors['bias'] as Record<string, unknown>[]).at(-1)!;

/** Every trivial row: no excess over its floors on any measure, its interval reaching 0 or below. */
function expectAtFloor(rows: readonly SkillRow[], labels: readonly string[]) {
  for (const label of labels) {
    const mine = rows.filter((r) => r.label === label);
    expect(mine.length, label).toBeGreaterThan(0);
    for (const r of mine) {
      const where = `${label} / ${r.question} / ${r.model} / ${r.measure}`;
      expect(r.finds, where).toBe(false);
      expect(r.excess.lo, where).toBeLessThanOrEqual(1e-12);
    }
  }
}

/** Per seed: whether a record's value on `measure` exceeds every floor named (the block's included). */
function clears(
  r: CellRecord,
  measure: Measure,
  floors: readonly FloorName[],
  blockFloor?: CellRecord,
): boolean {
  const v = measureValues(r.score!)[measure]!;
  const fs = (r.floors ?? []).filter((f) => floors.includes(f.name)).map((f) => f.measures[measure] ?? 0);
  if (blockFloor) fs.push(measureValues(blockFloor.score!)[measure] ?? 0);
  expect(fs.length).toBeGreaterThan(0);
  return fs.every((f) => v > f);
}

describe('skill floors: planted subgroups are not density anomalies', () => {
  it('on the default study’s settings each planted subgroup holds at most 25% of its protected cell', () => {
    for (const seed of study.seeds) {
      const g = synth.generate({ ...base, ...strong, seed, threads: 1 });
      const { audit } = auditSplit(g.dataset.n, seed, study.auditShare);
      const inAudit = new Uint8Array(g.dataset.n);
      for (const i of audit) inAudit[i] = 1;
      for (const s of g.truth.subgroups.filter((t) => t.bias !== 0)) {
        const prot = s.conditions.filter(
          (c) => g.dataset.schema.attributes.find((a) => a.name === c.attribute)!.protected,
        );
        const members = memberMask(g.dataset, s.conditions);
        const cell = memberMask(g.dataset, prot);
        let m = 0;
        let c = 0;
        for (let i = 0; i < g.dataset.n; i++) {
          m += members[i]!;
          c += cell[i]!;
        }
        expect(m / c, `seed ${seed}, subgroup ${s.key}`).toBeLessThanOrEqual(0.25);
      }
    }
  });
});

describe('skill floors: subgroup outputs that know nothing', () => {
  it('the whole population, the largest protected cells and random conjunctions score no excess', async () => {
    const records = await run({
      seeds: [1, 2, 3, 4, 5, 6],
      synthetic: { ...synthetic, factors: { bias: [strong] } },
      questions: ['data', 'model-output'],
      models: [{ kind: 'logistic-regression' }],
      methods: [
        { label: 'whole population', method: 'whole-population' },
        { label: 'largest protected cells', method: 'largest-protected-cells' },
        { label: 'random conjunctions', method: 'random-finder' },
        { label: 'per-value disparity scan', method: 'value-disparity' },
      ],
      budget: { maxSeconds: 30 },
    });
    expect(records.every((r) => r.status === 'done')).toBe(true);
    expectAtFloor(skill(records), ['whole population', 'largest protected cells', 'random conjunctions']);
  }, 600_000);
});

describe('skill floors: individual outputs that know nothing', () => {
  it('random audited rows, uniform domain samples and every variant unasked score no excess', async () => {
    const records = await run({
      // Twenty-four seeds: a trivial output's small but steady excess (every variant unasked, when it was
      // matched to its floors on rows rather than individuals) passed on seeds 1-6 and on 1-12, and
      // failed on 13-18, 19-24 and 1-24.
      seeds: Array.from({ length: 24 }, (_, i) => i + 1),
      synthetic: { ...synthetic, factors: { bias: [strong] } },
      questions: ['model'],
      models: [
        { label: 'random forest', kind: 'random-forest', options: { nEstimators: 30, minSamplesLeaf: 5 } },
      ],
      methods: [
        { label: 'random audited rows', method: 'exhaustive-counterfactual', options: { order: 'random' } },
        { label: 'uniform domain samples', method: 'uniform-domain' },
        { label: 'every variant unasked', method: 'every-variant-unasked' },
      ],
      budget: { maxTested: 500, maxQueries: 20_000, maxSeconds: 30 },
    });
    expect(records.every((r) => r.status === 'done')).toBe(true);
    expectAtFloor(skill(records), ['random audited rows', 'uniform domain samples', 'every variant unasked']);
  }, 600_000);
});

describe('skill floors: the design can produce a positive result', () => {
  it('BiasScan on σ(η) clears every subgroup floor in at least 8 of 10 seeds on a strong planted subgroup', async () => {
    const records = await run({
      seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      synthetic: {
        ...synthetic,
        // Two non-protected conditions or more: the per-value scan (one protected value and at most
        // one other) cannot state such a subgroup exactly.
        base: { ...base, pairs: 1, minGranularity: 2, biasSign: 'negative' },
        factors: { bias: [{ minBias: 3, maxBias: 3 }] },
      },
      questions: ['data'],
      models: [{ kind: 'logistic-regression' }],
      methods: [
        {
          label: 'BiasScan',
          method: 'mdss-bias-scan',
          options: { scoring: 'bernoulli', penalty: 1, randomizationReplicates: 0 },
        },
        { label: 'per-value disparity scan', method: 'value-disparity' },
      ],
      budget: { maxSeconds: 30 },
    });
    const oracle = records.filter((r) => r.model === 'σ(η)' && !r.dataset.null);
    const scans = oracle.filter((r) => r.plan.method === 'mdss-bias-scan');
    expect(scans).toHaveLength(10);
    const cleared = scans.filter((r) =>
      clears(
        r,
        'localisation',
        ['random conjunctions', 'largest protected cells'],
        oracle.find((o) => o.block === r.block && o.plan.method === 'value-disparity'),
      ),
    ).length;
    expect(cleared).toBeGreaterThanOrEqual(8);
  }, 600_000);

  it('the exhaustive check on a biased random forest clears the floors that know nothing in most seeds, by a sign test over 40', async () => {
    const seeds = 40;
    const records = await run({
      seeds: Array.from({ length: seeds }, (_, i) => i + 1),
      synthetic: { ...synthetic, factors: { bias: [strong] } },
      questions: ['model'],
      models: [
        { label: 'random forest', kind: 'random-forest', options: { nEstimators: 30, minSamplesLeaf: 5 } },
      ],
      methods: [{ label: 'exhaustive', method: 'exhaustive-counterfactual' }],
      budget: { maxTested: 3000, maxSeconds: 30 },
    });
    const planted = records.filter((r) => !r.dataset.null);
    expect(planted).toHaveLength(seeds);
    // Precision over listing every variant unasked, and bias-caused pairs per query over uniform samples
    // of the domain. (It is itself a sample of audited rows: against the random-rows floor it is even.)
    // Per query it clears the uniform samples in two seeds of three to three of four (30 of these 40 on
    // the generator's polar draws, 27 on its ziggurat draws: 5 to 9 of any ten seeds), so a count out of
    // ten was a matter of which ten. The claim tested is the seed-level one: more seeds above the floor
    // than below, by an exact sign test (two-sided, p = 0.002 for 30 of 40, 0.038 for 27; precision
    // clears in all 40 on both).
    const precision = planted.filter((r) => clears(r, 'precision', ['every variant unasked'])).length;
    const perQuery = planted.filter((r) => clears(r, 'truePerKQueries', ['uniform domain samples'])).length;
    for (const [what, cleared] of [
      ['precision', precision],
      ['per 1,000 queries', perQuery],
    ] as const) {
      expect(cleared, what).toBeGreaterThan(seeds / 2);
      expect(signTest(cleared, seeds - cleared), what).toBeLessThan(0.05);
    }
  }, 600_000);
});

describe('skill floors: nulls by construction', () => {
  it('a twin-trained model has no bias-caused flip, and a blind model raises no alarm against its own twin', async () => {
    const records = await run({
      seeds: [1, 2, 3, 4],
      synthetic: { ...synthetic, factors: { bias: [strong] } },
      questions: ['model'],
      models: [
        { label: 'random forest', kind: 'random-forest', options: { nEstimators: 30, minSamplesLeaf: 5 } },
      ],
      controls: ['blind'],
      methods: [{ label: 'exhaustive', method: 'exhaustive-counterfactual' }],
      budget: { maxTested: 1000, maxSeconds: 30 },
    });
    for (const r of records.filter((x) => x.dataset.null)) {
      // On the twin's own data the model is its own twin: nothing it does is caused by planted bias.
      expect(r.score!.truePairs, r.blockLabel).toBe(0);
      for (const c of r.chance) expect(c.score.truePairs, r.blockLabel).toBe(0);
    }
    const rows = skill(records).filter((r) => r.model.startsWith('blind') && r.measure === 'reach');
    expect(rows).toHaveLength(1);
    // The blind model never flips: planted and twin alarms tie in every seed.
    expect(rows[0]!.alarm!.auc).toBe(0.5);
    expect(rows[0]!.alarm!.pValue).toBe(1);
    expect(rows[0]!.value.mean).toBe(0);
  }, 600_000);
});
