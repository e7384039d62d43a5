import { type Dataset, isDiscrete, OptionsError, type Rng, type Schema } from '@fb/core';
import type { GaussianCopula } from './copula.js';
import { cholesky } from './linalg.js';
import { DomainIndexer } from './marginal.js';
import { sigmoid } from './normal.js';

/**
 * The base outcome model η(x) = b + Σ_j f_j(x_j), linear in an encoding of the non-protected
 * attributes: one weight per category for categorical ones (one-hot), one weight per standard
 * deviation for ordinal and continuous ones. Protected attributes have no weight: every effect of
 * a protected attribute on the outcome is injected bias, so the ground truth is exact.
 */
export interface OutcomeModel {
  readonly intercept: number;
  /** Per attribute: contribution of each domain index (discrete) or null (continuous / unused). */
  readonly tables: readonly (Float64Array | null)[];
  /** Per attribute: slope per unit for continuous attributes (0 otherwise). */
  readonly slopes: Float64Array;
  readonly centres: Float64Array;
}

/** The feature blocks of the encoding. */
interface Block {
  attr: number;
  /** One-hot over k categories, or numeric standardised with (mean, sd). */
  oneHot: number;
  mean: number;
  sd: number;
  offset: number;
}

function blocks(copula: GaussianCopula): { list: Block[]; width: number } {
  const list: Block[] = [];
  let width = 0;
  copula.schema.attributes.forEach((a, j) => {
    if (a.protected) return;
    const m = copula.marginals[j]!;
    if (a.kind === 'categorical') {
      const k = a.categories!.length;
      list.push({ attr: j, oneHot: k, mean: 0, sd: 1, offset: width });
      width += k;
    } else if (m.sd > 0) {
      list.push({ attr: j, oneHot: 0, mean: m.mean, sd: m.sd, offset: width });
      width += 1;
    }
  });
  return { list, width };
}

function toModel(copula: GaussianCopula, bl: Block[], w: Float64Array, intercept: number): OutcomeModel {
  const d = copula.schema.attributes.length;
  const tables: (Float64Array | null)[] = new Array(d).fill(null);
  const slopes = new Float64Array(d);
  const centres = new Float64Array(d);
  for (const blk of bl) {
    const a = copula.schema.attributes[blk.attr]!;
    if (blk.oneHot) tables[blk.attr] = w.slice(blk.offset, blk.offset + blk.oneHot);
    else if (isDiscrete(a)) {
      const m = copula.marginals[blk.attr]! as { values: Float64Array };
      tables[blk.attr] = Float64Array.from(m.values, (v) => (w[blk.offset]! * (v - blk.mean)) / blk.sd);
    } else {
      slopes[blk.attr] = w[blk.offset]! / blk.sd;
      centres[blk.attr] = blk.mean;
    }
  }
  return { intercept, tables, slopes, centres };
}

/** Base logits of n rows. */
export function baseLogits(schema: Schema, model: OutcomeModel, x: Float64Array, n: number): Float64Array {
  return logitsOf(schema, [model], x, n)[0]!;
}

/**
 * Logits of n rows under each model, in one pass: each row's table positions are found once, and
 * terms that are exactly zero (no table, zero slope: the protected attributes) are skipped.
 */
export function logitsOf(
  schema: Schema,
  models: readonly OutcomeModel[],
  x: Float64Array,
  n: number,
): Float64Array[] {
  const d = schema.attributes.length;
  const attrs = schema.attributes;
  // Tables of all models at the same positions: attribute j's from start[j] (-1: none).
  const start = new Int32Array(d).fill(-1);
  let size = 0;
  attrs.forEach((_, j) => {
    const t = models.find((m) => m.tables[j])?.tables[j];
    if (!t) return;
    start[j] = size;
    size += t.length;
  });
  const flat = models.map((m) => {
    const f = new Float64Array(size);
    m.tables.forEach((t, j) => {
      if (t) f.set(t, start[j]!);
    });
    return f;
  });
  // Per model, its nonzero terms in attribute order, and which of them are table look-ups.
  const terms = models.map((m) =>
    Int32Array.from(attrs.keys()).filter((j) => m.tables[j] || m.slopes[j] !== 0),
  );
  const looked = models.map((m, k) => Uint8Array.from(terms[k]!, (j) => (m.tables[j] ? 1 : 0)));
  const pos = new Int32Array(d);
  const out = models.map(() => new Float64Array(n));
  const tabled = Int32Array.from(attrs.keys()).filter((j) => start[j]! >= 0);
  const indexer = new DomainIndexer(Array.from(tabled, (j) => attrs[j]!));
  if (models.length === 1) {
    singleModelLogits(models[0]!, terms[0]!, looked[0]!, flat[0]!, start, tabled, indexer, d, x, n, out[0]!);
    return out;
  }
  for (let i = 0; i < n; i++) {
    const off = i * d;
    for (let t = 0; t < tabled.length; t++) {
      const j = tabled[t]!;
      pos[j] = start[j]! + indexer.index(t, x[off + j]!);
    }
    for (let m = 0; m < models.length; m++) {
      const { intercept, slopes, centres } = models[m]!;
      const list = terms[m]!;
      const table = looked[m]!;
      const f = flat[m]!;
      let z = intercept;
      for (let t = 0; t < list.length; t++) {
        const j = list[t]!;
        z += table[t] ? f[pos[j]!]! : slopes[j]! * (x[off + j]! - centres[j]!);
      }
      out[m]![i] = z;
    }
  }
  return out;
}

