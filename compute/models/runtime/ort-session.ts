// Opening one onnxruntime-node session on the first configured execution provider that loads.
// Runs on the inference threads (inference-worker.ts), never on the main thread.
import * as ort from "onnxruntime-node";
import type { OnnxProvider } from "../../config.ts";

export interface OpenedSession {
  session: ort.InferenceSession;
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
    };
    try {
      const session = typeof model === "string" ? await ort.InferenceSession.create(model, options) : await ort.InferenceSession.create(model, options);
      return warning ? { session, warning } : { session };
    } catch (err) {
      const provider = providers[i]!;
      // Only a provider that cannot be loaded falls through; a broken model fails on every provider.
      if (provider === "cpu" || i === providers.length - 1) throw err;
      warning ??= `onnxruntime: execution provider ${provider} is not available (${(err as Error).message.split("\n")[0]}); using ${providers.slice(i + 1).join(", ")}`;
    }
  }
  throw new Error("OBSCURA_ONNX_PROVIDERS lists no execution provider");
}
