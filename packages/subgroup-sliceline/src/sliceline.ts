import type { RunController } from '@fb/core';
import { SliceEvaluator } from './bitset-kernels.js';
import { CandidateTable } from './candidates.js';
import { columnStatistics, type OneHotMatrix } from './one-hot.js';
import { score, scoreUpperBound } from './score.js';

export interface SliceLineParams {
  /** Number of top slices kept. */
  k: number;
  /** Weight of the error term against the size term, in (0, 1]. */
  alpha: number;
  /** Largest number of predicates in a slice. */
  maxLevel: number;
  /** Smallest slice size, in rows (absolute). */
  minSupport: number;
}

/** A slice: a conjunction of one-hot columns (at most one per feature) with its statistics. */
export interface Slice {
  /** One-hot column indices, ascending. */
  predicates: Int32Array;
  score: number;
  /** Total error se. */
  error: number;
  /** Largest single error sm. */
  maxError: number;
  /** Rows ss. */
  size: number;
}

/** What happened at one level of the lattice (SystemDS's debug table, with the pruning counts). */
export interface LevelStatistics {
  level: number;
  /** Parent pairs joined into a candidate (self-joins on one feature excluded). */
  pairs: number;
  /** Distinct candidates after deduplication. */
  candidates: number;
  /** Candidates some of whose parents are missing (missing-parent pruning). */
  missingParents: number;
  /** Candidates whose size upper bound is below minSupport. */
  sizePruned: number;
  /** Candidates whose score upper bound is at most max(0, the current k-th score). */
  scorePruned: number;
  /** Candidates evaluated on the data. */
  evaluated: number;
  /** Evaluated slices with score > 0 and size >= minSupport. */
  valid: number;
  /** Best score among this level's evaluated slices (null when none). */
  maxScore: number | null;
}

export interface SliceLineResult {
  /** The top-k slices, best first. */
  top: Slice[];
  averageError: number;
  levels: LevelStatistics[];
  /** False when a budget or abort stopped the enumeration early. */
  complete: boolean;
}

type Control = Pick<RunController, 'shouldStop' | 'checkpoint'>;

/**
 * The slices of one level that can be parents of the next (size >= minSupport, positive error):
 * predicates (stride L) and statistics.
 */
interface Level {
  L: number;
  count: number;
  preds: Int32Array;
  ss: Float64Array;
  se: Float64Array;
  sm: Float64Array;
}

const EVAL_BLOCK = 256;
/** Inner-loop steps of the join between two checkpoints (a few milliseconds). */
const JOIN_WORK = 1 << 15;
/** Candidates filtered between two stop checks. */
const FILTER_BLOCK = 4096;
/** New valid slices held before they are merged into the top-k, as a multiple of k. */
const FRESH_FACTOR = 4;

/**
 * Merge new valid slices into the top-k: k best by score, earlier entries first among ties. Merging
 * the new slices in several batches, in order, gives the same top-k as merging them at once.
 */
function maintainTopK(top: Slice[], fresh: Slice[], k: number): Slice[] {
  if (fresh.length === 0) return top;
  return [...top, ...fresh].sort((a, b) => b.score - a.score).slice(0, k);
}

/**
 * Join the parents S (level L − 1) pairwise into level-L candidates: the pairs with |a ∩ b| = L − 2
 * (S·Sᵀ == L − 2, upper triangle), computed sparsely through an inverted index of predicates; joins of
 * two predicates on one feature are dropped; equal unions are deduplicated, each keeping the minimum
 * statistics over the parent pairs that produced it. Returns null when stopped.
 */
