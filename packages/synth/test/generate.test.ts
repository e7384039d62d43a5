import { conditionMatcher, createRng, OptionsError, parseCsv } from '@fb/core';
import { describe, expect, it } from 'vitest';
import { generate, type SynthResult, synthToCsv } from '../src/index.js';

const base = {
  seed: 7,
  pairs: 12,
  attributes: 9,
  protectedShare: 0.34,
  continuousShare: 0.2,
  minGroupSize: 40,
  maxGroupSize: 80,
  ensembleSize: 3,
  ensembleTrainingRows: 500,
};
const result = generate(base);
const { dataset, truth } = result;
const d = dataset.d;
const attrs = dataset.schema.attributes;

const sigmoidInv = (p: number) => Math.log(p / (1 - p));

describe('generate: pairs (phase 2)', () => {
  it('every pair differs on a protected attribute both subgroups constrain', () => {
    for (const p of truth.pairs) {
      const differs = p.a.conditions.some((ca) => {
        const cb = p.b.conditions.find((c) => c.attribute === ca.attribute);
        const prot = attrs.find((a) => a.name === ca.attribute)!.protected;
        return prot && cb && JSON.stringify(ca) !== JSON.stringify(cb);
      });
      expect(differs).toBe(true);
    }
  });

  it('honours similarity, granularity and intersectionality', () => {
    for (const p of truth.pairs) {
      const m = p.a.conditions.length;
      expect(p.b.conditions.map((c) => c.attribute)).toEqual(p.a.conditions.map((c) => c.attribute));
      const kept = p.a.conditions.filter(
        (c, t) => JSON.stringify(c) === JSON.stringify(p.b.conditions[t]),
      ).length;
      expect(kept).toBe(Math.min(Math.round(p.similarityTarget! * m), m - 1));
      expect(p.similarity).toBeCloseTo(kept / m, 12);
      const prot = p.a.conditions.filter((c) => attrs.find((a) => a.name === c.attribute)!.protected).length;
      expect(p.intersectionality).toBe(prot);
      expect(p.granularity).toBe(m - prot);
      expect(prot).toBeGreaterThanOrEqual(1);
      expect(prot).toBeLessThanOrEqual(3);
      expect(m - prot).toBeLessThanOrEqual(3);
    }
    const tight = generate({
      ...base,
      minSimilarity: 0.5,
      maxSimilarity: 0.5,
      minGranularity: 2,
      maxGranularity: 2,
      minIntersectionality: 2,
      maxIntersectionality: 2,
    });
    for (const p of tight.truth.pairs) {
      expect([p.granularity, p.intersectionality]).toEqual([2, 2]);
      expect(p.similarity).toBe(0.5);
    }
  });
});

describe('generate: rows (phase 3)', () => {
  it('each subgroup row meets its conditions, sizes match, background rows fall in no subgroup', () => {
    for (const s of truth.subgroups) {
      const meets = conditionMatcher(dataset.schema, s.conditions);
      let count = 0;
      for (let i = 0; i < dataset.n; i++) {
        if (truth.subgroupOf[i] !== s.id) continue;
        count++;
        expect(meets(dataset.x, i * d)).toBe(true);
      }
      expect(count).toBe(s.size);
    }
    const first = truth.subgroupsOf(dataset.x);
    let background = 0;
    for (let i = 0; i < dataset.n; i++) {
      if (truth.subgroupOf[i] === -1) {
        background++;
        expect(first[i]).toBe(-1);
      } else expect(first[i]).toBeGreaterThanOrEqual(0);
    }
    const share = background / dataset.n;
    expect(Math.abs(share - 0.2)).toBeLessThan(0.01);
  });

  it('draws fresh rows: no row is repeated (a continuous attribute makes copies detectable)', () => {
    const keys = new Set<string>();
    for (let i = 0; i < dataset.n; i++)
      keys.add(Array.from(dataset.x.subarray(i * d, (i + 1) * d)).join('|'));
    expect(keys.size).toBe(dataset.n);
  });

  it('same seed gives identical data and truth; another seed differs', () => {
    const again = generate(base);
    expect(Buffer.from(again.dataset.x.buffer).equals(Buffer.from(dataset.x.buffer))).toBe(true);
    expect(Array.from(again.dataset.y)).toEqual(Array.from(dataset.y));
    expect(Array.from(again.truth.epistemicSigma)).toEqual(Array.from(truth.epistemicSigma));
    expect(Array.from(again.truth.counterfactualLabel)).toEqual(Array.from(truth.counterfactualLabel));
    const other = generate({ ...base, seed: 8 });
    expect(Array.from(other.dataset.x.slice(0, 50))).not.toEqual(Array.from(dataset.x.slice(0, 50)));
  });
});

