// The inference threads: every ONNX Runtime session of the process is opened on each of N worker
// threads, and each run goes to the thread with the fewest runs in flight.
//
// Why: onnxruntime-node's run() executes synchronously on the calling thread (its promise only
// defers the call with setImmediate), so on the main thread every inference blocked compute's
// event loop (health checks, progress, new requests) for its whole length, and the detector's
// "concurrent" passes ran one after another on one core. Measured on a 16-image BlazeFace batch:
// a 10 ms interval timer fired 4 times in 400 ms of runs on the main thread, 350 times in 4.4 s on
// two inference threads, where two runs also proceed at once.
//
// Inputs are copied to the thread, or handed over (moved) where the caller built them for the one
// run; outputs are moved back. Copying a 12.6 MB tile batch cost the main thread more than
// cutting the tiles. Each thread holds its own copy of the weights (the models here total under
// 100 MB). A thread that dies fails its runs in flight and is replaced; the sessions are reopened
// on the new one.
import { Worker } from "node:worker_threads";
import "./no-telemetry.ts"; // before onnxruntime-node
import * as ort from "onnxruntime-node";
import type { OnnxProvider } from "../../config.ts";
import { workNice } from "../../priority.ts";

export interface WireTensor {
  type: string;
  data: Float32Array | Int32Array | BigInt64Array | Uint8Array | Float64Array | Int8Array | Uint16Array | Int16Array | Uint32Array | BigUint64Array;
  dims: number[];
}

/** What an inference thread starts with. */
export interface InferenceWorkerData {
  /** Its niceness (compute/priority.ts). */
  nice: number;
}

export type PoolRequest =
  | { type: "open"; session: number; model: string | Uint8Array; providers: readonly OnnxProvider[]; threads: number }
  | { type: "run"; session: number; call: number; feeds: Array<[string, WireTensor]>; handOver: boolean }
  | { type: "release"; session: number };

export type PoolReply =
  | { type: "ready" }
  | { type: "opened"; session: number; provider?: OnnxProvider; inputNames?: string[]; outputNames?: string[]; warning?: string; error?: string }
  | { type: "released"; session: number }
  | { type: "ran"; call: number; outputs?: Array<[string, WireTensor]>; error?: string; inputs?: ArrayBuffer[] };

type SessionReply = Extract<PoolReply, { type: "opened" | "released" }>;

export type Feeds = Record<string, ort.Tensor>;
export type Outputs = Record<string, ort.Tensor>;

/** Spare input buffers kept per size (a 720p frame's small tiles are 3 batches, 1080p's 8). */
const MAX_SPARE_PER_SIZE = 8;

/** An ONNX Runtime session as the models use it, run on the inference threads. */
export interface Session {
  /** The execution provider it runs on: the first configured one that loaded. */
  readonly provider: OnnxProvider;
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /**
   * `handOver`: the inputs' memory is moved to the thread instead of copied (their arrays are
   * empty afterwards) and comes back to the pool's spare inputs (InferencePool.inputArray) after
   * the run. For callers that build an input for one run; a 16-tile BlazeFace batch is 12.6 MB.
   */
  run(feeds: Feeds, options?: { handOver?: boolean }): Promise<Outputs>;
  /** Runs `feeds` once on every thread, so no thread's first real call pays for kernel setup. */
  warmUp(feeds: Feeds): Promise<void>;
  /** Frees the session on every thread (runs already sent finish first). */
  release(): Promise<void>;
}

interface Thread {
  id: number;
  /** Whether it ever answered (a thread that dies before is not replaced: its replacement would die too). */
  answered: boolean;
  /** Whether it has loaded onnxruntime-node (said "ready"): exiting before aborts the process (InferencePool.close). */
  ready: boolean;
  worker: Worker;
  /** Runs in flight (what #leastBusy balances). */
  inFlight: number;
  /**
   * Runs and session openings in flight: while any is, the thread keeps the process alive. Counted
   * together: unreferencing a thread when its runs were done but an opening was not let a script
   * that loaded two models at once exit under that opening, which aborted the process ("terminate
   * called after throwing an instance of 'Napi::Error'", every time on two concurrent opens).
   */
  held: number;
}

