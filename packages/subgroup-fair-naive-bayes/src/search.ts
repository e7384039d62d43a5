import { degree, extremeGain, kldScore, type PatternMass } from './degree.js';
import type { NaiveBayes } from './naive-bayes.js';
import type { Variable } from './variables.js';

/** Where a variable goes in a pattern: the context y, or the sensitive part x. */
export type Role = 'x' | 'y';

export interface Pattern {
  /** (variable, level, role) in variable order. */
  items: { variable: number; level: number; role: Role }[];
  mass: PatternMass;
  /** Delta(x, y) = P(d | x, y) - P(d | y). */
  diff: number;
  kld: number;
  /** The ranking score: |Delta| or the KL divergence. */
  score: number;
}

export interface SearchSettings {
  ranking: 'diff' | 'kld';
  delta: number;
  k: number;
  /**
   * The data's level codes (n × variables, row-major) and the smallest number of rows a pattern must
   * match: patterns matching fewer rows, and their extensions (which match no more), are skipped.
   */
  support?: { codes: Int32Array; minRows: number };
}

export interface SearchOutcome {
  patterns: Pattern[];
  nodesVisited: number;
  /** Nodes whose extensions were pruned by the bound. */
  pruned: number;
  complete: boolean;
}

/** Per variable suffix products of the most extreme likelihood ratios (>= 1 and <= 1). */
function suffixRatios(nb: NaiveBayes, variables: Variable[], onlySensitive: boolean) {
  const v = variables.length;
  const up = new Float64Array(v + 1).fill(1);
  const down = new Float64Array(v + 1).fill(1);
  for (let j = v - 1; j >= 0; j--) {
    let hi = 1;
    let lo = 1;
    if (!onlySensitive || variables[j]!.sensitive) {
      const leaf = nb.leaves[j]!;
      for (let l = 0; l < leaf.length / 2; l++) {
        const r = leaf[l * 2 + 1]! / leaf[l * 2]!;
        if (r > hi) hi = r;
        if (r < lo) lo = r;
      }
    }
    up[j] = up[j + 1]! * hi;
    down[j] = down[j + 1]! * lo;
  }
  return { up, down };
}

/**
 * An upper bound on |Delta| over every extension of a pattern by variables from `from` on. Observing
 * x multiplies the odds of d given y by R = P(x | d) / P(x | not d), so Delta = g(R, P(d | y)) with
 * g(r, t) = r t / (r t + 1 - t) - t. Extensions move R within R · [down_x, up_x] (sensitive
 * variables) and the odds of P(d | y) within [down_y, up_y] (any variable); the bound relaxes the
 * rule that a variable goes to x or to y, not both, so it never cuts off a better pattern.
 */
export function extensionBound(
  m: PatternMass,
  from: number,
  ys: { up: Float64Array; down: Float64Array },
  xs: { up: Float64Array; down: Float64Array },
): number {
  // With zero-probability levels (no smoothing) P(d | y) can be 0 or 1; then it is for every extension too, and Delta = 0.
  if (m.y0 <= 0 || m.y1 <= 0) return 0;
  const odds = m.y1 / m.y0;
  const r = m.xy1 / m.y1 / (m.xy0 / m.y0);
  const toProb = (o: number) => (o === Number.POSITIVE_INFINITY ? 1 : o / (1 + o));
  const tLo = toProb(odds * ys.down[from]!);
  const tHi = toProb(odds * ys.up[from]!);
  const rHi = r * xs.up[from]!;
  const rLo = r * xs.down[from]!;
  const most = rHi > 1 ? extremeGain(rHi, tLo, tHi) : 0;
  const least = rLo < 1 ? extremeGain(rLo, tLo, tHi) : 0;
  return Math.max(most, -least);
}

/** A depth-first frame: the pattern so far and the next child to try. */
interface Frame {
  /** Rows matching the pattern (null when support is not checked). */
  rows: Int32Array | null;
  /** Rows of the child last computed, shared by its two roles. */
  childRows: Int32Array | null;
  variable: number;
  level: number;
  role: Role;
  mass: PatternMass;
  xCount: number;
  nextVariable: number;
  nextLevel: number;
  nextRole: number;
}

/** Units of work (nodes, rows scanned) between two polls of the stop: a few milliseconds. */
const POLL_WORK = 1 << 20;
/**
 * Units one node counts for: its masses, degree and bound cost about as much as scanning this many rows
 * (counted as 1, polls came 10^6 nodes apart: tenths of a second on a loaded machine).
 */
const NODE_WORK = 32;

/**
 * Branch-and-bound search for the top-k discrimination patterns (|Delta| > delta) of a naive
 * Bayes model (Choi et al., AAAI 2020). Depth first over variables in a fixed order; each pattern
 * is visited once, as the node whose last assigned variable is its highest; a node's extensions are
 * pruned when the bound on |Delta| over them cannot beat the k-th best |Delta| (ranking 'diff') or
 * cannot exceed delta (ranking 'kld', for which no pattern with |Delta| <= delta scores above 0).
 * `shouldStop` is polled every `POLL_WORK` units of work (`NODE_WORK` a node, 1 a row its support filter scans);
 * `pause` lets the caller yield.
 */