/** Every joint assignment of the protected attributes of row `row`. */
function variants(r: SynthResult, row: Float64Array): Float64Array {
  const prot = r.dataset.schema.attributes.flatMap((a, j) => (a.protected ? [j] : []));
  const sizes = prot.map((j) => r.dataset.schema.attributes[j]!.categories!.length);
  const total = sizes.reduce((s, k) => s * k, 1);
  const out = new Float64Array(total * d);
  for (let c = 0; c < total; c++) {
    out.set(row, c * d);
    let rest = c;
    for (let p = prot.length - 1; p >= 0; p--) {
      out[c * d + prot[p]!] = rest % sizes[p]!;
      rest = Math.floor(rest / sizes[p]!);
    }
  }
  return out;
}

describe('generate: outcomes and truth (phase 4)', () => {
  it('per-row probability = σ(logit of probabilityOf + recorded noise)', () => {
    const p0 = truth.probabilityOf(dataset.x);
    for (let i = 0; i < dataset.n; i += 7) {
      expect(sigmoidInv(truth.probability[i]!)).toBeCloseTo(sigmoidInv(p0[i]!) + truth.aleatoricNoise[i]!, 8);
    }
  });

  it('isBiasedInput agrees with brute force over all protected variants of new inputs', () => {
    const rng = createRng('probe');
    let biased = 0;
    for (let t = 0; t < 300; t++) {
      const i = rng.int(0, dataset.n - 1);
      const row = dataset.x.slice(i * d, (i + 1) * d);
      const p = truth.probabilityOf(variants(result, row));
      const dec = truth.probabilityOf(row)[0]! >= 0.5;
      const brute = Array.from(p).some((v) => v >= 0.5 !== dec);
      expect(truth.isBiasedInput(row)[0] === 1).toBe(brute);
      biased += brute ? 1 : 0;
      const cf = truth.counterfactualOf(row);
      attrs.forEach((a, j) => {
        if (!a.protected) expect(cf[j]).toBe(row[j]);
      });
      expect(Array.from(cf)).not.toEqual(Array.from(row));
      if (brute) expect(truth.probabilityOf(cf)[0]! >= 0.5).not.toBe(dec);
    }
    expect(biased).toBeGreaterThan(0);
  });

  it('without bias nothing is biased and counterfactuals equal the facts', () => {
    const r = generate({ ...base, minBias: 0, maxBias: 0 });
    expect(r.truth.isBiasedInput(r.dataset.x).some((v) => v === 1)).toBe(false);
    expect(Array.from(r.truth.counterfactualProbability)).toEqual(Array.from(r.truth.probability));
  });

  it('injected bias shows in the realised gap of large pairs', () => {
    const r = generate({
      ...base,
      pairs: 4,
      minGroupSize: 3000,
      maxGroupSize: 3000,
      minBias: 2,
      maxBias: 2,
      biasSign: 'negative',
      maxImbalance: 0,
    });
    for (const p of r.truth.pairs) {
      expect(p.biasGap).toBe(-2);
      expect(p.realisedGap).toBeLessThan(0);
      expect(Math.abs(p.realisedGap - p.expectedGap)).toBeLessThan(0.05);
    }
  });

  it('labels are binary; thresholded labels follow p', () => {
    const r = generate({ ...base, labels: 'threshold' });
    for (let i = 0; i < r.dataset.n; i++) expect(r.dataset.y[i]).toBe(r.truth.probability[i]! >= 0.5 ? 1 : 0);
    expect(new Set(dataset.y).size).toBe(2);
  });

  it('records an out-of-sample epistemic sigma that shrinks with more training rows', () => {
    const mean = (a: Float64Array) => a.reduce((s, v) => s + v, 0) / a.length;
    const small = generate({ ...base, ensembleSize: 8, ensembleTrainingRows: 200 });
    const large = generate({ ...base, ensembleSize: 8, ensembleTrainingRows: 5000 });
    expect(mean(small.truth.epistemicSigma)).toBeGreaterThan(mean(large.truth.epistemicSigma));
  });
});

