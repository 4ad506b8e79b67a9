// Thin layer over the ffmpeg/ffprobe binaries: how to start them under the sandbox's limits so
// that they never outlive the request that started them, how to keep the end of their stderr for
// the error message (ffmpeg explains itself in the last lines), and which limit stopped one.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { probeLimits } from "./process-limits.ts";
import type { ProcessLimits } from "./process-limits.ts";
import { limitBroken, sandboxed } from "./sandbox.ts";
import { lowerPriority } from "../priority.ts";
import type { BrokenLimit } from "./sandbox.ts";

export { ffmpegPath, ffprobePath } from "./binaries.ts";

/** A started ffmpeg/ffprobe with what the caller needs to supervise it. */
export interface MediaProcess {
  child: ChildProcess;
  /** Resolves with the exit code (or null when killed by a signal); never rejects. */
  exited: Promise<number | null>;
  /** The last few KB of stderr, for error messages. */
  stderrTail(): string;
  /** SIGKILL if still running; idempotent. ffmpeg holds no state worth a graceful stop here. */
  kill(): void;
  /** After exit: the limit that stopped the process, or null. */
  limitBroken(): BrokenLimit | null;
}

const STDERR_TAIL_BYTES = 4096;

/**
 * Start a media tool under `limits` (default: the prober's, the tightest flat budget). stdin/stdout
 * are pipes only when asked for, so an unused pipe can never fill up and stall the process. The
 * process is killed when `signal` aborts.
 */
export function startMediaProcess(
  binary: string,
  args: string[],
  options: { stdin?: boolean; stdout?: boolean; signal?: AbortSignal; limits?: ProcessLimits } = {},
): MediaProcess {
  const limits = options.limits ?? probeLimits();
  const command = sandboxed(binary, args, limits);
  const child = spawn(command.command, command.args, {
    stdio: [options.stdin ? "pipe" : "ignore", options.stdout ? "pipe" : "ignore", "pipe"],
  });
  // Below compute's main thread (compute/priority.ts). Set before prlimit and unshare have exec'd
  // ffmpeg (milliseconds of loading), so the threads ffmpeg starts inherit it.
  lowerPriority(child.pid);
  let tail = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (text: string) => {
    tail = (tail + text).slice(-STDERR_TAIL_BYTES);
  });
  let done = false;
  let killedByUs = false;
  let endSignal: NodeJS.Signals | null = null;
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (err) => {
      // Spawn failure (binary missing): report like an exit so callers have one path.
      tail += `\n${err.message}`;
      done = true;
      resolve(-1);
    });
    child.once("close", (code, signal) => {
      done = true;
      endSignal = signal;
      resolve(code);
    });
  });
  const kill = () => {
    if (!done && child.exitCode === null && child.signalCode === null) {
      killedByUs = true;
      child.kill("SIGKILL");
    }
    // Its output is no longer wanted. A stdout nobody reads stays paused with a full buffer and
    // never sees the end of the pipe, so "close" (and `exited`) never came: a processor failing
    // while the decoder was ahead left processVideo waiting for the decoder forever.
    child.stdout?.destroy();
  };
  if (options.signal) {
    if (options.signal.aborted) kill();
    else options.signal.addEventListener("abort", kill, { once: true });
    void exited.then(() => options.signal!.removeEventListener("abort", kill));
  }
  // Writes to a dead encoder raise EPIPE on stdin; the exit code carries the real story.
  child.stdin?.on("error", () => {});
  return { child, exited, stderrTail: () => tail.trim(), kill, limitBroken: () => (done ? limitBroken(endSignal, killedByUs, tail, limits) : null) };
}

/** Run a tool to completion and collect its stdout (small outputs only: ffprobe JSON). */
export async function runMediaTool(
  binary: string,
  args: string[],
  signal?: AbortSignal,
  limits?: ProcessLimits,
): Promise<{ code: number | null; stdout: string; stderr: string; limitBroken: BrokenLimit | null }> {
  const proc = startMediaProcess(binary, args, { stdout: true, signal, limits });
  const chunks: Buffer[] = [];
  proc.child.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await proc.exited;
  return { code, stdout: Buffer.concat(chunks).toString("utf8"), stderr: proc.stderrTail(), limitBroken: proc.limitBroken() };
}
