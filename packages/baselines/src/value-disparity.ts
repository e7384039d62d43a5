import {
  type Condition,
  type Dataset,
  defineSubgroupDetector,
  domainValues,
  isDiscrete,
  normalUpperTail,
  type SubgroupFinding,
  type SubgroupScan,
  studentTUpperTail,
} from '@fb/core';
import { VERSION } from './version.js';

export interface ValueDisparityOptions {
  /** Smallest subgroup tested. */
  minSize: number;
  /** Subgroups reported (the strongest). */
  top: number;
  /** Attribute values per subgroup: one protected value and up to `depth - 1` values of other attributes. */
  depth: number;
}

/** Rows per model call while the residuals are computed (the run can stop between calls). */
const CHUNK = 1 << 15;

/**
 * Per row, the favourable label minus what the reference expects: the model's favourable probability
 * when it gives probabilities, its favourable decision otherwise, the overall favourable rate without
 * a model.
 */
async function residuals(
  dataset: Dataset,
  scan: SubgroupScan<ValueDisparityOptions>,
): Promise<{ r: Float64Array; variance: Float64Array | null } | null> {
  const { model, ctl } = scan;
  const { n, d } = dataset;
  const fav = dataset.schema.outcome.favorable ?? 1;
  const r = Float64Array.from(dataset.y, (v) => (v === fav ? 1 : 0));
  if (!model) {
    const rate = r.reduce((a, b) => a + b, 0) / Math.max(1, n);
    return { r: r.map((v) => v - rate), variance: null };
  }
  const variance = model.hasProba ? new Float64Array(n) : null;
  for (let start = 0; start < n; start += CHUNK) {
    if (await ctl.checkpoint({ phase: 'residuals', done: start, total: n })) return null;
    const end = Math.min(n, start + CHUNK);
    const x = dataset.x.subarray(start * d, end * d);
    if (model.hasProba) {
      const p = model.predictProba(x);
      for (let i = start; i < end; i++) {
        const q = p[(i - start) * model.nClasses + fav]!;
        r[i] = r[i]! - q;
        variance![i] = q * (1 - q);
      }
    } else {
      const c = model.predict(x);
      for (let i = start; i < end; i++) r[i] = r[i]! - (c[i - start] === fav ? 1 : 0);
    }
  }
  return { r, variance };
}

/**
 * With the model's probabilities: the score test of calibration inside the subgroup. Under no bias
 * each label is Bernoulli(p), so the summed residual has variance sum p(1 - p), known exactly; the
 * z is compared with the normal (no variance is estimated).
 */
function scoreZ(r: Float64Array, variance: Float64Array, mask: Uint8Array) {
  let n1 = 0;
  let s = 0;
  let v = 0;
  let rest = 0;
  let restN = 0;
  for (let i = 0; i < r.length; i++) {
    if (mask[i]) {
      n1++;
      s += r[i]!;
      v += variance[i]!;
    } else {
      rest += r[i]!;
      restN++;
    }
  }
  if (n1 === 0 || !(v > 0)) return null;
  const z = s / Math.sqrt(v);
  return { size: n1, effect: s / n1 - (restN ? rest / restN : 0), t: z, p: 2 * normalUpperTail(Math.abs(z)) };
}

/**
 * Welch's t of the mean residual inside the subgroup against outside it, with the
 * Welch-Satterthwaite degrees of freedom and a two-sided p-value (a normal tail would be far too
 * small for small subgroups at the Bonferroni level). Null when either side has fewer than two rows
 * or no variance.
 */
function welchT(r: Float64Array, mask: Uint8Array) {
  let n1 = 0;
  let s1 = 0;
  let q1 = 0;
  let n0 = 0;
  let s0 = 0;
  let q0 = 0;
  for (let i = 0; i < r.length; i++) {
    const v = r[i]!;
    if (mask[i]) {
      n1++;
      s1 += v;
      q1 += v * v;
    } else {
      n0++;
      s0 += v;
      q0 += v * v;
    }
  }
  if (n1 < 2 || n0 < 2) return null;
  const m1 = s1 / n1;
  const m0 = s0 / n0;
  const v1 = Math.max(0, (q1 - n1 * m1 * m1) / (n1 - 1));
  const v0 = Math.max(0, (q0 - n0 * m0 * m0) / (n0 - 1));
  const a = v1 / n1;
  const b = v0 / n0;
  const se = Math.sqrt(a + b);
  if (!(se > 0)) return null;
  const t = (m1 - m0) / se;
  const df = (a + b) ** 2 / ((a * a) / (n1 - 1) + (b * b) / (n0 - 1));
  return { size: n1, effect: m1 - m0, t, p: 2 * studentTUpperTail(Math.abs(t), df) };
}

