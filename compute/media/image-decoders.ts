// Untrusted images are decoded outside compute: by a small pool of decoder processes
// (decoder-process.ts, running compute/media/image.ts), each under a memory limit and with no
// network, as the ffmpeg processes are for video (compute/video/sandbox.ts). libvips and libheif
// parse whatever bytes a client sends; a file that crashes one, or makes it allocate or loop
// without end, now costs one failed task (422 corrupt_media) and a new decoder process, never the
// instance and the other requests it holds. Compute gets back raw pixels, which it checks (sizes
// and lengths) before trusting, and everything after decoding (effects, encoding) runs on those.
//
// The file goes to the decoder through its stdin; the pixels come back through a scratch file
// that only the two processes hold (on /dev/shm, unlinked as soon as it is open, reused for every
// request of that process), read into buffers kept between requests. Through the pipe a 12 MP
// photo's 36 MB took ~120 ms and a fresh buffer ~180 ms more of page faults on this project's VMs;
// this way the copies take ~15 ms. What the decode stage still costs over an in-process decode
// (~150 ms at 12 MP there, README "Untrusted media") is mostly the first read of the pixels
// libvips has just written into fresh memory, which an in-process pipeline pays later instead.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, read, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { ApiError } from "../../schema/errors.ts";
import type { ErrorCode } from "../../schema/errors.ts";
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from "../../schema/limits.ts";
import { limitBroken, sandboxed } from "../video/sandbox.ts";
import { positiveSetting, type ProcessLimits } from "../video/process-limits.ts";
import { lowerPriority } from "../priority.ts";
import type { DecodedImage, ImageHeader } from "./image.ts";
import { PIXELS_FD } from "./decoder-process.ts";
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

export function imageDecoderOptions(): ImageDecoderOptions {
  return {
    processes: Math.max(1, Math.round(positiveSetting("OBSCURA_IMAGE_DECODERS", 2))),
    memoryMb: positiveSetting("OBSCURA_DECODER_MEMORY_MB", 1024),
    timeoutSeconds: positiveSetting("OBSCURA_DECODE_TIMEOUT_S", 60),
    requestsPerProcess: 100,
  };
}

/** A decode's pixels, in a buffer the pool lends: `release()` gives it back once the frame is no longer used. */
export interface LentImage extends DecodedImage {
  release(): void;
}

/**
 * The buffers decoded pixels land in, kept for the next decode: on this project's VMs a page of
 * fresh memory costs ~20 us to fault in (a new 36 MB buffer: ~180 ms). Up to `count` buffers of at
 * most 64 MB (photos up to ~21 MP) are kept; larger ones go back to the system.
 */
class PixelBuffers {
  readonly #free: Buffer[] = [];
  readonly #lent = new WeakMap<ArrayBufferLike, Buffer>();
  readonly #count: number;
  readonly #maxBytes = 64 * 1024 ** 2;

  constructor(count: number) {
    this.#count = count;
  }

  take(bytes: number): Buffer {
    let best = -1;
    this.#free.forEach((b, i) => {
      if (b.length >= bytes && (best < 0 || b.length < this.#free[best]!.length)) best = i;
    });
    // allocUnsafeSlow: a buffer of its own, never a slice of Node's shared pool.
    const whole = best >= 0 ? this.#free.splice(best, 1)[0]! : Buffer.allocUnsafeSlow(bytes);
    this.#lent.set(whole.buffer, whole);
    return whole.subarray(0, bytes);
  }

