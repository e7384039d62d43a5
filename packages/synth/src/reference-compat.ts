import {
  type Attribute,
  checkRows,
  createDataset,
  createRng,
  defineSchema,
  type Rng,
  rowCount,
  type Schema,
} from '@fb/core';
import { BiasIndex } from './bias-index.js';
import { buildCopula } from './copula.js';
import type { GroundTruth, PairTruth, SubgroupTruth, SynthResult } from './generate.js';
import { subgroupKey } from './keys.js';
import { discreteMarginal } from './marginal.js';
import { sigmoid } from './normal.js';
import type { SynthOptions } from './options.js';
import type { OutcomeModel } from './outcome-model.js';
import { type Constraint, pairSimilarity, type SubgroupDef } from './subgroups.js';

/** Python defaults applied to options the caller did not set. */
const PY = {
  pairs: 100,
  attributes: 20,
  protectedShare: 0.2,
  minGroupSize: 10,
  maxGroupSize: 100,
  minImbalance: 0,
  maxImbalance: 0.5,
};

/** Gamma(α) by Marsaglia-Tsang (boosted for α < 1). */
function gamma(rng: Rng, alpha: number): number {
  if (alpha < 1) return gamma(rng, alpha + 1) * rng.next() ** (1 / alpha);
  const d = alpha - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const z = rng.normal();
    const v = (1 + c * z) ** 3;
    if (v <= 0) continue;
    const u = rng.next();
    if (Math.log(u) < 0.5 * z * z + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** The Python class-range estimate, with its swapped use: classes range over [a, int(1.5 c)]. */
function classRange(groups: number): [number, number] {
  let a = 2;
  let c = 2;
  const space = (na: number, nc: number) => {
    let s = 0;
    let binom = 1;
    for (let i = 1; i <= na; i++) {
      binom = (binom * (na - i + 1)) / i;
      s += binom * (nc - 1) ** i;
    }
    return s;
  };
  for (let it = 0; it < 1000 && space(a, c) < groups; it++) {
    if (it % 2 === 0) a++;
    else c++;
  }
  return [a, Math.max(a, Math.floor(1.5 * c))];
}

/**
 * The Python version's 'optimal subgroups' generator, reproduced with its semantics and quirks so
 * its studies can be rerun: independent categorical marginals (its copula carried no dependence),
 * the smallest n subgroups with C(n, 2) >= pairs, 1-3 protected and 0-3 non-protected constraints
 * with uniform values, bias U(-0.5, 0.5) and σ_e, σ_a U(0.05, 0.3) per subgroup, the top pairs by
 * |sim - 0.5| + min(|Δb|, 1) (pairs need not differ on a protected attribute), rows memoised per
 * subgroup and reused across groups, y_pred = σ(X_std·w + N(0, σ_e)) with per-subgroup
 * standardisation and w = the last row of U(0, 1)^{3 x d}, y_true = clip(y_pred + b + N(0, σ_a), 0, 1)
 * and the shared-bin discretisation into K + 1 classes. Draws come from the seeded generator.
 */
export function generateReferenceCompat(o: SynthOptions, given: Partial<SynthOptions>): SynthResult {
  const set = <K extends keyof typeof PY>(k: K): number =>
    given[k] !== undefined ? (o[k] as number) : PY[k];
  const nbGroups = set('pairs');
  const m = set('attributes');
  const share = set('protectedShare');
  const [minGs, maxGs] = [set('minGroupSize'), set('maxGroupSize')];
  const [minDiff, maxDiff] = [set('minImbalance'), set('maxImbalance')];
  const rng = createRng(o.seed);
  const srng = rng.fork('compat-schema');
  const [minC, maxC] =
    given.minArity !== undefined || given.maxArity !== undefined
      ? [o.minArity, o.maxArity]
      : classRange(nbGroups);

  // Schema: [T, F] plus each other attribute protected with probability `share`, shuffled.
  const flags = [true, false, ...Array.from({ length: m - 2 }, () => srng.bernoulli(share))];
  srng.shuffle(flags);
  let t = 0;
  let xc = 0;
  const attributes: Attribute[] = flags.map((p) => {
    const k = srng.int(minC, maxC);
    return {
      name: p ? `Attr${++t}_T` : `Attr${++xc}_X`,
      kind: 'categorical',
      protected: p,
      categories: Array.from({ length: k }, (_, v) => String(v)),
    };
  });
  const probs = attributes.map((a) => {
    const k = a.categories!.length;
    const g = Float64Array.from({ length: k }, () => gamma(srng, 0.5));
    const sum = g.reduce((s, v) => s + v, 0);
    const dominant = srng.int(0, k - 1);
    return Float64Array.from(g, (v, i) => 0.5 * (v / sum) + (i === dominant ? 0.5 : 0));
  });

  // Subgroups.
  const P = flags.filter(Boolean).length;
  const N = m - P;
  const nSub = Math.ceil((1 + Math.sqrt(1 + 8 * nbGroups)) / 2);
  const grng = rng.fork('compat-subgroups');
  const defs: { constraints: Constraint[]; bias: number; se: number; sa: number }[] = [];
  const seen = new Set<string>();
  const protIdx = flags.map((f, i) => (f ? i : -1)).filter((i) => i >= 0);
  const otherIdx = flags.map((f, i) => (f ? -1 : i)).filter((i) => i >= 0);
  for (let attempt = 0; attempt < 20 * nSub && defs.length < nSub; attempt++) {
    const np = grng.int(1, Math.min(P, 3));
    const nx = grng.int(0, Math.min(N, 3));
    const chosen = [...grng.sample(protIdx, np), ...grng.sample(otherIdx, nx)].sort((a, b) => a - b);
    const constraints = chosen.map((j): Constraint => {
      const v = grng.int(0, attributes[j]!.categories!.length - 1);
      return { attr: j, discrete: true, kLo: v, kHi: v, lo: v, hi: v, maxInclusive: true };
    });
    const sig = constraints.map((c) => `${c.attr}=${c.lo}`).join(',');
    grng.int(Math.floor(minGs / 2), Math.max(Math.floor(minGs / 2), Math.floor(maxGs / 2) - 1));
    if (seen.has(sig)) continue;
    seen.add(sig);
    defs.push({
      constraints,
      bias: grng.uniform(-0.5, 0.5),
      se: grng.uniform(0.05, 0.3),
      sa: grng.uniform(0.05, 0.3),
    });
  }
  const candidates: { i: number; j: number; score: number; sim: number }[] = [];
  for (let i = 0; i < defs.length; i++) {
    for (let j = i + 1; j < defs.length; j++) {
      const sim = pairSimilarity(defs[i]!.constraints, defs[j]!.constraints);
      candidates.push({
        i,
        j,
        sim,
        score: Math.abs(sim - 0.5) + Math.min(Math.abs(defs[i]!.bias - defs[j]!.bias), 1),
      });
    }
  }
  const chosenPairs =
    candidates.length > nbGroups
      ? [...candidates].sort((a, b) => b.score - a.score).slice(0, nbGroups)
      : candidates;

  // Rows: memoised per subgroup (the first group fixes them), independent marginals, constraints forced.
  const d = m;
  const wrng = rng.fork('compat-w');
  const wAll = Float64Array.from({ length: 3 * d }, () => wrng.next());
  const w = wAll.subarray(2 * d);
  const cache = new Map<
    number,
    { x: Float64Array; yTrue: Float64Array; mean: Float64Array; sd: Float64Array }
  >();
  const rrng = rng.fork('compat-rows');
  const rowsOf = (s: number, size: number) => {
    let c = cache.get(s);
    if (!c) {
      const def = defs[s]!;
      const x = new Float64Array(size * d);
      for (let i = 0; i < size; i++) for (let j = 0; j < d; j++) x[i * d + j] = rrng.weightedIndex(probs[j]!);
      for (let i = 0; i < size; i++) for (const ct of def.constraints) x[i * d + ct.attr] = ct.lo;
      const mean = new Float64Array(d);
      const sd = new Float64Array(d);
      for (let j = 0; j < d; j++) {
        let s1 = 0;
        let s2 = 0;
        for (let i = 0; i < size; i++) {
          s1 += x[i * d + j]!;
          s2 += x[i * d + j]! ** 2;
        }
        mean[j] = s1 / size;
        sd[j] = Math.sqrt(Math.max(s2 / size - mean[j]! ** 2, 0));
      }
      const yTrue = new Float64Array(size);
      for (let i = 0; i < size; i++) {
        let z = 0;
        for (let j = 0; j < d; j++) z += ((x[i * d + j]! - mean[j]!) / (sd[j]! + 1e-8)) * w[j]!;
        const yPred = sigmoid(z + rrng.normal(0, def.se));
        yTrue[i] = Math.min(Math.max(yPred + def.bias + rrng.normal(0, def.sa), 0), 1);
      }
      c = { x, yTrue, mean, sd };
      cache.set(s, c);
    }
    return { x: c.x, yTrue: c.yTrue, n: Math.min(size, c.yTrue.length) };
  };
  const drng = rng.fork('compat-sizes');
  const blocks: { x: Float64Array; y: Float64Array; n: number; sub: number; pair: number }[] = [];
  chosenPairs.forEach((p, pi) => {
    const total = drng.int(minGs, maxGs);
    const diff = drng.uniform(minDiff, maxDiff);
    const s1 = Math.max(1, Math.floor((total + Math.floor(total * diff)) / 2));
    const s2 = Math.max(1, total - s1);
    for (const [s, size] of [
      [p.i, s1],
      [p.j, s2],
    ] as const) {
      const r = rowsOf(s, size);
      blocks.push({ x: r.x, y: r.yTrue, n: r.n, sub: s, pair: pi });
    }
  });
  const n = blocks.reduce((s, b) => s + b.n, 0);
  const x = new Float64Array(n * d);
  const yTrue = new Float64Array(n);
  const subOf = new Int32Array(n);
  const pairOf = new Int32Array(n);
  let at = 0;
  for (const b of blocks) {
    x.set(b.x.subarray(0, b.n * d), at * d);
    yTrue.set(b.y.subarray(0, b.n), at);
    subOf.fill(b.sub, at, at + b.n);
    pairOf.fill(b.pair, at, at + b.n);
    at += b.n;
  }
  // Shared-bin discretisation: right-open bins over [min, max] put the maximum in class K.
  const K = o.compatOutcomeCategories;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of yTrue) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  const y = Int32Array.from(yTrue, (v) =>
    hi > lo ? Math.min(Math.floor(((v - lo) / (hi - lo)) * K), K) : 0,
  );
  const schema: Schema = defineSchema({
    attributes,
    outcome: { name: 'outcome', labels: Array.from({ length: K + 1 }, (_, k) => String(k)), favorable: K },
  });
  const dataset = createDataset({ schema, x, y, name: `synth-reference-compat(seed=${o.seed})` });

  // Truth: the subgroups of the chosen pairs; the Python bias is additive in probability.
  const copula = buildCopula(
    schema,
    attributes.map((a, j) => discreteMarginal(a, probs[j]!)),
    Float64Array.from({ length: d * d }, (_, k) => (k % (d + 1) === 0 ? 1 : 0)),
  );
  const subDefs: SubgroupDef[] = defs.map((s, id) => ({
    id,
    pair: -1,
    side: 0,
    constraints: s.constraints,
    bias: s.bias,
    aleatoric: s.sa,
    size: 0,
  }));
  const index = new BiasIndex(copula, subDefs, Number.MAX_SAFE_INTEGER);
  const gMean = new Float64Array(d);
  const gSd = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      s1 += x[i * d + j]!;
      s2 += x[i * d + j]! ** 2;
    }
    gMean[j] = s1 / Math.max(n, 1);
    gSd[j] = Math.sqrt(Math.max(s2 / Math.max(n, 1) - gMean[j]! ** 2, 0));
  }
  const noiseFree = (xs: Float64Array) => {
    const k = rowCount(schema, xs);
    checkRows(schema, xs, k);
    const first = index.firstOf(xs, k);
    return {
      first,
      p: Float64Array.from({ length: k }, (_, i) => {
        let z = 0;
        for (let j = 0; j < d; j++) z += ((xs[i * d + j]! - gMean[j]!) / (gSd[j]! + 1e-8)) * w[j]!;
        const b = first[i]! >= 0 ? defs[first[i]!]!.bias : 0;
        return Math.min(Math.max(sigmoid(z) + b, 0), 1);
      }),
    };
  };
  const subTruth = (s: number, pair: number, side: 'A' | 'B'): SubgroupTruth => {
    let size = 0;
    let sumY = 0;
    for (let i = 0; i < n; i++) {
      if (subOf[i] === s && pairOf[i] === pair) {
        size++;
        sumY += yTrue[i]!;
      }
    }
    const conditions = defs[s]!.constraints.map((c) => ({
      attribute: attributes[c.attr]!.name,
      values: [c.lo],
    }));
    return {
      id: s,
      pair,
      side,
      conditions,
      key: subgroupKey(schema, conditions),
      bias: defs[s]!.bias,
      aleatoricSigma: defs[s]!.sa,
      size,
      meanProbability: size ? sumY / size : 0,
      favourableRate: size ? sumY / size : 0,
      meanEpistemicSigma: defs[s]!.se,
    };
  };
  const pairs: PairTruth[] = chosenPairs.map((p, pi) => {
    const a = subTruth(p.i, pi, 'A');
    const b = subTruth(p.j, pi, 'B');
    const prot = new Set([...defs[p.i]!.constraints, ...defs[p.j]!.constraints].map((c) => c.attr));
    const inter = [...prot].filter((j) => attributes[j]!.protected).length;
    return {
      id: pi,
      a,
      b,
      key: `${a.key}-${b.key}`,
      similarity: p.sim,
      similarityTarget: null,
      granularity: prot.size - inter,
      intersectionality: inter,
      imbalance: 0,
      predefined: false,
      biasGap: Math.abs(a.bias - b.bias),
      expectedGap: a.meanProbability - b.meanProbability,
      realisedGap: a.favourableRate - b.favourableRate,
    };
  });
  // Protected variants under the Python semantics: the flipping variant with the largest |Δp|, else the largest |Δp|.
  const variants = (xs: Float64Array) => {
    const k = rowCount(schema, xs);
    const base = noiseFree(xs).p;
    const flips = new Uint8Array(k);
    const best = Float64Array.from(xs);
    const bestGap = new Float64Array(k).fill(-1);
    const variant = new Float64Array(xs.length);
    for (let c = 0; c < index.combos; c++) {
      variant.set(xs);
      for (let i = 0; i < k; i++) index.writeCombo(c, variant, i * d);
      const pv = noiseFree(variant).p;
      for (let i = 0; i < k; i++) {
        const flip = pv[i]! >= o.threshold !== base[i]! >= o.threshold;
        const gap = Math.abs(pv[i]! - base[i]!) + (flip ? 2 : 0);
        if (flip) flips[i] = 1;
        if (gap > bestGap[i]!) {
          bestGap[i] = gap;
          best.set(variant.subarray(i * d, (i + 1) * d), i * d);
        }
      }
    }
    return { flips, best };
  };
  const model: OutcomeModel = {
    intercept: 0,
    tables: new Array(d).fill(null),
    slopes: Float64Array.from(w, (v, j) => v / (gSd[j]! + 1e-8)),
    centres: gMean,
  };
  const truth: GroundTruth = {
    pairs,
    subgroups: pairs.flatMap((p) => [p.a, p.b]),
    subgroupOf: subOf,
    bias: Float64Array.from(subOf, (s) => defs[s]!.bias),
    epistemicSigma: Float64Array.from(subOf, (s) => defs[s]!.se),
    aleatoricSigma: Float64Array.from(subOf, (s) => defs[s]!.sa),
    aleatoricNoise: new Float64Array(n).fill(Number.NaN),
    probability: yTrue,
    counterfactualProbability: new Float64Array(n).fill(Number.NaN),
    counterfactualLabel: new Int32Array(n).fill(-1),
    threshold: o.threshold,
    labelNoiseShare: Number.NaN,
    model,
    probabilityOf: (xs) => noiseFree(xs).p,
    subgroupsOf: (xs) => noiseFree(xs).first,
    isBiasedInput: (xs) => variants(xs).flips,
    counterfactualOf: (xs) => variants(xs).best,
  };
  return { dataset, truth, copula, options: o };
}