/** A candidate subgroup: attribute positions and the value each must take. */
interface Candidate {
  cols: number[];
  values: number[];
}

/**
 * The candidate subgroups: each protected value alone, then with one value of each of up to
 * `depth - 1` other discrete attributes (in schema order).
 */
function candidates(dataset: Dataset, depth: number): Candidate[] {
  const attrs = dataset.schema.attributes;
  const prot = attrs.flatMap((a, j) => (a.protected && isDiscrete(a) ? [j] : []));
  const others = attrs.flatMap((a, j) => (!a.protected && isDiscrete(a) ? [j] : []));
  const out: Candidate[] = [];
  const extend = (c: Candidate, from: number) => {
    out.push(c);
    if (c.cols.length >= depth) return;
    for (let k = from; k < others.length; k++) {
      const o = others[k]!;
      for (const v of domainValues(attrs[o]!))
        extend({ cols: [...c.cols, o], values: [...c.values, v] }, k + 1);
    }
  };
  for (const p of prot) for (const v of domainValues(attrs[p]!)) extend({ cols: [p], values: [v] }, 0);
  return out;
}

async function scanValues(scan: SubgroupScan<ValueDisparityOptions>) {
  const { dataset, options, ctl } = scan;
  const res = await residuals(dataset, scan);
  if (!res) return { subgroups: [], extras: { tested: 0 } };
  const { r, variance } = res;
  const cands = candidates(dataset, options.depth);
  const attrs = dataset.schema.attributes;
  const { n, d, x } = dataset;
  const found: Omit<SubgroupFinding, 'rank'>[] = [];
  let tested = 0;
  const mask = new Uint8Array(n);
  for (let k = 0; k < cands.length; k++) {
    if (await ctl.checkpoint({ phase: 'scan', done: k, total: cands.length })) break;
    const { cols, values } = cands[k]!;
    for (let i = 0; i < n; i++) {
      let inside = 1;
      for (let c = 0; c < cols.length && inside; c++) if (x[i * d + cols[c]!] !== values[c]) inside = 0;
      mask[i] = inside;
    }
    const t = variance ? scoreZ(r, variance, mask) : welchT(r, mask);
    if (!t || t.size < options.minSize) continue;
    tested++;
    found.push({
      conditions: cols.map((j, c): Condition => ({ attribute: attrs[j]!.name, values: [values[c]!] })),
      size: t.size,
      score: Math.abs(t.t),
      effect: t.effect,
      pValue: t.p,
      direction: t.effect > 0 ? 'higher' : 'lower',
      details: { t: t.t },
    });
  }
  // Bonferroni over every subgroup tested: each reported p-value controls the family-wise error.
  for (const f of found) f.pValue = Math.min(1, f.pValue! * tested);
  found.sort((a, b) => b.score - a.score);
  return {
    subgroups: found.slice(0, options.top).map((f, i) => ({ ...f, rank: i + 1 })),
    extras: { tested },
  };
}

export const valueDisparity = defineSubgroupDetector<ValueDisparityOptions>({
  id: 'value-disparity',
  version: VERSION,
  access: 'black-box',
  requiresModel: false,
  description:
    'Baseline: every protected value (and each with one other value) tested for a gap between labels and the model’s expectation (Welch t, Bonferroni-adjusted).',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      minSize: { type: 'integer', minimum: 2, default: 50, description: 'smallest subgroup tested' },
      top: { type: 'integer', minimum: 1, default: 10, description: 'subgroups reported (the strongest)' },
      depth: {
        type: 'integer',
        minimum: 1,
        maximum: 3,
        default: 2,
        description:
          'attribute values per subgroup: one protected value and up to depth - 1 values of other discrete attributes',
      },
    },
  },
  scan: scanValues,
});