  give(data: Buffer): void {
    const whole = this.#lent.get(data.buffer);
    if (!whole) return;
    this.#lent.delete(data.buffer);
    if (whole.length > this.#maxBytes) return;
    this.#free.push(whole);
    if (this.#free.length > this.#count) this.#free.sort((a, b) => b.length - a.length).pop();
  }
}

type Waiting = { resolve: (reply: DecoderReply) => void; reject: (err: Error) => void };
/** Scratch files over this size are emptied after use: tmpfs pages are memory. */
const KEEP_SCRATCH_BYTES = 64 * 1024 ** 2;
const readAt = promisify(read);

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

  readonly #pixels: number;
  #reading: Promise<unknown> = Promise.resolve();

  constructor(limits: ProcessLimits) {
    this.limits = limits;
    const path = join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), `obscura-pixels-${randomUUID()}`);
    this.#pixels = openSync(path, "w+", 0o600);
    unlinkSync(path); // it lives while the two processes hold it, and leaves nothing behind
    const command = sandboxed(process.execPath, [CHILD], limits);
    const stdio: Array<"pipe" | number> = ["pipe", "pipe", "pipe"];
    stdio[PIXELS_FD] = this.#pixels;
    this.child = spawn(command.command, command.args, { stdio });
    lowerPriority(this.child.pid);
    const reader = new MessageReader<DecoderReply>({ maxHeadBytes: 64 * 1024, maxBodyBytes: 0 });
    this.child.stdout!.on("data", (chunk: Buffer) => {
      try {
        for (const reply of reader.push(chunk)) this.#settle((w) => w.resolve(reply.head));
      } catch (err) {
        this.#settle((w) => w.reject(new Error(`the decoder answered out of protocol (${(err as Error).message})`)));
        this.kill();
      }
    });
    this.child.stderr!.setEncoding("utf8");
    this.child.stderr!.on("data", (text: string) => (this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL_BYTES)));
    this.child.stdin!.on("error", () => {}); // EPIPE from a dead decoder: its exit tells the story
    this.exited = new Promise<void>((resolve) => {
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
    }).then(() => void this.#reading.finally(() => closeSync(this.#pixels)));
  }

  /** Running and not told to stop: can take a request. */
  get alive(): boolean {
    return this.#ended === undefined && !this.#stopping;
  }

  /** Sends one request and waits for its answer; rejects when the process stops first or the time runs out. */
  request(head: DecoderRequest, body: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<DecoderReply> {
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

  /** Reads the pixels the last decode wrote into `into` (exactly its length). */
  async readPixels(into: Buffer): Promise<void> {
    const reading = (async () => {
      let done = 0;
      while (done < into.length) {
        const { bytesRead } = await readAt(this.#pixels, into, done, into.length - done, done);
        if (bytesRead === 0) throw new Error(`the decoder wrote ${done} of ${into.length} bytes of pixels`);
        done += bytesRead;
      }
      if (fstatSync(this.#pixels).size > KEEP_SCRATCH_BYTES) ftruncateSync(this.#pixels, 0);
    })();
    this.#reading = reading.catch(() => {});
    return reading;
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
  readonly #buffers: PixelBuffers;
  readonly #waiting: Array<(process: DecoderProcess) => void> = [];
  #running = 0;
  #closed = false;

  constructor(options: ImageDecoderOptions = imageDecoderOptions()) {
    this.options = options;
    this.#buffers = new PixelBuffers(options.processes);
  }

  /** Starts one process ahead of the first request (node and libvips take ~150 ms to load). */
  warm(): void {
    if (this.#idle.length === 0 && this.#running < this.options.processes) this.#idle.push(this.#start());
  }

  /** Format and header dimensions, read in a decoder process. Throws ApiError. */
  async readHeader(bytes: Uint8Array, signal?: AbortSignal): Promise<ImageHeader> {
    return this.#ask({ op: "header" }, bytes, signal, async (head) => {
      if (!("header" in head)) throw new Error("its decoder answered out of protocol");
      return head.header;
    });
  }

  /** The image's pixels (RGB, or RGBA with transparency; orientation applied), decoded in a decoder process. Throws ApiError. */
  async decode(bytes: Uint8Array, header?: ImageHeader, signal?: AbortSignal): Promise<LentImage> {
    return this.#ask({ op: "decode", header }, bytes, signal, async (head, decoder) => {
      // The decoder may be a hostile file's now: believe its pixels only when they add up.
      const ok =
        "width" in head && Number.isInteger(head.width) && Number.isInteger(head.height) && head.width > 0 && head.height > 0 &&
        head.width <= MAX_IMAGE_SIDE && head.height <= MAX_IMAGE_SIDE && head.width * head.height <= MAX_IMAGE_PIXELS &&
        (head.channels === 3 || head.channels === 4);
      if (!ok) throw new Error("its decoder answered out of protocol");
      const data = this.#buffers.take(head.width * head.height * head.channels);
      const release = () => this.#buffers.give(data);
      await decoder.readPixels(data).catch((err: unknown) => {
        release();
        throw err;
      });
      return { frame: { data, width: head.width, height: head.height, channels: head.channels }, format: head.format, release };
    });
  }

  /** Stops every process (compute's shutdown, tests). */
  async close(): Promise<void> {
    this.#closed = true;
    const idle = this.#idle.splice(0);
    for (const p of idle) p.kill();
    await Promise.all(idle.map((p) => p.exited));
  }

  /** Runs one request on a decoder process, and `take` on its answer while the process is still ours. */
  async #ask<T>(head: DecoderRequest, bytes: Uint8Array, signal: AbortSignal | undefined, take: (reply: Extract<DecoderReply, { ok: true }>, decoder: DecoderProcess) => Promise<T>): Promise<T> {
    const decoder = await this.#acquire();
    try {
      const reply = await decoder.request(head, bytes, this.options.timeoutSeconds * 1000, signal);
      if (!reply.ok) {
        const code = DECODER_CODES.has(reply.code as ErrorCode) ? (reply.code as ErrorCode) : "corrupt_media";
        throw new ApiError(code, String(reply.message).slice(0, 500));
      }
      return await take(reply, decoder);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if (signal?.aborted) throw signal.reason;
      throw new ApiError("corrupt_media", `The image cannot be decoded: ${(err as Error).message}.`);
    } finally {
      this.#release(decoder);
    }
  }

  #start(): DecoderProcess {
    this.#running++;
    const limits: ProcessLimits = {
      cpuSeconds: LIFETIME_CPU_SECONDS,
      memoryBytes: Math.round(this.options.memoryMb * 1024 ** 2),
      memory: "data",
      fileBytes: MAX_IMAGE_PIXELS * 4, // the scratch file holds one decode's pixels
    };
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
