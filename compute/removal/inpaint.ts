// Spatial inpainting for what no frame shows: a push-pull (multi-resolution) membrane fill.
// Known pixels are averaged down a pyramid ("pull") until every cell has data, then the coarse
// colours are interpolated back up ("push") into the unknown pixels only, bilinearly, so the fill
// is a smooth continuation of the hole's surroundings. This is what classic inpainting (Telea,
// Navier-Stokes) amounts to on large holes too: smooth, no texture. A `hint` colour (from
// prompt_bg) pulls the interior of the fill towards that colour; the rim keeps matching its
// surroundings.
import type { Frame } from "../types.ts";

export interface InpaintOptions {
  /** RGB pulled into the interior of the fill (see hintStrength). */
  hint?: readonly [number, number, number] | null;
  /** Weight of the hint at and beyond `hintDistance` px from the nearest known pixel (0..1). */
  hintStrength?: number;
  hintDistance?: number;
}

interface Grid {
  w: number;
  h: number;
  rgb: Float32Array; // 3 per cell
  wt: Float32Array; // 0..1
}

/**
 * Fills the pixels of `frame` where `unknown` is non-zero from the others. Returns a new frame;
 * known pixels are unchanged. Works on the bounding box of the unknown pixels plus context.
 */
export function inpaint(frame: Frame, unknown: Uint8Array, options: InpaintOptions = {}): Frame {
  const { width: W, height: H, channels: c } = frame;
  let x0 = W, y0 = H, x1 = -1, y1 = -1;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!unknown[y * W + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  const out = Buffer.from(frame.data);
  if (x1 < 0) return { ...frame, data: out };
  // Context around the hole: half its size, at least 16 px, so the fill sees its surroundings.
  const mx = Math.max(16, (x1 - x0 + 1) >> 1), my = Math.max(16, (y1 - y0 + 1) >> 1);
  const bx0 = Math.max(0, x0 - mx), by0 = Math.max(0, y0 - my);
  const bx1 = Math.min(W - 1, x1 + mx), by1 = Math.min(H - 1, y1 + my);
  const w = bx1 - bx0 + 1, h = by1 - by0 + 1;

  const base: Grid = { w, h, rgb: new Float32Array(w * h * 3), wt: new Float32Array(w * h) };
  let anyKnown = false;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = (by0 + y) * W + bx0 + x;
      if (unknown[p]) continue;
      const q = y * w + x;
      const i = p * c;
      base.rgb[q * 3] = frame.data[i];
      base.rgb[q * 3 + 1] = frame.data[i + 1];
      base.rgb[q * 3 + 2] = frame.data[i + 2];
      base.wt[q] = 1;
      anyKnown = true;
    }
  }
  if (!anyKnown) {
    // Nothing known at all (the whole frame is the hole): the hint or mid grey.
    const fill = options.hint ?? [128, 128, 128];
    for (let p = 0; p < W * H; p++) if (unknown[p]) for (let k = 0; k < 3; k++) out[p * c + k] = fill[k];
    return { ...frame, data: out };
  }

  // Pull: weighted 2x2 averages until one cell (or every cell known).
  const levels: Grid[] = [base];
  while (levels.at(-1)!.w > 1 || levels.at(-1)!.h > 1) {
    const f = levels.at(-1)!;
    const cw = Math.max(1, (f.w + 1) >> 1), ch = Math.max(1, (f.h + 1) >> 1);
    const g: Grid = { w: cw, h: ch, rgb: new Float32Array(cw * ch * 3), wt: new Float32Array(cw * ch) };
    let complete = true;
    for (let y = 0; y < ch; y++) {
      for (let x = 0; x < cw; x++) {
        let s = 0, r = 0, gg = 0, b = 0;
        for (let dy = 0; dy < 2; dy++) {
          for (let dx = 0; dx < 2; dx++) {
            const fx = 2 * x + dx, fy = 2 * y + dy;
            if (fx >= f.w || fy >= f.h) continue;
            const q = fy * f.w + fx, wt = f.wt[q];
            s += wt;
            r += f.rgb[q * 3] * wt;
            gg += f.rgb[q * 3 + 1] * wt;
            b += f.rgb[q * 3 + 2] * wt;
          }
        }
        const q = y * cw + x;
        if (s > 0) {
          g.rgb[q * 3] = r / s;
          g.rgb[q * 3 + 1] = gg / s;
          g.rgb[q * 3 + 2] = b / s;
        }
        g.wt[q] = Math.min(1, s);
        if (s < 1) complete = false;
      }
    }
    levels.push(g);
    if (complete) break;
  }

  // Push: each level's missing weight is made up from the (already filled) coarser level, sampled bilinearly.
  for (let l = levels.length - 2; l >= 0; l--) {
    const f = levels[l], g = levels[l + 1];
    for (let y = 0; y < f.h; y++) {
      const gy = Math.min(g.h - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
      const ya = Math.floor(gy), yb = Math.min(g.h - 1, ya + 1), ty = gy - ya;
      for (let x = 0; x < f.w; x++) {
        const q = y * f.w + x;
        const wt = f.wt[q];
        if (wt >= 1) continue;
        const gx = Math.min(g.w - 1, Math.max(0, (x + 0.5) / 2 - 0.5));
        const xa = Math.floor(gx), xb = Math.min(g.w - 1, xa + 1), tx = gx - xa;
        for (let k = 0; k < 3; k++) {
          const top = g.rgb[(ya * g.w + xa) * 3 + k] * (1 - tx) + g.rgb[(ya * g.w + xb) * 3 + k] * tx;
          const bot = g.rgb[(yb * g.w + xa) * 3 + k] * (1 - tx) + g.rgb[(yb * g.w + xb) * 3 + k] * tx;
          const up = top * (1 - ty) + bot * ty;
          f.rgb[q * 3 + k] = f.rgb[q * 3 + k] * wt + up * (1 - wt);
        }
        f.wt[q] = 1;
      }
    }
  }

  const hint = options.hint ?? null;
  const dist = hint ? distanceToKnown(unknown, W, H, bx0, by0, w, h) : null;
  const strength = options.hintStrength ?? 0.5;
  const reach = options.hintDistance ?? 24;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = (by0 + y) * W + bx0 + x;
      if (!unknown[p]) continue;
      const q = y * w + x;
      const a = hint && dist ? strength * Math.min(1, dist[q] / reach) : 0;
      for (let k = 0; k < 3; k++) {
        const v = base.rgb[q * 3 + k] * (1 - a) + (hint ? hint[k] * a : 0);
        out[p * c + k] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  return { ...frame, data: out };
}

/** Chamfer (3-4) distance in px from each cell of the box to the nearest known pixel. */
function distanceToKnown(unknown: Uint8Array, W: number, _H: number, bx0: number, by0: number, w: number, h: number): Float32Array {
  const d = new Float32Array(w * h);
  const INF = 1e9;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) d[y * w + x] = unknown[(by0 + y) * W + bx0 + x] ? INF : 0;
  const at = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? INF : d[y * w + x]);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const q = y * w + x;
      if (d[q] === 0) continue;
      d[q] = Math.min(d[q], at(x - 1, y) + 3, at(x, y - 1) + 3, at(x - 1, y - 1) + 4, at(x + 1, y - 1) + 4);
    }
  }
  for (let y = h - 1; y >= 0; y--) {
    for (let x = w - 1; x >= 0; x--) {
      const q = y * w + x;
      if (d[q] === 0) continue;
      d[q] = Math.min(d[q], at(x + 1, y) + 3, at(x, y + 1) + 3, at(x + 1, y + 1) + 4, at(x - 1, y + 1) + 4);
    }
  }
  for (let q = 0; q < d.length; q++) d[q] = d[q] >= INF ? 1e6 : d[q] / 3;
  return d;
}
