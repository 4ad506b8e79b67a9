// onnxruntime-node sessions with explicit thread settings. The compute service runs on small
// machines (2 cores): each session gets a bounded intra-op pool so concurrent requests do not
// oversubscribe the CPU, and no inter-op parallelism (our graphs are sequential CNNs).
import * as ort from "onnxruntime-node";

export { ort };

export interface OnnxOptions {
  intraOpThreads?: number;
}

/** A session on an .onnx file, or on a model's bytes (one converted in memory, e.g. face-api's). */
export async function createSession(model: string | Uint8Array, opts: OnnxOptions = {}): Promise<ort.InferenceSession> {
  const options: ort.InferenceSession.SessionOptions = {
    executionProviders: ["cpu"],
    intraOpNumThreads: opts.intraOpThreads ?? 2,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  };
  return typeof model === "string" ? ort.InferenceSession.create(model, options) : ort.InferenceSession.create(model, options);
}
