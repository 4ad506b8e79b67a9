// Thin layer over the ffmpeg/ffprobe binaries: where they are, how to start them so that they
// never outlive the request that started them, and how to keep the end of their stderr for the
// error message (ffmpeg explains itself in the last lines).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import type { ChildProcess } from "node:child_process";

const require = createRequire(import.meta.url);

/**
 * The static ffmpeg/ffprobe builds that ship inside registry packages (@ffmpeg-installer/ffmpeg
 * 4.1 with libx264, @ffprobe-installer/ffprobe), so `npm ci` is the whole install, also on
 * air-gapped servers. FFMPEG_PATH / FFPROBE_PATH override them (e.g. Debian's ffmpeg).
 */
export function ffmpegPath(): string {
  return process.env.FFMPEG_PATH || (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
}

export function ffprobePath(): string {
  return process.env.FFPROBE_PATH || (require("@ffprobe-installer/ffprobe") as { path: string }).path;
}

/** A started ffmpeg/ffprobe with what the caller needs to supervise it. */
export interface MediaProcess {
  child: ChildProcess;
  /** Resolves with the exit code (or null when killed by a signal); never rejects. */
  exited: Promise<number | null>;
  /** The last few KB of stderr, for error messages. */
  stderrTail(): string;
  /** SIGKILL if still running; idempotent. ffmpeg holds no state worth a graceful stop here. */
  kill(): void;
}

const STDERR_TAIL_BYTES = 4096;

/**
 * Start a media tool. stdin/stdout are pipes only when asked for, so an unused pipe can never
 * fill up and stall the process. The process is killed when `signal` aborts.
 */
export function startMediaProcess(
  binary: string,
  args: string[],
  options: { stdin?: boolean; stdout?: boolean; signal?: AbortSignal } = {},
): MediaProcess {
  const child = spawn(binary, args, {
    stdio: [options.stdin ? "pipe" : "ignore", options.stdout ? "pipe" : "ignore", "pipe"],
  });
  let tail = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (text: string) => {
    tail = (tail + text).slice(-STDERR_TAIL_BYTES);
  });
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.once("error", (err) => {
      // Spawn failure (binary missing): report like an exit so callers have one path.
      tail += `\n${err.message}`;
      done = true;
      resolve(-1);
    });
    child.once("close", (code) => {
      done = true;
      resolve(code);
    });
  });
  const kill = () => {
    if (!done && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  if (options.signal) {
    if (options.signal.aborted) kill();
    else options.signal.addEventListener("abort", kill, { once: true });
    void exited.then(() => options.signal!.removeEventListener("abort", kill));
  }
  // Writes to a dead encoder raise EPIPE on stdin; the exit code carries the real story.
  child.stdin?.on("error", () => {});
  return { child, exited, stderrTail: () => tail.trim(), kill };
}

/** Run a tool to completion and collect its stdout (small outputs only: ffprobe JSON). */
export async function runMediaTool(
  binary: string,
  args: string[],
  signal?: AbortSignal,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const proc = startMediaProcess(binary, args, { stdout: true, signal });
  const chunks: Buffer[] = [];
  proc.child.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk));
  const code = await proc.exited;
  return { code, stdout: Buffer.concat(chunks).toString("utf8"), stderr: proc.stderrTail() };
}
