/**
 * The study's validation suite: on small data, the design produces the opposite result when the bias
 * is not there, and finds it when it is. Each check runs real cells (generator, split, model, method,
 * scorer) through `runCell`.
 */
import { existsSync } from 'node:fs';
import { signTest, wilsonInterval } from '@fb/eval';
import { describe, expect, it } from 'vitest';
import { expandCells } from '../src/plan/cells.js';
import { validateStudy } from '../src/plan/config.js';
import type { CellRecord } from '../src/run/record.js';
import { runCell } from '../src/run/run-cell.js';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function run(study: Record<string, unknown>): Promise<CellRecord[]> {
  const cells = await expandCells(validateStudy({ name: 'validation', workers: 1, ...study }));
  const out: CellRecord[] = [];
  for (const c of cells) out.push(await runCell(c));
  return out;
}

const individualMethods = [
  { label: 'AEQUITAS', method: 'aequitas', options: { globalIterations: 100, localIterations: 100 } },
  { label: 'KOSEI', method: 'kosei' },
  { label: 'SG', method: 'sg' },
  { label: 'ExpGA', method: 'expga' },
  { label: 'ADF', method: 'adf' },
  { label: 'LIMI', method: 'limi', options: { generator: 'pca' } },
  { label: 'FlipTest', method: 'fliptest' },
  { label: 'exhaustive', method: 'exhaustive-counterfactual' },
];

// Small data: 10 attributes, three planted pairs, about 2,000 rows (1,000 audited).
const small = {
  generator: 'generate',
  base: {
    attributes: 10,
    pairs: 3,
    minGroupSize: 150,
    maxGroupSize: 300,
    backgroundShare: 0.6,
    ensembleSize: 0,
  },
};

describe('validation: nulls', () => {
  it('with a protected-blind model on data without bias, no individual method raises an alarm', async () => {
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const records = await run({
      seeds,
      synthetic: { ...small, factors: {}, base: { ...small.base, minBias: 0, maxBias: 0 } },
      questions: ['model'],
      models: [{ kind: 'logistic-regression' }],
      controls: ['blind'],
      methods: individualMethods,
      budget: { maxTested: 100, maxSeconds: 0.3 },
    });
    const blind = records.filter((r) => r.model.startsWith('blind'));
    expect(blind.length).toBeGreaterThanOrEqual(seeds.length * (individualMethods.length - 1));
    // FlipTest's DSN counts flipping pairs (x, G(x)) between two different people, which a blind
    // model decides differently whenever the groups differ in the other features: its flip rate is
    // not zero under this null (0.27-0.41 here), so its alarm is only the null-calibrated one (its
    // score against the no-bias twin). The check below is for the counterfactual-check methods.
    for (const label of new Set(blind.map((r) => r.plan.label).filter((l) => l !== 'FlipTest'))) {
      const rs = blind.filter((r) => r.plan.label === label && r.status === 'done');
      // The alarm score is SUR; any threshold calibrated on these nulls is >= 0, so the calibrated
      // alarm rate is the share of runs with SUR > 0: zero, and its interval covers 0.05.
      const alarms = rs.filter((r) => r.metrics!.sur > 0).length;
      expect(alarms, label).toBe(0);
      expect(wilsonInterval(alarms, rs.length).lo).toBeLessThanOrEqual(0.05);
    }
  }, 300_000);
});

describe('validation: what a bias-free model scores', () => {
  it('against strong-bias truth, a model trained without bias has individual coverage at chance, below the biased model in most seeds', async () => {
    // Fifteen seeds (seeds 11-20 include one in which these small settings cannot place three pairs).
    // On three seeds the biased model's coverage was 3x chance or more; over these fifteen it was
    // 3.2-3.3x on average on the generator's polar draws, but 1.8x on seeds 4-6 and below chance on seed
    // 5 (4.3-4.9x, and above chance on all fifteen, on its ziggurat draws), so the claim tested is the
    // seed-level one: above its own twin's chance in more seeds than not (14 of 15 for both methods on the
    // polar draws, 15 of 15 on the ziggurat's).
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 21, 22, 23, 24, 25];
    const records = await run({
      seeds,
      synthetic: {
        ...small,
        factors: { bias: [{ minBias: 2, maxBias: 3 }] },
        unbiased: { minBias: 0, maxBias: 0 },
      },
      questions: ['model'],
      models: [{ label: 'forest', kind: 'random-forest', options: { nEstimators: 30, minSamplesLeaf: 5 } }],
      methods: [
        { label: 'exhaustive', method: 'exhaustive-counterfactual' },
        { label: 'FlipTest', method: 'fliptest' },
      ],
      budget: { maxTested: 3000, maxSeconds: 5 },
    });
    for (const label of ['exhaustive', 'FlipTest']) {
      const biased = records.filter((r) => r.plan.label === label && !r.dataset.null);
      const nulls = records.filter((r) => r.plan.label === label && r.dataset.null);
      expect(biased, label).toHaveLength(seeds.length);
      // Chance: the same method on the forest trained on the no-bias twin (same rows), scored
      // against the strong-bias scenario's planted subgroups, paired by seed.
      let above = 0;
      let below = 0;
      for (const b of biased) {
        const twin = nulls.find((r) => r.seed === b.seed)!;
        const gap = b.score!.recall! - twin.chance[0]!.score.recall!;
        if (gap > 0) above++;
        else if (gap < 0) below++;
      }
      expect(above, label).toBeGreaterThan(below);
      expect(signTest(above, below), label).toBeLessThan(0.01);
      const chance = mean(nulls.map((r) => r.chance[0]!.score.recall!));
      const planted = mean(biased.map((r) => r.score!.recall!));
      expect(planted, label).toBeGreaterThan(2 * chance);
      expect(planted - chance, label).toBeGreaterThan(0.1);
    }
  }, 300_000);
});

