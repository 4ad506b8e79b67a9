// Temporal propagation: fill the removed object's hole in frame i with the background that other
// frames show at the same place.
//
// Two sources, both aligned by the camera's estimated translation (motion.ts):
//  - a window of frames around i: `lookbehind` past and `lookahead` future frames (the future is
//    why frames are held back: background that is only revealed after the object moves on);
//  - a background plate: a per-pixel running mean of every unmasked sample seen so far (up to the
//    last 8 samples' worth), kept in the current frame's coordinates by shifting it with the camera.
//    It is the unbounded look-behind of a static-camera background model, in one frame of memory.
// Each hole pixel takes the per-channel median of the plate and up to `samples` window samples,
// nearest in time first, taken only where that frame's own mask is clear. What no source shows
// is filled spatially (inpaint.ts). The result is blended into the frame through the soft mask, so
// the rim of the hole blends, and pixels outside the mask are never touched.
//
// Alignment: integer pixel shifts (nearest sample) of the accumulated sub-pixel translation, so a
// static camera is copied exactly and a pan is at most half a pixel off. When a frame aligns with
// neither the key frame nor the previous frame (a cut, a zoom, shake: residual above
// `maxResidual`), a new segment starts: frames of other segments are not used and the plate is
// reset.
import { composite } from "../effects/composite.ts";
import type { Frame, Mask } from "../types.ts";
import { inpaint } from "./inpaint.ts";
import { estimateTranslation, pyramid, type Level, type Motion } from "./motion.ts";

export interface TemporalFillOptions {
  /** Future frames held back and searched (default 100: 4 s at 25 fps, for a slow walker to uncover what was behind; the pipeline lowers it to fit its memory budget). */
  lookahead: number;
  /** Past frames kept and searched (default 4; the plate covers the older past). */
  lookbehind: number;
  /** Window samples per pixel (default 5), plus the plate's. */
  samples: number;
  /** Skip motion estimation: frames are aligned as they are. */
  staticCamera: boolean;
  /** Colour hint for what no frame shows (prompt_bg). */
  hint: readonly [number, number, number] | null;
  /** Mean grey difference after alignment above which two frames are unrelated (default 18). */
  maxResidual: number;
}

export const DEFAULT_TEMPORAL_FILL: TemporalFillOptions = {
  lookahead: 100,
  lookbehind: 4,
  samples: 5,
  staticCamera: false,
  hint: null,
  maxResidual: 18,
};

interface Entry {
  index: number;
  frame: Frame;
  mask: Mask;
  /** Accumulated camera translation: pixel p shows world point p + (tx, ty). */
  tx: number;
  ty: number;
  segment: number;
}

/** Per-frame figures, for tests and logs. */
export interface FillStats {
  index: number;
  holePixels: number;
  /** Hole pixels filled from other frames (window or plate). */
  temporal: number;
  /** Hole pixels filled spatially. */
  spatial: number;
  tx: number;
  ty: number;
  segment: number;
}

/** A frame's grey pyramid (its mask excluded) and its accumulated camera translation. */
interface TrackedFrame {
  levels: Level[];
  tx: number;
  ty: number;
  index: number;
}

const PLATE_MEMORY = 8;
/** Fraction of the frame two frames must both show unmasked to be matched. */
const MIN_SUPPORT = 0.2;
/** Key frame for motion: renewed past this shift (px) or this many frames. */
const KEY_SHIFT = 16;
const KEY_FRAMES = 50;

export class TemporalFill {
  readonly options: TemporalFillOptions;
  readonly stats: FillStats[] = [];
  #entries: Entry[] = []; // consecutive indices
  #nextOut = 0;
  /** The key frame, and the last frame measured. */
  #ref: TrackedFrame | null = null;
  #last: TrackedFrame | null = null;
  /** The last frame's translation, and the camera's last measured velocity (px/frame): the next frame is searched for at their sum. */
  #position: [number, number] = [0, 0];
  #velocity: [number, number] = [0, 0];
  #segment = 0;
  #plate: { rgb: Float32Array; count: Uint8Array; tx: number; ty: number; segment: number; width: number; height: number } | null = null;

  constructor(options: Partial<TemporalFillOptions> = {}) {
    this.options = { ...DEFAULT_TEMPORAL_FILL, ...options };
  }

