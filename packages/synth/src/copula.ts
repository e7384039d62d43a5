import {
  type Attribute,
  cardinality,
  DataError,
  type Dataset,
  isDiscrete,
  OptionsError,
  type Rng,
  type Schema,
  SchemaError,
} from '@fb/core';
import { cholesky, lowerTimes, nearestCorrelation } from './linalg.js';
import {
  continuousFromSorted,
  discreteMarginal,
  domainIndex,
  type Marginal,
  valueOfLatent,
} from './marginal.js';
import { normalPdf, normalQuantile } from './normal.js';

/**
 * A Gaussian copula over a schema: one marginal per attribute and the correlation of the latent
 * normals. A row is drawn as z ~ N(0, R), then value_j = F_j^{-1}(Φ(z_j)).
 */
export interface GaussianCopula {
  readonly schema: Schema;
  readonly marginals: readonly Marginal[];
  /** d x d latent correlation, row-major, positive definite. */
  readonly correlation: Float64Array;
  /** Its lower Cholesky factor. */
  readonly cholesky: Float64Array;
  readonly mode: 'descriptive' | 'prescriptive';
  /** Whether the estimated or declared correlation had to be repaired to be positive definite. */
  readonly repaired: boolean;
}

/** Hermite terms of the bridge between latent and normal-score correlation. */
const HERMITE_TERMS = 40;
const MAX_LATENT_CORRELATION = 0.9999;

/**
 * Per attribute: the partition of the latent line induced by the observed values (cells with
 * their probabilities), the normal score E[Z | cell] of each cell and the normalised Hermite
 * coefficients c_n = E[g(Z) He_n(Z)] / sqrt(n!) of the score function g.
 */
interface ScoreModel {
  /** Score of each row. */
  rowScore: Float64Array;
  /** c_1..c_N. */
  hermite: Float64Array;
}

function scoreModel(cellOfRow: Int32Array, cellProbs: Float64Array): ScoreModel {
  const k = cellProbs.length;
  // Interior thresholds and cell scores.
  const t = new Float64Array(Math.max(k - 1, 0));
  const scores = new Float64Array(k);
  let cum = 0;
  let prevPdf = 0;
  for (let c = 0; c < k; c++) {
    cum += cellProbs[c]!;
    const hi = c === k - 1 ? Number.POSITIVE_INFINITY : normalQuantile(Math.min(cum, 1));
    if (c < k - 1) t[c] = hi;
    const pdf = Number.isFinite(hi) ? normalPdf(hi) : 0;
    scores[c] = cellProbs[c]! > 0 ? (prevPdf - pdf) / cellProbs[c]! : 0;
    prevPdf = pdf;
  }
  const hermite = new Float64Array(HERMITE_TERMS);
  for (let j = 0; j < t.length; j++) {
    const z = t[j]!;
    if (!Number.isFinite(z)) continue;
    const w = normalPdf(z) * (scores[j + 1]! - scores[j]!);
    // h_{n-1}(z) by the normalised Hermite recursion.
    let hPrev = 0;
    let h = 1;
    for (let n = 1; n <= HERMITE_TERMS; n++) {
      hermite[n - 1]! += (h * w) / Math.sqrt(n);
      const next = (z * h - Math.sqrt(n - 1) * hPrev) / Math.sqrt(n);
      hPrev = h;
      h = next;
    }
  }
  const rowScore = new Float64Array(cellOfRow.length);
  for (let i = 0; i < cellOfRow.length; i++) rowScore[i] = scores[cellOfRow[i]!]!;
  return { rowScore, hermite };
}

/**
 * The latent correlation ρ at which Cov(g(Z1), h(Z2)) = Σ ρ^n c_n d_n equals the observed
 * covariance of normal scores (Mehler's expansion; monotone in ρ for non-decreasing g, h).
 */
