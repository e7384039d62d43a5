import { createDataset, type Dataset, type DiscoveryResult, defineSchema } from '@fb/core';
import type { InjectedPair, TruthView } from '../src/index.js';

/** P protected (3 values), X1 (4 values), X2 (3 values). */
export const schema = defineSchema({
  attributes: [
    { name: 'P', kind: 'categorical', protected: true, categories: ['p0', 'p1', 'p2'] },
    { name: 'X1', kind: 'categorical', protected: false, categories: ['a', 'b', 'c', 'd'] },
    { name: 'X2', kind: 'ordinal', protected: false, min: 0, max: 2, step: 1 },
  ],
  outcome: { name: 'y', labels: ['no', 'yes'], favorable: 1 },
});

/** Every combination of P x X1 once with X2 = 1: 12 rows, row i = (P = floor(i/4), X1 = i % 4). */
export const dataset: Dataset = createDataset({
  schema,
  x: Float64Array.from({ length: 36 }, (_, k) => {
    const i = Math.floor(k / 3);
    return [Math.floor(i / 4), i % 4, 1][k % 3]!;
  }),
  y: Int32Array.from({ length: 12 }, (_, i) => i % 2),
});

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/**
 * Injected pair 0: A = {P = 0, X1 = 1} with bias −2 against B = {P = 1, X1 = 1}.
 * Injected pair 1: C = {P = 2, X1 = 3} with bias −1 against D = {P = 0, X1 = 3}.
 * Base logit 0.3·X2, plus `direct` for P = 2 (a structural, non-injected protected effect).
 */
export function handTruth(opts: { direct?: number; biased?: boolean } = {}): TruthView {
  const direct = opts.direct ?? 0;
  const biased = opts.biased ?? true;
  const pairs: InjectedPair[] = biased
    ? [
        {
          id: 0,
          subgroups: [
            {
              conditions: [
                { attribute: 'P', values: [0] },
                { attribute: 'X1', values: [1] },
              ],
              bias: -2,
            },
            {
              conditions: [
                { attribute: 'P', values: [1] },
                { attribute: 'X1', values: [1] },
              ],
              bias: 0,
            },
          ],
          factors: {
            similarity: 0.5,
            granularity: 1,
            intersectionality: 1,
            biasMagnitude: 2,
            size: 1,
            uncertainty: null,
            gap: null,
          },
        },
        {
          id: 1,
          subgroups: [
            {
              conditions: [
                { attribute: 'P', values: [2] },
                { attribute: 'X1', values: [3] },
              ],
              bias: -1,
            },
            {
              conditions: [
                { attribute: 'P', values: [0] },
                { attribute: 'X1', values: [3] },
              ],
              bias: 0,
            },
          ],
          factors: {
            similarity: 0.5,
            granularity: 1,
            intersectionality: 1,
            biasMagnitude: 1,
            size: 1,
            uncertainty: null,
            gap: null,
          },
        },
      ]
    : [];
  return {
    pairs,
    probabilityOf(x) {
      const n = x.length / 3;
      const out = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const [p, x1, x2] = [x[3 * i]!, x[3 * i + 1]!, x[3 * i + 2]!];
        let z = 0.3 * x2 + (p === 2 ? direct : 0);
        if (biased && p === 0 && x1 === 1) z -= 2;
        if (biased && p === 2 && x1 === 3) z -= 1;
        out[i] = sigmoid(z);
      }
      return out;
    },
  };
}

export function pair(sample: number[], counterfactual: number[], caseId = 0) {
  return { caseId, sample, counterfactual, sampleOutcome: 0, counterfactualOutcome: 1, changed: ['P'] };
}

/** A result shell with just the parts the scorer reads. */
export function resultOf(
  findings: DiscoveryResult['findings'],
  run: { wallSeconds?: number; sur?: number; distinctQueries?: number } = {},
): DiscoveryResult {
  return {
    findings,
    run: { wallSeconds: run.wallSeconds ?? 2, stopReason: 'completed', aborted: false, startedAt: '' },
    metrics: {
      tsn: 10,
      dsn: 1,
      sur: run.sur ?? 0.1,
      dss: null,
      pairs: 0,
      queries: 0,
      distinctQueries: run.distinctQueries ?? 100,
    },
  } as DiscoveryResult;
}
