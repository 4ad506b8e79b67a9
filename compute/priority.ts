// Compute's main thread answers HTTP (health checks, new tasks, progress callbacks) and runs the
// per-frame JS of the pipelines, which the rest of a job waits on; the inference threads and the
// ffmpeg processes do the heavy work beside it. With every core busy the kernel shares them out
// evenly, so the main thread got a third of a core and /healthz stalled for up to 0.9 s during a
// 720p face-blur (bench/healthz-during-video.ts). The heavy work therefore runs niced
// (OBSCURA_WORK_NICE, default 10; 0 turns it off): it still gets every cycle the main thread does
// not want, and the main thread's turns come at once. Linux keeps a niceness per thread, which is
// what lets an inference thread be lowered alone; elsewhere (no /proc/thread-self) the threads are
// left as they are.
import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

let nice: number | undefined;

/** OBSCURA_WORK_NICE: 0-19, default 10. */
export function workNice(): number {
  if (nice !== undefined) return nice;
  const raw = process.env.OBSCURA_WORK_NICE;
  const value = raw === undefined || raw.trim() === "" ? 10 : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 19) throw new Error(`OBSCURA_WORK_NICE must be an integer from 0 to 19, got ${JSON.stringify(raw)}`);
  return (nice = value);
}

/** Lowers a process (a child's pid) or, on Linux, a thread (its tid) to niceness `value`; never raises it, never throws. */
export function lowerPriority(id: number | undefined, value = workNice()): void {
  if (id === undefined || value === 0) return;
  try {
    if (getPriority(id) < value) setPriority(id, value);
  } catch {
    // Gone already, or not permitted: it keeps the default priority.
  }
}

/** The calling thread's kernel id (Linux), or undefined. */
export function currentThreadId(): number | undefined {
  try {
    return Number(readlinkSync("/proc/thread-self").split("/").pop());
  } catch {
    return undefined;
  }
}
