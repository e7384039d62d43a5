import { type Condition, OptionsError, type Rng, type Schema } from '@fb/core';
import type { GaussianCopula } from './copula.js';
import { cellLatent, domainIndex, type Marginal, quantile, rangeLatent } from './marginal.js';
import type { PairSpec, SynthOptions } from './options.js';
import { drawFittingValues, type Misses, type PopulationRows, type ValueChoice } from './population.js';

/**
 * One defining constraint of a subgroup. Discrete attributes: a run of domain indices
 * [kLo, kHi] (a single value for generated pairs); continuous ones: lo <= v < hi (or <= hi).
 */
export interface Constraint {
  readonly attr: number;
  readonly discrete: boolean;
  readonly kLo: number;
  readonly kHi: number;
  readonly lo: number;
  readonly hi: number;
  readonly maxInclusive: boolean;
}

export interface SubgroupDef {
  readonly id: number;
  readonly pair: number;
  /** 0 = S_A, 1 = S_B. */
  readonly side: 0 | 1;
  /** Sorted by attribute index. */
  readonly constraints: readonly Constraint[];
  readonly bias: number;
  readonly aleatoric: number;
  /** Quota membership: rows drawn for it; population membership: rows meeting its conditions. */
  readonly size: number;
}

export interface PairDef {
  readonly id: number;
  readonly a: SubgroupDef;
  readonly b: SubgroupDef;
  /** Drawn target s (null for predefined pairs). */
  readonly similarityTarget: number | null;
  readonly similarity: number;
  readonly granularity: number;
  readonly intersectionality: number;
  /** Quota membership: the drawn f; population membership: (|S_A| − |S_B|) / (|S_A| + |S_B|). */
  readonly imbalance: number;
  readonly predefined: boolean;
}

/** Value (for discrete: domain value) bounds of a constraint. */
export function constraintCondition(schema: Schema, copula: GaussianCopula, c: Constraint): Condition {
  const attribute = schema.attributes[c.attr]!.name;
  if (!c.discrete) return { attribute, min: c.lo, max: c.hi, maxInclusive: c.maxInclusive };
  const m = copula.marginals[c.attr]! as Extract<Marginal, { kind: 'discrete' }>;
  const values: number[] = [];
  for (let k = c.kLo; k <= c.kHi; k++) values.push(m.values[k]!);
  return { attribute, values };
}

/** Latent interval of a constraint. */
export function constraintLatent(copula: GaussianCopula, c: Constraint): [number, number] {
  const m = copula.marginals[c.attr]!;
  if (m.kind === 'continuous') return rangeLatent(m, c.lo, c.hi, c.maxInclusive);
  return cellLatent(m, c.kLo, c.kHi);
}

/** Whether `v` (attribute value) satisfies the constraint. */
export function satisfies(c: Constraint, v: number): boolean {
  return v >= c.lo && (c.maxInclusive ? v <= c.hi : v < c.hi);
}

const discreteC = (attr: number, k: number, v: number): Constraint => ({
  attr,
  discrete: true,
  kLo: k,
  kHi: k,
  lo: v,
  hi: v,
  maxInclusive: true,
});

/** Box of g inside box of h? */
function within(g: readonly Constraint[], h: readonly Constraint[]): boolean {
  for (const ch of h) {
    const cg = g.find((c) => c.attr === ch.attr);
    if (!cg) return false;
    if (
      cg.discrete
        ? cg.kLo < ch.kLo || cg.kHi > ch.kHi
        : cg.lo < ch.lo || cg.hi > ch.hi || (cg.hi === ch.hi && cg.maxInclusive && !ch.maxInclusive)
    )
      return false;
  }
  return true;
}

function sameConstraint(a: Constraint, b: Constraint): boolean {
  return (
    a.kLo === b.kLo && a.kHi === b.kHi && a.lo === b.lo && a.hi === b.hi && a.maxInclusive === b.maxInclusive
  );
}

