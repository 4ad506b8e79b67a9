// Thin layer over the ffmpeg/ffprobe binaries: how to start them under the sandbox's limits (from
// the process spawner, spawner.ts, so that starting one never stops compute's event loop) so that
// they never outlive the request that started them, how to keep the end of their stderr for the
// error message (ffmpeg explains itself in the last lines), and which limit stopped one.
import type { Readable, Writable } from "node:stream";
import { probeLimits } from "./process-limits.ts";
import type { ProcessLimits } from "./process-limits.ts";
import { limitBroken, sandboxed } from "./sandbox.ts";
import { processSpawner } from "./spawner.ts";
import { workNice } from "../priority.ts";
import type { BrokenLimit } from "./sandbox.ts";

export { ffmpegPath, ffprobePath } from "./binaries.ts";

/** A started ffmpeg/ffprobe with what the caller needs to supervise it. */
export interface MediaProcess {
  /** Its pid, or -1 when it could not be started. */
  pid: number;
  /** Its stdin (when asked for): frames go in here. */
  stdin: Writable | undefined;
  /** Its stdout (when asked for). */
  stdout: Readable | undefined;
  /** Resolves with the exit code (or null when killed by a signal) once its stdout is drained too; never rejects. */
  exited: Promise<number | null>;
  /** After exit: the signal that ended it, or null. */
  signal(): NodeJS.Signals | null;
  /** The last few KB of stderr, for error messages. */
  stderrTail(): string;
  /** SIGKILL if still running; idempotent. ffmpeg holds no state worth a graceful stop here. */
  kill(): void;
  /** After exit: the limit that stopped the process, or null. */
  limitBroken(): BrokenLimit | null;
}

const STDERR_TAIL_BYTES = 4096;

/**
 * Start a media tool under `limits` (default: the prober's, the tightest flat budget), with its
 * stdin or its stdout (at most one) connected to compute when asked for, so an unused stream can
 * never fill up and stall the process. The process is killed when `signal` aborts.
 */
export async function startMediaProcess(
  binary: string,
  args: string[],
  options: { stdin?: boolean; stdout?: boolean; signal?: AbortSignal; limits?: ProcessLimits } = {},
): Promise<MediaProcess> {
  if (options.stdin && options.stdout) throw new Error("startMediaProcess connects stdin or stdout, not both");
  const limits = options.limits ?? probeLimits();
  const command = sandboxed(binary, args, limits);
  // Below compute's main thread (compute/priority.ts): the spawner lowers it before prlimit and
  // unshare have exec'd ffmpeg, so the threads ffmpeg starts inherit it.
  const tool = await processSpawner().spawn(command.command, command.args, { stream: options.stdin ? "stdin" : options.stdout ? "stdout" : null, nice: workNice() });
  let tail = "";
  tool.onStderr((text) => {
    tail = (tail + text).slice(-STDERR_TAIL_BYTES);
  });
  let done = false;
  let killedByUs = false;
  let endSignal: NodeJS.Signals | null = null;
  const exited = tool.exited.then((exit) => {
    if (exit.error) tail += `\n${exit.error}`;
    done = true;
    endSignal = exit.signal;
    return exit.code;
  });
  const kill = () => {
    if (!done) {
      killedByUs = true;
      tool.kill();
    }
    // Its output is no longer wanted. A stdout nobody reads stays paused with a full buffer and
    // never sees its end, so `exited` never came: a processor failing while the decoder was
    // ahead left processVideo waiting for the decoder forever.
    if (options.stdout) tool.stream!.destroy();
  };
  if (options.signal) {
    if (options.signal.aborted) kill();
    else options.signal.addEventListener("abort", kill, { once: true });
    void exited.then(() => options.signal!.removeEventListener("abort", kill));
  }
  return {
    pid: tool.pid,
    stdin: options.stdin ? tool.stream : undefined,
    stdout: options.stdout ? tool.stream : undefined,
    exited,
    signal: () => endSignal,
    stderrTail: () => tail.trim(),
    kill,
    limitBroken: () => (done ? limitBroken(endSignal, killedByUs, tail, limits) : null),
  };
}

/** Run a tool to completion and collect its stdout (small outputs only: ffprobe JSON). */
export async function runMediaTool(
  binary: string,
  args: string[],
  signal?: AbortSignal,
  limits?: ProcessLimits,
): Promise<{ code: number | null; stdout: string; stderr: string; limitBroken: BrokenLimit | null }> {
  const proc = await startMediaProcess(binary, args, { stdout: true, signal, limits });
  const chunks: Buffer[] = [];
  proc.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await proc.exited;
  return { code, stdout: Buffer.concat(chunks).toString("utf8"), stderr: proc.stderrTail(), limitBroken: proc.limitBroken() };
}