export async function findPatterns(
  nb: NaiveBayes,
  variables: Variable[],
  s: SearchSettings,
  shouldStop: () => boolean,
  pause: (nodes: number) => Promise<void>,
): Promise<SearchOutcome> {
  const v = variables.length;
  const ys = suffixRatios(nb, variables, false);
  const xs = suffixRatios(nb, variables, true);
  const best: Pattern[] = [];
  const stack: Frame[] = [];
  const support = s.support;
  const root: Frame = {
    rows: support ? Int32Array.from({ length: support.codes.length / Math.max(1, v) }, (_, i) => i) : null,
    childRows: null,
    variable: -1,
    level: -1,
    role: 'y',
    mass: { xy0: 1 - nb.prior, xy1: nb.prior, y0: 1 - nb.prior, y1: nb.prior },
    xCount: 0,
    nextVariable: 0,
    nextLevel: 0,
    nextRole: 0,
  };
  stack.push(root);
  let nodes = 0;
  let pruned = 0;
  let complete = true;
  // The stop is polled by work done, not by nodes: a node's cost is the rows its support filter scans,
  // which on large data makes a few thousand nodes take seconds.
  let work = 0;
  let nextPoll = POLL_WORK;

  const threshold = () =>
    s.ranking === 'diff' && best.length === s.k ? Math.max(s.delta, best[best.length - 1]!.score) : s.delta;

  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    // Advance the cursor to the next (variable, level, role) child.
    if (f.nextVariable >= v) {
      stack.pop();
      continue;
    }
    const c = f.nextVariable;
    const levels = variables[c]!.levels.length;
    const roles = variables[c]!.sensitive ? 2 : 1;
    const level = f.nextLevel;
    const role: Role = f.nextRole === 0 ? 'y' : 'x';
    // The rows matching the child (both roles match the same rows).
    if (support && f.nextRole === 0) {
      const parent = f.rows!;
      const out = new Int32Array(parent.length);
      let m = 0;
      for (let r = 0; r < parent.length; r++) {
        const i = parent[r]!;
        if (support.codes[i * v + c] === level) out[m++] = i;
      }
      f.childRows = out.subarray(0, m);
      work += parent.length;
    }
    const rows = f.childRows;
    if (++f.nextRole >= roles) {
      f.nextRole = 0;
      if (++f.nextLevel >= levels) {
        f.nextLevel = 0;
        f.nextVariable++;
      }
    }

    nodes++;
    work += NODE_WORK;
    if (work >= nextPoll) {
      nextPoll = work + POLL_WORK;
      if (shouldStop()) {
        complete = false;
        break;
      }
      await pause(nodes);
    }
    if (support && rows!.length < support.minRows) {
      pruned++;
      continue;
    }
    const leaf = nb.leaves[c]!;
    const p0 = leaf[level * 2]!;
    const p1 = leaf[level * 2 + 1]!;
    const m = f.mass;
    const mass: PatternMass =
      role === 'y'
        ? { xy0: m.xy0 * p0, xy1: m.xy1 * p1, y0: m.y0 * p0, y1: m.y1 * p1 }
        : { xy0: m.xy0 * p0, xy1: m.xy1 * p1, y0: m.y0, y1: m.y1 };
    // An impossible pattern and all its extensions have no mass.
    if (mass.xy0 + mass.xy1 <= 0) continue;
    const xCount = f.xCount + (role === 'x' ? 1 : 0);
    if (xCount > 0) {
      const diff = degree(mass);
      if (Math.abs(diff) > s.delta) {
        const kld = kldScore(mass, s.delta);
        const score = s.ranking === 'diff' ? Math.abs(diff) : kld;
        if (best.length < s.k || score > best[best.length - 1]!.score) {
          const items = stack
            .slice(1)
            .map((g) => ({ variable: g.variable, level: g.level, role: g.role }))
            .concat({ variable: c, level, role });
          insert(best, { items, mass, diff, kld, score }, s.k);
        }
      }
    }
    if (c + 1 >= v) continue;
    if (extensionBound(mass, c + 1, ys, xs) <= threshold()) {
      pruned++;
      continue;
    }
    stack.push({
      rows,
      childRows: null,
      variable: c,
      level,
      role,
      mass,
      xCount,
      nextVariable: c + 1,
      nextLevel: 0,
      nextRole: 0,
    });
  }
  return { patterns: best, nodesVisited: nodes, pruned, complete };
}

/** Insert into a list kept sorted by score, descending, at most k long. */
function insert(best: Pattern[], p: Pattern, k: number): void {
  let i = best.length;
  while (i > 0 && best[i - 1]!.score < p.score) i--;
  best.splice(i, 0, p);
  if (best.length > k) best.pop();
}
