// NSFW classification with nsfwjs (5 classes: Drawing, Hentai, Neutral, Porn, Sexy).
// Score semantics: score = P(Porn) + P(Hentai), the probability mass of explicit content.
// "Sexy" (swimwear, party outfits, sport) is deliberately not counted: it is not NSFW for a
// moderation signal and it is where these models misfire most (the TOOLCHAIN notes MobileNetV2
// flagging sports photos "Sexy"; on our group party photos Sexy reaches high values).
// is_nsfw = score >= threshold (config, default 0.5: explicit classes are the majority).
// MobileNetV2Mid (the default) runs on ONNX Runtime (converted by convert/nsfwjs.ts); nsfwjs's
// MobileNetV2 and InceptionV3 are Keras layers models the converter does not read, and stay on
// TF.js through nsfwjs itself (opt-in alternatives).
import type { Frame, NsfwVerdict } from "../types.ts";
import { Model } from "./base.ts";
import { convertedModelFile } from "./convert/index.ts";
import { halvedPlanes, resizeToPlanes } from "./resize-input.ts";
import { createSession, ort, type OnnxOptions, type Session } from "./runtime/onnx.ts";
import { frameToTensor, initTf, tf } from "./runtime/tfjs.ts";

type NsfwId = "nsfwjs/mobilenet_v2" | "nsfwjs/mobilenet_v2_mid" | "nsfwjs/inception_v3";

const NSFWJS_NAME: Record<NsfwId, string> = {
  "nsfwjs/mobilenet_v2": "MobileNetV2",
  "nsfwjs/mobilenet_v2_mid": "MobileNetV2Mid",
  "nsfwjs/inception_v3": "InceptionV3",
};

export interface NsfwProbabilities {
  Drawing: number;
  Hentai: number;
  Neutral: number;
  Porn: number;
  Sexy: number;
}

/** nsfwjs's class order (its NSFW_CLASSES), which is the converted model's output order. */
const CLASSES = ["Drawing", "Hentai", "Neutral", "Porn", "Sexy"] as const;

/** nsfwjs's model object (TF.js), for the models that stay on TF.js. */
interface NsfwjsModel {
  classify(image: tf.Tensor3D, topk: number): Promise<Array<{ className: keyof NsfwProbabilities; probability: number }>>;
}

type Handle = { onnx: Session } | { tfjs: NsfwjsModel };

export class NsfwClassifier extends Model<Handle> {
  readonly role = "nsfw-classifier";
  readonly threshold: number;
  private readonly onnx: OnnxOptions;

  constructor(id: NsfwId = "nsfwjs/mobilenet_v2_mid", threshold = 0.5, onnx: OnnxOptions = {}) {
    super(id);
    this.threshold = threshold;
    this.onnx = onnx;
  }

  protected async loadWeights(): Promise<Handle> {
    if (this.id === "nsfwjs/mobilenet_v2_mid") return { onnx: await createSession(await convertedModelFile(this.id), this.onnx) };
    await initTf();
    // nsfwjs bundles its weights as JS modules inside the package: load() by name reads them from
    // node_modules, never from the network.
    const nsfwjs = await import("nsfwjs");
    const name = NSFWJS_NAME[this.id as NsfwId];
    return { tfjs: (await nsfwjs.load(name, name === "InceptionV3" ? { size: 299 } : undefined)) as NsfwjsModel };
  }

  protected async warmUp(handle: Handle): Promise<void> {
    await this.probabilitiesWith(handle, { data: Buffer.alloc(64 * 64 * 3), width: 64, height: 64, channels: 3 });
  }

  async probabilities(frame: Frame): Promise<NsfwProbabilities> {
    return this.probabilitiesWith(await this.load(), frame);
  }

  private async probabilitiesWith(handle: Handle, frame: Frame): Promise<NsfwProbabilities> {
    // nsfwjs squashes any input to 224/299 px with one bilinear resize, which aliases large photos
    // into noise (group photos came out "Drawing" 0.9). Halve with 2x2 averaging first.
    const size = this.id === "nsfwjs/inception_v3" ? 299 : 224;
    if ("onnx" in handle) {
      // As nsfwjs does it: float pixels, halved, then /255 and an align-corners resize to 224.
      let halvings = 0;
      for (let side = Math.min(frame.width, frame.height); side >= 2 * size; side = Math.floor(side / 2)) halvings++;
      const planes = halvedPlanes(frame, halvings);
      const image = new ort.Tensor("float32", resizeToPlanes(planes, size, size, { scale: 1 / 255, alignCorners: true }), [1, 3, size, size]);
      const probs = (await handle.onnx.run({ image })).probabilities!.data as Float32Array;
      return Object.fromEntries(CLASSES.map((c, i) => [c, probs[i]!])) as unknown as NsfwProbabilities;
    }
    const rgb = frameToTensor(frame);
    const image = tf.tidy(() => {
      let t = rgb.toFloat() as tf.Tensor3D;
      while (Math.min(t.shape[0], t.shape[1]) >= 2 * size) t = tf.avgPool(t, 2, 2, "valid");
      return t;
    });
    rgb.dispose();
    try {
      const preds = await handle.tfjs.classify(image, 5);
      const p: NsfwProbabilities = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 };
      for (const { className, probability } of preds) p[className] = probability;
      return p;
    } finally {
      image.dispose();
    }
  }

  async classify(frame: Frame): Promise<NsfwVerdict> {
    const p = await this.probabilities(frame);
    const score = Math.min(1, p.Porn + p.Hentai);
    return { is_nsfw: score >= this.threshold, score };
  }
}
