// FaceBoxes (Zhang et al. 2017; TropComplique's TensorFlow port, trained on WIDER FACE, as
// human-models ships it) on ONNX Runtime. WIDER FACE is crowds, blur, low light and heavy JPEG:
// where BlazeFace (trained on phone-camera faces) scores a small face softened by a video encoder
// 0.2-0.4, FaceBoxes still finds it (bench/video-leaks.ts --crf 35). Its densified 32 px anchors
// (16 per 32 px cell) are made for small faces: seen at 2x, a 14 px face fills them.
// The graph is converted without its padding, anchor generation, decoding and NMS
// (compute/models/convert/human-models.ts); they are here.
import type { Box, Detection, Frame } from "../types.ts";
import { FACEBOXES_ANCHORS, FACEBOXES_INPUT } from "./convert/human-models.ts";
import { reachesPast, reachPast, squareTiles } from "./geometry.ts";
import { detectInViews } from "./enlarged-views.ts";
import { mosaicLook } from "./mosaic-look.ts";
import { OnnxModel } from "./onnx-model.ts";
import { ort } from "./runtime/onnx.ts";

/** Per anchor [cy, cx, h, w] in input px, clipped to the view and back to centre form (as the graph decodes). */
function anchors(): Float32Array {
  const n = FACEBOXES_INPUT;
  const out = new Float32Array(FACEBOXES_ANCHORS * 4);
  let k = 0;
  const push = (cy: number, cx: number, size: number) => {
    const [y0, x0] = [Math.max(0, cy - size / 2), Math.max(0, cx - size / 2)];
    const [y1, x1] = [Math.min(n, cy + size / 2), Math.min(n, cx + size / 2)];
    out.set([(y0 + y1) / 2, (x0 + x1) / 2, y1 - y0, x1 - x0], 4 * k++);
  };
  // [stride, [anchor size, density]...]: a density-d anchor is repeated d x d times a cell, its
  // copies size/d apart around the cell's centre (x outer, y inner, as the graph orders them).
  const layers: Array<[number, Array<[number, number]>]> = [
    [32, [[32, 4], [64, 2], [128, 1]]],
    [64, [[256, 1]]],
    [128, [[512, 1]]],
  ];
  for (const [stride, kinds] of layers) {
    const cells = n / stride;
    for (let r = 0; r < cells; r++)
      for (let c = 0; c < cells; c++)
        for (const [size, d] of kinds)
          for (let i = 0; i < d; i++)
            for (let j = 0; j < d; j++) push(r * stride + stride / 2 + (j - (d - 1) / 2) * (size / d), c * stride + stride / 2 + (i - (d - 1) / 2) * (size / d), size);
  }
  if (k !== FACEBOXES_ANCHORS) throw new Error(`FaceBoxes: ${k} anchors, expected ${FACEBOXES_ANCHORS}`);
  return out;
}

/** rescore's mosaic: 4 x 4 cells of 256 px fill one input. */
const MOSAIC = 4;

export class FaceBoxesModel extends OnnxModel {
  readonly role = "face-detector";
  protected readonly warmUpInput = { name: "image", dims: [1, 3, FACEBOXES_INPUT, FACEBOXES_INPUT] };
  private readonly anchors = anchors();

  constructor() {
    super("human/faceboxes");
  }

  /** The views (input px) of a frame enlarged to sw x sh: squares of FACEBOXES_INPUT overlapping by a quarter. */
  static views(sw: number, sh: number): Box[] {
    const n = FACEBOXES_INPUT;
    return squareTiles(Math.max(sw, n), Math.max(sh, n), n, 0.25);
  }

  /**
   * Faces in the frame enlarged `scale` times, seen in square views of FACEBOXES_INPUT px that
   * overlap by a quarter (black past the frame's edges), boxes from `minScore`, merged by NMS
   * (enlarged-views.ts). `pastEdge` (frame px): only the views at the frame's edges, moved that
   * far past them into the frame's mirror image (reachPast).
   */
  async detect(frame: Frame, scale: number, minScore: number, pastEdge = 0): Promise<Detection[]> {
    const session = await this.load();
    const n = FACEBOXES_INPUT;
    const sw = Math.max(1, Math.round(frame.width * scale)), sh = Math.max(1, Math.round(frame.height * scale));
    const layout = FaceBoxesModel.views(sw, sh);
    const views = pastEdge > 0 ? reachPast(layout, Math.max(sw, n), Math.max(sh, n), Math.round(pastEdge * scale)).filter((v) => reachesPast(v, sw, sh)) : layout;
    const detect = async (input: Float32Array, at: { x: number; y: number; step: number }) => this.decode((await session.run({ image: new ort.Tensor("float32", input, [1, 3, n, n]) }, { handOver: true })).predictions!.data as Float32Array, 0, at.x, at.y, at.step, minScore);
    return detectInViews(frame, scale, views, { side: n, scale: 1 / 255, bias: 0, detect }, pastEdge);
  }

  /**
   * Its own second look at candidate boxes: each centred in a 256 px cell of a 4 x 4 mosaic (one
   * run for 16), on a crop `context` times its size (mosaic-look.ts). Measured on its candidates of
   * 0.3-0.5, face-detector.ts.
   */
  async rescore(frame: Frame, boxes: readonly Box[], context: number): Promise<number[]> {
    if (boxes.length === 0) return [];
    const session = await this.load();
    const n = FACEBOXES_INPUT;
    const detect = async (input: Float32Array) => this.decode((await session.run({ image: new ort.Tensor("float32", input, [1, 3, n, n]) }, { handOver: true })).predictions!.data as Float32Array, 0, 0, 0, 1, 0.05);
    return mosaicLook(frame, boxes, context, { side: n, cells: MOSAIC, scale: 1 / 255, bias: 0, detect });
  }

  /** One view's boxes: SSD box coding with scale factors (10, 10, 5, 5) on the clipped anchors. */
  private decode(data: Float32Array, offset: number, x0: number, y0: number, step: number, minScore: number): Detection[] {
    const out: Detection[] = [];
    const margin = Math.log(minScore / (1 - minScore)); // softmax over two classes = sigmoid of the difference
    const a = this.anchors;
    for (let i = 0; i < FACEBOXES_ANCHORS; i++) {
      const o = offset + i * 6;
      const d = data[o + 1]! - data[o]!;
      if (d < margin) continue;
      const [ya, xa, ha, wa] = [a[4 * i]!, a[4 * i + 1]!, a[4 * i + 2]!, a[4 * i + 3]!];
      const cy = (data[o + 2]! / 10) * ha + ya;
      const cx = (data[o + 3]! / 10) * wa + xa;
      const h = Math.exp(data[o + 4]! / 5) * ha;
      const w = Math.exp(data[o + 5]! / 5) * wa;
      out.push({ x: x0 + (cx - w / 2) * step, y: y0 + (cy - h / 2) * step, width: w * step, height: h * step, score: 1 / (1 + Math.exp(-d)), label: "face" });
    }
    return out;
  }
}
