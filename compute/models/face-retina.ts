// RetinaFace with a MobileNet-0.25 backbone (Deng et al. 2019; insightface's "mnet.25", as the npm
// package `retinaface` ships it in ONNX, 640 x 640 input) on ONNX Runtime. Trained on WIDER FACE
// (crowds, blur, low light, heavy JPEG), with anchors down to 16 px: where BlazeFace scores a
// JPEG'd face of 14 px 0.2-0.4 in every look, RetinaFace, seeing the frame at 2x, often boxes it,
// and boxes it again when shown the face alone at other scales, where texture it boxed once
// rarely scores again (bench/face-recall.ts, README "Face detection"). The package's own JS needs
// a browser runtime; the graph is all that is used, with the anchors and decoding here.
import type { Box, Detection, Frame } from "../types.ts";
import { squareTiles } from "./geometry.ts";
import { detectInViews } from "./enlarged-views.ts";
import { mosaicLook } from "./mosaic-look.ts";
import { OnnxModel } from "./onnx-model.ts";
import { packageFile } from "./runtime/package-file.ts";
import { ort } from "./runtime/onnx.ts";

/** The graph's fixed input side. */
export const RETINA_INPUT = 640;

/** Per feature stride, its anchors' sides in input px (two per cell, one aspect ratio). */
const STRIDES: ReadonlyArray<readonly [number, readonly number[]]> = [
  [32, [512, 256]],
  [16, [128, 64]],
  [8, [32, 16]],
];

/** rescore's mosaic: 4 x 4 cells of 160 px fill one input (a 14 px face on a 3x crop is 53 px there). */
const MOSAIC = 4;

export class RetinaFaceModel extends OnnxModel {
  readonly role = "face-detector";
  protected readonly warmUpInput = { name: "data", dims: [1, 3, RETINA_INPUT, RETINA_INPUT] };

  constructor() {
    super("retinaface/mnet.25");
  }

  protected modelFile(): string {
    return packageFile("retinaface", "mnet.25_v2.onnx");
  }

  /** The views (input px) of a frame enlarged to sw x sh: squares of RETINA_INPUT overlapping by 15 % (a 16 px face is 2.5 % of one). */
  static views(sw: number, sh: number): Box[] {
    const n = RETINA_INPUT;
    return squareTiles(Math.max(sw, n), Math.max(sh, n), n, 0.15);
  }

  /**
   * Faces in the frame enlarged `scale` times, seen in square views (black past the frame's
   * edges), boxes from `minScore`, merged by NMS; `only` picks the views (as frame boxes).
   */
  async detect(frame: Frame, scale: number, minScore: number, only?: (view: Box) => boolean): Promise<Detection[]> {
    const n = RETINA_INPUT;
    const views = RetinaFaceModel.views(Math.round(frame.width * scale), Math.round(frame.height * scale)).filter((v) => !only || only({ x: v.x / scale, y: v.y / scale, width: n / scale, height: n / scale }));
    if (views.length === 0) return [];
    const session = await this.load();
    // The graph normalises inside: RGB planes of 0-255.
    const detect = async (input: Float32Array, at: { x: number; y: number; step: number }) => this.decode(await session.run({ data: new ort.Tensor("float32", input, [1, 3, n, n]) }, { handOver: true }), at.x, at.y, at.step, minScore);
    return detectInViews(frame, scale, views, { side: n, scale: 1, bias: 0, detect });
  }

  /** Its own second look at candidate boxes: each on a crop `context` times its size, 16 to a run (mosaic-look.ts). */
  async rescore(frame: Frame, boxes: readonly Box[], context: number): Promise<number[]> {
    if (boxes.length === 0) return [];
    const session = await this.load();
    const n = RETINA_INPUT;
    const detect = async (input: Float32Array) => this.decode(await session.run({ data: new ort.Tensor("float32", input, [1, 3, n, n]) }, { handOver: true }), 0, 0, 1, 0.05);
    return mosaicLook(frame, boxes, context, { side: n, cells: MOSAIC, scale: 1, bias: 0, detect });
  }

  /**
   * One view's boxes, in frame px (input px times `step`, from x0, y0). Per stride the graph gives
   * face probabilities (channels A..2A-1 of its softmax) and box deltas (4 per anchor) on anchors
   * centred at (cell + 7.5) px, decoded as Faster R-CNN does, without variances.
   */
  private decode(out: Record<string, ort.Tensor>, x0: number, y0: number, step: number, minScore: number): Detection[] {
    const found: Detection[] = [];
    for (const [stride, sides] of STRIDES) {
      const cls = out[`face_rpn_cls_prob_reshape_stride${stride}`]!;
      const scores = cls.data as Float32Array;
      const deltas = out[`face_rpn_bbox_pred_stride${stride}`]!.data as Float32Array;
      const [h, w] = [cls.dims[2]!, cls.dims[3]!];
      const plane = h * w;
      const anchors = sides.length;
      for (const [a, side] of sides.entries()) {
        for (let i = 0; i < plane; i++) {
          const p = scores[(anchors + a) * plane + i]!;
          if (p < minScore) continue;
          const d = (k: number) => deltas[(a * 4 + k) * plane + i]!;
          const cx = (i % w) * stride + 7.5 + side * d(0);
          const cy = Math.floor(i / w) * stride + 7.5 + side * d(1);
          const bw = side * Math.exp(d(2)), bh = side * Math.exp(d(3));
          found.push({ x: x0 + (cx - bw / 2) * step, y: y0 + (cy - bh / 2) * step, width: bw * step, height: bh * step, score: p, label: "face" });
        }
      }
    }
    return found;
  }
}
