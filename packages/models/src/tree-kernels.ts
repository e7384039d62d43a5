/**
 * The tree walks behind `CodedTrees`, self-contained (no imports, no module state): prediction threads
 * run their source text.
 */

/**
 * Bit fields of a node word (see `walkSource`). From the low end: the feature (all ones, a
 * feature no row has, at a leaf), then the threshold field 2^rankBits - rank (0 at a leaf), then in the
 * packed layout the left child. Rows are encoded as code << featureBits with code < 2^rankBits, so adding a
 * row's code to the word carries one into the child field exactly when code >= rank: the step
 * `(w + code) >>> childShift` is the child to go to.
 */
export interface Layout {
  readonly packed: boolean;
  readonly featureBits: number;
  /** All ones over the feature field: `(w & featureMask) === featureMask` iff w is a leaf. */
  readonly featureMask: number;
  readonly rankBits: number;
  /** featureBits + rankBits. */
  readonly childShift: number;
}

/**
 * Labels instead of class sums: a row's walk through the trees stops at the first check after which no
 * later tree can change its argmax.
 */
export interface VotePlan {
  /** One label per row (the job's `out` is not used). */
  labels: Int32Array;
  /** bound[t]: the most trees t, t+1, ... can add to one class of a row (bound[T] = 0). */
  bound: Float64Array;
  /** The factor that turns sums into probabilities: undecided rows take the argmax of the scaled sums. */
  scale: number;
  /** Row-tree walks done per chunk (written by the thread that ran the chunk). */
  walks: Float64Array;
}

/** A batch to walk: the compiled trees, the rows, the output, and the chunk counters when shared. */
export interface TreeJob {
  nodes: readonly Int32Array[];
  values: readonly Float64Array[];
  /** Per feature, its thresholds over all the trees. */
  cutIndex: readonly CutIndex[];
  /** The walk for the trees' layout and row width (see `walkSource`). */
  walkSource: string;
  layout: Layout;
  d: number;
  K: number;
  x: Float64Array;
  n: number;
  out: Float64Array;
  /** Shared counters [next chunk, chunks done, failed] when several threads share the job. */
  control: Int32Array | null;
  chunkRows: number;
  /** Most trees walked between two checks of a vote (see `walkChunk`). */
  every: number;
  vote: VotePlan | null;
}

/** Per-thread working arrays for one chunk of rows. */
export interface ChunkScratch {
  /** The layout's field widths that the codes were written with. */
  featureBits: number;
  rankBits: number;
  codes: Int32Array;
  sums: Float64Array;
  /** Each row's place in the chunk (rows move when reordered or decided). */
  ids: Int32Array;
  /** The leaf each row reached in the last tree walked. */
  leaves: Int32Array;
  /** Counting-sort buckets, one per node of the largest tree (allocated on the first reordering). */
  counts: Int32Array;
  /** A row's codes and sums, carried while rows move into leaf order (see `moveRows`). */
  carry: Int32Array;
  carrySums: Float64Array;
}

/**
 * Encode the job's chunks of rows and walk them with `walk` (compiled from the job's walk source); with a
 * control array, claim chunks until none is left (every thread of a shared job runs this). `own` holds
 * the rows of chunk 0 where the calling thread has them, not in shared memory: that thread walks chunk 0
 * before claiming (the others claim from chunk 1). Working arrays come from `kept`, the scratch returned
 * by the thread's last call, when it fits: fresh arrays of a large chunk cost their page faults and
 * zeroing again (2 ms for 50,000 Adult rows). Returns the scratch used. Self-contained: prediction threads
 * run its source text.
 */
