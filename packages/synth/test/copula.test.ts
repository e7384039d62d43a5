import { existsSync } from 'node:fs';
import path from 'node:path';
import { createDataset, createRng, defineSchema } from '@fb/core';
import { loadAdult } from '@fb/datasets';
import { describe, expect, it } from 'vitest';
import { buildCopula, fitCopula, latentToValues, sampleCopula } from '../src/copula.js';
import { continuousFromQuantiles, type DiscreteMarginal, discreteMarginal } from '../src/marginal.js';
import { binAt, column, mutualInformation, normalScores, pearson } from './helpers.js';

const schema = defineSchema({
  attributes: [
    { name: 'sex', kind: 'categorical', protected: true, categories: ['f', 'm'] },
    { name: 'edu', kind: 'ordinal', protected: false, min: 0, max: 4, step: 1 },
    { name: 'job', kind: 'ordinal', protected: false, categories: ['a', 'b', 'c'] },
    { name: 'income', kind: 'continuous', protected: false, min: 0, max: 100 },
  ],
  outcome: { name: 'y', labels: ['0', '1'], favorable: 1 },
});
const target = [1, 0.5, -0.3, 0.4, 0.5, 1, 0.2, 0.6, -0.3, 0.2, 1, -0.2, 0.4, 0.6, -0.2, 1];
const marginals = [
  discreteMarginal(schema.attributes[0]!, Float64Array.from([0.4, 0.6])),
  discreteMarginal(schema.attributes[1]!, Float64Array.from([0.1, 0.3, 0.3, 0.2, 0.1])),
  discreteMarginal(schema.attributes[2]!, Float64Array.from([0.5, 0.3, 0.2])),
  continuousFromQuantiles([0, 5, 12, 30, 100]),
];

/** Max differences of normal-score correlation and pairwise MI between two samples. */
/**
 * Normal-score correlations are compared with nominal categories in the copula's latent order
 * (`recode`), since their codes carry no order; mutual information is order-free and is compared
 * over the pairs in `miPairs` (all pairs when absent).
 */
function dependenceGap(
  a: Float64Array,
  b: Float64Array,
  d: number,
  continuous: Set<number>,
  recode: (j: number, v: number) => number = (_, v) => v,
  miPair: (j: number, k: number) => boolean = () => true,
) {
  const cols = (x: Float64Array, ref: Float64Array) =>
    Array.from({ length: d }, (_, j) =>
      continuous.has(j) ? binAt(column(x, d, j), column(ref, d, j), 10) : column(x, d, j),
    );
  const ca = cols(a, a);
  const cb = cols(b, a);
  const scores = (x: Float64Array, j: number) => normalScores(column(x, d, j).map((v) => recode(j, v)));
  const sa = Array.from({ length: d }, (_, j) => scores(a, j));
  const sb = Array.from({ length: d }, (_, j) => scores(b, j));
  const corr: number[] = [];
  const mi: number[] = [];
  for (let j = 0; j < d; j++) {
    for (let k = 0; k < j; k++) {
      corr.push(Math.abs(pearson(sa[j]!, sa[k]!) - pearson(sb[j]!, sb[k]!)));
      if (miPair(j, k))
        mi.push(Math.abs(mutualInformation(ca[j]!, ca[k]!) - mutualInformation(cb[j]!, cb[k]!)));
    }
  }
  const mean = (v: number[]) => v.reduce((s, t) => s + t, 0) / v.length;
  return { corr: Math.max(...corr), mi: Math.max(...mi), meanCorr: mean(corr), meanMi: mean(mi) };
}