  /** Frame `index` (0, 1, ... in order) and its removal mask; returns the frames that are final. */
  push(frame: Frame, mask: Mask): Frame[] {
    const index = this.#entries.length ? this.#entries.at(-1)!.index + 1 : this.#nextOut;
    const [tx, ty] = this.options.staticCamera ? [0, 0] : this.#track(pyramid(frame, mask), index);
    this.#entries.push({ index, frame, mask, tx, ty, segment: this.#segment });
    const out: Frame[] = [];
    while (this.#nextOut + this.options.lookahead <= index) out.push(this.#emit());
    return out;
  }

  /**
   * The camera's accumulated translation at frame `index` (the frame after the last one tracked).
   * Measured against a key frame, not the previous frame: a slow pan (a fraction of a pixel per
   * frame) then adds up exactly instead of being lost in per-frame rounding. The search starts
   * where the pan so far predicts. When the key frame does not match, the last measured frame is
   * tried: a key frame half masked (a large object, a false box) can share too little with frames
   * a few seconds later although each frame still matches its neighbour. When neither shares
   * enough unmasked picture to compare (an object filling the frame), the pan goes on as it went;
   * only a frame that compares and differs (a cut, a zoom, shake) starts a new segment. A new key
   * frame is taken when the shift grows large, after KEY_FRAMES frames, or when the old one failed.
   */
  #track(levels: Level[], index: number): [number, number] {
    const ref = this.#ref, last = this.#last;
    if (!ref || !last) return this.#keyFrame({ levels, index, tx: 0, ty: 0 });
    const [px, py] = this.#position, [vx, vy] = this.#velocity;
    const predicted: [number, number] = [px + vx, py + vy];
    let base = ref;
    let m = estimateTranslation(ref.levels, levels, { dx: predicted[0] - ref.tx, dy: predicted[1] - ref.ty });
    let compared = m.support >= MIN_SUPPORT;
    if (!this.#aligned(m) && last !== ref) {
      base = last;
      m = estimateTranslation(last.levels, levels, { dx: predicted[0] - last.tx, dy: predicted[1] - last.ty });
      compared ||= m.support >= MIN_SUPPORT;
    }
    if (!compared) return (this.#position = predicted);
    if (!this.#aligned(m)) {
      this.#segment++;
      this.#velocity = [0, 0];
      return this.#keyFrame({ levels, index, tx: px, ty: py });
    }
    const tracked: TrackedFrame = { levels, index, tx: base.tx + m.dx, ty: base.ty + m.dy };
    // Over the whole span since the frame matched: per frame, sub-pixel estimates wobble by 0.3 px
    // (0.3, 0.6, 0.2 for a 0.4 px/frame pan), and a wobble carried over ten masked frames is 2 px.
    const span = index - base.index;
    this.#velocity = [(tracked.tx - base.tx) / span, (tracked.ty - base.ty) / span];
    this.#last = tracked;
    if (base !== ref || Math.hypot(m.dx, m.dy) > KEY_SHIFT || index - ref.index >= KEY_FRAMES) this.#ref = tracked;
    return (this.#position = [tracked.tx, tracked.ty]);
  }

  #aligned(m: Motion): boolean {
    return m.residual <= this.options.maxResidual && m.support >= MIN_SUPPORT;
  }

  #keyFrame(frame: TrackedFrame): [number, number] {
    this.#ref = this.#last = frame;
    return (this.#position = [frame.tx, frame.ty]);
  }

  /** Every frame still held, filled with what the window has. */
  finish(): Frame[] {
    const out: Frame[] = [];
    while (this.#entries.some((e) => e.index === this.#nextOut)) out.push(this.#emit());
    return out;
  }

  #emit(): Frame {
    const i = this.#nextOut++;
    const at = this.#entries.findIndex((e) => e.index === i);
    const entry = this.#entries[at];
    const out = this.#fill(entry);
    this.#updatePlate(entry);
    // Keep `lookbehind` past frames.
    while (this.#entries.length && this.#entries[0].index < this.#nextOut - this.options.lookbehind) this.#entries.shift();
    return out;
  }

  #alignPlate(entry: Entry): void {
    const { width: W, height: H } = entry.frame;
    if (!this.#plate || this.#plate.segment !== entry.segment || this.#plate.width !== W || this.#plate.height !== H) {
      this.#plate = { rgb: new Float32Array(W * H * 3), count: new Uint8Array(W * H), tx: Math.round(entry.tx), ty: Math.round(entry.ty), segment: entry.segment, width: W, height: H };
      return;
    }
    const plate = this.#plate;
    const sx = Math.round(entry.tx - plate.tx), sy = Math.round(entry.ty - plate.ty);
    if (sx === 0 && sy === 0) return;
    // New plate pixel p = old plate pixel p + (sx, sy).
    const rgb = new Float32Array(W * H * 3);
    const count = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) {
      const oy = y + sy;
      if (oy < 0 || oy >= H) continue;
      for (let x = 0; x < W; x++) {
        const ox = x + sx;
        if (ox < 0 || ox >= W) continue;
        const p = y * W + x, o = oy * W + ox;
        count[p] = plate.count[o];
        rgb[p * 3] = plate.rgb[o * 3];
        rgb[p * 3 + 1] = plate.rgb[o * 3 + 1];
        rgb[p * 3 + 2] = plate.rgb[o * 3 + 2];
      }
    }
    plate.rgb = rgb;
    plate.count = count;
    plate.tx += sx;
    plate.ty += sy;
  }

