// Untrusted images are decoded outside compute: by a small pool of decoder processes
// (decoder-process.ts, running compute/media/image.ts), each under a memory limit and with no
// network, as the ffmpeg processes are for video (compute/video/sandbox.ts). libvips and libheif
// parse whatever bytes a client sends; a file that crashes one, or makes it allocate or loop
// without end, now costs one failed task (422 corrupt_media) and a new decoder process, never the
// instance and the other requests it holds. Compute gets back raw pixels, which it checks (sizes
// and lengths) before trusting, and everything after decoding (effects, encoding) runs on those.
//
// Cost (README, "Untrusted media"): the pixels cross a pipe, ~20 ms for a 12 MP photo.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ApiError } from "../../schema/errors.ts";
import type { ErrorCode } from "../../schema/errors.ts";
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from "../../schema/limits.ts";
import { limitBroken, sandboxed } from "../video/sandbox.ts";
import type { ProcessLimits } from "../video/process-limits.ts";
import { lowerPriority } from "../priority.ts";
import type { DecodedImage, ImageHeader } from "./image.ts";
import type { DecoderReply, DecoderRequest } from "./decoder-process.ts";
import { encodeMessage, MessageReader } from "./decoder-protocol.ts";

export interface ImageDecoderOptions {
  /** Decoder processes at most (OBSCURA_IMAGE_DECODERS, default 2); requests beyond wait in turn. */
  processes: number;
  /** RLIMIT_DATA of each process, MiB (OBSCURA_DECODER_MEMORY_MB, default 1024: a 50 MP PNG peaks near 450). */
  memoryMb: number;
  /** Wall-clock seconds one request may take before its process is killed (OBSCURA_DECODE_TIMEOUT_S, default 60). */
  timeoutSeconds: number;
  /** Requests a process serves before it is replaced: what one file leaves in its heap does not reach the next hundred. */
  requestsPerProcess: number;
}

const CHILD = fileURLToPath(new URL("./decoder-process.ts", import.meta.url));
/** Codes a decoder may answer with; anything else it says is corrupt_media. */
const DECODER_CODES = new Set<ErrorCode>(["corrupt_media", "media_too_large", "unsupported_media_format"]);
const STDERR_TAIL_BYTES = 2048;
/**
 * CPU seconds of one process's whole life. Compute's timeout bounds each request; this bounds a
 * decoder orphaned by compute's death (it exits when its stdin closes, but only after the request
 * in hand): 100 requests of 50 MP at ~6 CPU-s each fit, a file that loops forever does not.
 */