export function runChunks(
  job: TreeJob,
  walk: Walk,
  kept: ChunkScratch | null,
  own: Float64Array | null = null,
): ChunkScratch {
  const { cutIndex, d, K, x, n, control, chunkRows, vote, layout } = job;
  const cap = Math.min(chunkRows, n);
  // A row on a leaf reads the code at its offset plus the leaf's feature field: pad past the last row.
  const codeSpace = cap * d + layout.featureMask;
  // A row on a leaf reads codes past its own, which may be left from an earlier chunk or call: harmless
  // only while they are codes of the same field widths (they then never carry out of the leaf's
  // threshold field).
  const s: ChunkScratch =
    kept &&
    kept.featureBits === layout.featureBits &&
    kept.rankBits === layout.rankBits &&
    kept.codes.length >= codeSpace &&
    kept.sums.length >= cap * K &&
    kept.ids.length >= cap &&
    kept.carry.length === d &&
    kept.carrySums.length === K
      ? kept
      : {
          featureBits: layout.featureBits,
          rankBits: layout.rankBits,
          codes: new Int32Array(codeSpace),
          sums: new Float64Array(cap * K),
          ids: new Int32Array(cap),
          leaves: new Int32Array(cap),
          counts: new Int32Array(0),
          carry: new Int32Array(d),
          carrySums: new Float64Array(K),
        };
  const chunks = Math.ceil(n / chunkRows);
  const claim = () => (control ? Atomics.add(control, 0, 1) : 0);
  for (let c = own ? 0 : claim(); c < chunks; ) {
    const lo = c * chunkRows;
    const rows = Math.min(chunkRows, n - lo);
    const from = own && c === 0 ? own : x;
    // A walk's first chunk in this thread starts with 260 rows of their own (enough to be reordered, and
    // not a multiple of the eight walked together): they run the reordering, the votes and a remainder
    // of rows once before V8 optimises the walk on the rest of the chunk, so that the optimised code is
    // not thrown away on reaching one of them (see `walkChunk`). Rows are independent: the sums and
    // labels are the same either way.
    let walks = 0;
    for (let a = 0; a < rows; ) {
      const b = walk.primed ? rows : Math.min(rows, 260);
      walk.primed = true;
      // Encode 256 rows (28 KB of values at 14 features) at a time, feature by feature: the rows stay in
      // cache from one feature to the next instead of being read from memory once per feature.
      for (let r = 0; r < b - a; r += 256) {
        const tile = Math.min(256, b - a - r);
        for (let j = 0; j < d; j++)
          encodeColumn(cutIndex[j]!, from, d, j, lo + a + r, tile, s.codes, r, layout.featureBits);
      }
      walks += walkChunk(job, walk, s, b - a, lo + a);
      a = b;
    }
    if (vote) vote.walks[c] = walks;
    if (control) {
      Atomics.add(control, 1, 1);
      Atomics.notify(control, 1);
      c = claim();
    } else c++;
  }
  return s;
}

/**
 * The scratch to keep for a thread's next call: s, unless it holds more than 64 MB (a huge batch should
 * not pin its memory for the rest of the process). Self-contained: prediction threads run its source text.
 */
export function keepScratch(s: ChunkScratch): ChunkScratch | null {
  const bytes =
    s.codes.byteLength + s.sums.byteLength + s.ids.byteLength + s.leaves.byteLength + s.counts.byteLength;
  return bytes <= 64 * 2 ** 20 ? s : null;
}

/**
 * Walk the chunk's rows (codes of rows lo..lo+rows-1 in s.codes) through the trees in order, summing
 * their leaf values, and write the sums to out, or with a vote the labels. After the first tree, rows of
 * a large chunk are reordered by the leaf they reached (a counting sort): rows walked together are then
 * alike, follow similar paths to similar depths in the other trees, and fewer steps wait for the deepest
 * row of eight.
 * From the first tree after which a row can be decided, every `every` trees, a vote labels each row whose
 * leading class is ahead of every other by more than the trees left can add, and drops it. Every row's
 * sum still grows in tree order from 0, so sums and labels are those of the plain walk, bit for bit.
 * Returns the row-tree walks done.
 * Each phase (walking, deciding, reordering, writing out) is a function of its own, so that V8
 * optimises each loop apart: as one function, optimised while the first tree was walked, it was thrown
 * back to the interpreter each time a later phase first ran (six times in a process's first large
 * batch, counted with `node --trace-deopt`), and the next batch ran slow again. Self-contained, as are
 * its phases: prediction threads run their source text.
 */