describe('generate: descriptive mode and export', () => {
  it('fits to a dataset and exports the seed keys as CSV', () => {
    const src = generate({ ...base, seed: 3, pairs: 5 }).dataset;
    const r = generate({
      seed: 1,
      source: src,
      pairs: 5,
      minGroupSize: 20,
      maxGroupSize: 30,
      ensembleSize: 0,
    });
    expect(r.copula.mode).toBe('descriptive');
    expect(r.dataset.schema.attributes).toEqual(src.schema.attributes);
    const { header, rows } = parseCsv(synthToCsv(r));
    const col = (n: string) => header.indexOf(n);
    for (const row of rows.slice(0, 50)) {
      const values = row.slice(0, r.dataset.d);
      expect(row[col('indv_key')]).toBe(values.join('|'));
      const g = Number(row[col('subgroup_id')]);
      if (g < 0) expect(row[col('subgroup_key')]).toBe('');
      else {
        const s = r.truth.subgroups.find((x) => x.id === g)!;
        expect(row[col('subgroup_key')]).toBe(s.key);
        const p = r.truth.pairs[s.pair]!;
        expect(row[col('group_key')]).toBe(`${p.a.key}-${p.b.key}`);
        // Each key cell is `*` or the constrained value of that attribute.
        row[col('subgroup_key')]!.split('|').forEach((cell, j) => {
          if (cell !== '*' && !cell.startsWith('[')) expect(cell).toBe(values[j]);
        });
      }
    }
  });
});

describe('generate: bad options', () => {
  const code = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(OptionsError);
      return (e as OptionsError).details.option;
    }
    throw new Error('no error');
  };
  it('names the option at fault', () => {
    expect(code(() => generate({ maxSimilarity: 1.5 }))).toBe('/maxSimilarity');
    expect(code(() => generate({ minSimilarity: 0.8, maxSimilarity: 0.2 }))).toBe('/minSimilarity');
    expect(
      code(() =>
        generate({ attributes: 5, protectedShare: 0.2, minIntersectionality: 3, maxIntersectionality: 3 }),
      ),
    ).toBe('/minIntersectionality');
    expect(code(() => generate({ attributes: 3, minGranularity: 3, maxGranularity: 3 }))).toBe(
      '/minGranularity',
    );
    expect(
      code(() =>
        generate({
          attributes: 2,
          correlation: [
            [1, 0.5],
            [0.4, 1],
          ],
        }),
      ),
    ).toBe('/correlation');
    expect(
      code(() =>
        generate({
          attributes: 2,
          correlation: [
            [1, 2],
            [2, 1],
          ],
        }),
      ),
    ).toBe('/correlation');
    expect(code(() => generate({ attributes: 2, marginals: [{ probabilities: [1] }, null] }))).toBe(
      '/marginals/0',
    );
    expect(code(() => generate({ colour: 1 } as never))).toBe('/colour');
    expect(code(() => generate({ weights: 'fit' }))).toBe('/weights');
  });
  it('checks predefined pairs: domain and the protected-difference rule', () => {
    const schema = result.dataset.schema;
    const p = schema.attributes.find((a) => a.protected)!.name;
    const x = schema.attributes.find((a) => !a.protected && a.categories)!.name;
    const opts = { schema, pairs: 0 };
    expect(
      code(() =>
        generate({
          ...opts,
          predefinedPairs: [{ a: [{ attribute: p, values: [99] }], b: [{ attribute: p, values: [0] }] }],
        }),
      ),
    ).toBe('/predefinedPairs/0/a/0');
    expect(
      code(() =>
        generate({
          ...opts,
          predefinedPairs: [
            {
              a: [
                { attribute: p, values: [0] },
                { attribute: x, values: [0] },
              ],
              b: [
                { attribute: p, values: [0] },
                { attribute: x, values: [1] },
              ],
            },
          ],
        }),
      ),
    ).toBe('/predefinedPairs/0');
    const ok = generate({
      ...opts,
      predefinedPairs: [
        {
          a: [
            { attribute: p, values: [0] },
            { attribute: x, values: [1] },
          ],
          b: [
            { attribute: p, values: [1] },
            { attribute: x, values: [1] },
          ],
          bias: -1,
        },
      ],
    });
    expect(ok.truth.pairs[0]!.a.bias).toBe(-1);
    expect(ok.truth.pairs[0]!.similarity).toBe(0.5);
  });
});
