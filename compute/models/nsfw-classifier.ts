// NSFW classification with nsfwjs (5 classes: Drawing, Hentai, Neutral, Porn, Sexy).
// Score semantics: score = P(Porn) + P(Hentai), the probability mass of explicit content.
// "Sexy" (swimwear, party outfits, sport) is deliberately not counted: it is not NSFW for a
// moderation signal and it is where these models misfire most (the TOOLCHAIN notes MobileNetV2
// flagging sports photos "Sexy"; on our group party photos Sexy reaches high values).
// is_nsfw = score >= threshold (config, default 0.5: explicit classes are the majority).
import type { Frame, NsfwVerdict } from "../types.ts";
import { Model } from "./base.ts";
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type NsfwModel = any;

export class NsfwClassifier extends Model<NsfwModel> {
  readonly role = "nsfw-classifier";
  readonly threshold: number;

  constructor(id: NsfwId = "nsfwjs/mobilenet_v2_mid", threshold = 0.5) {
    super(id);
    this.threshold = threshold;
  }

  protected async loadWeights(): Promise<NsfwModel> {
    await initTf();
    // nsfwjs bundles its weights as JS modules inside the package: load() by name reads them from
    // node_modules, never from the network.
    const nsfwjs = await import("nsfwjs");
    const name = NSFWJS_NAME[this.id as NsfwId];
    return nsfwjs.load(name, name === "InceptionV3" ? { size: 299 } : undefined);
  }

  protected async warmUp(model: NsfwModel): Promise<void> {
    const t = tf.zeros([64, 64, 3], "int32") as tf.Tensor3D;
    await model.classify(t, 5);
    t.dispose();
  }

  async probabilities(frame: Frame): Promise<NsfwProbabilities> {
    const model = await this.load();
    const rgb = frameToTensor(frame);
    // nsfwjs squashes any input to 224/299 px with one bilinear resize, which aliases large photos
    // into noise (group photos came out "Drawing" 0.9). Halve with 2x2 averaging first.
    const size = this.id === "nsfwjs/inception_v3" ? 299 : 224;
    const image = tf.tidy(() => {
      let t = rgb.toFloat() as tf.Tensor3D;
      while (Math.min(t.shape[0], t.shape[1]) >= 2 * size) t = tf.avgPool(t, 2, 2, "valid");
      return t;
    });
    rgb.dispose();
    try {
      const preds = (await model.classify(image, 5)) as Array<{ className: keyof NsfwProbabilities; probability: number }>;
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
