// Piecewise-affine warp over a Delaunay triangulation of the landmarks plus a fixed anchor ring:
// every output pixel inside a destination triangle is sampled (bilinear) at the same barycentric
// position in the matching source triangle. Outside the ring nothing moves, and because the ring
// points are fixed, the displacement falls continuously to zero at the ring.
import type { FloatImage, Pt } from "./raster.ts";
import { sample } from "./raster.ts";

export type Triangle = [number, number, number];

/** Bowyer-Watson Delaunay triangulation (O(n^2), fine for ~100 points). */
export function delaunay(points: Pt[]): Triangle[] {
  const n = points.length;
  if (n < 3) return [];
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const d = Math.max(Math.max(...xs) - minX, Math.max(...ys) - minY) || 1;
  const midX = minX + d / 2;
  const midY = minY + d / 2;
  const pts = [...points, { x: midX - 20 * d, y: midY - d }, { x: midX, y: midY + 20 * d }, { x: midX + 20 * d, y: midY - d }];
  interface T { a: number; b: number; c: number; cx: number; cy: number; r2: number }
  const circum = (a: number, b: number, c: number): T => {
    const A = pts[a], B = pts[b], C = pts[c];
    const dd = 2 * (A.x * (B.y - C.y) + B.x * (C.y - A.y) + C.x * (A.y - B.y));
    if (Math.abs(dd) < 1e-12) return { a, b, c, cx: 0, cy: 0, r2: Infinity };
    const a2 = A.x * A.x + A.y * A.y, b2 = B.x * B.x + B.y * B.y, c2 = C.x * C.x + C.y * C.y;
    const cx = (a2 * (B.y - C.y) + b2 * (C.y - A.y) + c2 * (A.y - B.y)) / dd;
    const cy = (a2 * (C.x - B.x) + b2 * (A.x - C.x) + c2 * (B.x - A.x)) / dd;
    return { a, b, c, cx, cy, r2: (A.x - cx) ** 2 + (A.y - cy) ** 2 };
  };
  let tris: T[] = [circum(n, n + 1, n + 2)];
  for (let i = 0; i < n; i++) {
    const p = pts[i];
    const bad: T[] = [];
    const keep: T[] = [];
    for (const t of tris) ((p.x - t.cx) ** 2 + (p.y - t.cy) ** 2 <= t.r2 * (1 + 1e-9) ? bad : keep).push(t);
    // Boundary of the cavity: edges of bad triangles not shared by another bad triangle.
    const edges = new Map<string, [number, number]>();
    for (const t of bad) {
      for (const [u, v] of [[t.a, t.b], [t.b, t.c], [t.c, t.a]] as const) {
        const key = u < v ? `${u},${v}` : `${v},${u}`;
        if (edges.has(key)) edges.delete(key);
        else edges.set(key, [u, v]);
      }
    }
    for (const [u, v] of edges.values()) keep.push(circum(u, v, i));
    tris = keep;
  }
  return tris.filter((t) => t.a < n && t.b < n && t.c < n).map((t) => [t.a, t.b, t.c]);
}

/**
 * Warp `src` (ROI image) so that source points `from` land on `to` (both ROI-local), over the
 * triangles `tris` (indices into both). Pixels outside every triangle keep the source value.
 */
