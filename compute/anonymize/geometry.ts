// Face geometry from the 68 iBUG landmarks: a face frame (origin between the eyes, x along the eye
// line, unit = inter-ocular distance), and the identity-driven reshaping of the landmarks (eye
// spacing and size, brow height, nose width/length, mouth width/position, jaw width, chin length).
// All changes are made in the face frame, so they follow the head's roll and scale, and the moved
// landmarks drive a piecewise-affine warp (warp.ts): pose and expression come from the input.
import type { Pt } from "./raster.ts";
import type { SyntheticIdentity } from "./identity.ts";

export const JAW = [0, 16] as const;
export const BROW_R = [17, 21] as const; // subject's right = image left
export const BROW_L = [22, 26] as const;
export const NOSE_BRIDGE = [27, 30] as const;
export const NOSE_BASE = [31, 35] as const;
export const EYE_R = [36, 41] as const;
export const EYE_L = [42, 47] as const;
export const MOUTH_OUT = [48, 59] as const;
export const MOUTH_IN = [60, 67] as const;

export const range = ([a, b]: readonly [number, number]): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);

export function mean(pts: Pt[], idx: number[]): Pt {
  let x = 0;
  let y = 0;
  for (const i of idx) {
    x += pts[i].x;
    y += pts[i].y;
  }
  return { x: x / idx.length, y: y / idx.length };
}

/** Similarity frame of a face: o = eye midpoint, ex = unit eye-line vector * IOD, ey = perpendicular (down). */
export interface FaceFrame {
  o: Pt;
  iod: number;
  cos: number;
  sin: number;
}

export function faceFrame(pts: Pt[]): FaceFrame {
  const r = mean(pts, range(EYE_R));
  const l = mean(pts, range(EYE_L));
  const dx = l.x - r.x;
  const dy = l.y - r.y;
  const iod = Math.max(1e-3, Math.hypot(dx, dy));
  return { o: { x: (r.x + l.x) / 2, y: (r.y + l.y) / 2 }, iod, cos: dx / iod, sin: dy / iod };
}

/** Image -> face coordinates (units of IOD). */
export function toFace(f: FaceFrame, p: Pt): Pt {
  const x = p.x - f.o.x;
  const y = p.y - f.o.y;
  return { x: (x * f.cos + y * f.sin) / f.iod, y: (-x * f.sin + y * f.cos) / f.iod };
}

/** Face -> image coordinates. */
export function toImage(f: FaceFrame, p: Pt): Pt {
  const x = p.x * f.iod;
  const y = p.y * f.iod;
  return { x: f.o.x + x * f.cos - y * f.sin, y: f.o.y + x * f.sin + y * f.cos };
}

/**
 * The identity's landmarks: the input's 68 points reshaped in the face frame. `amount` scales
 * every change (1 = the identity as drawn). Yaw is approximated by the nose's horizontal offset:
 * changes are applied symmetrically about the nose line, not the eye midpoint.
 */