export function walkChunk(job: TreeJob, walk: Walk, s: ChunkScratch, rows: number, lo: number): number {
  const { nodes, values, layout, d, K, vote, every } = job;
  const T = nodes.length;
  // Covers the rounding of the sums and of the bounds (both far below 1e-9 of their size).
  const slack = vote ? 1e-9 * (vote.bound[0]! + 1) : 0;
  s.sums.fill(0, 0, rows * K);
  for (let i = 0; i < rows; i++) s.ids[i] = i;
  let active = rows;
  let walks = 0;
  // Reordering pays only on batches much larger than the eight rows walked together; small batches
  // (a tester's few queries) skip it and its buckets.
  const sorting = T > 1 && rows >= 256;
  if (sorting) {
    let maxNodes = 0;
    for (const nd of nodes) maxNodes = Math.max(maxNodes, layout.packed ? nd.length : nd.length / 2);
    if (s.counts.length < maxNodes) s.counts = new Int32Array(maxNodes);
  }
  // Checks start at the first tree after which a row can be decided (a quarter of Adult's rows are
  // decided there), then come every `every` trees.
  let nextCheck = 0;
  for (let t = 0; t < T && active > 0; ) {
    const sort = t === 0 && sorting;
    // Fewer than eight rows walk eight trees at a time each (see `walkSource`).
    const step = active < 8 && t + 8 <= T ? 8 : 1;
    const walked = t + step;
    if (step === 8) walkTrees8(walk, nodes, values, t, K, s.codes, d, s.sums, active);
    else walk.rows(nodes[t]!, values[t]!, K, s.codes, active, s.sums, 0, s.leaves);
    walks += active * step;
    t = walked;
    // No row can be decided while the trees walked could add less than the trees left.
    if (
      vote !== null &&
      walked < T &&
      walked >= nextCheck &&
      vote.bound[0]! - vote.bound[walked]! >= vote.bound[walked]!
    ) {
      nextCheck = walked + every;
      active = decideRows(s, active, d, K, vote.labels, lo, vote.bound[walked]! + slack);
    }
    if (sort) {
      leafStarts(s, active);
      moveRows(s, active, d, K);
    }
  }
  writeRows(job, s, active, lo);
  return walks;
}

/** Walk each of `active` rows through trees t..t+7 (see `Walk.trees8`). Self-contained. */
export function walkTrees8(
  walk: Walk,
  nodes: readonly Int32Array[],
  values: readonly Float64Array[],
  t: number,
  K: number,
  codes: Int32Array,
  d: number,
  sums: Float64Array,
  active: number,
): void {
  for (let i = 0; i < active; i++) walk.trees8(nodes, values, t, K, codes, i * d, sums, i * K);
}

/**
 * Label each of the first `active` rows of s whose leading class is ahead of every other by more than
 * `needed`, and drop it; returns the rows left. Self-contained.
 */
export function decideRows(
  s: ChunkScratch,
  active: number,
  d: number,
  K: number,
  labels: Int32Array,
  lo: number,
  needed: number,
): number {
  const { codes, sums, ids, leaves } = s;
  for (let i = 0; i < active; ) {
    const o = i * K;
    // The first largest sum and its lead over the others; without a branch for two classes, whose
    // leader no branch predictor can guess.
    let best = 0;
    let lead: number;
    if (K === 2) {
      const diff = sums[o + 1]! - sums[o]!;
      best = +(diff > 0);
      lead = Math.abs(diff);
    } else {
      let top = sums[o]!;
      let second = Number.NEGATIVE_INFINITY;
      for (let k = 1; k < K; k++) {
        const v = sums[o + k]!;
        if (v > top) {
          second = top;
          top = v;
          best = k;
        } else if (v > second) second = v;
      }
      lead = top - second;
    }
    if (lead <= needed) {
      i++;
      continue;
    }
    labels[lo + ids[i]!] = best;
    // The last row fills the decided row's place (checked next): one row moves per decided row,
    // where keeping the order would move every row behind it.
    const last = --active;
    if (i === last) break;
    for (let j = 0; j < d; j++) codes[i * d + j] = codes[last * d + j]!;
    for (let k = 0; k < K; k++) sums[o + k] = sums[last * K + k]!;
    ids[i] = ids[last]!;
    leaves[i] = leaves[last]!;
  }
  return active;
}

/**
 * Count the first `active` rows of s per leaf (s.leaves), and turn the counts into each leaf's first
 * place in leaf order (see `moveRows`). Self-contained.
 */
export function leafStarts(s: ChunkScratch, active: number): void {
  const { leaves, counts } = s;
  counts.fill(0);
  for (let i = 0; i < active; i++) counts[leaves[i]!]!++;
  for (let q = 0, start = 0; q < counts.length; q++) {
    const size = counts[q]!;
    counts[q] = start;
    start += size;
  }
}

/**
 * Move the first `active` rows of s (codes, sums, ids) into leaf order, in place: a row takes the next
 * free place of its leaf (from `leafStarts`) when it is first moved, and swaps with the row there, which
 * moves on in turn, until a row lands on the place the chain started from. Each row moves once, and a
 * place filled is marked by setting its leaf to -1. In place, where a counting sort into second copies of
 * the arrays would double a chunk's working memory. Self-contained.
 */
