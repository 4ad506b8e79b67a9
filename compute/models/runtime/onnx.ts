// onnxruntime-node sessions, configured once for the process (compute/config.ts):
// - intra-op threads per session (OBSCURA_ONNX_THREADS). Our graphs are small sequential CNNs; on
//   the 2-core machines we run on, a second thread per session gained no wall time and cost CPU
//   (bench/onnx-vs-tfjs.ts), so the default is 1 and parallelism comes from concurrent runs on
//   the inference threads (inference-pool.ts: every session is open on each thread, off the
//   JavaScript event loop). No inter-op parallelism.
// - inference threads (OBSCURA_INFERENCE_THREADS): one per core by default, at most 4 (each holds
//   its own copy of the weights; past 4 the per-call JS around the runs is the limit); one with
//   the webgpu provider (config.ts says why).
// - execution providers (OBSCURA_ONNX_PROVIDERS, e.g. "webgpu,cpu"), tried in order. The npm
//   package holds the CPU and WebGPU providers; CUDA's is a separate download (README). Where one
//   cannot load, the session is created on the providers after it, with a warning logged once per
//   process.
import "./no-telemetry.ts"; // before onnxruntime-node
import * as ort from "onnxruntime-node";
import { availableParallelism } from "node:os";
import { loadModelConfig, type OnnxProvider } from "../../config.ts";
import { InferencePool, type Session } from "./inference-pool.ts";

export { ort };
export type { Session };

export interface OnnxOptions {
  intraOpThreads?: number;
  providers?: readonly OnnxProvider[];
}

let pool: InferencePool | undefined;

/** How many inference threads the process runs (OBSCURA_INFERENCE_THREADS, default one per core up to 4; 1 with webgpu). */
export function inferenceThreadCount(): number {
  return loadModelConfig().inferenceThreads ?? Math.min(4, availableParallelism());
}

/** The process's inference threads. */
export function inferencePool(): InferencePool {
  return (pool ??= new InferencePool(inferenceThreadCount()));
}

/** Ends the inference threads, if the process started them, once they finish what they run (InferencePool.close): before the process exits. */
export function closeInferencePool(): Promise<void> {
  return pool?.close() ?? Promise.resolve();
}

/**
 * `run` on each of `items`, `size` at a time, the results in the items' order: for the views of one
 * frame (tiles, crops), so that a few run side by side on the inference threads while only their
 * inputs are held.
 */
export async function inGroups<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return out;
}

/** A float input for a handed-over run (Session.run's `handOver`), reusing spare memory. */
export function inputArray(length: number): Float32Array {
  return inferencePool().inputArray(length);
}

/** A session on an .onnx file or on a model's bytes, on the first configured provider that loads, open on every inference thread. */
export async function createSession(model: string | Uint8Array, opts: OnnxOptions = {}): Promise<Session> {
  const config = opts.providers && opts.intraOpThreads ? undefined : loadModelConfig();
  return inferencePool().open(model, opts.providers ?? config!.onnxProviders, opts.intraOpThreads ?? config!.onnxThreads);
}