/** Disjoint constraints on the same attribute. */
function disjoint(a: Constraint, b: Constraint): boolean {
  if (a.discrete) return a.kHi < b.kLo || b.kHi < a.kLo;
  const aEnd = (v: number) => (a.maxInclusive ? v > a.hi : v >= a.hi);
  const bEnd = (v: number) => (b.maxInclusive ? v > b.hi : v >= b.hi);
  return aEnd(b.lo) || bEnd(a.lo);
}

/** Whether two conjunctions can share a row: no attribute constrained by both to disjoint values. */
function overlaps(g: readonly Constraint[], h: readonly Constraint[]): boolean {
  return !g.some((cg) => {
    const ch = h.find((c) => c.attr === cg.attr);
    return ch !== undefined && disjoint(cg, ch);
  });
}

/** Similarity over the union of constrained attributes: 1 same, 0.5 constrained by one side only, 0 different. */
export function pairSimilarity(a: readonly Constraint[], b: readonly Constraint[]): number {
  const attrs = new Set([...a.map((c) => c.attr), ...b.map((c) => c.attr)]);
  let s = 0;
  for (const j of attrs) {
    const ca = a.find((c) => c.attr === j);
    const cb = b.find((c) => c.attr === j);
    s += ca && cb ? (sameConstraint(ca, cb) ? 1 : 0) : 0.5;
  }
  return s / attrs.size;
}

/** Values (domain indices) with positive probability, or continuous bins with positive width. */
type Choice = ValueChoice;

function choicesFor(
  copula: GaussianCopula,
  j: number,
  bins: number,
  sampling: 'marginal' | 'uniform',
): Choice {
  const m = copula.marginals[j]!;
  const options: Constraint[] = [];
  const weights: number[] = [];
  if (m.kind === 'discrete') {
    for (let k = 0; k < m.values.length; k++) {
      if (m.probs[k]! > 0) {
        options.push(discreteC(j, k, m.values[k]!));
        weights.push(sampling === 'marginal' ? m.probs[k]! : 1);
      }
    }
  } else {
    for (let b = 0; b < bins; b++) {
      const lo = quantile(m, b / bins);
      const hi = quantile(m, (b + 1) / bins);
      const last = b === bins - 1;
      if (hi > lo) {
        options.push({ attr: j, discrete: false, kLo: -1, kHi: -1, lo, hi, maxInclusive: last });
        weights.push(1);
      }
    }
  }
  return { options, weights: Float64Array.from(weights) };
}

function pick(rng: Rng, ch: Choice, exclude?: Constraint): Constraint {
  const w = Float64Array.from(ch.weights, (v, i) =>
    exclude && sameConstraint(ch.options[i]!, exclude) ? 0 : v,
  );
  return ch.options[rng.weightedIndex(w)]!;
}

const fail = (option: string, msg: string): never => {
  throw new OptionsError('OPTIONS_INVALID', msg, { option });
};