describe('Gaussian copula', () => {
  it('recovers a declared latent correlation from discrete and continuous samples', () => {
    const c = buildCopula(schema, marginals, Float64Array.from(target));
    const x = sampleCopula(c, 30_000, createRng(1));
    const fitted = fitCopula(createDataset({ schema, x, y: new Int32Array(30_000) }));
    for (const [k, v] of target.entries()) expect(Math.abs(fitted.correlation[k]! - v)).toBeLessThan(0.05);
  });

  it('maps latent rows to values, leaving the attributes it is told to skip as they are', () => {
    const copula = buildCopula(schema, marginals, Float64Array.from(target));
    const z = Float64Array.from({ length: 4 * 500 }, (_, k) => Math.sin(k * 1.7) * 2.5);
    const all = latentToValues(copula, z.slice());
    const skipped = latentToValues(copula, z.slice(), Uint8Array.from([0, 1, 0, 0]));
    for (let k = 0; k < z.length; k++) expect(skipped[k]).toBe(k % 4 === 1 ? z[k] : all[k]);
    // Cell by cell against the marginal's own bounds: edu (5 cells) takes the first value whose upper
    // latent bound exceeds z.
    const edu = copula.marginals[1] as DiscreteMarginal;
    for (let i = 0; i < 500; i++) {
      const v = z[i * 4 + 1]!;
      const c = edu.upper.findIndex((u) => v < u);
      expect(all[i * 4 + 1]).toBe(edu.values[edu.order[c === -1 ? edu.upper.length - 1 : c]!]);
    }
  });

  it('repairs a non-positive-definite target and keeps unit diagonal', () => {
    const bad = [1, 0.9, 0.9, 0.9, 0.9, 1, -0.9, 0, 0.9, -0.9, 1, 0, 0.9, 0, 0, 1];
    const c = buildCopula(schema, marginals, Float64Array.from(bad));
    expect(c.repaired).toBe(true);
    for (let j = 0; j < 4; j++) expect(c.correlation[j * 5]).toBeCloseTo(1, 12);
  });

  it('data sampled from a fitted copula reproduce the source dependence', () => {
    const source = sampleCopula(
      buildCopula(schema, marginals, Float64Array.from(target)),
      20_000,
      createRng(2),
    );
    const fitted = fitCopula(createDataset({ schema, x: source, y: new Int32Array(20_000) }));
    const synth = sampleCopula(fitted, 20_000, createRng(3));
    const gap = dependenceGap(source, synth, 4, new Set([3]));
    expect(gap.corr).toBeLessThan(0.03);
    expect(gap.mi).toBeLessThan(0.01);
    // Marginals: the continuous column's quartiles match.
    const q = (x: Float64Array, p: number) =>
      Float64Array.from(column(x, 4, 3)).sort()[Math.floor(p * 20_000)]!;
    for (const p of [0.25, 0.5, 0.75]) expect(Math.abs(q(source, p) - q(synth, p))).toBeLessThan(1.5);
  });
});

const dataDir = process.env.FB_DATA_DIR ?? path.resolve(import.meta.dirname, '../../../../shared/datasets');

describe.skipIf(!existsSync(path.join(dataDir, 'adult')))('Gaussian copula on Adult', () => {
  it('reproduces Adult normal-score correlations and pairwise mutual information', async () => {
    const adult = await loadAdult({ dataDir });
    const c = fitCopula(adult);
    const synth = sampleCopula(c, adult.n, createRng(4));
    const continuous = new Set(
      adult.schema.attributes.flatMap((a, j) => (a.kind === 'continuous' && a.step === undefined ? [j] : [])),
    );
    const nominal = (j: number) => (adult.schema.attributes[j]!.categories?.length ?? 0) > 2;
    const recode = (j: number, v: number) => (nominal(j) ? (c.marginals[j] as DiscreteMarginal).rank[v]! : v);
    // A Gaussian copula gives each nominal attribute one latent order, so the dependence between
    // nominal attributes is only partly representable; MI is held to tolerance on the other pairs.
    const gap = dependenceGap(
      adult.x,
      synth,
      adult.d,
      continuous,
      recode,
      (j, k) => !nominal(j) && !nominal(k),
    );
    expect(gap.corr).toBeLessThan(0.05);
    expect(gap.meanCorr).toBeLessThan(0.01);
    expect(gap.mi).toBeLessThan(0.1);
    expect(gap.meanMi).toBeLessThan(0.02);
  }, 60_000);
});