  #updatePlate(entry: Entry): void {
    const plate = this.#plate!;
    const { data, channels: c } = entry.frame;
    const m = entry.mask.data;
    for (let p = 0; p < m.length; p++) {
      if (m[p] !== 0) continue;
      const n = Math.min(255, plate.count[p] + 1);
      plate.count[p] = n;
      const a = 1 / Math.min(n, PLATE_MEMORY);
      const i = p * c, q = p * 3;
      plate.rgb[q] += (data[i] - plate.rgb[q]) * a;
      plate.rgb[q + 1] += (data[i + 1] - plate.rgb[q + 1]) * a;
      plate.rgb[q + 2] += (data[i + 2] - plate.rgb[q + 2]) * a;
    }
  }

  #fill(entry: Entry): Frame {
    this.#alignPlate(entry);
    const plate = this.#plate!;
    const { frame, mask } = entry;
    const { width: W, height: H, channels: c } = frame;
    const stat: FillStats = { index: entry.index, holePixels: 0, temporal: 0, spatial: 0, tx: entry.tx, ty: entry.ty, segment: entry.segment };
    this.stats.push(stat);
    const m = mask.data;
    let any = false;
    for (let p = 0; p < m.length; p++) if (m[p]) { any = true; break; }
    if (!any) return frame;

    // Sources, nearest in time first (past before future on ties), with their integer offsets.
    const sources = this.#entries
      .filter((e) => e !== entry && e.segment === entry.segment)
      .sort((a, b) => Math.abs(a.index - entry.index) - Math.abs(b.index - entry.index) || a.index - b.index)
      .map((e) => ({ data: e.frame.data, mask: e.mask.data, ox: Math.round(entry.tx - e.tx), oy: Math.round(entry.ty - e.ty), c: e.frame.channels }));
    const psx = Math.round(entry.tx - plate.tx), psy = Math.round(entry.ty - plate.ty);

    const filled = Buffer.from(frame.data);
    const unknown = new Uint8Array(W * H);
    let unknownCount = 0;
    const K = this.options.samples;
    const r = new Float32Array(K + 1), g = new Float32Array(K + 1), b = new Float32Array(K + 1);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const p = y * W + x;
        if (!m[p]) continue;
        stat.holePixels++;
        let n = 0;
        for (const s of sources) {
          const qx = x + s.ox, qy = y + s.oy;
          if (qx < 0 || qy < 0 || qx >= W || qy >= H) continue;
          const q = qy * W + qx;
          if (s.mask[q] !== 0) continue;
          const i = q * s.c;
          r[n] = s.data[i];
          g[n] = s.data[i + 1];
          b[n] = s.data[i + 2];
          if (++n >= K) break;
        }
        const px = x + psx, py = y + psy;
        if (px >= 0 && py >= 0 && px < W && py < H) {
          const q = py * W + px;
          if (plate.count[q] > 0) {
            r[n] = plate.rgb[q * 3];
            g[n] = plate.rgb[q * 3 + 1];
            b[n] = plate.rgb[q * 3 + 2];
            n++;
          }
        }
        if (n === 0) {
          unknown[p] = 1;
          unknownCount++;
          continue;
        }
        const i = p * c;
        filled[i] = Math.round(median(r, n));
        filled[i + 1] = Math.round(median(g, n));
        filled[i + 2] = Math.round(median(b, n));
      }
    }
    stat.spatial = unknownCount;
    stat.temporal = stat.holePixels - unknownCount;
    let fill: Frame = { data: filled, width: W, height: H, channels: c };
    if (unknownCount) fill = inpaint(fill, unknown, { hint: this.options.hint });
    return composite(frame, fill, mask);
  }
}

/** Median of the first n values (sorts them in place; n is small). */
function median(v: Float32Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const x = v[i];
    let j = i - 1;
    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
  return n % 2 ? v[n >> 1] : (v[(n >> 1) - 1] + v[n >> 1]) / 2;
}
