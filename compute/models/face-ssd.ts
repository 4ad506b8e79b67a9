// face-api's SSD MobileNetV1 face detector (512x512 input), converted to ONNX by
// compute/models/convert/face-api/ssd.ts (on first load, cached; quantized to int8 for the CPU,
// ssd-int8.ts) and run on onnxruntime-node. Slower than BlazeFace but finds turned, tilted and
// partly hidden faces; the FaceDetector runs it on the whole frame and on candidates. The score
// threshold, NMS and box mapping below are face-api's locateFaces, unchanged.
import type { Box, Detection, Frame } from "../types.ts";
import { INPUT_SIDE, squareInput } from "./face-api-input.ts";
import { cropAround } from "./geometry.ts";
import { cropToPlanes } from "./resize-input.ts";
import { convertedModelFile, SSD_INT8 } from "./convert/index.ts";
import { loadModelConfig, type OnnxProvider } from "../config.ts";
import { OnnxModel } from "./onnx-model.ts";
import { ort, type OnnxOptions } from "./runtime/onnx.ts";

const SIDE = INPUT_SIDE.ssd;
/** A candidate's cell in rescore's mosaic: 16 to a run. */
const LOOK_CELL = 128;
/** face-api's locateFaces: NMS IoU and the most faces one call returns (ours: 200, for crowds). */
const NMS_IOU = 0.5;
const MAX_RESULTS = 200;

/**
 * int8 (convert/face-api/ssd-int8.ts) where the session runs on the CPU, 2.3-2.5x faster there;
 * on a GPU provider face-api's float network as it is: quantization is a CPU saving, and its
 * Quantize/DequantizeLinear pairs are not what a GPU provider is built for.
 */
export function ssdPrecision(providers: readonly OnnxProvider[]): "int8" | "float32" {
  return providers[0] === "cpu" ? "int8" : "float32";
}

export class SsdFaceModel extends OnnxModel {
  readonly role: string;
  /**
   * The detector's own threshold. A caller wanting more (FaceMeter scores faces down to 0.05)
   * passes its own to detect(). This instance is shared with the FaceDetector of every job in
   * the process, and a threshold set on it by one caller while another detects leaked into every
   * later detection (two concurrent FaceMeter passes each restored what the other had set,
   * leaving 0.05 behind).
   */
  readonly minConfidence = 0.6;
  /** The network it runs: the caller's choice, else ssdPrecision's for its providers. */
  readonly precision: "int8" | "float32";
  protected readonly warmUpInput = { name: "image", dims: [1, 3, SIDE, SIDE] };

  /** `role`: what /healthz lists it as ("face-identity" for the meter's float copy, models/index.ts). */
  constructor(onnx: OnnxOptions = {}, precision?: "int8" | "float32", role = "face-detector") {
    super("face-api/ssd_mobilenetv1", onnx);
    this.precision = precision ?? ssdPrecision(onnx.providers ?? loadModelConfig().onnxProviders);
    this.role = role;
  }

  protected modelFile(): Promise<string> {
    return convertedModelFile(this.precision === "int8" ? SSD_INT8 : this.id);
  }

  /**
   * Faces inside `region` of `frame` (an integer box inside the frame, such as a tile), in
   * whole-frame coordinates; scores above `minConfidence`.
   */
  async detect(frame: Frame, region?: Box, minConfidence = this.minConfidence): Promise<Detection[]> {
    const r = region ?? { x: 0, y: 0, width: frame.width, height: frame.height };
    const input = new Float32Array(3 * SIDE * SIDE);
    squareInput(frame, r, SIDE, false, input);
    // Boxes are relative to the padded square; face-api maps them to the image through its
    // rounded resized size (computeReshapedDimensions), then scales by the image size.
    const scale = SIDE / Math.max(r.width, r.height);
    const padX = SIDE / Math.round(r.width * scale);
    const padY = SIDE / Math.round(r.height * scale);
    return (await this.faces(input, minConfidence)).map((f) => ({
      x: f.left * padX * r.width + r.x,
      y: f.top * padY * r.height + r.y,
      width: (f.right - f.left) * padX * r.width,
      height: (f.bottom - f.top) * padY * r.height,
      score: f.score,
      label: "face",
    }));
  }

