// Temporal propagation: fill the removed object's hole in frame i with the background that other
// frames show at the same place.
//
// Two sources, both aligned by the camera's estimated motion (below):
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
// static camera is copied exactly and a pan is at most half a pixel off. A zoom the translation
// cannot follow (the picture moves more the further from the centre): there two frames whose
// scales differ by half a pixel or more at the edge are aligned by the camera's scale and shift
// (KeyFramePath, camera-motion.ts, the object's mask left out), each pixel read at its scaled
// position (bench/object-removal.ts 360p-zoom). When a frame aligns with neither the key frame nor
// the previous frame (a cut, shake: residual above `maxResidual`), a new segment starts: frames of
// other segments are not used and the plate is reset.
import { composite } from "../effects/composite.ts";
import type { Frame, Mask } from "../types.ts";
import { inpaint } from "./inpaint.ts";
import { estimateTranslation, pyramid, type Level, type Motion } from "./motion.ts";
import { KeyFramePath, medianOf, type CameraMotion } from "../video/camera-motion.ts";

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
  /** Where the camera's similarity (scale and shift) puts the first frame's points in this one, and its epoch (KeyFramePath); null with staticCamera. */
  camera: { motion: CameraMotion; epoch: number } | null;
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
/**
 * Two frames whose scales differ by this many px at the frame's edge are aligned by the camera's
 * similarity (a zoom), not by the translation: a tripod or a pan stays aligned exactly as before.
 */
const ZOOM_EDGE_PX = 0.5;
/** Frames on either side whose camera scales a frame's is read off (a robust line): see #cameraOf. */
const SCALE_WINDOW = 3;