async function joinParents(
  parents: Level,
  featureOf: Int32Array,
  l: number,
  ctl: Control,
): Promise<{ table: CandidateTable; pairs: number } | null> {
  const P = parents.L;
  const L = P + 1;
  const { count, preds, ss, se, sm } = parents;
  const table = new CandidateTable(L);
  const key = new Int32Array(L);
  let pairs = 0;
  const emit = (a: number, b: number, extra: number) => {
    // key = predicates of a plus `extra` (b's predicate outside a), ascending.
    let t = 0;
    let placed = false;
    for (let p = 0; p < P; p++) {
      const c = preds[a * P + p]!;
      if (!placed && extra < c) {
        key[t++] = extra;
        placed = true;
      }
      key[t++] = c;
    }
    if (!placed) key[t] = extra;
    pairs++;
    table.add(key, 0, Math.min(ss[a]!, ss[b]!), Math.min(se[a]!, se[b]!), Math.min(sm[a]!, sm[b]!));
  };

  // Checkpoints come by work done, not by parents: one parent may join with thousands of others.
  let work = JOIN_WORK;
  if (P === 1) {
    for (let a = 0; a < count; a++) {
      if (work >= JOIN_WORK) {
        work = 0;
        if (await ctl.checkpoint({ phase: 'join', done: a, total: count })) return null;
      }
      const fa = featureOf[preds[a]!]!;
      for (let b = a + 1; b < count; b++) if (featureOf[preds[b]!] !== fa) emit(a, b, preds[b]!);
      work += count - a;
    }
    return { table, pairs };
  }

  // Inverted index (CSC of S): the parents holding each one-hot column.
  const start = new Int32Array(l + 1);
  for (let k = 0; k < count * P; k++) start[preds[k]! + 1]!++;
  for (let c = 0; c < l; c++) start[c + 1]! += start[c]!;
  const holders = new Int32Array(count * P);
  const fill = start.slice(0, l);
  for (let s = 0; s < count; s++) for (let p = 0; p < P; p++) holders[fill[preds[s * P + p]!]!++] = s;

  const overlap = new Int32Array(count);
  const touched = new Int32Array(count);
  for (let a = 0; a < count; a++) {
    if (work >= JOIN_WORK) {
      work = 0;
      if (await ctl.checkpoint({ phase: 'join', done: a, total: count })) return null;
    }
    let nTouched = 0;
    for (let p = 0; p < P; p++) {
      const c = preds[a * P + p]!;
      work += start[c + 1]! - start[c]!;
      for (let h = start[c]!, end = start[c + 1]!; h < end; h++) {
        const b = holders[h]!;
        if (b <= a) continue;
        if (overlap[b]++ === 0) touched[nTouched++] = b;
      }
    }
    for (let t = 0; t < nTouched; t++) {
      const b = touched[t]!;
      if (overlap[b] === P - 1) {
        // The single predicate of b outside a, and the one of a outside b (both lists ascending).
        let pa = 0;
        let pb = 0;
        let onlyA = -1;
        let onlyB = -1;
        while (pa < P || pb < P) {
          const ca = pa < P ? preds[a * P + pa]! : Number.MAX_SAFE_INTEGER;
          const cb = pb < P ? preds[b * P + pb]! : Number.MAX_SAFE_INTEGER;
          if (ca === cb) {
            pa++;
            pb++;
          } else if (ca < cb) {
            onlyA = ca;
            pa++;
          } else {
            onlyB = cb;
            pb++;
          }
        }
        if (featureOf[onlyA] !== featureOf[onlyB]) emit(a, b, onlyB);
      }
      overlap[b] = 0;
    }
    work += nTouched;
  }
  return { table, pairs };
}

/**
 * SliceLine (Sagadeeva & Boehm, SIGMOD 2021): exact top-k enumeration of slices (conjunctions of
 * one-hot predicates) by score, level by level, with size, score-upper-bound and missing-parent
 * pruning. `errors` must be non-negative.
 */