export function moveRows(s: ChunkScratch, active: number, d: number, K: number): void {
  const { codes, sums, ids, leaves, counts, carry, carrySums } = s;
  for (let start = 0; start < active; start++) {
    if (leaves[start]! < 0) continue;
    // The row on the move, in carry and carrySums.
    for (let j = 0; j < d; j++) carry[j] = codes[start * d + j]!;
    for (let k = 0; k < K; k++) carrySums[k] = sums[start * K + k]!;
    let id = ids[start]!;
    let to = counts[leaves[start]!]!++;
    while (to !== start) {
      const next = counts[leaves[to]!]!++;
      leaves[to] = -1;
      for (let j = 0; j < d; j++) {
        const v = codes[to * d + j]!;
        codes[to * d + j] = carry[j]!;
        carry[j] = v;
      }
      for (let k = 0; k < K; k++) {
        const v = sums[to * K + k]!;
        sums[to * K + k] = carrySums[k]!;
        carrySums[k] = v;
      }
      const pushed = ids[to]!;
      ids[to] = id;
      id = pushed;
      to = next;
    }
    for (let j = 0; j < d; j++) codes[start * d + j] = carry[j]!;
    for (let k = 0; k < K; k++) sums[start * K + k] = carrySums[k]!;
    ids[start] = id;
    leaves[start] = -1;
  }
}

/**
 * Write the sums of the `active` rows still in s: with a vote, each row's label (the argmax of its
 * scaled sums), else the sums to the job's out. Self-contained.
 */
export function writeRows(job: TreeJob, s: ChunkScratch, active: number, lo: number): void {
  const { K, out, vote } = job;
  const { sums, ids } = s;
  if (vote) {
    const { scale, labels } = vote;
    for (let i = 0; i < active; i++) {
      const o = i * K;
      let best = 0;
      for (let k = 1; k < K; k++) if (sums[o + k]! * scale > sums[o + best]! * scale) best = k;
      labels[lo + ids[i]!] = best;
    }
  } else {
    for (let i = 0; i < active; i++) {
      const o = i * K;
      const r = (lo + ids[i]!) * K;
      for (let k = 0; k < K; k++) out[r + k] = sums[o + k]!;
    }
  }
}

/**
 * A feature's thresholds with a bucket table that narrows their search to a few of them: bucket(v) =
 * min(max((v - origin) * scale, 0), buckets - 1) | 0 never decreases as v grows (NaN goes to bucket 0), so
 * the thresholds of bucket b are below every value of a later bucket and above every value of an earlier
 * one, and the thresholds below v are first[bucket(v)] plus those of v's own bucket below v.
 */
export interface CutIndex {
  /** The distinct thresholds, ascending, then `window` times +Infinity (the last bucket's window). */
  cuts: Float64Array;
  origin: number;
  scale: number;
  /** first[b]: the number of thresholds in the buckets before b (one entry per bucket). */
  first: Int32Array;
  /** A power of two at least the largest bucket's size: the span searched from first[b]. */
  window: number;
}

/** The number of thresholds of ix below v (0 for NaN), as `lowerBound` counts them. */
export function rankOf(ix: CutIndex, v: number): number {
  const { cuts, first } = ix;
  let c = first[Math.min(Math.max((v - ix.origin) * ix.scale, 0), first.length - 1) | 0]!;
  for (let n = ix.window; n > 1; ) {
    const half = n >>> 1;
    c += half * +(cuts[c + half - 1]! < v);
    n -= half;
  }
  return c + +(cuts[c]! < v);
}

/**
 * Write the codes of feature j of rows from..from+rows-1 of x (width d), each `rankOf(ix, value) << shift`,
 * to rows at..at+rows-1 of codes (width d). Four searches run side by side: each is a chain of dependent loads, and
 * four chains keep the processor busy while each waits.
 */