const LIFETIME_CPU_SECONDS = 1800;

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got ${raw}).`);
  return value;
}

export function imageDecoderOptions(): ImageDecoderOptions {
  return {
    processes: Math.max(1, Math.round(setting("OBSCURA_IMAGE_DECODERS", 2))),
    memoryMb: setting("OBSCURA_DECODER_MEMORY_MB", 1024),
    timeoutSeconds: setting("OBSCURA_DECODE_TIMEOUT_S", 60),
    requestsPerProcess: 100,
  };
}

type Reply = { head: DecoderReply; body: Buffer };
type Waiting = { resolve: (reply: Reply) => void; reject: (err: Error) => void };

/** One decoder process: serves one request at a time. */
class DecoderProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  served = 0;
  #stderr = "";
  #killedByUs = false;
  #stopping = false;
  #ended: { signal: NodeJS.Signals | null; code: number | null } | undefined;
  #waiting: Waiting | undefined;

  readonly limits: ProcessLimits;

  constructor(limits: ProcessLimits) {
    this.limits = limits;
    const command = sandboxed(process.execPath, [CHILD], limits);
    this.child = spawn(command.command, command.args, { stdio: ["pipe", "pipe", "pipe"] });
    lowerPriority(this.child.pid);
    const reader = new MessageReader<DecoderReply>({ maxHeadBytes: 64 * 1024, maxBodyBytes: MAX_IMAGE_PIXELS * 4 });
    this.child.stdout!.on("data", (chunk: Buffer) => {
      try {
        for (const reply of reader.push(chunk)) this.#settle((w) => w.resolve(reply));
      } catch (err) {
        this.#settle((w) => w.reject(new Error(`the decoder answered out of protocol (${(err as Error).message})`)));
        this.kill();
      }
    });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (text: string) => (this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL_BYTES)));
    this.child.stdin!.on("error", () => {}); // EPIPE from a dead decoder: its exit tells the story
    this.exited = new Promise((resolve) => {
      this.child.once("error", (err) => {
        this.#stderr += `\n${err.message}`;
        this.#ended ??= { signal: null, code: -1 };
        this.#settle((w) => w.reject(new Error(this.#why())));
        resolve();
      });
      this.child.once("close", (code, signal) => {
        this.#ended = { signal, code };
        this.#settle((w) => w.reject(new Error(this.#why())));
        resolve();
      });
    });
  }

  /** Running and not told to stop: can take a request. */
  get alive(): boolean {
    return this.#ended === undefined && !this.#stopping;
  }

  /** Sends one request and waits for its answer; rejects when the process stops first or the time runs out. */
  request(head: DecoderRequest, body: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<Reply> {
    if (!this.alive) return Promise.reject(new Error(this.#why()));
    this.served++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#settle((w) => w.reject(new Error(`it took longer than ${timeoutMs / 1000} s`)));
        this.kill();
      }, timeoutMs);
      const abort = () => {
        this.#settle((w) => w.reject(signal!.reason));
        this.kill();
      };
      signal?.addEventListener("abort", abort, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
      };
      this.#waiting = { resolve: (r) => (done(), resolve(r)), reject: (e) => (done(), reject(e)) };
      if (signal?.aborted) return abort();
      for (const part of encodeMessage(head, body)) this.child.stdin!.write(part);
    });
  }

  kill(): void {
    this.#stopping = true;
    if (this.#ended === undefined && this.child.exitCode === null && this.child.signalCode === null) {
      this.#killedByUs = true;
      this.child.kill("SIGKILL");
    }
  }

  /** Ends the process once its current request is answered (stdin closed: it exits by itself). */
  retire(): void {
    this.#stopping = true;
    this.child.stdin!.end();
  }

  #settle(action: (waiting: Waiting) => void): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) action(waiting);
  }

  /** Why the process stopped, for the error message. */
  #why(): string {
    const ended = this.#ended ?? { signal: null, code: null };
    // Our own kills (time, abort) have answered the request already; any other SIGKILL is the CPU limit or the system's.
    if (ended.signal === "SIGKILL") return `its decoder process was killed (SIGKILL: its CPU-time limit of ${this.limits.cpuSeconds} s, or the system)`;
    const limit = limitBroken(ended.signal, this.#killedByUs, this.#stderr, this.limits);
    if (limit) return `it ran past its ${limit.text}`;
    return ended.signal ? `its decoder process was stopped by ${ended.signal}` : `its decoder process exited (code ${ended.code})`;
  }
}

/** The instance's decoder processes: started on demand, kept for the next request, replaced when they stop. */
export class ImageDecoders {
  readonly options: ImageDecoderOptions;
  readonly #idle: DecoderProcess[] = [];
  readonly #waiting: Array<(process: DecoderProcess) => void> = [];
  #running = 0;
  #closed = false;

  constructor(options: ImageDecoderOptions = imageDecoderOptions()) {
    this.options = options;
  }

  /** Starts one process ahead of the first request (node and libvips take ~150 ms to load). */
  warm(): void {
    if (this.#idle.length === 0 && this.#running < this.options.processes) this.#idle.push(this.#start());
  }

  /** Format and header dimensions, read in a decoder process. Throws ApiError. */
  async readHeader(bytes: Uint8Array, signal?: AbortSignal): Promise<ImageHeader> {
    const reply = await this.#ask({ op: "header" }, bytes, signal);
    if (!("header" in reply.head)) throw new ApiError("corrupt_media", "The image cannot be read: its decoder answered out of protocol.");
    return reply.head.header;
  }

  /** The image's pixels (RGB, or RGBA with transparency; orientation applied), decoded in a decoder process. Throws ApiError. */
  async decode(bytes: Uint8Array, header?: ImageHeader, signal?: AbortSignal): Promise<DecodedImage> {
    const { head, body } = await this.#ask({ op: "decode", header }, bytes, signal);
    // The decoder may be a hostile file's now: believe its pixels only when they add up.
    const ok =
      "width" in head && Number.isInteger(head.width) && Number.isInteger(head.height) && head.width > 0 && head.height > 0 &&
      head.width <= MAX_IMAGE_SIDE && head.height <= MAX_IMAGE_SIDE && head.width * head.height <= MAX_IMAGE_PIXELS &&
      (head.channels === 3 || head.channels === 4) && body.length === head.width * head.height * head.channels;
    if (!ok) throw new ApiError("corrupt_media", "The image cannot be decoded: its decoder answered out of protocol.");
    return { frame: { data: body, width: head.width, height: head.height, channels: head.channels }, format: head.format };
  }

  /** Stops every process (compute's shutdown, tests). */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle.splice(0);
    for (const p of idle) p.kill();
    await Promise.all(idle.map((p) => p.exited));
  }

  async #ask(head: DecoderRequest, bytes: Uint8Array, signal?: AbortSignal): Promise<Reply> {
    const process = await this.#acquire();
    let reply: Reply;
    try {
      reply = await process.request(head, bytes, this.options.timeoutSeconds * 1000, signal);
    } catch (err) {
      this.#release(process);
      if (signal?.aborted) throw signal.reason;
      throw new ApiError("corrupt_media", `The image cannot be decoded: ${(err as Error).message}.`);
    }
    this.#release(process);
    if (!reply.head.ok) {
      const code = DECODER_CODES.has(reply.head.code as ErrorCode) ? (reply.head.code as ErrorCode) : "corrupt_media";
      throw new ApiError(code, String(reply.head.message).slice(0, 500));
    }
    return reply;
  }

  #start(): DecoderProcess {
    this.#running++;
    const limits: ProcessLimits = { cpuSeconds: LIFETIME_CPU_SECONDS, memoryBytes: Math.round(this.options.memoryMb * 1024 ** 2), memory: "data", fileBytes: 0 };
    const started = new DecoderProcess(limits);
    void started.exited.then(() => {
      this.#running--;
      const i = this.#idle.indexOf(started);
      if (i >= 0) this.#idle.splice(i, 1);
      // A slot freed: someone waiting gets a new process.
      const next = this.#waiting.shift();
      if (next && !this.#closed) next(this.#start());
    });
    return started;
  }

  async #acquire(): Promise<DecoderProcess> {
    if (this.#closed) throw new ApiError("compute_unavailable", "Compute is shutting down.");
    while (this.#idle.length > 0) {
      const p = this.#idle.pop()!;
      if (p.alive) return p;
    }
    if (this.#running < this.options.processes) return this.#start();
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #release(p: DecoderProcess): void {
    if (!p.alive) return; // its exit handler hands the slot on
    if (this.#closed || p.served >= this.options.requestsPerProcess) return p.retire();
    const next = this.#waiting.shift();
    if (next) next(p);
    else this.#idle.push(p);
  }
}

let shared: ImageDecoders | undefined;

/** The instance's decoders, configured from the environment. */
export function imageDecoders(): ImageDecoders {
  return (shared ??= new ImageDecoders());
}
