// face-api's SSD MobileNetV1 face detector (512x512 input), converted to ONNX by
// compute/models/convert/face-api/ssd.ts (on first load, cached) and run on onnxruntime-node. Slower than BlazeFace but
// finds turned, tilted and partly hidden faces; the FaceDetector runs it on the whole frame and on
// tiles. The score threshold, NMS and box mapping below are face-api's locateFaces, unchanged.
import type { Box, Detection, Frame } from "../types.ts";
import { Model } from "./base.ts";
import { INPUT_SIDE, squareInput } from "./face-api-input.ts";
import { convertedModelFile } from "./convert/index.ts";
import { createSession, ort, type OnnxOptions, type Session } from "./runtime/onnx.ts";

const SIDE = INPUT_SIDE.ssd;
/** face-api's locateFaces: NMS IoU and the most faces one call returns (ours: 200, for crowds). */
const NMS_IOU = 0.5;
const MAX_RESULTS = 200;

export class SsdFaceModel extends Model<Session> {
  readonly role = "face-detector";
  /**
   * The detector's own threshold. A caller wanting more (FaceMeter scores faces down to 0.05)
   * passes its own to detect(). This instance is shared with the FaceDetector of every job in
   * the process, and a threshold set on it by one caller while another detects leaked into every
   * later detection (two concurrent FaceMeter passes each restored what the other had set,
   * leaving 0.05 behind).
   */
  readonly minConfidence = 0.6;
  private readonly onnx: OnnxOptions;

  constructor(onnx: OnnxOptions = {}) {
    super("face-api/ssd_mobilenetv1");
    this.onnx = onnx;
  }

  protected async loadWeights(): Promise<Session> {
    return createSession(await convertedModelFile(this.id), this.onnx);
  }

  protected async warmUp(session: Session): Promise<void> {
    await session.warmUp({ image: new ort.Tensor("float32", new Float32Array(3 * SIDE * SIDE), [1, 3, SIDE, SIDE]) });
  }

  /**
   * Faces inside `region` of `frame` (an integer box inside the frame, such as a tile), in
   * whole-frame coordinates; scores above `minConfidence`.
   */
  async detect(frame: Frame, region?: Box, minConfidence = this.minConfidence): Promise<Detection[]> {
    const session = await this.load();
    const r = region ?? { x: 0, y: 0, width: frame.width, height: frame.height };
    const input = new Float32Array(3 * SIDE * SIDE);
    squareInput(frame, r, SIDE, false, input);
    const out = await session.run({ image: new ort.Tensor("float32", input, [1, 3, SIDE, SIDE]) }, { handOver: true });
    const boxes = out.boxes.data as Float32Array;
    const scores = out.scores.data as Float32Array;
    // Boxes are relative to the padded square; face-api maps them to the image through its
    // rounded resized size (computeReshapedDimensions), then scales by the image size.
    const scale = SIDE / Math.max(r.width, r.height);
    const padX = SIDE / Math.round(r.width * scale);
    const padY = SIDE / Math.round(r.height * scale);
    const found: Detection[] = [];
    for (const i of suppress(boxes, scores, minConfidence)) {
      const top = Math.max(0, boxes[4 * i]) * padY;
      const left = Math.max(0, boxes[4 * i + 1]) * padX;
      const bottom = Math.min(1, boxes[4 * i + 2]) * padY;
      const right = Math.min(1, boxes[4 * i + 3]) * padX;
      // face-api throws on a box clipped to nothing (wholly outside the image); it is no face.
      if (right <= left || bottom <= top) continue;
      found.push({
        x: left * r.width + r.x,
        y: top * r.height + r.y,
        width: (right - left) * r.width,
        height: (bottom - top) * r.height,
        score: scores[i],
        label: "face",
      });
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