function bridge(c: Float64Array, e: Float64Array, target: number): number {
  const f = (r: number) => {
    let s = 0;
    let p = r;
    for (let n = 0; n < HERMITE_TERMS; n++) {
      s += p * c[n]! * e[n]!;
      p *= r;
    }
    return s;
  };
  let lo = -MAX_LATENT_CORRELATION;
  let hi = MAX_LATENT_CORRELATION;
  if (target <= f(lo)) return lo;
  if (target >= f(hi)) return hi;
  for (let it = 0; it < 60; it++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Positive-definite version of a symmetric unit-diagonal matrix, and whether it was changed. */
export function repairCorrelation(
  r: Float64Array,
  d: number,
): { correlation: Float64Array; cholesky: Float64Array; repaired: boolean } {
  const l = cholesky(r, d);
  if (l) return { correlation: r, cholesky: l, repaired: false };
  const fixed = nearestCorrelation(r, d);
  const lf = cholesky(fixed, d);
  if (!lf)
    throw new OptionsError(
      'OPTIONS_INVALID',
      'the correlation matrix could not be repaired to positive definite',
      { option: '/correlation' },
    );
  return { correlation: fixed, cholesky: lf, repaired: true };
}

/**
 * Descriptive mode: fit the copula to a dataset. Discrete attributes get their empirical
 * marginal over the schema's domain; continuous ones a smooth marginal (atoms kept, linear
 * interpolation between). The latent correlation of each pair is the one whose normal scores
 * (E[Z | observed value]) have the observed covariance, so sampled data reproduce the source's
 * normal-score correlations; the matrix is then repaired to positive definite if needed.
 */
export function fitCopula(dataset: Dataset): GaussianCopula {
  const { schema, n, d, x } = dataset;
  if (n < 2) throw new DataError('DATA_EMPTY', 'fitting a copula needs at least two rows');
  const marginals: Marginal[] = new Array(d);
  const models: ScoreModel[] = new Array(d);
  const categorical: { j: number; cells: Int32Array; counts: Float64Array }[] = [];
  const col = new Float64Array(n);
  for (let j = 0; j < d; j++) {
    const a = schema.attributes[j]!;
    for (let i = 0; i < n; i++) col[i] = x[i * d + j]!;
    const cellOfRow = new Int32Array(n);
    if (isDiscrete(a)) {
      const counts = new Float64Array(cardinality(a));
      for (let i = 0; i < n; i++) {
        const c = domainIndex(a, col[i]!);
        if (c < 0)
          throw new DataError(
            'DATA_OUT_OF_DOMAIN',
            `row ${i}, attribute "${a.name}": value ${col[i]} is outside its domain`,
            { attribute: a.name, row: i },
          );
        counts[c]!++;
        cellOfRow[i] = c;
      }
      if (a.kind === 'categorical' && counts.length > 2) {
        categorical.push({ j, cells: cellOfRow, counts });
        continue;
      }
      marginals[j] = discreteMarginal(a, counts);
      models[j] = scoreModel(
        cellOfRow,
        Float64Array.from(counts, (c) => c / n),
      );
    } else {
      const sorted = Float64Array.from(col).sort();
      marginals[j] = continuousFromSorted(sorted);
      const uniques: number[] = [];
      const probs: number[] = [];
      for (let i = 0; i < n; ) {
        let k = i;
        while (k < n && sorted[k] === sorted[i]) k++;
        uniques.push(sorted[i]!);
        probs.push((k - i) / n);
        i = k;
      }
      const u = Float64Array.from(uniques);
      for (let i = 0; i < n; i++) {
        let lo = 0;
        let hi = u.length - 1;
        const v = col[i]!;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (u[mid]! < v) lo = mid + 1;
          else hi = mid;
        }
        cellOfRow[i] = lo;
      }
      models[j] = scoreModel(cellOfRow, Float64Array.from(probs));
    }
  }
  // Nominal categories (more than two) have no order; place their latent cells in the order of their mean
  // normal score on the ordered attribute they explain best (largest correlation ratio), so a
  // monotone latent dependence can carry the association (e.g. education vs education-num).
  const ordered = models.flatMap((m, j) => (m ? [j] : []));
  for (const { j, cells, counts } of categorical) {
    const k = counts.length;
    let bestEta = -1;
    let key = Float64Array.from({ length: k }, (_, c) => c);
    for (const t of ordered) {
      const s = models[t]!.rowScore;
      const sums = new Float64Array(k);
      let total = 0;
      for (let i = 0; i < n; i++) {
        sums[cells[i]!]! += s[i]!;
        total += s[i]! * s[i]!;
      }
      let between = 0;
      for (let c = 0; c < k; c++) if (counts[c]! > 0) between += (sums[c]! * sums[c]!) / counts[c]!;
      const eta = total > 0 ? between / total : 0;
      if (eta > bestEta) {
        bestEta = eta;
        key = Float64Array.from(sums, (v, c) => (counts[c]! > 0 ? v / counts[c]! : 0));
      }
    }
    const order = Int32Array.from({ length: k }, (_, c) => c).sort((p, q) => key[p]! - key[q]! || p - q);
    const m = discreteMarginal(schema.attributes[j]!, counts, order);
    marginals[j] = m;
    models[j] = scoreModel(
      Int32Array.from(cells, (c) => m.rank[c]!),
      Float64Array.from(order, (c) => counts[c]! / n),
    );
  }
  const r = new Float64Array(d * d);
  for (let j = 0; j < d; j++) {
    r[j * d + j] = 1;
    const sj = models[j]!.rowScore;
    for (let k = 0; k < j; k++) {
      const sk = models[k]!.rowScore;
      let cov = 0;
      for (let i = 0; i < n; i++) cov += sj[i]! * sk[i]!;
      cov /= n;
      const rho = cov === 0 ? 0 : bridge(models[j]!.hermite, models[k]!.hermite, cov);
      r[j * d + k] = rho;
      r[k * d + j] = rho;
    }
  }
  const fixed = repairCorrelation(r, d);
  return Object.freeze({ schema, marginals, ...fixed, mode: 'descriptive' as const });
}

/**
 * Prescriptive mode: a copula from declared marginals and a target latent correlation (checked,
 * then repaired to positive definite by Higham's nearest-correlation projection when needed).
 */
export function buildCopula(
  schema: Schema,
  marginals: readonly Marginal[],
  correlation: Float64Array,
): GaussianCopula {
  const d = schema.attributes.length;
  checkCorrelation(correlation, d);
  for (const a of schema.attributes) checkGeneratable(a);
  const fixed = repairCorrelation(correlation, d);
  return Object.freeze({ schema, marginals, ...fixed, mode: 'prescriptive' as const });
}

export function checkGeneratable(a: Attribute): void {
  if (a.protected && !isDiscrete(a)) {
    throw new SchemaError(
      'SCHEMA_BAD_DOMAIN',
      `protected attribute "${a.name}" is continuous: the generator needs discrete protected attributes (bin it)`,
      { attribute: a.name },
    );
  }
}

/** A target correlation must be a finite symmetric matrix with unit diagonal and entries in [-1, 1]. */
export function checkCorrelation(r: Float64Array, d: number): void {
  const bad = (msg: string): never => {
    throw new OptionsError('OPTIONS_INVALID', `correlation cannot be repaired: ${msg}`, {
      option: '/correlation',
    });
  };
  if (r.length !== d * d) bad(`expected a ${d} x ${d} matrix`);
  for (let i = 0; i < d; i++) {
    if (Math.abs(r[i * d + i]! - 1) > 1e-9) bad(`diagonal entry ${i} is ${r[i * d + i]}, not 1`);
    for (let j = 0; j < d; j++) {
      const v = r[i * d + j]!;
      if (!Number.isFinite(v) || v < -1 || v > 1) bad(`entry (${i}, ${j}) = ${v} is not in [-1, 1]`);
      if (Math.abs(v - r[j * d + i]!) > 1e-9) bad(`entries (${i}, ${j}) and (${j}, ${i}) differ`);
    }
  }
}

/** Draw n latent rows z ~ N(0, R) into the first n rows of `z` (a new n x d array by default). */
export function sampleLatent(
  copula: GaussianCopula,
  n: number,
  rng: Rng,
  z: Float64Array = new Float64Array(n * copula.marginals.length),
): Float64Array {
  const d = copula.marginals.length;
  const l = copula.cholesky;
  // Every innovation first (the stream's order is row by row either way), then each row turned into
  // L e in place: from the last coordinate down, coordinate a reads only innovations 0..a, which are
  // still unwritten.
  rng.zigguratNormals(z, 0, n * d);
  for (let off = 0; off < n * d; off += d) lowerTimes(l, d, z, off, z, off, null);
  return z;
}

/** Discrete marginals of at most this many cells find a value's cell by a linear scan. */
const SCAN_CELLS = 8;

/**
 * Map latent rows to attribute values, in place (the values of `valueOfLatent`). Attributes marked in
 * `skip` are left as they are: rows drawn in one cell of them, whose value the caller writes.
 */
export function latentToValues(copula: GaussianCopula, z: Float64Array, skip?: Uint8Array): Float64Array {
  const d = copula.marginals.length;
  // Per attribute: the cells' upper bounds and values when few (null: `valueOfLatent`).
  const upper: (Float64Array | null)[] = [];
  const cellValue: (Float64Array | null)[] = [];
  for (const m of copula.marginals) {
    const few = m.kind === 'discrete' && m.upper.length <= SCAN_CELLS;
    upper.push(few ? m.upper : null);
    cellValue.push(few ? Float64Array.from(m.order, (k) => m.values[k]!) : null);
  }
  for (let i = 0; i < z.length; i += d) {
    for (let j = 0; j < d; j++) {
      if (skip?.[j]) continue;
      const up = upper[j];
      if (!up) {
        z[i + j] = valueOfLatent(copula.marginals[j]!, z[i + j]!);
        continue;
      }
      // The first cell whose upper bound exceeds v, else the last (as the binary search finds it).
      const v = z[i + j]!;
      const last = up.length - 1;
      let c = 0;
      while (c < last && !(v < up[c]!)) c++;
      z[i + j] = cellValue[j]![c]!;
    }
  }
  return z;
}

/**
 * n rows drawn from the copula (into the first n rows of `out` when given, which is returned whole).
 * Rows are drawn one after the other from `rng`, so n rows drawn in several calls are the same rows.
 */
export function sampleCopula(copula: GaussianCopula, n: number, rng: Rng, out?: Float64Array): Float64Array {
  const z = sampleLatent(copula, n, rng, out);
  latentToValues(copula, z.subarray(0, n * copula.marginals.length));
  return z;
}