export function warpImage(src: FloatImage, from: Pt[], to: Pt[], tris: Triangle[]): FloatImage {
  const out = new Float32Array(src.data);
  const w = src.width;
  const h = src.height;
  for (const [ia, ib, ic] of tris) {
    const A = to[ia], B = to[ib], C = to[ic];
    const det = (B.y - C.y) * (A.x - C.x) + (C.x - B.x) * (A.y - C.y);
    if (Math.abs(det) < 1e-9) continue;
    const sa = from[ia], sb = from[ib], sc = from[ic];
    const x0 = Math.max(0, Math.floor(Math.min(A.x, B.x, C.x)));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(A.x, B.x, C.x)));
    const y0 = Math.max(0, Math.floor(Math.min(A.y, B.y, C.y)));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(A.y, B.y, C.y)));
    const eps = -1e-6;
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const l1 = ((B.y - C.y) * (px - C.x) + (C.x - B.x) * (py - C.y)) / det;
        const l2 = ((C.y - A.y) * (px - C.x) + (A.x - C.x) * (py - C.y)) / det;
        const l3 = 1 - l1 - l2;
        if (l1 < eps || l2 < eps || l3 < eps) continue;
        const sx = l1 * sa.x + l2 * sb.x + l3 * sc.x - 0.5;
        const sy = l1 * sa.y + l2 * sb.y + l3 * sc.y - 0.5;
        sample(src, sx, sy, out, (y * w + x) * 3);
      }
    }
  }
  return { ...src, data: out };
}

/** Twice the signed area of triangle t over points P. */
export function signedArea(P: Pt[], [a, b, c]: Triangle): number {
  return (P[b].x - P[a].x) * (P[c].y - P[a].y) - (P[c].x - P[a].x) * (P[b].y - P[a].y);
}

export interface FoldFreeWarp {
  /** Destination points: `to` with the displacement of some points shortened. */
  to: Pt[];
  /** The mesh, triangulated on the SOURCE points (so it is valid at zero displacement). */
  tris: Triangle[];
  /** Smallest per-point displacement scale used (1 = nothing shortened). */
  minScale: number;
}

/**
 * Make a landmark warp fold-free: a warp whose destination triangle flips orientation samples the
 * source mirrored there (eyes and mouths drawn inside out), and one that nearly collapses a
 * triangle smears it. The mesh is triangulated on the source points, where every triangle is
 * positive; then, while some destination triangle is flipped or squeezed below `minAreaRatio` of
 * its source area (or stretched past 1 / minAreaRatio), the displacement of that triangle's
 * movable vertices is shortened step by step. At zero displacement every triangle is its source,
 * so this always ends; only the points involved in a fold give up part of their change.
 * Points at index >= `movable` (the fixed anchor ring) never move.
 */
export function foldFreeWarp(from: Pt[], to: Pt[], movable: number, minAreaRatio = 0.3): FoldFreeWarp {
  // Delaunay gives triangles in either winding: orient every one positively on the source, so a
  // negative destination area means a flip whatever the winding was.
  const tris = delaunay(from).map((t): Triangle => (signedArea(from, t) < 0 ? [t[0], t[2], t[1]] : t));
  const scale = new Float64Array(from.length).fill(1);
  const out = to.map((p) => ({ ...p }));
  const place = (i: number) => {
    const s = i < movable ? scale[i] : 0;
    out[i] = { x: from[i].x + (to[i].x - from[i].x) * s, y: from[i].y + (to[i].y - from[i].y) * s };
  };
  for (let i = 0; i < from.length; i++) place(i);
  const srcArea = tris.map((t) => signedArea(from, t));
  // Geometric shortening first; after 40 rounds the points still involved give up their change
  // entirely (a triangle whose vertices are all unmoved is its source triangle, so this ends).
  for (let iter = 0; iter < 40 + movable; iter++) {
    const shrink = new Set<number>();
    tris.forEach((t, k) => {
      if (srcArea[k] <= 1e-9) return;
      const r = signedArea(out, t) / srcArea[k];
      if (r < minAreaRatio || r > 1 / minAreaRatio) for (const i of t) if (i < movable && scale[i] > 0) shrink.add(i);
    });
    if (shrink.size === 0) break;
    for (const i of shrink) {
      scale[i] = iter >= 40 ? 0 : scale[i] * 0.85;
      place(i);
    }
  }
  let minScale = 1;
  for (let i = 0; i < movable; i++) minScale = Math.min(minScale, scale[i]);
  return { to: out, tris, minScale };
}
