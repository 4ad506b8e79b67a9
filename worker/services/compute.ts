// Client for the compute pool: signed requests, instance choice, capability discovery.
import { ApiError, type ErrorCode, ERROR_CODES } from "../../schema/errors.ts";
import { HEALTH_PATH, PROBE_PATH, TASKS_PATH, signRequest, type ComputeHealth, type ProbeResult, type TaskRequest } from "../../schema/compute-protocol.ts";
import { PROBE_TIMEOUT_MS } from "../../schema/limits.ts";
import { sha256Hex } from "../../schema/signing.ts";
import type { Env } from "../env.ts";

const HEALTH_TTL_MS = 15_000;
/** How long "no instance answers at all" is believed: short, so a restarted instance is seen soon. */
const DOWN_TTL_MS = 2_000;
const HEALTH_PROBE_TIMEOUT_MS = 3_000;
/** What a 503 compute_unavailable asks the client to wait (a supervised instance restarts in seconds). */
export const COMPUTE_RETRY_AFTER_S = 5;
/**
 * How long the last successful health answer stands in while instances are busy. A compute instance
 * busy with a video job can leave /healthz unanswered for a few seconds; that instance is busy, not
 * gone, and the task request itself (long timeout, 503 = try the next instance) decides.
 */
const HEALTH_STALE_MS = 5 * 60_000;

/** up: an instance answered; busy: none answered but one accepted the connection; down: none listens. */
export type PoolState = { state: "up"; health: ComputeHealth } | { state: "busy" } | { state: "down" };
let poolCache: { at: number; pool: PoolState } | null = null;
let lastGoodHealth: { at: number; health: ComputeHealth } | null = null;

export function computeInstances(env: Env): string[] {
  return env.COMPUTE_URLS.split(",").map((u) => u.trim().replace(/\/$/, "")).filter(Boolean);
}

/** Instances in random order, so load spreads and a dead one is skipped. */
function shuffled(urls: string[]): string[] {
  return urls.map((u) => [Math.random(), u] as const).sort((a, b) => a[0] - b[0]).map(([, u]) => u);
}

async function signedFetch(env: Env, base: string, method: string, path: string, body: string | null, signal: AbortSignal): Promise<Response> {
  const signature = await signRequest(env.SIGNING_SECRET, method, path, await sha256Hex(body ?? ""));
  return fetch(base + path, { method, body, headers: { "content-type": "application/json", ...signature }, signal });
}

/** Default for COMPUTE_HUNG_AFTER_S: how long an instance may leave /healthz unanswered while it holds a synchronous request. */
export const HUNG_AFTER_S = 30;

/**
 * Watches an instance while it holds a request: /healthz is probed every few seconds and `onHung`
 * is called once it has gone unanswered for `hungAfterMs`. Inference runs on compute's worker
 * threads, so a working instance answers /healthz in milliseconds (bench/healthz-during-video.ts);
 * one that answers nothing for that long is frozen or wedged, not busy, and the request would
 * otherwise wait out its whole timeout (two minutes for a synchronous image).
 */
function watchInstance(base: string, hungAfterMs: number, onHung: () => void): () => void {
  const interval = Math.min(5_000, hungAfterMs / 3);
  const needed = Math.ceil(hungAfterMs / interval);
  let misses = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    const answer = await probeInstance(base, Math.min(HEALTH_PROBE_TIMEOUT_MS, interval));
    if (stopped) return;
    misses = typeof answer === "object" ? 0 : misses + 1;
    if (misses >= needed) return onHung();
    timer = setTimeout(tick, interval);
  };
  timer = setTimeout(tick, interval);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** One instance's /healthz: its answer, "busy" when it took the connection but not answered in time, or "down". */
export async function probeInstance(base: string, timeoutMs = HEALTH_PROBE_TIMEOUT_MS): Promise<ComputeHealth | "busy" | "down"> {
  try {
    const res = await fetch(base + HEALTH_PATH, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok ? ((await res.json()) as ComputeHealth) : "busy";
  } catch (err) {
    // A timeout (a DOMException, not always an Error) means the instance took the connection.
    const name = (err as { name?: unknown } | null)?.name;
    return name === "TimeoutError" || name === "AbortError" ? "busy" : "down";
  }
}

/** The pool's state now: every instance probed at once, cached briefly per isolate. */
export async function computePool(env: Env): Promise<PoolState> {
  const ttl = poolCache?.pool.state === "up" ? HEALTH_TTL_MS : DOWN_TTL_MS;
  if (!poolCache || Date.now() - poolCache.at >= ttl) {
    const answers = await Promise.all(computeInstances(env).map((base) => probeInstance(base)));
    const health = answers.find((a): a is ComputeHealth => typeof a === "object");
    const pool: PoolState = health ? { state: "up", health } : answers.includes("busy") ? { state: "busy" } : { state: "down" };
    poolCache = { at: Date.now(), pool };
    if (health) lastGoodHealth = { at: Date.now(), health };
  }
  return poolCache.pool;
}

/** What the pool can do now: the last answer while instances are busy; null when none is known. */
export async function computeHealth(env: Env): Promise<ComputeHealth | null> {
  const pool = await computePool(env);
  if (pool.state === "up") return pool.health;
  return lastGoodHealth && Date.now() - lastGoodHealth.at < HEALTH_STALE_MS ? lastGoodHealth.health : null;
}

/**
 * Refuses, before anything is charged, a feature no compute instance serves, and any request when
 * no instance listens. A pool that is only busy is let through: the task request waits for it.
 */
export async function ensureFeatureAvailable(env: Env, computeFeature: string): Promise<void> {
  const pool = await computePool(env);
  if (pool.state === "down") throw new ApiError("compute_unavailable", "No compute instance is reachable right now; nothing was charged. Retry later.");
  const health = await computeHealth(env);
  // Busy and never seen answering: compute itself refuses a feature it does not serve (501).
  if (health && !health.features.includes(computeFeature)) {
    throw new ApiError("not_implemented", `${computeFeature} is not available on this deployment yet; nothing was charged.`);
  }
}

/** Turns a compute error envelope into the same ApiError, so codes pass through unchanged. */
async function computeError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    const code = body.error?.code;
    if (code && code in ERROR_CODES) return new ApiError(code as ErrorCode, body.error?.message ?? code);
  } catch {
    // fall through
  }
  return new ApiError("internal_error", `Compute failed with HTTP ${res.status}.`);
}

