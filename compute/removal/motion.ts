// Global camera motion between consecutive frames, as one translation (pan/tilt), so background
// seen in one frame can be found again in another. Coarse-to-fine block matching on a grey
// pyramid, with the removed object's mask excluded (it moves on its own and would drag the
// estimate), then a parabola fit for sub-pixel precision.
//
// Only translation: zoom, rotation and parallax are not modelled. When the best translation still
// leaves a large residual (a cut, a zoom, a shaky hand-held shot), the caller treats the pair as
// unaligned and does not propagate pixels across it.
import type { Frame, Mask } from "../types.ts";
import { halveGrey } from "../effects/downsample.ts";

/** One level of the pyramid: grey values and which pixels may be compared (not under the mask). */
export interface Level {
  gray: Float32Array;
  valid: Uint8Array;
  width: number;
  height: number;
}

export interface Motion {
  /** Frame b's content equals frame a's content shifted by -(dx, dy): b(p) ~ a(p + (dx, dy)). */
  dx: number;
  dy: number;
  /** Mean absolute grey difference (0..255) left after alignment. */
  residual: number;
  /** Fraction of sampled pixels that could be compared. */
  support: number;
}

/** Coarsest level is at most this wide. */
const TOP_WIDTH = 200;
/** Search radius at the coarsest level, in its pixels. */
const TOP_RADIUS = 6;
/** Sub-pixel shifts smaller than this are treated as none (a tripod shot stays exactly aligned). */
export const DEAD_BAND = 0.2;
/** Squared differences are capped (robust to what changed between the frames). */
const CAP = 40 * 40;

export function pyramid(frame: Frame, mask: Mask | null): Level[] {
  const { width, height, channels: c, data } = frame;
  const gray = new Float32Array(width * height);
  const valid = new Uint8Array(width * height);
  for (let p = 0, i = 0; p < gray.length; p++, i += c) {
    gray[p] = 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
    valid[p] = mask && mask.data[p] > 0 ? 0 : 1;
  }
  const levels: Level[] = [{ gray, valid, width, height }];
  while (levels.at(-1)!.width > TOP_WIDTH && levels.at(-1)!.height > 32) levels.push(halve(levels.at(-1)!));
  return levels;
}

function halve(l: Level): Level {
  const w = l.width >> 1, h = l.height >> 1;
  const valid = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = 2 * y * l.width + 2 * x, b = a + l.width;
      valid[y * w + x] = l.valid[a] & l.valid[a + 1] & l.valid[b] & l.valid[b + 1];
    }
  }
  return { gray: halveGrey(l.gray, l.width, l.height), valid, width: w, height: h };
}

// Mean capped squared difference of b(p) vs a(p + d) over a grid with `step`, and the count.
function cost(a: Level, b: Level, dx: number, dy: number, step: number): [number, number] {
  const { width: w, height: h } = b;
  let sum = 0, n = 0;
  const x0 = Math.max(0, -dx), x1 = Math.min(w, w - dx);
  const y0 = Math.max(0, -dy), y1 = Math.min(h, h - dy);
  for (let y = y0; y < y1; y += step) {
    const rb = y * w, ra = (y + dy) * w + dx;
    for (let x = x0; x < x1; x += step) {
      if (!b.valid[rb + x] || !a.valid[ra + x]) continue;
      const d = b.gray[rb + x] - a.gray[ra + x];
      sum += Math.min(CAP, d * d);
      n++;
    }
  }
  return [n ? sum / n : Infinity, n];
}

function meanAbs(a: Level, b: Level, dx: number, dy: number, step: number): number {
  const { width: w, height: h } = b;
  let sum = 0, n = 0;
  for (let y = Math.max(0, -dy); y < Math.min(h, h - dy); y += step) {
    for (let x = Math.max(0, -dx); x < Math.min(w, w - dx); x += step) {
      const pb = y * w + x, pa = (y + dy) * w + x + dx;
      if (!b.valid[pb] || !a.valid[pa]) continue;
      sum += Math.abs(b.gray[pb] - a.gray[pa]);
      n++;
    }
  }
  return n ? sum / n : 255;
}

/**
 * Translation taking frame a to frame b (see Motion). The search is centred on `guess` (full-frame
 * pixels): it reaches TOP_RADIUS pixels of the coarsest level around it, which is only 6-14 px in a
 * frame 200-400 px wide, so a caller tracking a pan passes the shift it predicts.
 */
export function estimateTranslation(a: Level[], b: Level[], guess: { dx: number; dy: number } = { dx: 0, dy: 0 }): Motion {
  const top = Math.min(a.length, b.length) - 1;
  let bx = Math.round(guess.dx / 2 ** top), by = Math.round(guess.dy / 2 ** top);
  for (let level = top; level >= 0; level--) {
    if (level < top) {
      bx *= 2;
      by *= 2;
    }
    const r = level === top ? TOP_RADIUS : 1;
    const gx = guess.dx / 2 ** level, gy = guess.dy / 2 ** level;
    const step = level === 0 ? 2 : 1;
    let best = Infinity, cx = bx, cy = by;
    for (let dy = by - r; dy <= by + r; dy++) {
      for (let dx = bx - r; dx <= bx + r; dx++) {
        // On ties (flat regions) prefer the shift nearest the guess (none, unless one is given).
        const [c] = cost(a[level], b[level], dx, dy, step);
        const penalty = 1e-3 * (Math.abs(dx - gx) + Math.abs(dy - gy));
        if (c + penalty < best) {
          best = c + penalty;
          cx = dx;
          cy = dy;
        }
      }
    }
    bx = cx;
    by = cy;
  }
  const [c0, n] = cost(a[0], b[0], bx, by, 2);
  const sub = (cm: number, cp: number): number => {
    const denom = cm - 2 * c0 + cp;
    if (!Number.isFinite(denom) || denom <= 1e-9) return 0;
    return Math.max(-0.5, Math.min(0.5, (cm - cp) / (2 * denom)));
  };
  const fx = sub(cost(a[0], b[0], bx - 1, by, 2)[0], cost(a[0], b[0], bx + 1, by, 2)[0]);
  const fy = sub(cost(a[0], b[0], bx, by - 1, 2)[0], cost(a[0], b[0], bx, by + 1, 2)[0]);
  let dx = bx + fx, dy = by + fy;
  if (Math.abs(dx) < DEAD_BAND) dx = 0;
  if (Math.abs(dy) < DEAD_BAND) dy = 0;
  const total = Math.ceil(b[0].width / 2) * Math.ceil(b[0].height / 2);
  return { dx, dy, residual: meanAbs(a[0], b[0], bx, by, 2), support: n / total };
}
