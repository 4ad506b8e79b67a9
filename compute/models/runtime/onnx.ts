// onnxruntime-node sessions with explicit thread settings. The compute service runs on small
// machines (2 cores): each session gets a bounded intra-op pool so concurrent requests do not
// oversubscribe the CPU, and no inter-op parallelism (our graphs are sequential CNNs).
import * as ort from "onnxruntime-node";

export { ort };

export interface OnnxOptions {
  intraOpThreads?: number;
}

export async function createSession(modelPath: string, opts: OnnxOptions = {}): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(modelPath, {
    executionProviders: ["cpu"],
    intraOpNumThreads: opts.intraOpThreads ?? 2,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
}