interface Pending {
  thread: Thread;
  resolve: (out: Outputs) => void;
  reject: (err: Error) => void;
}

/** Named tensors as posted between threads (both directions, both sides). */
export const toWire = (tensors: Record<string, ort.Tensor>): Array<[string, WireTensor]> =>
  Object.entries(tensors).map(([name, t]) => [name, { type: t.type, data: t.data as WireTensor["data"], dims: [...t.dims] }]);
export const fromWire = (tensors: Array<[string, WireTensor]>): Record<string, ort.Tensor> =>
  Object.fromEntries(tensors.map(([name, t]) => [name, new ort.Tensor(t.type as "float32", t.data as Float32Array, t.dims)]));
/** The distinct plain ArrayBuffers under these tensors: what postMessage can move instead of copy. */
export const movableBuffers = (tensors: Array<[string, WireTensor]>): ArrayBuffer[] =>
  [...new Set(tensors.map(([, t]) => t.data.buffer))].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);

export class InferencePool {
  readonly size: number;
  readonly #threads: Thread[] = [];
  readonly #opens = new Map<number, Omit<Extract<PoolRequest, { type: "open" }>, "type" | "session">>();
  /** Openings and releases in flight, by thread, kind and session: what close() waits for. */
  readonly #sessionReplies = new Map<string, { resolve: (reply: SessionReply) => void; onDeath: (err: Error) => SessionReply }>();
  readonly #calls = new Map<number, Pending>();
  readonly #warned = new Set<string>();
  #nextThread = 0;
  #nextSession = 0;
  #nextCall = 0;
  #turn = 0;
  #broken: Error | undefined;
  /** close() was called: no thread starts any more. */
  #closed = false;
  /**
   * The first session, opened on one thread before the others: onnxruntime-node builds its
   * process-wide runtime on the first session a thread opens, and threads doing that at once can
   * abort the whole process (onnxruntime issue #24486; seen here once at start-up, as "terminate
   * called after throwing an instance of 'Napi::Error'").
   */
  #first: Promise<unknown> | undefined;
  /** Input memory handed over and given back by the threads, by size, for inputArray. */
  readonly #spare = new Map<number, ArrayBuffer[]>();

  /**
   * The threads start one after another, each once the one before has loaded onnxruntime-node:
   * threads loading its binding at the same time aborted the process now and then ("terminate
   * called after throwing an instance of 'Napi::Error'", 2 of 6 starts of the face detector while
   * its SSD was being converted; onnxruntime issue #20084). Sessions open once all have started.
   */
  constructor(size: number) {
    this.size = Math.max(1, Math.floor(size));
    this.#threads.push(this.#spawn());
  }

  #allStarted!: () => void;
  readonly #started = new Promise<void>((resolve) => (this.#allStarted = resolve));

