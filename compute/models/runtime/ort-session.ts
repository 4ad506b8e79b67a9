// Opening one onnxruntime-node session on the first configured execution provider that loads.
// Runs on the inference threads (inference-worker.ts), never on the main thread.
import * as ort from "onnxruntime-node";
import type { OnnxProvider } from "../../config.ts";

export interface OpenedSession {
  session: ort.InferenceSession;
  /** The provider it was created on (ONNX Runtime may still place single nodes on the ones after it). */
  provider: OnnxProvider;
  /** Set when a listed provider could not be loaded and a later one was used. */
  warning?: string;
}

export async function openOrtSession(model: string | Uint8Array, providers: readonly OnnxProvider[], threads: number): Promise<OpenedSession> {
  let warning: string | undefined;
  for (let i = 0; i < providers.length; i++) {
    const options: ort.InferenceSession.SessionOptions = {
      executionProviders: [...providers.slice(i)],
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      executionMode: "sequential",
      graphOptimizationLevel: "all",
      // ONNX Runtime keeps a planned memory layout per input shape it has seen. Our inputs change
      // shape all the time (tile and look batches of 1-16, text crops of any size), so with it on
      // every inference thread kept growing: bench/memory.ts (300 image tasks, two threads) went
      // 2466 -> 2890 MB; off, 1948 -> 2032 MB, and 720p face-blur peaked 1357 MB instead of 1743
      // at the same speed (5.5 fps against 5.0).
      enableMemPattern: false,
    };
    try {
      const session = typeof model === "string" ? await ort.InferenceSession.create(model, options) : await ort.InferenceSession.create(model, options);
      return { session, provider: providers[i]!, ...(warning ? { warning } : {}) };
    } catch (err) {
      const provider = providers[i]!;
      // Only a provider that cannot be loaded falls through; a broken model fails on every provider.
      if (provider === "cpu" || i === providers.length - 1) throw err;
      warning ??= `onnxruntime: execution provider ${provider} is not available (${(err as Error).message.split("\n")[0]}); using ${providers.slice(i + 1).join(", ")}`;
    }
  }
  throw new Error("OBSCURA_ONNX_PROVIDERS lists no execution provider");
}