describe('validation: a planted model-output shift is recovered', () => {
  // sigma(eta) plus a log-odds shift of -2 on one planted subgroup of about 10% of 5,000 rows
  // (the CBS paper's separation design); labels drawn without bias.
  const oneGroup = (bias: number) => ({
    generator: 'generate',
    base: {
      attributes: 8,
      pairs: 1,
      minGroupSize: 1000,
      maxGroupSize: 1000,
      minImbalance: 0,
      maxImbalance: 0,
      backgroundShare: 0.8,
      minIntersectionality: 1,
      maxIntersectionality: 1,
      minGranularity: 1,
      maxGranularity: 1,
      biasSign: 'negative',
      ensembleSize: 0,
    },
    factors: { bias: [{ minBias: bias, maxBias: bias }] },
  });

  it('BiasScan and CBS find it with Jaccard >= 0.5 in at least 80% of seeds', async () => {
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const records = await run({
      seeds,
      synthetic: oneGroup(2),
      questions: ['model-output'],
      models: [{ kind: 'logistic-regression' }],
      methods: [
        { label: 'BiasScan', method: 'mdss-bias-scan', options: { randomizationReplicates: 0 } },
        { label: 'CBS', method: 'cbs', options: { permutations: 0 } },
      ],
      budget: { maxSeconds: 30 },
    });
    for (const label of ['BiasScan', 'CBS']) {
      const rs = records.filter((r) => r.plan.label === label);
      expect(rs, label).toHaveLength(seeds.length);
      const hits = rs.filter((r) => r.score!.groups[0]!.overlap!.jaccard >= 0.5).length;
      expect(hits / seeds.length, label).toBeGreaterThanOrEqual(0.8);
    }
  }, 300_000);

  it('localisation rises with the planted bias, in the model output and in the labels', async () => {
    const levels = [0.5, 1, 2];
    const byLevel = new Map<number, { separation: number; sufficiency: number }>();
    for (const bias of levels) {
      const records = await run({
        seeds: [1, 2, 3, 4, 5],
        synthetic: oneGroup(bias),
        questions: ['model-output', 'data'],
        models: [{ kind: 'logistic-regression' }],
        methods: [{ label: 'BiasScan', method: 'mdss-bias-scan', options: { randomizationReplicates: 0 } }],
        budget: { maxSeconds: 30 },
      });
      const jaccard = (rs: CellRecord[]) => mean(rs.map((r) => r.score!.groups[0]!.overlap!.jaccard));
      byLevel.set(bias, {
        separation: jaccard(records.filter((r) => r.question === 'model-output')),
        sufficiency: jaccard(records.filter((r) => r.question === 'data' && r.model === 'σ(η)')),
      });
    }
    for (const variant of ['separation', 'sufficiency'] as const) {
      const curve = levels.map((b) => byLevel.get(b)![variant]);
      expect(curve[2]!, variant).toBeGreaterThan(curve[0]!);
      expect(curve[2]!, variant).toBeGreaterThanOrEqual(curve[1]! - 0.05);
    }
  }, 300_000);
});

// The real data sets' files (FB_DATA_DIR, else the shared copy next to the repository).
const dataDir =
  process.env['FB_DATA_DIR'] ?? (existsSync('../../../shared/datasets') ? '../../../shared/datasets' : '');

describe('validation: semi-synthetic data', () => {
  it.skipIf(!dataDir)(
    'the copula fitted to COMPAS with planted bias runs through a cell and is scored',
    async () => {
      const records = await run({
        seeds: [1],
        synthetic: {
          generator: 'generate',
          base: {
            pairs: 2,
            minGroupSize: 400,
            maxGroupSize: 500,
            backgroundShare: 0.6,
            disjointSubgroups: true,
            ensembleSize: 0,
          },
          factors: { data: [{ source: 'compas', minBias: 2, maxBias: 2 }] },
        },
        questions: ['model-output'],
        models: [{ kind: 'logistic-regression' }],
        methods: [{ label: 'BiasScan', method: 'mdss-bias-scan', options: { randomizationReplicates: 0 } }],
        budget: { maxSeconds: 30 },
      });
      expect(records).toHaveLength(1);
      expect(records[0]!.status).toBe('done');
      expect(records[0]!.score!.groups).toHaveLength(2);
    },
    120_000,
  );
});

describe('validation: real data', () => {
  it.skipIf(!dataDir)(
    'audits the trained models and the protected-blind control, which finds nothing; σ(η) has no real-data twin',
    async () => {
      const records = await run({
        seeds: [1],
        synthetic: null,
        real: ['german'],
        questions: ['model'],
        models: [{ kind: 'logistic-regression' }],
        controls: ['oracle', 'blind'],
        methods: [{ label: 'exhaustive', method: 'exhaustive-counterfactual' }],
        budget: { maxTested: 200 },
      });
      expect(records.map((r) => [r.model, r.status])).toEqual([
        ['logistic-regression', 'done'],
        ['blind logistic regression (control)', 'done'],
      ]);
      // The blind model never sees the protected attributes: no input changes its decision with them.
      const [trained, blind] = records;
      expect(blind!.metrics!.tsn).toBe(200);
      expect(blind!.metrics!.dsn).toBe(0);
      expect(trained!.metrics!.tsn).toBe(200);
    },
    120_000,
  );
});
