/**
 * Minimum-cost perfect assignment of an n x n cost matrix (row-major), by the Jonker-Volgenant
 * algorithm ("A shortest augmenting path algorithm for dense and sparse linear assignment problems",
 * Computing 1987): column reduction, reduction transfer, two passes of augmenting row reduction, then
 * a Dijkstra-like shortest augmenting path for every row still free. O(n^3) in the worst case, much
 * less in practice; memory O(n) beyond the cost matrix.
 *
 * `shouldStop` is polled between augmentations; when it returns true the solve is abandoned and null
 * returned. Otherwise returns `rowToCol` (row i is assigned column rowToCol[i]).
 */
export function solveAssignment(cost: Float64Array, n: number, shouldStop: () => boolean): Int32Array | null {
  if (cost.length !== n * n) throw new RangeError(`cost has ${cost.length} entries, not ${n} x ${n}`);
  const rowsol = new Int32Array(n).fill(-1);
  const colsol = new Int32Array(n).fill(-1);
  const v = new Float64Array(n);
  if (n === 0) return rowsol;
  const matches = new Int32Array(n);

  // Column reduction: each column goes to its cheapest row, if that row is not already taken by a
  // cheaper column.
  for (let j = n - 1; j >= 0; j--) {
    let min = cost[j]!;
    let imin = 0;
    for (let i = 1; i < n; i++) {
      const c = cost[i * n + j]!;
      if (c < min) {
        min = c;
        imin = i;
      }
    }
    v[j] = min;
    if (++matches[imin]! === 1) {
      rowsol[imin] = j;
      colsol[j] = imin;
    } else if (v[j]! < v[rowsol[imin]!]!) {
      const j1 = rowsol[imin]!;
      rowsol[imin] = j;
      colsol[j] = imin;
      colsol[j1] = -1;
    } else colsol[j] = -1;
  }

  // Reduction transfer from rows matched once; collect unmatched rows.
  const free = new Int32Array(n);
  let numFree = 0;
  for (let i = 0; i < n; i++) {
    if (matches[i] === 0) free[numFree++] = i;
    else if (matches[i] === 1) {
      const j1 = rowsol[i]!;
      let min = Number.POSITIVE_INFINITY;
      for (let j = 0; j < n; j++)
        if (j !== j1 && cost[i * n + j]! - v[j]! < min) min = cost[i * n + j]! - v[j]!;
      if (Number.isFinite(min)) v[j1]! -= min;
    }
  }
  // Augmenting row reduction, two passes. Each step keeps the optimality of assigned rows, so the
  // passes are capped (ties between duplicate rows can make them cycle) and leftovers augmented below.
  const cap = 16 * n;
  for (let pass = 0; pass < 2 && numFree > 0; pass++) {
    let k = 0;
    const previous = numFree;
    numFree = 0;
    let steps = 0;
    while (k < previous) {
      if (++steps > cap) {
        while (k < previous) free[numFree++] = free[k++]!;
        break;
      }
      const i = free[k++]!;
      let umin = cost[i * n]! - v[0]!;
      let j1 = 0;
      let j2 = -1;
      let usubmin = Number.POSITIVE_INFINITY;
      for (let j = 1; j < n; j++) {
        const h = cost[i * n + j]! - v[j]!;
        if (h < usubmin) {
          if (h >= umin) {
            usubmin = h;
            j2 = j;
          } else {
            usubmin = umin;
            umin = h;
            j2 = j1;
            j1 = j;
          }
        }
      }
      let i0 = colsol[j1]!;
      if (umin < usubmin) v[j1] = v[j1]! - (usubmin - umin);
      else if (i0 >= 0 && j2 >= 0) {
        j1 = j2;
        i0 = colsol[j2]!;
      }
      if (i0 >= 0 && rowsol[i0] === j1) rowsol[i0] = -1;
      rowsol[i] = j1;
      colsol[j1] = i;
      if (i0 >= 0) {
        if (umin < usubmin) free[--k] = i0;
        else free[numFree++] = i0;
      }
    }
  }

  // Shortest augmenting paths for the remaining free rows.
  const d = new Float64Array(n);
  const pred = new Int32Array(n);
  const collist = new Int32Array(n);
  for (let f = 0; f < numFree; f++) {
    if (shouldStop()) return null;
    const freerow = free[f]!;
    for (let j = 0; j < n; j++) {
      d[j] = cost[freerow * n + j]! - v[j]!;
      pred[j] = freerow;
      collist[j] = j;
    }
    let low = 0;
    let up = 0;
    let last = 0;
    let min = 0;
    let endOfPath = -1;
    while (endOfPath < 0) {
      if (up === low) {
        // The columns at the new minimum distance become the next to scan.
        last = low - 1;
        min = d[collist[up++]!]!;
        for (let k = up; k < n; k++) {
          const j = collist[k]!;
          const h = d[j]!;
          if (h <= min) {
            if (h < min) {
              up = low;
              min = h;
            }
            collist[k] = collist[up]!;
            collist[up++] = j;
          }
        }
        for (let k = low; k < up; k++) {
          if (colsol[collist[k]!]! < 0) {
            endOfPath = collist[k]!;
            break;
          }
        }
      }
      if (endOfPath >= 0) break;
      const j1 = collist[low++]!;
      const i = colsol[j1]!;
      const h = cost[i * n + j1]! - v[j1]! - min;
      for (let k = up; k < n; k++) {
        const j = collist[k]!;
        const v2 = cost[i * n + j]! - v[j]! - h;
        if (v2 < d[j]!) {
          pred[j] = i;
          if (v2 === min) {
            if (colsol[j]! < 0) {
              endOfPath = j;
              break;
            }
            collist[k] = collist[up]!;
            collist[up++] = j;
          }
          d[j] = v2;
        }
      }
    }
    // Column prices of the scanned columns, then flip the path.
    for (let k = 0; k <= last; k++) {
      const j1 = collist[k]!;
      v[j1] = v[j1]! + d[j1]! - min;
    }
    let i: number;
    do {
      i = pred[endOfPath]!;
      colsol[endOfPath] = i;
      const j1 = endOfPath;
      endOfPath = rowsol[i]!;
      rowsol[i] = j1;
    } while (i !== freerow);
  }
  return rowsol;
}
