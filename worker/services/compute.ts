// Client for the compute pool: signed requests, instance choice, capability discovery.
import { ApiError, type ErrorCode, ERROR_CODES } from "../../schema/errors.ts";
import { HEALTH_PATH, PROBE_PATH, TASKS_PATH, signRequest, type ComputeHealth, type ProbeResult, type TaskRequest } from "../../schema/compute-protocol.ts";
import { sha256Hex } from "../../schema/signing.ts";
import type { Env } from "../env.ts";

const HEALTH_TTL_MS = 15_000;
/**
 * How long the last successful health answer stands in when a fresh probe fails. A compute
 * instance busy with a video job can leave /healthz unanswered for several seconds (its event
 * loop runs the models); that instance is busy, not gone, and the task request itself (long
 * timeout, 503 = try the next instance) is what decides whether the request can run.
 */
const HEALTH_STALE_MS = 5 * 60_000;
let healthCache: { at: number; health: ComputeHealth | null } | null = null;
let lastGoodHealth: { at: number; health: ComputeHealth } | null = null;

export function computeInstances(env: Env): string[] {
  return env.COMPUTE_URLS.split(",").map((u) => u.trim().replace(/\/$/, "")).filter(Boolean);
}

/** Instances in random order, so load spreads and a dead one is skipped. */
function shuffled(urls: string[]): string[] {
  return urls.map((u) => [Math.random(), u] as const).sort((a, b) => a[0] - b[0]).map(([, u]) => u);
}

async function signedFetch(env: Env, base: string, method: string, path: string, body: string | null, timeoutMs: number): Promise<Response> {
  const signature = await signRequest(env.SIGNING_SECRET, method, path, await sha256Hex(body ?? ""));
  return fetch(base + path, {
    method,
    body,
    headers: { "content-type": "application/json", ...signature },
    signal: AbortSignal.timeout(timeoutMs),
  });
}

/** What the pool can do now; null when no instance answers. Cached briefly per isolate. */
export async function computeHealth(env: Env): Promise<ComputeHealth | null> {
  if (!healthCache || Date.now() - healthCache.at >= HEALTH_TTL_MS) {
    let health: ComputeHealth | null = null;
    for (const base of shuffled(computeInstances(env))) {
      try {
        const res = await fetch(base + HEALTH_PATH, { signal: AbortSignal.timeout(3000) });
        if (res.ok) {
          health = (await res.json()) as ComputeHealth;
          break;
        }
      } catch {
        // try the next instance
      }
    }
    healthCache = { at: Date.now(), health };
    if (health) lastGoodHealth = { at: Date.now(), health };
  }
  if (healthCache.health) return healthCache.health;
  return lastGoodHealth && Date.now() - lastGoodHealth.at < HEALTH_STALE_MS ? lastGoodHealth.health : null;
}

/** Refuses, before anything is charged, a feature no compute instance serves. */
export async function ensureFeatureAvailable(env: Env, computeFeature: string): Promise<void> {
  const health = await computeHealth(env);
  if (!health) throw new ApiError("compute_unavailable", "No compute instance is reachable right now; nothing was charged. Retry later.");
  if (!health.features.includes(computeFeature)) {
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
 * Sends a task to the first instance that takes it. Connection failures and 503 (busy) move on
 * to the next instance; any other answer is final.
 */
export async function sendTask(env: Env, task: TaskRequest, timeoutMs: number): Promise<Response> {
  return sendToPool(env, TASKS_PATH, JSON.stringify(task), timeoutMs);
}

export async function probeMedia(env: Env, media: TaskRequest["media"]): Promise<ProbeResult> {
  const res = await sendToPool(env, PROBE_PATH, JSON.stringify({ media }), 60_000);
  return (await res.json()) as ProbeResult;
}

async function sendToPool(env: Env, path: string, body: string, timeoutMs: number): Promise<Response> {
  for (const base of shuffled(computeInstances(env))) {
    let res: Response;
    try {
      res = await signedFetch(env, base, "POST", path, body, timeoutMs);
    } catch {
      continue;
    }
    if (res.status === 503) continue;
    if (!res.ok) throw await computeError(res);
    return res;
  }
  throw new ApiError("compute_unavailable", "No compute instance could take the request; nothing was charged. Retry later.");
}