/** Parse a predefined pair side into constraints; errors name the option path. */
function parseSide(
  schema: Schema,
  copula: GaussianCopula,
  conds: readonly Condition[],
  path: string,
): Constraint[] {
  const out: Constraint[] = [];
  conds.forEach((c, i) => {
    const at = `${path}/${i}`;
    const j = schema.attributes.findIndex((a) => a.name === c.attribute);
    if (j < 0) fail(at, `${at}: no attribute named "${c.attribute}"`);
    if (out.some((o) => o.attr === j)) fail(at, `${at}: attribute "${c.attribute}" is constrained twice`);
    const a = schema.attributes[j]!;
    const m = copula.marginals[j]!;
    if (m.kind === 'discrete') {
      let ks: number[];
      if ('values' in c) ks = c.values.map((v) => domainIndex(a, v));
      else {
        ks = [];
        m.values.forEach((v, k) => {
          if (v >= c.min && (c.maxInclusive ? v <= c.max : v < c.max)) ks.push(k);
        });
      }
      if (ks.length === 0 || ks.some((k) => k < 0))
        fail(at, `${at}: a value of "${c.attribute}" is outside its domain`);
      ks.sort((x, y) => x - y);
      const cells = ks.map((k) => m.rank[k]!).sort((x, y) => x - y);
      for (let t = 1; t < ks.length; t++) {
        if (ks[t] !== ks[t - 1]! + 1 || cells[t] !== cells[t - 1]! + 1)
          fail(
            at,
            `${at}: the values of "${c.attribute}" must be one value or a run of adjacent domain values`,
          );
      }
      const kLo = ks[0]!;
      const kHi = ks[ks.length - 1]!;
      let p = 0;
      for (let k = kLo; k <= kHi; k++) p += m.probs[k]!;
      if (!(p > 0)) fail(at, `${at}: the values of "${c.attribute}" have probability 0 under the copula`);
      out.push({
        attr: j,
        discrete: true,
        kLo,
        kHi,
        lo: m.values[kLo]!,
        hi: m.values[kHi]!,
        maxInclusive: true,
      });
    } else {
      if ('values' in c)
        fail(at, `${at}: continuous attribute "${c.attribute}" needs a range (min, max), not values`);
      const r = c as Extract<Condition, { min: number }>;
      const [zl, zh] = rangeLatent(m, r.min, r.max, r.maxInclusive);
      if (!(zh > zl))
        fail(at, `${at}: the range of "${c.attribute}" is outside its domain or has probability 0`);
      out.push({
        attr: j,
        discrete: false,
        kLo: -1,
        kHi: -1,
        lo: r.min,
        hi: r.max,
        maxInclusive: r.maxInclusive,
      });
    }
  });
  return out.sort((x, y) => x.attr - y.attr);
}

const counts = (schema: Schema, a: readonly Constraint[], b: readonly Constraint[]) => {
  const attrs = new Set([...a.map((c) => c.attr), ...b.map((c) => c.attr)]);
  let prot = 0;
  for (const j of attrs) if (schema.attributes[j]!.protected) prot++;
  return { intersectionality: prot, granularity: attrs.size - prot };
};

/**
 * The error of population membership when a pair could not be placed, naming the option to change:
 * `rows` when no value assignment held minGroupSize..maxGroupSize rows, `maxCellShare` when none of
 * those held at most that share of its protected cell, else `pairs` (they clashed).
 */
function populationFailure(placed: number, o: SynthOptions, rows: number, misses: Misses): never {
  const sized = misses.share + misses.clash;
  const [option, hint] =
    sized === 0
      ? ['/rows', `change rows (${rows}) or minGroupSize/maxGroupSize`]
      : misses.clash === 0
        ? ['/maxCellShare', 'raise maxCellShare or allow more non-protected defining attributes']
        : ['/pairs', 'lower pairs or widen granularity/intersectionality'];
  return fail(
    option,
    `could place only ${placed} of ${o.pairs} pairs (population membership): of the value assignments of ${o.maxAttempts} candidates, ${misses.few} met fewer than minGroupSize ${o.minGroupSize} of the ${rows} rows, ${misses.many} more than maxGroupSize ${o.maxGroupSize}, ${misses.share} more than maxCellShare ${o.maxCellShare} of their protected cell, ${misses.clash} clashed with a placed subgroup${misses.wide ? `, and ${misses.wide} candidates had too many to enumerate` : ''}; ${hint}`,
  );
}

/**
 * Phase 2: the subgroup pairs. Per random pair: intersectionality (protected) and granularity
 * (non-protected) defining attributes, S_A's values drawn per `valueSampling`, a similarity
 * s ~ U(minSimilarity, maxSimilarity), and S_B keeping round(s·m) of the m defining values (at
 * most m - 1) and redrawing the others, always including at least one protected attribute, so
 * the two subgroups are disjoint and differ on a protected attribute. A candidate identical to,
 * inside or around an existing subgroup is redrawn (up to `maxAttempts`).
 *
 * With `population` (population membership: the rows already drawn), a random pair's candidate is
 * redrawn too unless each of its subgroups meets minGroupSize..maxGroupSize of those rows and at most
 * maxCellShare of its protected cell's rows, and sizes are the rows met. These rules read the rows
 * only, never a bias, so the pairs (and every draw of `rng`) do not depend on minBias/maxBias.
 */