export async function sliceLine(
  x2: OneHotMatrix,
  errors: Float64Array,
  params: SliceLineParams,
  ctl: Control,
): Promise<SliceLineResult> {
  const { n, m, l, featureOf } = x2;
  const { k, alpha, minSupport } = params;
  let total = 0;
  for (let i = 0; i < n; i++) total += errors[i]!;
  const eAvg = total / n;
  const levels: LevelStatistics[] = [];
  if (!(total > 0) || ctl.shouldStop())
    return { top: [], averageError: eAvg, levels, complete: !ctl.shouldStop() };

  // Level 1: one slice per one-hot column with ss >= minSupport and se > 0.
  const basic = columnStatistics(x2, errors);
  const keep = new Uint8Array(l);
  const cols: number[] = [];
  for (let c = 0; c < l; c++) {
    if (basic.size[c]! >= minSupport && basic.error[c]! > 0) {
      keep[c] = 1;
      cols.push(c);
    }
  }
  let current: Level = {
    L: 1,
    count: cols.length,
    preds: Int32Array.from(cols),
    ss: Float64Array.from(cols, (c) => basic.size[c]!),
    se: Float64Array.from(cols, (c) => basic.error[c]!),
    sm: Float64Array.from(cols, (c) => basic.maxError[c]!),
  };
  const fresh: Slice[] = [];
  let maxScore: number | null = null;
  for (let s = 0; s < current.count; s++) {
    const sc = score(current.ss[s]!, current.se[s]!, eAvg, alpha, n);
    if (Number.isFinite(sc)) maxScore = maxScore === null ? sc : Math.max(maxScore, sc);
    if (sc > 0) fresh.push(sliceOf(current, s, sc));
  }
  let top = maintainTopK([], fresh, k);
  levels.push({
    level: 1,
    pairs: 0,
    candidates: l,
    missingParents: 0,
    sizePruned: l - cols.length,
    scorePruned: 0,
    evaluated: l,
    valid: fresh.length,
    maxScore,
  });

  const evaluator = new SliceEvaluator(x2, errors, keep);
  const maxLevel = Math.min(m, params.maxLevel);
  let complete = true;
  while (current.count > 0 && current.L < maxLevel) {
    const L = current.L + 1;
    const joined = await joinParents(current, featureOf, l, ctl);
    if (joined === null) {
      complete = false;
      break;
    }
    const { table, pairs } = joined;
    const cand = table.view();
    const threshold = top.length >= k ? top[k - 1]!.score : Number.NEGATIVE_INFINITY;
    const allParents = (L * (L - 1)) / 2;
    const survivors = new Int32Array(table.count);
    let nSurvivors = 0;
    let missingParents = 0;
    let sizePruned = 0;
    let scorePruned = 0;
    for (let c = 0; c < table.count; c++) {
      if (c % FILTER_BLOCK === 0 && ctl.shouldStop()) break;
      const hasParents = cand.pairs[c] === allParents;
      const sizeOk = cand.ss[c]! >= minSupport;
      const ub = scoreUpperBound(cand.ss[c]!, cand.se[c]!, cand.sm[c]!, eAvg, minSupport, alpha, n);
      const scoreOk = ub > threshold && ub > 0;
      if (!hasParents) missingParents++;
      if (!sizeOk) sizePruned++;
      if (!scoreOk) scorePruned++;
      if (hasParents && sizeOk && scoreOk) survivors[nSurvivors++] = c;
    }
    if (ctl.shouldStop()) {
      complete = false;
      break;
    }

    const next: Level = {
      L,
      count: 0,
      preds: new Int32Array(nSurvivors * L),
      ss: new Float64Array(nSurvivors),
      se: new Float64Array(nSurvivors),
      sm: new Float64Array(nSurvivors),
    };
    let evaluated = 0;
    // Valid slices of this level that can enter the top-k: merged into it in batches, so that a
    // level of many valid slices holds few at a time.
    let levelFresh: Slice[] = [];
    let valid = 0;
    let entry = top.length >= k ? top[k - 1]!.score : Number.NEGATIVE_INFINITY;
    let levelMax: number | null = null;
    for (let t = 0; t < nSurvivors; t++) {
      if (
        t % EVAL_BLOCK === 0 &&
        (await ctl.checkpoint({ phase: `level-${L}`, done: t, total: nSurvivors }))
      ) {
        complete = false;
        break;
      }
      // Evaluated into the next free place of `next`, which keeps it only if it can be a parent.
      const w = next.count;
      next.preds.set(cand.keys.subarray(survivors[t]! * L, survivors[t]! * L + L), w * L);
      evaluator.evaluate(next.preds, w * L, L, w, next.ss, next.se, next.sm);
      evaluated++;
      const size = next.ss[w]!;
      const sc = score(size, next.se[w]!, eAvg, alpha, n);
      if (Number.isFinite(sc)) levelMax = levelMax === null ? sc : Math.max(levelMax, sc);
      if (size >= minSupport && next.se[w]! > 0) next.count++;
      if (sc > 0 && size >= minSupport) {
        valid++;
        // Among equal scores earlier slices rank first, so a slice must beat the k-th to enter.
        if (sc > entry) levelFresh.push(sliceOf(next, w, sc));
        if (levelFresh.length >= FRESH_FACTOR * k) {
          top = maintainTopK(top, levelFresh, k);
          levelFresh = [];
          if (top.length >= k) entry = top[k - 1]!.score;
        }
      }
    }
    top = maintainTopK(top, levelFresh, k);
    levels.push({
      level: L,
      pairs,
      candidates: table.count,
      missingParents,
      sizePruned,
      scorePruned,
      evaluated,
      valid,
      maxScore: levelMax,
    });
    if (!complete) break;
    current = next;
  }
  return { top, averageError: eAvg, levels, complete };
}

function sliceOf(level: Level, s: number, sc: number): Slice {
  const { L } = level;
  return {
    predicates: level.preds.slice(s * L, s * L + L),
    score: sc,
    error: level.se[s]!,
    maxError: level.sm[s]!,
    size: level.ss[s]!,
  };
}