/**
 * `logitsOf` for one model (the base logits every block draws): each table position found where its
 * term is added, the same terms in the same order, so the same bits.
 */
function singleModelLogits(
  model: OutcomeModel,
  list: Int32Array,
  table: Uint8Array,
  f: Float64Array,
  start: Int32Array,
  tabled: Int32Array,
  indexer: DomainIndexer,
  d: number,
  x: Float64Array,
  n: number,
  out: Float64Array,
): void {
  const { intercept, slopes, centres } = model;
  // Attribute j's position among the tabled attributes, as the indexer numbers them.
  const slot = new Int32Array(d);
  tabled.forEach((j, t) => {
    slot[j] = t;
  });
  for (let i = 0; i < n; i++) {
    const off = i * d;
    let z = intercept;
    for (let t = 0; t < list.length; t++) {
      const j = list[t]!;
      const v = x[off + j]!;
      z += table[t] ? f[start[j]! + indexer.index(slot[j]!, v)]! : slopes[j]! * (v - centres[j]!);
    }
    out[i] = z;
  }
}

/** Encoded design matrix of the rows `rows` of x (n_sel x width). */
function design(schema: Schema, bl: Block[], width: number, x: Float64Array, rows: Int32Array): Float64Array {
  const d = schema.attributes.length;
  const out = new Float64Array(rows.length * width);
  for (let r = 0; r < rows.length; r++) {
    const off = rows[r]! * d;
    for (const blk of bl) {
      const v = x[off + blk.attr]!;
      if (blk.oneHot) out[r * width + blk.offset + v] = 1;
      else out[r * width + blk.offset] = (v - blk.mean) / blk.sd;
    }
  }
  return out;
}

/**
 * Ridge logistic regression by Newton's method (IRLS): minimises the negative log-likelihood plus
 * ridge/2 ||w||² (intercept unpenalised). Returns [w..., intercept].
 *
 * The design is mostly zeros (one-hot blocks), so each row's nonzero entries are listed once and the
 * gradient and Hessian sums run over them alone. A zero entry adds an exact ±0 to a sum that is never
 * -0, so the result is bit for bit that of the dense sums, in a fraction of the time.
 */
export function fitLogistic(
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  width: number,
  ridge: number,
): Float64Array {
  const p = width + 1;
  // Nonzero entries per row (the intercept's 1 last), in column order: CSR.
  const rowStart = new Int32Array(n + 1);
  let nnz = 0;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < width; k++) if (xs[i * width + k] !== 0) nnz++;
    rowStart[i + 1] = ++nnz;
  }
  const col = new Int32Array(nnz);
  const val = new Float64Array(nnz);
  for (let i = 0, t = 0; i < n; i++) {
    for (let k = 0; k < width; k++) {
      const v = xs[i * width + k]!;
      if (v === 0) continue;
      col[t] = k;
      val[t++] = v;
    }
    col[t] = width;
    val[t++] = 1;
  }
  const beta = new Float64Array(p);
  const h = new Float64Array(p * p);
  const g = new Float64Array(p);
  for (let it = 0; it < 30; it++) {
    h.fill(0);
    g.fill(0);
    for (let i = 0; i < n; i++) {
      const start = rowStart[i]!;
      const end = rowStart[i + 1]!;
      let z = 0;
      for (let t = start; t < end; t++) z += val[t]! * beta[col[t]!]!;
      const mu = sigmoid(z);
      const wgt = Math.max(mu * (1 - mu), 1e-10);
      const res = ys[i]! - mu;
      for (let t = start; t < end; t++) {
        const a = col[t]!;
        const ra = val[t]!;
        g[a]! += ra * res;
        const wa = wgt * ra;
        const at = a * p;
        for (let s = start; s <= t; s++) h[at + col[s]!]! += wa * val[s]!;
      }
    }
    for (let a = 0; a < p; a++) {
      for (let b = 0; b < a; b++) h[b * p + a] = h[a * p + b]!;
      if (a < width) {
        h[a * p + a]! += ridge;
        g[a]! -= ridge * beta[a]!;
      }
      h[a * p + a]! += 1e-9;
    }
    const l = cholesky(h, p);
    if (!l) break;
    // Solve L L^T step = g.
    const y = new Float64Array(p);
    for (let a = 0; a < p; a++) {
      let s = g[a]!;
      for (let b = 0; b < a; b++) s -= l[a * p + b]! * y[b]!;
      y[a] = s / l[a * p + a]!;
    }
    let maxStep = 0;
    for (let a = p - 1; a >= 0; a--) {
      let s = y[a]!;
      for (let b = a + 1; b < p; b++) s -= l[b * p + a]! * y[b]!;
      const step = s / l[a * p + a]!;
      y[a] = step;
      beta[a]! += step;
      maxStep = Math.max(maxStep, Math.abs(step));
    }
    if (maxStep < 1e-8) break;
  }
  return beta;
}