export function definePairs(
  copula: GaussianCopula,
  o: SynthOptions,
  rng: Rng,
  population: PopulationRows | null = null,
): PairDef[] {
  const schema = copula.schema;
  const d = schema.attributes.length;
  const choices = Array.from({ length: d }, (_, j) =>
    choicesFor(copula, j, o.continuousBins, o.valueSampling),
  );
  const protectedOk: number[] = [];
  const otherOk: number[] = [];
  for (let j = 0; j < d; j++) {
    if (choices[j]!.options.length < 2) continue;
    if (schema.attributes[j]!.protected) protectedOk.push(j);
    else otherOk.push(j);
  }
  if (o.minIntersectionality > o.maxIntersectionality)
    fail('/minIntersectionality', 'minIntersectionality exceeds maxIntersectionality');
  if (o.minGranularity > o.maxGranularity) fail('/minGranularity', 'minGranularity exceeds maxGranularity');
  if (o.minSimilarity > o.maxSimilarity) fail('/minSimilarity', 'minSimilarity exceeds maxSimilarity');
  if (o.minGroupSize > o.maxGroupSize) fail('/minGroupSize', 'minGroupSize exceeds maxGroupSize');
  if (o.minImbalance > o.maxImbalance) fail('/minImbalance', 'minImbalance exceeds maxImbalance');
  if (o.minBias > o.maxBias) fail('/minBias', 'minBias exceeds maxBias');
  if (o.minAleatoric > o.maxAleatoric) fail('/minAleatoric', 'minAleatoric exceeds maxAleatoric');
  if (o.pairs > 0 && o.minIntersectionality > protectedOk.length) {
    fail(
      '/minIntersectionality',
      `minIntersectionality ${o.minIntersectionality} exceeds the ${protectedOk.length} protected attributes with at least two values`,
    );
  }
  if (o.pairs > 0 && o.minGranularity > otherOk.length) {
    fail(
      '/minGranularity',
      `minGranularity ${o.minGranularity} exceeds the ${otherOk.length} non-protected attributes with at least two values`,
    );
  }
  const placed: Constraint[][] = [];
  // With `disjointSubgroups`, a subgroup that could share a row with any placed one clashes too: no
  // row then carries the bias of two pairs, and every planted subgroup is exactly the rows shifted.
  const clashes = (cand: readonly Constraint[]) =>
    placed.some((p) => within(cand, p) || within(p, cand) || (o.disjointSubgroups && overlaps(cand, p)));
  const pairs: PairDef[] = [];
  const drawBias = () => {
    const mag = rng.uniform(o.minBias, o.maxBias);
    const sign = o.biasSign === 'negative' ? -1 : o.biasSign === 'positive' ? 1 : rng.bernoulli(0.5) ? 1 : -1;
    return sign * mag;
  };
  const drawSizes = () => {
    const total = rng.int(o.minGroupSize, o.maxGroupSize);
    const imbalance = rng.uniform(o.minImbalance, o.maxImbalance);
    const sa = Math.max(1, Math.floor((total + Math.floor(total * imbalance)) / 2));
    return { sa, sb: Math.max(1, total - sa), imbalance };
  };
  const populationSizes = (a: readonly Constraint[], b: readonly Constraint[]) => {
    const sa = population!.count(a);
    const sb = population!.count(b);
    return { sa, sb, imbalance: sa + sb > 0 ? (sa - sb) / (sa + sb) : 0 };
  };
  const finish = (
    a: Constraint[],
    b: Constraint[],
    bias: number,
    target: number | null,
    predefined: boolean,
  ) => {
    const id = pairs.length;
    const { sa, sb, imbalance } = population ? populationSizes(a, b) : drawSizes();
    const aleatoric = rng.uniform(o.minAleatoric, o.maxAleatoric);
    placed.push(a, b);
    pairs.push({
      id,
      a: { id: 2 * id, pair: id, side: 0, constraints: a, bias, aleatoric, size: sa },
      b: { id: 2 * id + 1, pair: id, side: 1, constraints: b, bias: 0, aleatoric, size: sb },
      similarityTarget: target,
      similarity: pairSimilarity(a, b),
      ...counts(schema, a, b),
      imbalance,
      predefined,
    });
  };

  o.predefinedPairs.forEach((spec: PairSpec, i) => {
    const path = `/predefinedPairs/${i}`;
    const a = parseSide(schema, copula, spec.a, `${path}/a`);
    const b = parseSide(schema, copula, spec.b, `${path}/b`);
    const differs = a.some((ca) => {
      const cb = b.find((c) => c.attr === ca.attr);
      return schema.attributes[ca.attr]!.protected && cb !== undefined && disjoint(ca, cb);
    });
    if (!differs)
      fail(path, `${path}: the two subgroups must both constrain a protected attribute to different values`);
    if (clashes(a) || clashes(b))
      fail(path, `${path}: a subgroup is identical to, inside or around another subgroup`);
    finish(a, b, spec.bias ?? drawBias(), null, true);
  });

  // Population membership: a subgroup with no non-protected condition is its whole protected cell,
  // so below maxCellShare 1 it needs one (the draw skips shapes that could never pass).
  const maxKx = Math.min(o.maxGranularity, otherOk.length);
  const minKx = population && o.maxCellShare < 1 ? Math.max(o.minGranularity, 1) : o.minGranularity;
  for (let p = 0; p < o.pairs; p++) {
    let done = false;
    // Population membership: why the value assignments of this pair's candidates failed.
    const misses: Misses = { few: 0, many: 0, share: 0, clash: 0, wide: 0 };
    for (let attempt = 0; attempt < o.maxAttempts && !done; attempt++) {
      const kp = rng.int(o.minIntersectionality, Math.min(o.maxIntersectionality, protectedOk.length));
      const kx = rng.int(Math.min(minKx, maxKx), maxKx);
      const protAttrs = rng.sample(protectedOk, kp);
      const attrs = [...protAttrs, ...rng.sample(otherOk, kx)];
      // Quota membership draws the values here; population membership once the shape is drawn.
      const a = population ? [] : attrs.map((j) => pick(rng, choices[j]!));
      const m = attrs.length;
      const s = rng.uniform(o.minSimilarity, o.maxSimilarity);
      const keep = Math.min(Math.round(s * m), m - 1);
      // One protected attribute always changes; the other changes are drawn among the rest.
      const forced = rng.int(0, kp - 1);
      const rest = Array.from({ length: m }, (_, t) => t).filter((t) => t !== forced);
      const changed = new Set([forced, ...rng.sample(rest, m - 1 - keep)]);
      if (population) {
        const shape = { attrs, protectedCount: kp, changed: [...changed] };
        const drawn = drawFittingValues(population, choices, shape, o, clashes, rng, misses);
        if (!drawn) continue;
        finish(drawn[0], drawn[1], drawBias(), s, false);
        done = true;
        continue;
      }
      const b = a.map((c, t) => (changed.has(t) ? pick(rng, choices[c.attr]!, c) : c));
      const sa = [...a].sort((x, y) => x.attr - y.attr);
      const sb = [...b].sort((x, y) => x.attr - y.attr);
      if (clashes(sa) || clashes(sb)) continue;
      finish(sa, sb, drawBias(), s, false);
      done = true;
    }
    if (!done && population) populationFailure(p, o, population.n, misses);
    if (!done) {
      fail(
        '/pairs',
        `could place only ${p} of ${o.pairs} pairs whose subgroups are neither identical to nor nested in others${o.disjointSubgroups ? ' nor overlap them (disjointSubgroups)' : ''}; lower pairs or widen granularity/intersectionality`,
      );
    }
  }
  return pairs;
}
