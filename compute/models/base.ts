// The shared base of every model class: single-flight loading (concurrent callers share one load,
// so a model is never loaded twice), warm-up (first inference compiles kernels / allocates arenas,
// so we pay it at load time rather than on a user's request), and load bookkeeping for /healthz.
import { MODEL_CATALOG, type ModelId } from "../config.ts";

/**
 * A loader that runs once: concurrent and later callers share its promise, and a failed load may
 * be retried by a later call. For the measuring models the benches and tests load outside the
 * registry (Model below also keeps the /healthz bookkeeping).
 */
export function singleFlight<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}

export type ModelState = "idle" | "loading" | "ready" | "failed";

export interface ModelStatus {
  role: string;
  id: string;
  state: ModelState;
  loadMs?: number;
  error?: string;
}

export abstract class Model<Handle> {
  /** What the model is for, e.g. "face-detector". */
  abstract readonly role: string;
  readonly id: ModelId;
  private pending: Promise<Handle> | undefined;
  private state: ModelState = "idle";
  private loadMs: number | undefined;
  private error: string | undefined;

  constructor(id: ModelId) {
    this.id = id;
  }

  get spec() {
    return MODEL_CATALOG[this.id];
  }

  /** Read weights from disk and build the runtime session. Called at most once per success. */
  protected abstract loadWeights(): Promise<Handle>;

  /** Run one inference on a dummy input so the first real request is not the slow one. */
  protected abstract warmUp(handle: Handle): Promise<void>;

  /** The loaded handle; loads (once) on first use. A failed load may be retried by a later call. */
  load(): Promise<Handle> {
    if (this.pending) return this.pending;
    const started = performance.now();
    this.state = "loading";
    this.pending = (async () => {
      const handle = await this.loadWeights();
      await this.warmUp(handle);
      return handle;
    })().then(
      (handle) => {
        this.state = "ready";
        this.loadMs = Math.round(performance.now() - started);
        return handle;
      },
      (err: unknown) => {
        this.state = "failed";
        this.error = err instanceof Error ? err.message : String(err);
        this.pending = undefined;
        throw err;
      },
    );
    return this.pending;
  }

  get loaded(): boolean {
    return this.state === "ready";
  }

  status(): ModelStatus {
    return { role: this.role, id: this.id, state: this.state, loadMs: this.loadMs, error: this.error };
  }
}
