import { type GroundTruth, generate } from '@fb/synth';
import { describe, expect, it } from 'vitest';
import { type GeneratorTruthLike, matchPairs, matchSubgroups, scoreRun, truthView } from '../src/index.js';
import { pair, resultOf } from './fixture.js';

// The full generator's truth satisfies the matcher's structural interface.
const check = (t: GroundTruth) => t satisfies GeneratorTruthLike;

describe('the full generator through the matcher', () => {
  const g = generate({
    seed: 3,
    attributes: 6,
    pairs: 4,
    minGroupSize: 40,
    maxGroupSize: 80,
    ensembleSize: 2,
  });
  const truth = truthView(check(g.truth), g.dataset);
  const d = g.dataset.d;

  it('takes every biased pair with its recorded factors', () => {
    const biased = g.truth.pairs.filter((p) => p.a.bias !== 0 || p.b.bias !== 0);
    expect(truth.pairs.map((p) => p.id)).toEqual(biased.map((p) => p.id));
    const [view, source] = [truth.pairs[0]!, biased[0]!];
    expect(view.factors).toMatchObject({
      similarity: source.similarity,
      granularity: source.granularity,
      intersectionality: source.intersectionality,
      biasMagnitude: Math.max(Math.abs(source.a.bias), Math.abs(source.b.bias)),
      size: Math.min(source.a.size, source.b.size),
      gap: source.realisedGap,
    });
    expect(view.factors.uncertainty).toBeGreaterThan(0);
  });

  it('judges each row against its recorded counterfactual: never structural, injected exactly when β differs', () => {
    const cf = g.truth.counterfactualOf(g.dataset.x);
    const pairs = [];
    for (let i = 0; i < g.dataset.n; i++) {
      pairs.push(
        pair(
          Array.from(g.dataset.x.subarray(i * d, (i + 1) * d)),
          Array.from(cf.subarray(i * d, (i + 1) * d)),
          i,
        ),
      );
    }
    const matches = matchPairs(pairs, g.dataset, truth);
    expect(matches.some((m) => m.verdict === 'structural')).toBe(false);
    const betaCf = (i: number) => {
      const p = g.truth.probabilityOf(cf.subarray(i * d, (i + 1) * d));
      const p0 = g.truth.probabilityOf(g.dataset.x.subarray(i * d, (i + 1) * d));
      return Math.abs(p[0]! - p0[0]!) > 1e-9;
    };
    let injected = 0;
    matches.forEach((m, i) => {
      expect(m.verdict === 'injected').toBe(betaCf(i));
      if (m.verdict === 'injected') injected++;
    });
    expect(injected).toBeGreaterThan(0);
  });

  it('a finding equal to an injected subgroup is an exact hit', () => {
    const target = g.truth.pairs.find((p) => p.a.bias !== 0)!;
    const [m] = matchSubgroups(
      [
        {
          rank: 1,
          conditions: target.a.conditions,
          size: 0,
          score: 1,
          effect: null,
          pValue: null,
          direction: 'lower',
          details: {},
        },
      ],
      g.dataset,
      truth,
    );
    expect(m).toMatchObject({ jaccard: 1, precision: 1, recall: 1, pair: target.id, hit: true });
  });

  it('a data set generated without bias has nothing to find', () => {
    const none = generate({
      seed: 3,
      attributes: 6,
      pairs: 4,
      minGroupSize: 40,
      maxGroupSize: 80,
      minBias: 0,
      maxBias: 0,
      ensembleSize: 0,
    });
    const view = truthView(none.truth, none.dataset);
    expect(view.pairs).toEqual([]);
    const s = scoreRun(resultOf({ kind: 'subgroup', subgroups: [] }), none.dataset, view);
    expect(s).toMatchObject({ biasedGroups: 0, recall: null, alarm: false });
  });
});