export function reshape(pts: Pt[], id: SyntheticIdentity, amount = 1): Pt[] {
  const f = faceFrame(pts);
  const q = pts.map((p) => toFace(f, p));
  const out = q.map((p) => ({ ...p }));
  const a = amount;
  const axis = (q[27].x + q[30].x + q[33].x + q[8].x) / 4; // face midline x (follows yaw a little)
  const moveGroup = (idx: number[], fn: (p: Pt, c: Pt) => Pt) => {
    const c = mean(q, idx);
    for (const i of idx) out[i] = fn(out[i], c);
  };
  // Eyes: spacing, size, vertical position. Brows follow the eye's horizontal move.
  for (const [eye, brow, side] of [[range(EYE_R), range(BROW_R), -1], [range(EYE_L), range(BROW_L), 1]] as const) {
    const dx = side * id.eyeSpacing * a;
    moveGroup(eye, (p, c) => ({
      x: c.x + (p.x - c.x) * (1 + (id.eyeScaleX - 1) * a) + dx,
      y: c.y + (p.y - c.y) * (1 + (id.eyeScaleY - 1) * a) + id.eyeShiftY * a,
    }));
    moveGroup(brow, (p, c) => {
      // Tilt about the brow's inner end: outer end up for browTilt > 0.
      const t = (p.x - c.x) * side;
      return { x: p.x + dx * 0.8, y: p.y + (id.browShiftY + id.eyeShiftY * 0.5) * a - t * id.browTilt * a };
    });
  }
  // Nose: base width about the midline, length (base and tip move down/up), bridge stretched.
  const noseBaseY = q[33].y;
  for (const i of range(NOSE_BASE)) {
    out[i] = { x: axis + (q[i].x - axis) * (1 + (id.noseWidth - 1) * a), y: q[i].y + id.noseLength * a };
  }
  for (const i of range(NOSE_BRIDGE)) {
    const t = (q[i].y - q[27].y) / Math.max(1e-3, noseBaseY - q[27].y);
    out[i] = { x: q[i].x, y: q[i].y + id.noseLength * a * Math.max(0, Math.min(1, t)) };
  }
  // Mouth: width about its centre, vertical shift, lip thickness (outer lip away from inner lip).
  const mouth = [...range(MOUTH_OUT), ...range(MOUTH_IN)];
  const mc = mean(q, mouth);
  const inner = range(MOUTH_IN);
  const ic = mean(q, inner);
  for (const i of mouth) {
    const p = q[i];
    let y = p.y;
    if (i <= 59) {
      // Outer lip: scale its distance to the inner lip line.
      const innerY = i <= 54 ? Math.min(ic.y, p.y) : Math.max(ic.y, p.y);
      y = innerY + (p.y - innerY) * (1 + (id.lipThickness - 1) * a);
    }
    out[i] = { x: mc.x + (p.x - mc.x) * (1 + (id.mouthWidth - 1) * a), y: y + id.mouthShiftY * a };
  }
  // Jaw: width about the midline (more at the cheeks than at the chin), chin length.
  for (const i of range(JAW)) {
    const p = q[i];
    const w = 1 - Math.abs(i - 8) / 8; // 1 at the chin, 0 at the ears
    out[i] = {
      x: axis + (p.x - axis) * (1 + (id.jawWidth - 1) * a * (1 - 0.5 * w)),
      y: p.y + id.chinLength * a * w * w,
    };
  }
  return out.map((p) => toImage(f, p));
}

/**
 * Fixed anchors around the face for the warp: a ring of points on an ellipse well outside the jaw
 * and brows (forehead included), which do not move, so the warp fades out to the identity map.
 */
export function anchorRing(pts: Pt[], n = 16, extra = 0, forehead = 0.75): Pt[] {
  const f = faceFrame(pts);
  // Face-frame ellipse: centre a bit below the eyes, generous radii.
  const q = pts.map((p) => toFace(f, p));
  const xs = q.map((p) => p.x);
  const ys = q.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const top = Math.min(...ys) - forehead - 0.15; // forehead above the brows
  const bottom = Math.max(...ys);
  const cy = (top + bottom) / 2;
  const rx = (Math.max(...xs) - Math.min(...xs)) / 2 + 0.45 + extra;
  const ry = (bottom - top) / 2 + 0.4 + extra;
  const ring: Pt[] = [];
  for (let k = 0; k < n; k++) {
    const t = (2 * Math.PI * k) / n;
    ring.push(toImage(f, { x: cx + rx * Math.cos(t), y: cy + ry * Math.sin(t) }));
  }
  return ring;
}

/** Forehead points (face frame: above the brows) that complete the face outline for masks. */
export function faceOutline(pts: Pt[], foreheadHeight = 0.75): Pt[] {
  const f = faceFrame(pts);
  const q = pts.map((p) => toFace(f, p));
  const jaw = range(JAW).map((i) => q[i]);
  const browTop = Math.min(...[...range(BROW_R), ...range(BROW_L)].map((i) => q[i].y));
  const top = browTop - foreheadHeight;
  const left = q[0];
  const right = q[16];
  const forehead: Pt[] = [];
  const n = 7;
  for (let k = 0; k <= n; k++) {
    const t = k / n; // right ear (16) over the top to the left ear (0)
    const x = right.x + (left.x - right.x) * t;
    const lift = Math.sin(Math.PI * t);
    const yEdge = right.y + (left.y - right.y) * t;
    forehead.push({ x, y: yEdge + (top - yEdge) * Math.sqrt(lift) });
  }
  return [...jaw, ...forehead.slice(1, -1)].map((p) => toImage(f, p));
}
