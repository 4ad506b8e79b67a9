// The model classes that are one ONNX Runtime session: each states only its file, its session
// options and its warm-up input; loading and warming up are the same for all of them. (Not in
// base.ts: convert/index.ts imports singleFlight from there, and this needs convert/index.ts.)
import type { ModelId } from "../config.ts";
import { Model } from "./base.ts";
import { convertedModelFile } from "./convert/index.ts";
import { createSession, ort, type OnnxOptions, type Session } from "./runtime/onnx.ts";

/** Zeros of `dims` (float32) fed as input `name`; no name: the session's first input (the PaddleOCR graphs are fed by position). */
export interface WarmUpInput {
  name?: string;
  dims: readonly number[];
}

export abstract class OnnxModel extends Model<Session> {
  protected readonly onnx: OnnxOptions;
  /** A shape real inputs have, so the warm-up sets up the kernels they run. */
  protected abstract readonly warmUpInput: WarmUpInput;

  constructor(id: ModelId, onnx: OnnxOptions = {}) {
    super(id);
    this.onnx = onnx;
  }

  /** The .onnx file: by default this model's graph as converted from TF.js (made on first use, then cached). */
  protected modelFile(): string | Promise<string> {
    return convertedModelFile(this.id);
  }

  protected async loadWeights(): Promise<Session> {
    return createSession(await this.modelFile(), this.onnx);
  }

  protected async warmUp(session: Session): Promise<void> {
    const { name = session.inputNames[0]!, dims } = this.warmUpInput;
    const zeros = new Float32Array(dims.reduce((n, d) => n * d, 1));
    await session.warmUp({ [name]: new ort.Tensor("float32", zeros, dims) });
  }
}
