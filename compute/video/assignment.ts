// Minimum-cost matching of tracks to detections (Hungarian method, shortest augmenting paths,
// O(n^2 m)). Greedy matching by best IoU swaps identities when two faces cross; the optimal
// matching against velocity-predicted boxes does not.

/** Cost at or above this means "may not be matched". */
export const FORBIDDEN = 1e9;

/**
 * Optimal assignment for a rows x cols cost matrix. Returns, for each row, the matched column or
 * -1. Pairs whose cost is FORBIDDEN are never returned as matches.
 */
export function assign(cost: number[][]): number[] {
  const rows = cost.length;
  const cols = rows ? cost[0].length : 0;
  if (rows === 0 || cols === 0) return new Array(rows).fill(-1);
  if (rows > cols) {
    // The method needs rows <= cols: solve the transpose and invert it.
    const transposed = Array.from({ length: cols }, (_, c) => Array.from({ length: rows }, (_, r) => cost[r][c]));
    const byCol = assign(transposed);
    const result = new Array(rows).fill(-1);
    byCol.forEach((r, c) => {
      if (r >= 0) result[r] = c;
    });
    return result;
  }
  // 1-based potentials u (rows), v (cols); way[] remembers the augmenting path.
  const u = new Float64Array(rows + 1);
  const v = new Float64Array(cols + 1);
  const matchOfCol = new Int32Array(cols + 1); // row matched to each column, 0 = none
  const way = new Int32Array(cols + 1);
  for (let i = 1; i <= rows; i++) {
    matchOfCol[0] = i;
    let j0 = 0;
    const minv = new Float64Array(cols + 1).fill(Infinity);
    const used = new Uint8Array(cols + 1);
    do {
      used[j0] = 1;
      const i0 = matchOfCol[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= cols; j++) {
        if (used[j]) continue;
        const cur = Math.min(cost[i0 - 1][j - 1], FORBIDDEN) - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= cols; j++) {
        if (used[j]) {
          u[matchOfCol[j]] += delta;
          v[j] -= delta;
        } else {
          minv[j] -= delta;
        }
      }
      j0 = j1;
    } while (matchOfCol[j0] !== 0);
    do {
      const j1 = way[j0];
      matchOfCol[j0] = matchOfCol[j1];
      j0 = j1;
    } while (j0);
  }
  const result = new Array(rows).fill(-1);
  for (let j = 1; j <= cols; j++) {
    const r = matchOfCol[j];
    if (r > 0 && cost[r - 1][j - 1] < FORBIDDEN) result[r - 1] = j - 1;
  }
  return result;
}