export function encodeColumn(
  ix: CutIndex,
  x: Float64Array,
  d: number,
  j: number,
  from: number,
  rows: number,
  codes: Int32Array,
  at: number,
  shift: number,
): void {
  const { cuts, origin, scale, first, window } = ix;
  const last = first.length - 1;
  let i = 0;
  for (; i + 3 < rows; i += 4) {
    const v0 = x[(from + i) * d + j]!;
    const v1 = x[(from + i + 1) * d + j]!;
    const v2 = x[(from + i + 2) * d + j]!;
    const v3 = x[(from + i + 3) * d + j]!;
    let c0 = first[Math.min(Math.max((v0 - origin) * scale, 0), last) | 0]!;
    let c1 = first[Math.min(Math.max((v1 - origin) * scale, 0), last) | 0]!;
    let c2 = first[Math.min(Math.max((v2 - origin) * scale, 0), last) | 0]!;
    let c3 = first[Math.min(Math.max((v3 - origin) * scale, 0), last) | 0]!;
    // The same halving steps as `rankOf`, on four values at once.
    for (let n = window; n > 1; ) {
      const half = n >>> 1;
      c0 += half * +(cuts[c0 + half - 1]! < v0);
      c1 += half * +(cuts[c1 + half - 1]! < v1);
      c2 += half * +(cuts[c2 + half - 1]! < v2);
      c3 += half * +(cuts[c3 + half - 1]! < v3);
      n -= half;
    }
    codes[(at + i) * d + j] = (c0 + +(cuts[c0]! < v0)) << shift;
    codes[(at + i + 1) * d + j] = (c1 + +(cuts[c1]! < v1)) << shift;
    codes[(at + i + 2) * d + j] = (c2 + +(cuts[c2]! < v2)) << shift;
    codes[(at + i + 3) * d + j] = (c3 + +(cuts[c3]! < v3)) << shift;
  }
  for (; i < rows; i++) codes[(at + i) * d + j] = rankOf(ix, x[(from + i) * d + j]!) << shift;
}

/**
 * Add the class distributions of the leaves l0..l7 reached by eight consecutive rows to out from o, and
 * record the leaves in `leaves` from `at`.
 */
export function addLeaves8(
  out: Float64Array,
  o: number,
  K: number,
  value: Float64Array,
  l0: number,
  l1: number,
  l2: number,
  l3: number,
  l4: number,
  l5: number,
  l6: number,
  l7: number,
  leaves: Int32Array,
  at: number,
): void {
  leaves[at] = l0;
  leaves[at + 1] = l1;
  leaves[at + 2] = l2;
  leaves[at + 3] = l3;
  leaves[at + 4] = l4;
  leaves[at + 5] = l5;
  leaves[at + 6] = l6;
  leaves[at + 7] = l7;
  for (let k = 0; k < K; k++) {
    out[o + k]! += value[l0 * K + k]!;
    out[o + K + k]! += value[l1 * K + k]!;
    out[o + 2 * K + k]! += value[l2 * K + k]!;
    out[o + 3 * K + k]! += value[l3 * K + k]!;
    out[o + 4 * K + k]! += value[l4 * K + k]!;
    out[o + 5 * K + k]! += value[l5 * K + k]!;
    out[o + 6 * K + k]! += value[l6 * K + k]!;
    out[o + 7 * K + k]! += value[l7 * K + k]!;
  }
}

/** Tree walks compiled for one layout and row width: see `walkSource`. */
export interface Walk {
  /**
   * Whether this thread has walked a first small piece with it (see `runChunks`); in the compiled
   * object from the start, so that setting it does not change the object's shape.
   */
  primed: boolean;
  /**
   * Add, for each of `rows` rows, the leaf values it reaches in one tree (eight rows at a time), and
   * record the leaf in `leaves`. Only the first tree's leaves are used (to reorder the rows), but every
   * tree records them: as a store that only the first tree's walk made, it was met by V8's optimised walk
   * without type feedback, and the walk was thrown back to the interpreter and compiled again, in each
   * thread's first large batch.
   */
  rows(
    nd: Int32Array,
    value: Float64Array,
    K: number,
    codes: Int32Array,
    rows: number,
    out: Float64Array,
    at: number,
    leaves: Int32Array,
  ): void;
  /** Add, for the row at code offset b, the leaf values it reaches in trees t..t+7 (all eight at once). */
  trees8(
    nodes: readonly Int32Array[],
    values: readonly Float64Array[],
    t: number,
    K: number,
    codes: Int32Array,
    b: number,
    out: Float64Array,
    o: number,
  ): void;
}