/**
 * Sends a task to the first instance that takes it. Connection failures, 503 (busy) and, with
 * `watch`, an instance that stops answering /healthz move on to the next instance; any other
 * answer is final. A sync task's `timeoutMs` is its wait in all (see `sendToPool`).
 */
export async function sendTask(env: Env, task: TaskRequest, timeoutMs: number, options: { watch?: boolean } = {}): Promise<Response> {
  return (await dispatchTask(env, task, timeoutMs, options)).response;
}

/**
 * sendTask, also saying which instance took the task (its base URL); `avoid` is tried last. An async
 * task (with a callback URL) is answered by its acceptance, not its work: an instance that has not
 * accepted it within `timeoutMs` is wedged, and the next one gets a whole `timeoutMs` of its own.
 */
export async function dispatchTask(env: Env, task: TaskRequest, timeoutMs: number, options: { watch?: boolean; avoid?: string } = {}): Promise<{ response: Response; instance: string }> {
  return sendToPool(env, TASKS_PATH, JSON.stringify(task), {
    timeoutMs,
    deadline: task.callback_url ? "each instance" : "in all",
    hungAfter: options.watch ? hungAfterMs(env) : undefined,
    avoid: options.avoid,
  });
}

function hungAfterMs(env: Env): number {
  const seconds = Number(env.COMPUTE_HUNG_AFTER_S);
  return 1000 * (Number.isFinite(seconds) && seconds > 0 ? seconds : HUNG_AFTER_S);
}

export async function probeMedia(env: Env, media: TaskRequest["media"]): Promise<ProbeResult> {
  const { response } = await sendToPool(env, PROBE_PATH, JSON.stringify({ media }), { timeoutMs: PROBE_TIMEOUT_MS, deadline: "in all" });
  return (await response.json()) as ProbeResult;
}

interface PoolRequest {
  timeoutMs: number;
  /**
   * "in all" where the answer is the work itself (a sync task, a probe): an instance that is alive
   * (it took the request and, when watched, answers /healthz) but has not answered by then was slow
   * at the work, and another would be as slow again; the request ends there rather than hold its
   * caller a timeout per instance. Dead, busy and hung instances cost little or are cut short, and
   * the next gets the time left. "each instance" where the answer is an acceptance, which takes no work.
   */
  deadline: "in all" | "each instance";
  /** Watch the instance's /healthz and move on once it has gone unanswered this long. */
  hungAfter?: number;
  /** An instance to try last. */
  avoid?: string;
}

async function sendToPool(env: Env, path: string, body: string, request: PoolRequest): Promise<{ response: Response; instance: string }> {
  const { timeoutMs, hungAfter, avoid } = request;
  const order = shuffled(computeInstances(env));
  const deadline = Date.now() + timeoutMs;
  for (const base of [...order.filter((b) => b !== avoid), ...order.filter((b) => b === avoid)]) {
    const left = request.deadline === "in all" ? deadline - Date.now() : timeoutMs;
    if (left <= 0) break;
    let res: Response;
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(new DOMException("compute did not answer in time", "TimeoutError")), left);
    const stopWatching = hungAfter ? watchInstance(base, hungAfter, () => abort.abort(new DOMException("compute stopped answering /healthz", "AbortError"))) : () => {};
    try {
      res = await signedFetch(env, base, "POST", path, body, abort.signal);
    } catch {
      if (request.deadline === "in all" && (abort.signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError") {
        throw new ApiError("compute_unavailable", `Compute did not finish the request within ${Math.round(timeoutMs / 1000)} s; nothing was charged. Retry later.`);
      }
      continue;
    } finally {
      clearTimeout(timeout);
      stopWatching();
    }
    if (res.status === 503) continue;
    if (!res.ok) throw await computeError(res);
    return { response: res, instance: base };
  }
  throw new ApiError("compute_unavailable", "No compute instance could take the request; nothing was charged. Retry later.");
}