  #spawn(): Thread {
    const worker = new Worker(new URL("./inference-worker.ts", import.meta.url), { workerData: { nice: workNice() } satisfies InferenceWorkerData });
    const thread: Thread = { id: this.#nextThread++, worker, inFlight: 0, held: 0, answered: false, ready: false };
    thread.worker.on("message", (reply: PoolReply) => this.#onReply(thread, reply));
    const fail = (err: Error) => this.#replace(thread, err);
    thread.worker.on("error", (err) => fail(new Error(`An inference thread failed: ${err.message}`)));
    thread.worker.on("exit", (code) => fail(new Error(`An inference thread exited (code ${code}).`)));
    // Idle threads do not keep the process alive (a thread is referenced while it starts and while
    // it has work).
    for (const [session, spec] of this.#opens) this.#openOn(thread, session, spec);
    return thread;
  }

  #replace(thread: Thread, err: Error): void {
    const index = this.#threads.indexOf(thread);
    if (index < 0) return; // already replaced (error and exit both fire)
    for (const [call, pending] of this.#calls) {
      if (pending.thread !== thread) continue;
      this.#calls.delete(call);
      pending.reject(err);
    }
    // A dead thread's openings fail; its releases are done (it held nothing any more).
    for (const [key, pending] of this.#sessionReplies) if (key.startsWith(`${thread.id}:`)) pending.resolve(pending.onDeath(err));
    if (thread.answered) this.#threads[index] = this.#spawn();
    else {
      this.#broken ??= err;
      this.#allStarted(); // nothing more will start: open() reports the error
    }
  }

  #onReply(thread: Thread, reply: PoolReply): void {
    if (reply.type === "ready") {
      thread.ready = true;
      if (thread.held === 0) thread.worker.unref();
      if (this.#threads.length < this.size && !this.#closed) this.#threads.push(this.#spawn());
      else this.#allStarted();
      return;
    }
    thread.answered = true;
    if (reply.type === "opened" || reply.type === "released") {
      this.#sessionReplies.get(`${thread.id}:${reply.type}:${reply.session}`)?.resolve(reply);
      return;
    }
    const pending = this.#calls.get(reply.call);
    if (!pending) return;
    this.#calls.delete(reply.call);
    thread.inFlight--;
    this.#letGo(thread);
    for (const buffer of reply.inputs ?? []) {
      const list = this.#spare.get(buffer.byteLength) ?? [];
      if (list.length < MAX_SPARE_PER_SIZE) list.push(buffer);
      this.#spare.set(buffer.byteLength, list);
    }
    if (reply.error !== undefined) pending.reject(new Error(`ONNX Runtime: ${reply.error}`));
    else pending.resolve(fromWire(reply.outputs!));
  }

  #openOn(thread: Thread, session: number, spec: Omit<Extract<PoolRequest, { type: "open" }>, "type" | "session">): Promise<PoolReply & { type: "opened" }> {
    return this.#ask(thread, { type: "open", session, ...spec }) as Promise<PoolReply & { type: "opened" }>;
  }

  /**
   * Sends a session's opening or release to a thread and waits for its answer, the thread held
   * meanwhile. A release is waited for too: close() ending a thread inside ONNX Runtime's release
   * aborted the process ("terminate called after throwing an instance of 'Napi::Error'", once in
   * CI, test/compute/telemetry.test.ts's release then close).
   */
  #ask(thread: Thread, request: Extract<PoolRequest, { type: "open" | "release" }>): Promise<SessionReply> {
    const key = `${thread.id}:${request.type === "open" ? "opened" : "released"}:${request.session}`;
    const { session } = request;
    const onDeath = (err: Error): SessionReply => (request.type === "open" ? { type: "opened", session, error: err.message } : { type: "released", session });
    const reply = new Promise<SessionReply>((resolve) => this.#sessionReplies.set(key, { resolve, onDeath }));
    this.#hold(thread);
    thread.worker.postMessage(request satisfies PoolRequest);
    return reply.then((r) => {
      this.#sessionReplies.delete(key);
      this.#letGo(thread);
      return r;
    });
  }

  /** Something starts on the thread: it keeps the process alive until that is done. */
  #hold(thread: Thread): void {
    if (thread.held++ === 0) thread.worker.ref();
  }

