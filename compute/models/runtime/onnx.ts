// onnxruntime-node sessions, configured once for the process (compute/config.ts):
// - intra-op threads per session (OBSCURA_ONNX_THREADS). Our graphs are small sequential CNNs; on
//   the 2-core machines we run on, a second thread per session gained no wall time and cost CPU
//   (bench/onnx-vs-tfjs.ts), so the default is 1 and parallelism comes from concurrent sessions
//   (jobs, video frames). No inter-op parallelism.
// - execution providers (OBSCURA_ONNX_PROVIDERS, e.g. "cuda,cpu"), tried in order. The npm tarball
//   holds the CPU runtime only; the CUDA provider is installed with
//   `npm ci --onnxruntime-node-install=cuda12` on a GPU host. Where it is missing, the session is
//   created on the providers after it, with a warning logged once per process.
import * as ort from "onnxruntime-node";
import { loadModelConfig, type OnnxProvider } from "../../config.ts";

export { ort };

export interface OnnxOptions {
  intraOpThreads?: number;
  providers?: readonly OnnxProvider[];
}

const warned = new Set<string>();

function sessionOptions(providers: readonly OnnxProvider[], threads: number): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: [...providers],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  };
}

/** A session on an .onnx file or on a model's bytes, on the first configured provider that loads. */
export async function createSession(model: string | Uint8Array, opts: OnnxOptions = {}): Promise<ort.InferenceSession> {
  const config = opts.providers && opts.intraOpThreads ? undefined : loadModelConfig();
  const providers = opts.providers ?? config!.onnxProviders;
  const threads = opts.intraOpThreads ?? config!.onnxThreads;
  for (let i = 0; i < providers.length; i++) {
    const options = sessionOptions(providers.slice(i), threads);
    try {
      return typeof model === "string" ? await ort.InferenceSession.create(model, options) : await ort.InferenceSession.create(model, options);
    } catch (err) {
      const provider = providers[i]!;
      // Only a provider that cannot be loaded falls through; a broken model fails on every provider.
      if (provider === "cpu" || i === providers.length - 1) throw err;
      if (!warned.has(provider)) {
        warned.add(provider);
        console.warn(`onnxruntime: execution provider ${provider} is not available (${(err as Error).message.split("\n")[0]}); using ${providers.slice(i + 1).join(", ")}`);
      }
    }
  }
  throw new Error("OBSCURA_ONNX_PROVIDERS lists no execution provider");
}