/**
 * The source of the walks of one layout and row width d (an expression giving a `Walk`). `rows` adds, for
 * each of `rows` rows (codes of width d from row 0), the class distribution of the leaf it reaches in one
 * tree to out from `at`, and records the leaf in `leaves`. Eight rows walk together, one step each per
 * turn of the loop, without a branch per row: a leaf loops on itself, and the loop ends when all eight sit
 * on leaves. `trees8` walks one row through eight trees together the same way, for batches of fewer than
 * eight rows: one row's walk through one tree is a chain of dependent loads, and eight trees give eight
 * chains to overlap. Either way a row's sums grow in tree order.
 *
 * Packed layout: a node is one int32 (see `Layout`) whose child field is the left child, the right one
 * being child + 1. Wide layout, for trees whose node index does not fit one int32 beside the feature and
 * threshold fields: node q is two int32s, the packed word without its child field at 2q and the left child
 * at 2q + 1.
 *
 * The row width, the feature mask and the shift are written into the source as numbers: as variables,
 * they and the eight row offsets do not fit the processor's registers, and the walk takes 28 ns per row
 * and tree on Adult's forest instead of 22.
 */
export function walkSource(layout: Layout, d: number): string {
  const { packed, featureMask: fm, childShift: cs } = layout;
  const lanes = (line: (k: number) => string, separator: string) =>
    [0, 1, 2, 3, 4, 5, 6, 7].map(line).join(separator);
  // One step in the nodes nd of the row whose word is w, node n and code offset b; the leaf it sits on.
  const step = (nd: string, w: string, n: string, b: string) =>
    packed
      ? `${w} = ${nd}[(${w} + codes[${b} + (${w} & ${fm})]) >>> ${cs}];`
      : `${n} = ${nd}[2 * ${n} + 1] + ((${w} + codes[${b} + (${w} & ${fm})]) >>> ${cs}); ${w} = ${nd}[2 * ${n}];`;
  const leaf = (w: string, n: string) => (packed ? `${w} >>> ${cs}` : n);
  const start = (w: string, n: string, root: string) =>
    packed ? `${w} = ${root}` : `${w} = ${root}, ${n} = 0`;
  const allOnLeaves = `(${lanes((k) => `w${k}`, ' & ')} & ${fm}) !== ${fm}`;
  return `(function () {
function rows(nd, value, K, codes, rows, out, at, leaves) {
  const full = rows - (rows & 7);
  for (let i = full; i < rows; i++) {
    const b = i * ${d};
    let ${start('w', 'n', 'nd[0]')};
    while ((w & ${fm}) !== ${fm}) { ${step('nd', 'w', 'n', 'b')} }
    const q = ${leaf('w', 'n')};
    for (let k = 0; k < K; k++) out[at + i * K + k] += value[q * K + k];
    leaves[i] = q;
  }
  for (let i = 0; i < full; i += 8) {
    const b0 = i * ${d};
    ${lanes((k) => (k === 0 ? '' : `const b${k} = b0 + ${k * d};`), ' ').trim()}
    const root = nd[0];
    let ${lanes((k) => start(`w${k}`, `n${k}`, 'root'), ', ')};
    while (${allOnLeaves}) {
      ${lanes((k) => step('nd', `w${k}`, `n${k}`, `b${k}`), '\n      ')}
    }
    addLeaves8(out, at + i * K, K, value, ${lanes((k) => leaf(`w${k}`, `n${k}`), ', ')}, leaves, i);
  }
}
function trees8(nodes, values, t, K, codes, b, out, o) {
  ${lanes((k) => `const nd${k} = nodes[t + ${k}];`, ' ')}
  let ${lanes((k) => start(`w${k}`, `n${k}`, `nd${k}[0]`), ', ')};
  while (${allOnLeaves}) {
    ${lanes((k) => step(`nd${k}`, `w${k}`, `n${k}`, 'b'), '\n    ')}
  }
  ${lanes((k) => `const q${k} = (${leaf(`w${k}`, `n${k}`)}) * K, v${k} = values[t + ${k}];`, '\n  ')}
  for (let k = 0; k < K; k++) {
    let sum = out[o + k];
    ${lanes((k) => `sum += v${k}[q${k} + k];`, ' ')}
    out[o + k] = sum;
  }
}
return { rows, trees8, primed: false };
})()`;
}

/**
 * The walk compiled from `source`, from `cache` when it was compiled before (a function compiled once
 * stays optimised from one forest to the next). Self-contained: prediction threads run its source text.
 */
export function compiledWalk(cache: Map<string, Walk>, source: string): Walk {
  let walk = cache.get(source);
  if (!walk) {
    walk = new Function('addLeaves8', `return ${source}`)(addLeaves8) as Walk;
    cache.set(source, walk);
  }
  return walk;
}