  /** Something on the thread is done: an idle thread does not keep the process alive. */
  #letGo(thread: Thread): void {
    if (--thread.held === 0) thread.worker.unref();
  }

  /** Opens the model on every thread; fails if it cannot be opened (on any provider). */
  async open(model: string | Uint8Array, providers: readonly OnnxProvider[], threads: number): Promise<Session> {
    await this.#started;
    if (this.#broken) throw this.#broken;
    const session = this.#nextSession++;
    const spec = { model, providers, threads };
    this.#opens.set(session, spec);
    const onEvery = (threads: Thread[]) => Promise.all(threads.map((t) => this.#openOn(t, session, spec)));
    let replies: Array<PoolReply & { type: "opened" }>;
    if (this.#first) {
      await this.#first;
      replies = await onEvery(this.#threads);
    } else {
      const [head, ...rest] = this.#threads;
      const first = this.#openOn(head!, session, spec);
      this.#first = first;
      replies = [await first, ...(await onEvery(rest))];
    }
    const failed = replies.find((r) => r.error !== undefined);
    if (failed) {
      this.#opens.delete(session);
      throw new Error(failed.error);
    }
    const { provider, inputNames, outputNames, warning } = replies[0]!;
    if (warning && !this.#warned.has(warning)) {
      this.#warned.add(warning);
      console.warn(warning);
    }
    const run = (feeds: Feeds, thread?: Thread, handOver = false) => this.#run(session, feeds, thread, handOver);
    return {
      provider: provider!,
      inputNames: inputNames!,
      outputNames: outputNames!,
      run: (feeds, options) => run(feeds, undefined, options?.handOver),
      warmUp: async (feeds) => {
        await Promise.all(this.#threads.map((t) => run(feeds, t)));
      },
      release: async () => {
        this.#opens.delete(session);
        await Promise.all(this.#threads.map((t) => this.#ask(t, { type: "release", session })));
      },
    };
  }

  #run(session: number, feeds: Feeds, thread: Thread | undefined, handOver: boolean): Promise<Outputs> {
    if (this.#broken) return Promise.reject(this.#broken);
    thread ??= this.#leastBusy();
    const call = this.#nextCall++;
    return new Promise<Outputs>((resolve, reject) => {
      this.#calls.set(call, { thread: thread!, resolve, reject });
      thread!.inFlight++;
      this.#hold(thread!);
      const wire = toWire(feeds);
      const transfer = handOver ? movableBuffers(wire) : [];
      thread!.worker.postMessage({ type: "run", session, call, feeds: wire, handOver: transfer.length > 0 } satisfies PoolRequest, transfer);
    });
  }

  /**
   * A float input of `length` values for a handed-over run: spare memory from an earlier run when
   * there is some (its values are left over: the caller writes every one), else new. Allocating
   * 12.6 MB per tile batch (the page faults of fresh memory) cost ~20 ms each on the main thread.
   */
  inputArray(length: number): Float32Array {
    const buffer = this.#spare.get(length * 4)?.pop();
    return buffer ? new Float32Array(buffer) : new Float32Array(length);
  }

  /**
   * For a process about to exit: no run or session starts from now on (they fail), the threads
   * finish what they have (at most `timeoutMs`) and end. Exiting while a thread is inside ONNX
   * Runtime (a run, a session opening, the binding loading) aborts the process ("terminate called
   * after throwing an instance of 'Napi::Error'", seen on SIGTERM during compute's warm-up).
   */
  async close(timeoutMs = 5_000): Promise<void> {
    this.#closed = true;
    this.#broken ??= new Error("The inference threads are closed.");
    const until = Date.now() + timeoutMs;
    const busy = () => this.#calls.size > 0 || this.#sessionReplies.size > 0 || this.#starting();
    while (busy() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    const threads = this.#threads.splice(0); // ended on purpose: #replace starts no new one
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  /** Whether a thread is still loading onnxruntime-node. */
  #starting(): boolean {
    return this.#threads.some((t) => !t.ready);
  }

  /** The thread with the fewest runs in flight, taking turns among equals. */
  #leastBusy(): Thread {
    const n = this.#threads.length;
    let best = this.#threads[this.#turn % n]!;
    for (let k = 1; k < n; k++) {
      const t = this.#threads[(this.#turn + k) % n]!;
      if (t.inFlight < best.inFlight) best = t;
    }
    this.#turn++;
    return best;
  }
}
