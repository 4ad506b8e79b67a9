// One Durable Object per job: the single authority on its state. Transitions:
//   queued -> processing (dispatched to compute) -> completed | failed
//   processing -> queued (compute went silent; retried once) ; queued -> failed (never dispatched)
// A terminal job never changes again. The alarm is the watchdog: no job stays processing forever.
// Two ways a processing job is found lost: no heartbeat for HEARTBEAT_TIMEOUT_MS (compute went
// silent), or, sooner, the instance that took it answers /healthz twice without it in its `jobs`
// (it restarted) or cannot be reached at all (it died; a supervised one comes back in seconds
// without the job). An instance that takes the connection but does not answer is busy, not dead:
// only the heartbeat rule applies to it.
import { DurableObject } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import type { JobRecord } from "../../schema/api/resources.ts";
import { featureById, featureSlug, priceOf, type FeatureId } from "../../schema/features.ts";
import { hmacHex, signParts, sha256Hex } from "../../schema/signing.ts";
import type { Env } from "../env.ts";
import { probeInstance } from "../services/compute.ts";
import { settleReservation } from "../services/ledger.ts";
import type { MediaRef } from "../services/media.ts";
import { discardResult, type StoredResult } from "../services/results.ts";

export type JobStatus = "queued" | "processing" | "completed" | "failed";

export interface JobState {
  jobId: string;
  accountId: string;
  feature: FeatureId;
  params: Record<string, unknown>;
  media: MediaRef;
  origin: string;
  webhookUrl?: string;
  status: JobStatus;
  progress: number;
  createdAt: string;
  updatedAt: string;
  reservationId: string;
  creditsReserved: number;
  creditsUsed?: number;
  resultUrl?: string;
  /** The detections document (return_detections), stored before the result; shown once completed. */
  detections?: StoredResult;
  error?: { code: string; message: string };
  /** How many times the job was handed to compute. */
  attempts: number;
  lastHeartbeatAt?: number;
  /** The compute instance (base URL) that took the current attempt, and how many checks in a row found it without the job. */
  instance?: string;
  instanceMisses?: number;
  webhook?: { attempts: number; nextAt: number; delivered: boolean };
}

/** Compute must report at least this often while processing, or the job is presumed lost. */
export const HEARTBEAT_TIMEOUT_MS = 90_000;
/** How often the instance that took a processing job is asked whether it still holds it. */
export const INSTANCE_CHECK_MS = 15_000;
/** Checks in a row that find the instance without the job (or unreachable) before the job is re-queued. */
export const INSTANCE_MISSES = 2;
/** A job that no compute instance took within this time fails (and is refunded). */
export const QUEUE_TIMEOUT_MS = 30 * 60_000;
/** Dispatches per job: the first, and one retry after compute went silent. */
export const MAX_ATTEMPTS = 2;
const WEBHOOK_BACKOFF_MS = [0, 10_000, 60_000, 5 * 60_000, 30 * 60_000];

/**
 * The secret an account's webhooks are signed with: derived from the service secret, so it is
 * per account, needs no storage, and revealing it reveals nothing about the service secret.
 */
export function webhookSecret(signingSecret: string, accountId: string): Promise<string> {
  return hmacHex(signingSecret, `webhook\n${accountId}`);
}

/** What the API shows of a job: the schema's JobRecord without its envelope's `success`. */
export type JobView = Omit<z.infer<typeof JobRecord>, "success">;

