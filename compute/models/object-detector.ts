// COCO-80 object detector (MB3-CenterNet from human-models, 512x512 input) on ONNX Runtime. The
// converted graph (convert/human-models.ts) ends at CenterNet's heads; the decoding its TF.js graph
// did (3x3 peak picking, top 100, boxes from the size head) is done here, then boxes are mapped
// back to the frame and named.
import type { Detection, Frame } from "../types.ts";
import { nms } from "./geometry.ts";
import { resizeToPlanes } from "./resize-input.ts";
import { OnnxModel } from "./onnx-model.ts";
import { ort, type OnnxOptions } from "./runtime/onnx.ts";

export { COCO_CLASSES, type CocoClass } from "../../schema/coco-classes.ts";
import { COCO_CLASSES } from "../../schema/coco-classes.ts";

const INPUT = 512;
/** The heads' grid: stride 4. */
const GRID = 128;
const STRIDE = INPUT / GRID;
const CLASSES = 80;
/** The TF graph kept its 100 best peaks. */
const TOP_K = 100;

/** A raw CenterNet box in input pixels. */
export interface CenterNetBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  score: number;
  cls: number;
}

/**
 * The graph's own decoding: a heatmap value is a detection where it is the maximum of its 3x3
 * neighbourhood in its class (TF MaxPool 'SAME': the border sees fewer neighbours); the 100 best
 * are kept, and each box is the cell centre pushed out by the four distances of the size head.
 * `minScore` drops weaker peaks early (the caller's threshold; kept peaks are the same).
 */
export function decodeCenterNet(heatmap: Float32Array, sizes: Float32Array, minScore: number): CenterNetBox[] {
  const plane = GRID * GRID;
  const peaks: { score: number; c: number; cell: number }[] = [];
  for (let c = 0; c < CLASSES; c++) {
    const base = c * plane;
    for (let y = 0; y < GRID; y++) {
      for (let x = 0; x < GRID; x++) {
        const v = heatmap[base + y * GRID + x]!;
        if (!(v >= minScore)) continue;
        if (isPeak(heatmap, base, GRID, y, x)) peaks.push({ score: v, c, cell: y * GRID + x });
      }
    }
  }
  // TF's TopK over the flattened [y, x, class] map: by score, ties by that index.
  peaks.sort((a, b) => b.score - a.score || a.cell * CLASSES + a.c - (b.cell * CLASSES + b.c));
  return peaks.slice(0, TOP_K).map(({ score, c, cell }) => {
    const cx = (cell % GRID) * STRIDE;
    const cy = Math.floor(cell / GRID) * STRIDE;
    const [l, t, r, b] = [0, 1, 2, 3].map((k) => sizes[k * plane + cell]!);
    return { x1: cx - l!, y1: cy - t!, x2: cx + r!, y2: cy + b!, score, cls: c };
  });
}

/**
 * Whether cell (y, x) of the `grid` x `grid` map starting at `base` is the maximum of its 3x3
 * neighbourhood (no neighbour greater; TF MaxPool 'SAME': the border sees fewer): a CenterNet peak.
 */
export function isPeak(map: Float32Array, base: number, grid: number, y: number, x: number): boolean {
  const v = map[base + y * grid + x]!;
  for (let yy = Math.max(0, y - 1); yy <= Math.min(grid - 1, y + 1); yy++) {
    for (let xx = Math.max(0, x - 1); xx <= Math.min(grid - 1, x + 1); xx++) if (map[base + yy * grid + xx]! > v) return false;
  }
  return true;
}

export class ObjectDetector extends OnnxModel {
  readonly role = "object-detector";
  /** Read-only: the instance is shared by every job of the process (see SsdFaceModel.minConfidence). */
  readonly minConfidence = 0.3;
  protected readonly warmUpInput = { name: "image", dims: [1, 3, INPUT, INPUT] };

  constructor(onnx: OnnxOptions = {}) {
    super("human/centernet", onnx);
  }

  /** The network's raw boxes (input pixels) for a frame. */
  async raw(frame: Frame): Promise<CenterNetBox[]> {
    const session = await this.load();
    // The graph expects 0..255 floats at 512x512 (it normalises internally); the resize squashes the
    // aspect ratio, which CenterNet was trained with, and detect() unsquashes the boxes.
    const image = new ort.Tensor("float32", resizeToPlanes(frame, INPUT, INPUT), [1, 3, INPUT, INPUT]);
    const out = await session.run({ image });
    return decodeCenterNet(out.heatmap!.data as Float32Array, out.sizes!.data as Float32Array, this.minConfidence);
  }

  async detect(frame: Frame, classes?: readonly string[]): Promise<Detection[]> {
    const sx = frame.width / INPUT;
    const sy = frame.height / INPUT;
    const found: Detection[] = [];
    for (const { x1, y1, x2, y2, score, cls } of await this.raw(frame)) {
      const label = COCO_CLASSES[cls];
      if (!label) continue;
      if (classes && !classes.includes(label)) continue;
      found.push({ x: x1 * sx, y: y1 * sy, width: (x2 - x1) * sx, height: (y2 - y1) * sy, score, label });
    }
    return nms(found, 0.5, 0.9);
  }
}
