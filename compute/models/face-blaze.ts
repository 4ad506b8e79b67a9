// MediaPipe's anchor face detectors, converted to ONNX (compute/models/convert/human-models.ts, on
// first load, cached) and run on onnxruntime-node with many tiles per session.run:
//   - BlazeFace "back camera" (256x256 input, tuned for faces far from the camera);
//   - the full-range detector (192x192 input, a stride-4 grid: made for small faces).
// Anchors and box decoding follow the MediaPipe spec; the converted files' contract is in
// human-models.ts (both give [N, anchors, 17] predictions in input pixels).
import sharp from "sharp";
import type { Detection, Frame } from "../types.ts";
import { Model } from "./base.ts";
import { convertedModelFile } from "./convert/index.ts";
import { squareTiles } from "./geometry.ts";
import { createSession, ort, type OnnxOptions } from "./runtime/onnx.ts";

/** Tiles per session.run: big enough to amortise the call, small enough to bound memory (12 MB). */
const BATCH = 16;

export type AnchorDetectorId = "human/blazeface-back" | "human/facemesh-detection-full";

/** Input side and anchor grids ([stride, anchors per cell], in output order) of each model. */
const SPECS: Record<AnchorDetectorId, { input: number; grids: [number, number][] }> = {
  // 16x16 grid x2 (stride 16) then 8x8 grid x6 (stride 32): 896 anchors.
  "human/blazeface-back": { input: 256, grids: [[16, 2], [32, 6]] },
  // 48x48 grid x1 (stride 4): 2304 anchors.
  "human/facemesh-detection-full": { input: 192, grids: [[4, 1]] },
};

/** Anchor centres in input pixels, each cell row-major, centre = stride * (cell + 0.5). */
function anchors(input: number, grids: [number, number][]): Float32Array {
  const out: number[] = [];
  for (const [stride, perCell] of grids) {
    const cells = input / stride;
    for (let y = 0; y < cells; y++) for (let x = 0; x < cells; x++) for (let n = 0; n < perCell; n++) out.push(stride * (x + 0.5), stride * (y + 0.5));
  }
  return Float32Array.from(out);
}

export class BlazeFaceModel extends Model<ort.InferenceSession> {
  readonly role = "face-detector";
  /** Read-only: the instance is shared by every job of the process (see SsdFaceModel.minConfidence). */
  readonly minConfidence = 0.6;
  /** Input side in pixels (tiles are this size at the tile scale). */
  readonly input: number;
  private readonly anchorXY: Float32Array;
  private readonly onnx: OnnxOptions;

  constructor(onnx: OnnxOptions = {}, id: AnchorDetectorId = "human/blazeface-back") {
    super(id);
    this.onnx = onnx;
    this.input = SPECS[id].input;
    this.anchorXY = anchors(this.input, SPECS[id].grids);
  }

  protected async loadWeights(): Promise<ort.InferenceSession> {
    return createSession(await convertedModelFile(this.id), this.onnx);
  }

  protected async warmUp(session: ort.InferenceSession): Promise<void> {
    await session.run({ image: new ort.Tensor("float32", new Float32Array(3 * this.input ** 2), [1, 3, this.input, this.input]) });
  }

  private decode(data: Float32Array, offset: number, x0: number, y0: number, scale: number): Detection[] {
    const out: Detection[] = [];
    for (let i = 0; i < this.anchorXY.length / 2; i++) {
      const o = offset + i * 17;
      const score = 1 / (1 + Math.exp(-data[o]!));
      if (score < this.minConfidence) continue;
      const cx = data[o + 1]! + this.anchorXY[i * 2]!;
      const cy = data[o + 2]! + this.anchorXY[i * 2 + 1]!;
      const bw = data[o + 3]!;
      const bh = data[o + 4]!;
      out.push({ x: x0 + (cx - bw / 2) * scale, y: y0 + (cy - bh / 2) * scale, width: bw * scale, height: bh * scale, score, label: "face" });
    }
    return out;
  }

  /** Faces in the whole frame, padded to a square and seen at the input size. */
  detect(frame: Frame): Promise<Detection[]> {
    return this.detectTiles(frame, this.input / Math.max(frame.width, frame.height), 0);
  }

  /**
   * Faces on overlapping input-sized tiles of the frame resized by `scale` (network px per frame px):
   * the frame is resized once and tiles are plain slices of it, run BATCH at a time.
   */
  async detectTiles(frame: Frame, scale: number, overlap = 0.25): Promise<Detection[]> {
    const session = await this.load();
    const INPUT = this.input, PLANE = INPUT * INPUT, anchorCount = this.anchorXY.length / 2;
    const w = Math.round(frame.width * scale), h = Math.round(frame.height * scale);
    const px = scale === 1 ? frame.data : await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } }).resize(w, h, { fit: "fill" }).removeAlpha().raw().toBuffer();
    const c = scale === 1 ? frame.channels : 3;
    // Tiles over the image padded (with the value of black) up to one tile where it is smaller.
    const tiles = squareTiles(Math.max(INPUT, w), Math.max(INPUT, h), INPUT, overlap);
    const out: Detection[] = [];
    for (let b = 0; b < tiles.length; b += BATCH) {
      const batch = tiles.slice(b, b + BATCH);
      const input = new Float32Array(batch.length * 3 * PLANE).fill(-1);
      batch.forEach((t, k) => {
        const base = k * 3 * PLANE;
        for (let y = 0; y < INPUT && t.y + y < h; y++) {
          for (let x = 0; x < INPUT && t.x + x < w; x++) {
            const s = ((t.y + y) * w + t.x + x) * c, d = base + y * INPUT + x;
            input[d] = px[s]! / 127.5 - 1;
            input[d + PLANE] = px[s + 1]! / 127.5 - 1;
            input[d + 2 * PLANE] = px[s + 2]! / 127.5 - 1;
          }
        }
      });
      const res = await session.run({ image: new ort.Tensor("float32", input, [batch.length, 3, INPUT, INPUT]) });
      const data = res.predictions!.data as Float32Array;
      batch.forEach((t, k) => out.push(...this.decode(data, k * anchorCount * 17, t.x / scale, t.y / scale, 1 / scale)));
    }
    return out;
  }
}