export function jobView(s: JobState): JobView {
  return {
    job_id: s.jobId,
    status: s.status,
    feature: featureSlug(s.feature),
    progress: s.progress,
    ...(s.resultUrl ? { result_url: s.resultUrl } : {}),
    ...(s.resultUrl && s.detections ? { detections_url: s.detections.url } : {}),
    credits_used: s.creditsUsed ?? s.creditsReserved,
    ...(s.error ? { error: s.error } : {}),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}

export class JobObject extends DurableObject<Env> {
  private async load(): Promise<JobState | undefined> {
    return this.ctx.storage.get<JobState>("job");
  }

  private async save(s: JobState): Promise<void> {
    s.updatedAt = new Date().toISOString();
    await this.ctx.storage.put("job", s);
  }

  async create(s: JobState): Promise<void> {
    if (await this.load()) throw new Error(`job ${s.jobId} exists`);
    await this.save(s);
    await this.ctx.storage.setAlarm(Date.now() + QUEUE_TIMEOUT_MS);
  }

  /** The job as its owner sees it; null for anyone else (the caller answers 404). */
  async view(accountId: string): Promise<JobView | null> {
    const s = await this.load();
    return s && s.accountId === accountId ? jobView(s) : null;
  }

  async state(): Promise<JobState | undefined> {
    return this.load();
  }

  /** Marks the job as handed to compute. Returns false when it should not be dispatched. */
  async startAttempt(): Promise<boolean> {
    const s = await this.load();
    if (!s || s.status !== "queued") return false;
    s.status = "processing";
    s.attempts += 1;
    s.lastHeartbeatAt = Date.now();
    delete s.instance;
    delete s.instanceMisses;
    await this.save(s);
    await this.ctx.storage.setAlarm(Date.now() + HEARTBEAT_TIMEOUT_MS);
    return true;
  }

  /** An instance took the job: the alarm also checks that it still holds it. */
  async accepted(instance: string): Promise<void> {
    const s = await this.load();
    if (!s || s.status !== "processing") return;
    s.instance = instance;
    s.instanceMisses = 0;
    await this.save(s);
    await this.ctx.storage.setAlarm(this.nextCheck(s));
  }

  /** The watchdog's next look at a processing job: the heartbeat deadline, or sooner the next instance check. */
  private nextCheck(s: JobState): number {
    const deadline = (s.lastHeartbeatAt ?? Date.now()) + HEARTBEAT_TIMEOUT_MS;
    return s.instance ? Math.min(deadline, Date.now() + INSTANCE_CHECK_MS) : deadline;
  }

  /** Compute did not take the job after all (busy or unreachable): back to the queue. */
  async abandonAttempt(): Promise<void> {
    const s = await this.load();
    if (!s || s.status !== "processing") return;
    s.status = "queued";
    s.attempts -= 1;
    await this.save(s);
    await this.ctx.storage.setAlarm(Date.now() + QUEUE_TIMEOUT_MS);
  }

  async progress(percent: number): Promise<void> {
    const s = await this.load();
    if (!s || s.status !== "processing") return;
    s.progress = Math.max(s.progress, Math.min(99, Math.round(percent)));
    s.lastHeartbeatAt = Date.now();
    await this.save(s);
    await this.ctx.storage.setAlarm(this.nextCheck(s));
  }

  /** The detections document arrived (before the result). A retried attempt's replaces the first's. */
  async attachDetections(stored: StoredResult): Promise<boolean> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const s = await this.load();
      if (!s || (s.status !== "processing" && s.status !== "queued")) return false;
      const previous = s.detections;
      s.detections = stored;
      await this.save(s);
      if (previous) await discardResult(this.env, previous);
      return true;
    });
  }

  // complete and fail await D1 (settling the credits) between reading and writing the state, and
  // input gates do not hold other calls back during that I/O: without blockConcurrencyWhile a
  // result and a failure arriving together would both pass the status check.

  /** Result stored: settle the credits on the real duration and finish. */
  async complete(resultUrl: string, durationSeconds?: number): Promise<boolean> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const s = await this.load();
      if (!s || (s.status !== "processing" && s.status !== "queued")) return false;
      const feature = featureById(s.feature)!;
      const actual = feature.unit === "video_unit" && durationSeconds !== undefined ? priceOf(feature, durationSeconds) : s.creditsReserved;
      const spent = Math.min(actual, s.creditsReserved);
      await settleReservation(this.env.DB, s.reservationId, spent);
      Object.assign(s, { status: "completed", progress: 100, resultUrl, creditsUsed: spent });
      await this.finish(s);
      return true;
    });
  }

  async fail(code: string, message: string): Promise<boolean> {
    return this.ctx.blockConcurrencyWhile(async () => {
      const s = await this.load();
      if (!s || s.status === "completed" || s.status === "failed") return false;
      await settleReservation(this.env.DB, s.reservationId, 0);
      Object.assign(s, { status: "failed", error: { code, message }, creditsUsed: 0 });
      await this.finish(s);
      return true;
    });
  }

  private async finish(s: JobState): Promise<void> {
    if (s.webhookUrl) s.webhook = { attempts: 0, nextAt: Date.now(), delivered: false };
    await this.save(s);
    if (s.webhook) await this.ctx.storage.setAlarm(Date.now());
    else await this.ctx.storage.deleteAlarm();
  }

  async alarm(): Promise<void> {
    const s = await this.load();
    if (!s) return;
    const now = Date.now();
    if (s.status === "queued" && now - Date.parse(s.updatedAt) >= QUEUE_TIMEOUT_MS - 1000) {
      await this.fail("compute_unavailable", "No compute instance took the job in time; the credits were refunded.");
    } else if (s.status === "processing" && now - (s.lastHeartbeatAt ?? 0) >= HEARTBEAT_TIMEOUT_MS - 1000) {
      await this.lost(s);
    } else if (s.status === "processing" && s.instance) {
      const health = await probeInstance(s.instance);
      // Re-read: a result, a failure or a heartbeat may have arrived while the instance was asked.
      const fresh = await this.load();
      if (!fresh || fresh.status !== "processing" || fresh.instance !== s.instance) return;
      // Busy (took the connection, no answer in time) is not dead; an answer without a jobs list
      // comes from an instance too old to tell, and changes nothing either.
      const without = health === "down" || (typeof health === "object" && Array.isArray(health.jobs) && !health.jobs.includes(fresh.jobId));
      fresh.instanceMisses = without ? (fresh.instanceMisses ?? 0) + 1 : 0;
      if (fresh.instanceMisses >= INSTANCE_MISSES) return this.lost(fresh);
      await this.save(fresh);
      await this.ctx.storage.setAlarm(this.nextCheck(fresh));
    } else if (s.webhook && !s.webhook.delivered) {
      await this.deliverWebhook(s);
    }
  }

  /** The attempt is lost (compute went silent, or its instance no longer holds the job): queued again once, else failed and refunded. */
  private async lost(s: JobState): Promise<void> {
    if (s.attempts < MAX_ATTEMPTS) {
      const avoid = s.instance;
      s.status = "queued";
      s.progress = 0;
      delete s.instance;
      delete s.instanceMisses;
      await this.save(s);
      await this.env.JOB_QUEUE.send({ jobId: s.jobId, ...(avoid ? { avoid } : {}) });
      await this.ctx.storage.setAlarm(Date.now() + QUEUE_TIMEOUT_MS);
    } else {
      await this.fail("internal_error", `Compute stopped reporting on this job ${MAX_ATTEMPTS} times; the credits were refunded.`);
    }
  }

  /** POSTs the job record to the webhook, signed; retried with backoff from the alarm. */
  private async deliverWebhook(s: JobState): Promise<void> {
    const hook = s.webhook!;
    const body = JSON.stringify({ success: true, ...jobView(s) });
    const { timestamp, signature } = await signParts(await webhookSecret(this.env.SIGNING_SECRET, s.accountId), [await sha256Hex(body)]);
    let ok = false;
    try {
      const res = await fetch(s.webhookUrl!, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "obscura-timestamp": timestamp, "obscura-signature": `v1=${signature}` },
        signal: AbortSignal.timeout(10_000),
        redirect: "manual",
      });
      ok = res.status >= 200 && res.status < 300;
    } catch {
      ok = false;
    }
    hook.attempts += 1;
    hook.delivered = ok;
    if (!ok && hook.attempts < WEBHOOK_BACKOFF_MS.length) {
      hook.nextAt = Date.now() + WEBHOOK_BACKOFF_MS[hook.attempts]!;
      await this.ctx.storage.setAlarm(hook.nextAt);
    }
    await this.ctx.storage.put("job", s);
  }
}
