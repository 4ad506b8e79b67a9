// Waiting for a job politely: polls GET /jobs/{job_id}, reports progress, backs off, sleeps for
// as long as a 429/503 Retry-After says, and slows down when the daily budget runs low (each
// poll counts against it).
import { ObscuraError, ObscuraJobError, type RateLimit } from "./errors.ts";
import type { Transport } from "./http.ts";
import type { Job } from "./types.ts";

export interface WaitOptions {
  /** Called with the job whenever its status or progress changed. */
  onProgress?: (job: Job) => void;
  /** First wait between polls (ms); default 2000. It grows by half each poll up to maxIntervalMs. */
  intervalMs?: number;
  /** Longest wait between polls (ms); default 15000. */
  maxIntervalMs?: number;
  /** Give up after this long (ms); default: never. A Retry-After past it ends the wait at once. */
  timeoutMs?: number;
  /** Below this many requests left today, polls are spread over the time to the reset; default 10. */
  lowBudget?: number;
  signal?: AbortSignal;
  /** How to wait (tests replace it). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock (tests replace it). */
  now?: () => number;
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

/** The wait before the next poll given the budget left: at least the time to the reset spread over what is left. */
export function budgetWait(rate: RateLimit | undefined, lowBudget: number, nowMs: number): number {
  if (!rate || rate.remaining >= lowBudget) return 0;
  const toReset = Math.max(0, rate.reset * 1000 - nowMs);
  return rate.remaining <= 0 ? toReset : toReset / rate.remaining;
}

/** Polls until the job completes (returns it) or fails (throws ObscuraJobError). */
export async function waitForJob(transport: Transport, jobId: string, opts: WaitOptions = {}): Promise<Job> {
  const sleep = opts.sleep ?? defaultSleep;
  const now = opts.now ?? Date.now;
  const deadline = opts.timeoutMs === undefined ? Infinity : now() + opts.timeoutMs;
  const maxInterval = opts.maxIntervalMs ?? 15_000;
  let interval = opts.intervalMs ?? 2_000;
  let last = "";
  for (;;) {
    let wait: number;
    try {
      const { data: job, rateLimit } = await transport.request<Job>("GET", `/jobs/${encodeURIComponent(jobId)}`, { signal: opts.signal });
      const seen = `${job.status}:${job.progress}`;
      if (seen !== last) opts.onProgress?.(job);
      last = seen;
      if (job.status === "completed") return job;
      if (job.status === "failed") throw new ObscuraJobError(jobId, job.error?.code ?? "job_failed", job.error?.message ?? "The job failed.");
      wait = Math.max(interval, budgetWait(rateLimit, opts.lowBudget ?? 10, now()));
      interval = Math.min(maxInterval, interval * 1.5);
    } catch (err) {
      if (!(err instanceof ObscuraError) || err instanceof ObscuraJobError || !err.retryable) throw err;
      wait = (err.retryAfter ?? interval / 1000) * 1000;
      if (now() + wait > deadline) throw err;
    }
    if (now() + wait > deadline) throw new ObscuraError("timeout", 0, `Job ${jobId} did not finish within ${opts.timeoutMs} ms.`);
    await sleep(wait, opts.signal);
  }
}