  /**
   * A look at candidate faces (FaceDetector's confirmation stage): each box is centred in a square
   * crop `context` times its size, seen at LOOK_CELL px as one cell of a 4 x 4 mosaic (one run
   * for 16 candidates), and scored by the best face the model finds in the middle of its cell at
   * roughly the expected size (0 when none). The network sees across cells, so a score can move a
   * little with its neighbours.
   */
  async rescore(frame: Frame, boxes: readonly Box[], context: number): Promise<number[]> {
    const perRow = SIDE / LOOK_CELL;
    const groups: Array<Promise<number[]>> = [];
    for (let start = 0; start < boxes.length; start += perRow * perRow) {
      const group = boxes.slice(start, start + perRow * perRow);
      const input = new Float32Array(3 * SIDE * SIDE); // black between crops
      group.forEach((b, k) => {
        const crop = cropAround(b, context);
        const offset = Math.floor(k / perRow) * LOOK_CELL * SIDE + (k % perRow) * LOOK_CELL;
        cropToPlanes(frame, crop, LOOK_CELL, input, { offset, rowStride: SIDE, planeStride: SIDE * SIDE, scale: 1, bias: 0 });
      });
      const expected = 1 / (perRow * context); // a face's width as a fraction of the mosaic
      groups.push(
        this.faces(input, 0.05).then((found) =>
          group.map((_, k) => {
            const [col, row] = [k % perRow, Math.floor(k / perRow)];
            let best = 0;
            for (const f of found) {
              // The face's centre within its cell, in cells.
              const u = ((f.left + f.right) / 2) * perRow - col, v = ((f.top + f.bottom) / 2) * perRow - row;
              const w = f.right - f.left;
              if (u > 0.3 && u < 0.7 && v > 0.25 && v < 0.75 && w > expected / 2 && w < expected * 2) best = Math.max(best, f.score);
            }
            return best;
          }),
        ),
      );
    }
    return (await Promise.all(groups)).flat();
  }

  /** The model on one input: boxes relative to it ([0, 1]), over `minConfidence`, after face-api's NMS. */
  private async faces(input: Float32Array, minConfidence: number): Promise<Array<{ top: number; left: number; bottom: number; right: number; score: number }>> {
    const session = await this.load();
    const out = await session.run({ image: new ort.Tensor("float32", input, [1, 3, SIDE, SIDE]) }, { handOver: true });
    const boxes = out.boxes.data as Float32Array;
    const scores = out.scores.data as Float32Array;
    const found = [];
    for (const i of suppress(boxes, scores, minConfidence)) {
      const top = Math.max(0, boxes[4 * i]);
      const left = Math.max(0, boxes[4 * i + 1]);
      const bottom = Math.min(1, boxes[4 * i + 2]);
      const right = Math.min(1, boxes[4 * i + 3]);
      // face-api throws on a box clipped to nothing (wholly outside the image); it is no face.
      if (right <= left || bottom <= top) continue;
      found.push({ top, left, bottom, right, score: scores[i] });
    }
    return found;
  }
}

/** face-api's nonMaxSuppression: by score, a box is kept unless it overlaps a kept one by IoU > 0.5. */
function suppress(boxes: Float32Array, scores: Float32Array, minScore: number): number[] {
  const candidates: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] > minScore) candidates.push(i);
  candidates.sort((a, b) => scores[b] - scores[a]);
  const kept: number[] = [];
  for (const c of candidates) {
    if (kept.length >= MAX_RESULTS) break;
    if (!kept.some((k) => boxIou(boxes, c, k) > NMS_IOU)) kept.push(c);
  }
  return kept;
}

/** IoU of boxes i and j of the [ymin, xmin, ymax, xmax] list (corners in either order, as face-api allows). */
function boxIou(b: Float32Array, i: number, j: number): number {
  const y0i = Math.min(b[4 * i], b[4 * i + 2]), x0i = Math.min(b[4 * i + 1], b[4 * i + 3]);
  const y1i = Math.max(b[4 * i], b[4 * i + 2]), x1i = Math.max(b[4 * i + 1], b[4 * i + 3]);
  const y0j = Math.min(b[4 * j], b[4 * j + 2]), x0j = Math.min(b[4 * j + 1], b[4 * j + 3]);
  const y1j = Math.max(b[4 * j], b[4 * j + 2]), x1j = Math.max(b[4 * j + 1], b[4 * j + 3]);
  const ai = (y1i - y0i) * (x1i - x0i), aj = (y1j - y0j) * (x1j - x0j);
  if (ai <= 0 || aj <= 0) return 0;
  const inter = Math.max(Math.min(y1i, y1j) - Math.max(y0i, y0j), 0) * Math.max(Math.min(x1i, x1j) - Math.max(x0i, x0j), 0);
  return inter / (ai + aj - inter);
}