/** Where a pixel (x, y) of one frame is in another: (k x + bx, k y + by), rounded. */
interface Alignment {
  k: number;
  bx: number;
  by: number;
}

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
  #plate: { rgb: Float32Array; count: Uint8Array; tx: number; ty: number; camera: Entry["camera"]; segment: number; width: number; height: number } | null = null;
  readonly #camera = new KeyFramePath();

  constructor(options: Partial<TemporalFillOptions> = {}) {
    this.options = { ...DEFAULT_TEMPORAL_FILL, ...options };
  }

  /** Frame `index` (0, 1, ... in order) and its removal mask; returns the frames that are final. */
  push(frame: Frame, mask: Mask): Frame[] {
    const index = this.#entries.length ? this.#entries.at(-1)!.index + 1 : this.#nextOut;
    const [tx, ty] = this.options.staticCamera ? [0, 0] : this.#track(pyramid(frame, mask), index);
    const camera = this.options.staticCamera ? null : this.#camera.next(frame, mask);
    this.#entries.push({ index, frame, mask, tx, ty, camera, segment: this.#segment });
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
    // Its camera (scale pooled over its neighbours) once: every alignment of this frame starts from it.
    const camera = this.#cameraOf(entry);
    const onPlate = this.#alignPlate(entry, camera);
    const out = this.#fill(entry, camera, onPlate);
    this.#updatePlate(entry, onPlate);
    // Keep `lookbehind` past frames.
    while (this.#entries.length && this.#entries[0].index < this.#nextOut - this.options.lookbehind) this.#entries.shift();
    return out;
  }

  /**
   * `e`'s camera with its scale read off a robust line through the scales of the held frames within
   * SCALE_WINDOW of it (same epoch; the repeated median on the log scale: each frame's median slope
   * to the others, their median, then the median intercept): a zoom changes smoothly, while single
   * fits against a key frame are off by up to 0.7 % on a plain pan (coffee.png, 1 px/frame: 1.0061
   * and 1.0071 side by side among 1.0012-1.0017), 2 px at the edge, and by 0.2-0.3 % through a
   * zoom (360p-zoom frame 22, against its neighbours). A median of the scales themselves returns
   * the frame's own scale through a zoom, whose every step exceeds that noise. The repeated median
   * stays on the line with up to half the frames off it (two outliers side by side among seven).
   */
  #cameraOf(e: Entry): Entry["camera"] {
    if (!e.camera) return null;
    // Symmetric, so narrower at the ends of what is held: a slope's error then cancels at the frame
    // instead of growing with the distance to the window's centre.
    const r = Math.min(SCALE_WINDOW, e.index - this.#entries[0]!.index, this.#entries.at(-1)!.index - e.index);
    const near = this.#entries.filter((n) => n.camera && n.camera.epoch === e.camera!.epoch && Math.abs(n.index - e.index) <= r);
    const t = near.map((n) => n.index - e.index), y = near.map((n) => Math.log(n.camera!.motion.scale));
    // A line through fewer frames follows their noise (coffee-pan's second and second-last frames,
    // 3 each: 32.5 -> 26.4 and 35.5 -> 28.3 dB): there the median, as before.
    if (near.length < 2 * SCALE_WINDOW + 1) return { epoch: e.camera.epoch, motion: { ...e.camera.motion, scale: Math.exp(medianOf(y)) } };
    const slope = medianOf(t.map((ti, i) => medianOf(t.flatMap((tj, j) => (j === i ? [] : [(y[j]! - y[i]!) / (tj - ti)])))));
    const scale = Math.exp(medianOf(y.map((v, i) => v - slope * t[i]!)));
    return { epoch: e.camera.epoch, motion: { ...e.camera.motion, scale } };
  }

  /**
   * Where `entry`'s pixels (`camera`: its #cameraOf) are in frame `from` (its translation, or
   * `fromCamera`'s similarity): by the similarity where the two frames' scales differ by
   * ZOOM_EDGE_PX or more at the edge, else by the translation, in whole pixels.
   */
  #alignment(entry: Entry, camera: Entry["camera"], from: { tx: number; ty: number }, fromCamera: Entry["camera"]): Alignment {
    const a = camera, b = fromCamera;
    const { width: W, height: H } = entry.frame;
    if (a && b && a.epoch === b.epoch && (Math.abs(b.motion.scale / a.motion.scale - 1) * Math.max(W, H)) / 2 >= ZOOM_EDGE_PX) {
      // Back through entry's motion to the first frame, then forward through from's.
      const k = b.motion.scale / a.motion.scale, cx = W / 2, cy = H / 2;
      return { k, bx: cx - k * (cx + a.motion.dx) + b.motion.dx, by: cy - k * (cy + a.motion.dy) + b.motion.dy };
    }
    return { k: 1, bx: Math.round(entry.tx - from.tx), by: Math.round(entry.ty - from.ty) };
  }

  /**
   * The plate for `entry`, and where entry's pixels are on it. Through a pan the plate is shifted
   * to stay in the frame's coordinates; through a zoom it stays where it is and is read and
   * written at the scaled positions (resampling it every frame would blur it or let rounding
   * wander), until its pixels are a quarter larger or smaller than the frame's or the frame has
   * moved a tenth of its size across it: then it is resampled once, into the frame's coordinates.
   * At a cut it starts again.
   */
  #alignPlate(entry: Entry, camera: Entry["camera"]): Alignment {
    const { width: W, height: H } = entry.frame;
    const old = this.#plate;
    const at = old && this.#alignment(entry, camera, old, old.camera);
    const drifted = (at: Alignment) => at.k !== 1 && (at.k < 0.8 || at.k > 1.25 || Math.hypot((at.k - 1) * (W / 2) + at.bx, (at.k - 1) * (H / 2) + at.by) > 0.1 * Math.max(W, H));
    if (!old || !at || old.segment !== entry.segment || old.width !== W || old.height !== H || drifted(at)) {
      // Resampled into the frame's coordinates when it drifted, else (a cut, the first frame) empty.
      const kept = old && at && old.segment === entry.segment && old.width === W && old.height === H ? resampled(old, W, H, at) : { rgb: new Float32Array(W * H * 3), count: new Uint8Array(W * H) };
      const plate = { ...kept, tx: Math.round(entry.tx), ty: Math.round(entry.ty), camera, segment: entry.segment, width: W, height: H };
      this.#plate = plate;
      return this.#alignment(entry, camera, plate, null);
    }
    if (at.k !== 1) return at;
    const plate = old;
    const sx = at.bx, sy = at.by;
    if (sx === 0 && sy === 0) return at;
    // New plate pixel p = old plate pixel p + (sx, sy).
    Object.assign(plate, resampled(plate, W, H, at));
    plate.tx += sx;
    plate.ty += sy;
    // Its pixel p now shows what p + (sx, sy) did: the camera's shift for it moves the other way.
    if (plate.camera) plate.camera = { ...plate.camera, motion: { ...plate.camera.motion, dx: plate.camera.motion.dx - sx, dy: plate.camera.motion.dy - sy } };
    return this.#alignment(entry, camera, plate, null);
  }

  /** Entry's unmasked pixels into the plate (`at`: where entry's pixels are on it; through a pan the plate is in entry's coordinates). */
  #updatePlate(entry: Entry, at: Alignment): void {
    const plate = this.#plate!;
    const { data, channels: c, width: W, height: H } = entry.frame;
    const m = entry.mask.data;
    for (let p = 0; p < m.length; p++) {
      // The entry pixel this plate pixel shows (itself, but through a zoom).
      let e = p;
      if (at.k !== 1) {
        const ex = Math.round(((p % W) - at.bx) / at.k), ey = Math.round((Math.floor(p / W) - at.by) / at.k);
        if (ex < 0 || ey < 0 || ex >= W || ey >= H) continue;
        e = ey * W + ex;
      }
      if (m[e] !== 0) continue;
      const n = Math.min(255, plate.count[p] + 1);
      plate.count[p] = n;
      const a = 1 / Math.min(n, PLATE_MEMORY);
      const i = e * c, q = p * 3;
      plate.rgb[q] += (data[i] - plate.rgb[q]) * a;
      plate.rgb[q + 1] += (data[i + 1] - plate.rgb[q + 1]) * a;
      plate.rgb[q + 2] += (data[i + 2] - plate.rgb[q + 2]) * a;
    }
  }

  #fill(entry: Entry, camera: Entry["camera"], onPlate: Alignment): Frame {
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
      .map((e) => ({ data: e.frame.data, mask: e.mask.data, at: this.#alignment(entry, camera, e, this.#cameraOf(e)), c: e.frame.channels }));

    const filled = Buffer.from(frame.data);
    const unknown = new Uint8Array(W * H);
    let unknownCount = 0;
    const K = this.options.samples;
    const r = new Float32Array(K + 1), g = new Float32Array(K + 1), b = new Float32Array(K + 1), rgb = new Float32Array(3);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const p = y * W + x;
        if (!m[p]) continue;
        stat.holePixels++;
        let n = 0;
        for (const s of sources) {
          if (s.at.k !== 1) {
            if (readBilinear(s.data, s.c, (q) => s.mask[q] === 0, W, H, s.at.k * x + s.at.bx, s.at.k * y + s.at.by, rgb)) {
              [r[n], g[n], b[n]] = rgb;
              if (++n >= K) break;
            }
            continue;
          }
          const qx = x + s.at.bx, qy = y + s.at.by;
          if (qx < 0 || qy < 0 || qx >= W || qy >= H) continue;
          const q = qy * W + qx;
          if (s.mask[q] !== 0) continue;
          const i = q * s.c;
          r[n] = s.data[i];
          g[n] = s.data[i + 1];
          b[n] = s.data[i + 2];
          if (++n >= K) break;
        }
        if (readBilinear(plate.rgb, 3, (q) => plate.count[q] > 0, W, H, onPlate.k * x + onPlate.bx, onPlate.k * y + onPlate.by, rgb)) {
          [r[n], g[n], b[n]] = rgb;
          n++;
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

/** The plate read at `at` (new pixel (x, y) = old pixel (k x + bx, k y + by), nearest); nothing where that falls outside. */
function resampled(old: { rgb: Float32Array; count: Uint8Array }, W: number, H: number, at: Alignment): { rgb: Float32Array; count: Uint8Array } {
  const rgb = new Float32Array(W * H * 3), count = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const qx = Math.round(at.k * x + at.bx), qy = Math.round(at.k * y + at.by);
    if (qx < 0 || qy < 0 || qx >= W || qy >= H) continue;
    const p = y * W + x, q = qy * W + qx;
    count[p] = old.count[q];
    for (let c = 0; c < 3; c++) rgb[p * 3 + c] = old.rgb[q * 3 + c];
  }
  return { rgb, count };
}

/**
 * The colour at (fx, fy), bilinear between the four pixels around it, into `out`; false where one of
 * them with any weight is outside the frame or not `usable`. Through a zoom a pixel falls between
 * the source's and the nearest one is up to half a pixel off (bench/object-removal.ts 360p-slow-zoom:
 * 29.8 -> 30.7 dB). At whole-pixel positions it is the pixel itself.
 */
function readBilinear(data: ArrayLike<number>, c: number, usable: (q: number) => boolean, W: number, H: number, fx: number, fy: number, out: Float32Array): boolean {
  const x0 = Math.floor(fx), y0 = Math.floor(fy), ax = fx - x0, ay = fy - y0;
  if (x0 < 0 || y0 < 0 || x0 + (ax > 0 ? 1 : 0) >= W || y0 + (ay > 0 ? 1 : 0) >= H) return false;
  out.fill(0);
  for (let j = 0; j < 2; j++) for (let i = 0; i < 2; i++) {
    const w = (i ? ax : 1 - ax) * (j ? ay : 1 - ay);
    if (w === 0) continue;
    const q = (y0 + j) * W + x0 + i;
    if (!usable(q)) return false;
    for (let k = 0; k < 3; k++) out[k] += w * data[q * c + k];
  }
  return true;
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