/** W fitted to a labelled dataset's favourable outcome (a seeded subsample of at most fitRows). */
export function fitOutcome(
  copula: GaussianCopula,
  source: Dataset,
  fitRows: number,
  ridge: number,
  rng: Rng,
): OutcomeModel {
  const { list, width } = blocks(copula);
  const rows =
    source.n > fitRows
      ? rng.sampleIndices(source.n, fitRows)
      : Int32Array.from({ length: source.n }, (_, i) => i);
  const xs = design(copula.schema, list, width, source.x, rows);
  const fav = source.schema.outcome.favorable;
  const ys = Float64Array.from(rows, (i) => (source.y[i] === fav ? 1 : 0));
  const beta = fitLogistic(xs, ys, rows.length, width, ridge);
  return toModel(copula, list, beta.subarray(0, width), beta[width]!);
}

/** Random weights: each non-protected attribute gets a strength N(0, signal²/m) on a unit-variance effect. */
export function randomOutcome(
  copula: GaussianCopula,
  signal: number,
  intercept: number,
  rng: Rng,
): OutcomeModel {
  const { list, width } = blocks(copula);
  const w = new Float64Array(width);
  const scale = signal / Math.sqrt(Math.max(list.length, 1));
  for (const blk of list) {
    const strength = rng.normal(0, scale);
    if (!blk.oneHot) {
      w[blk.offset] = strength;
      continue;
    }
    // A random categorical effect, centred and scaled to unit variance under the marginal.
    const probs = (copula.marginals[blk.attr]! as { probs: Float64Array }).probs;
    const e = Float64Array.from({ length: blk.oneHot }, () => rng.normal());
    let mean = 0;
    for (let k = 0; k < e.length; k++) mean += probs[k]! * e[k]!;
    let v = 0;
    for (let k = 0; k < e.length; k++) v += probs[k]! * (e[k]! - mean) ** 2;
    const sd = Math.sqrt(v) || 1;
    for (let k = 0; k < e.length; k++) w[blk.offset + k] = (strength * (e[k]! - mean)) / sd;
  }
  return toModel(copula, list, w, intercept);
}

/** Declared weights: one entry per attribute (number per sd, or one number per category). */
export function declaredOutcome(
  copula: GaussianCopula,
  weights: readonly (number | number[])[],
  intercept: number,
): OutcomeModel {
  const attrs = copula.schema.attributes;
  const bad = (j: number, msg: string): never => {
    throw new OptionsError('OPTIONS_INVALID', `weights[${j}] (attribute "${attrs[j]!.name}"): ${msg}`, {
      option: `/weights/${j}`,
      attribute: attrs[j]!.name,
    });
  };
  if (weights.length !== attrs.length) {
    throw new OptionsError(
      'OPTIONS_INVALID',
      `weights needs ${attrs.length} entries, one per attribute, got ${weights.length}`,
      { option: '/weights' },
    );
  }
  const { list, width } = blocks(copula);
  const w = new Float64Array(width);
  weights.forEach((wj, j) => {
    const a = attrs[j]!;
    const values = Array.isArray(wj) ? wj : [wj];
    if (a.protected && values.some((v) => v !== 0))
      bad(j, 'protected attributes carry no weight: their effect is the injected bias');
    const blk = list.find((b) => b.attr === j);
    if (!blk) return;
    if (blk.oneHot) {
      if (!Array.isArray(wj) || wj.length !== blk.oneHot)
        bad(j, `a categorical attribute needs ${blk.oneHot} weights, one per category`);
      w.set(wj as number[], blk.offset);
    } else {
      if (Array.isArray(wj)) bad(j, 'a numeric attribute takes one weight (per standard deviation)');
      w[blk.offset] = wj as number;
    }
  });
  return toModel(copula, list, w, intercept);
}

/**
 * Epistemic uncertainty: `members` ridge logistic regressions, each fitted on a bootstrap
 * resample of `trainingRows` fresh rows drawn from the copula and labelled by the base model;
 * none of them has seen a dataset row, so their spread at a row is an out-of-sample estimate.
 */
export function fitEnsemble(
  copula: GaussianCopula,
  base: OutcomeModel,
  training: Float64Array,
  trainingRows: number,
  members: number,
  ridge: number,
  rng: Rng,
): OutcomeModel[] {
  const { list, width } = blocks(copula);
  const eta = baseLogits(copula.schema, base, training, trainingRows);
  const labels = Float64Array.from(eta, (z) => (rng.bernoulli(sigmoid(z)) ? 1 : 0));
  const out: OutcomeModel[] = [];
  for (let m = 0; m < members; m++) {
    const rows = Int32Array.from({ length: trainingRows }, () => rng.int(0, trainingRows - 1));
    const xs = design(copula.schema, list, width, training, rows);
    const ys = Float64Array.from(rows, (i) => labels[i]!);
    const beta = fitLogistic(xs, ys, trainingRows, width, ridge);
    out.push(toModel(copula, list, beta.subarray(0, width), beta[width]!));
  }
  return out;
}
