// Creating jobs and dispatching them to compute through the queue.
import { ApiError } from "../../schema/errors.ts";
import { VIDEO_BILLING_UNIT_SECONDS, featureById, type FeatureId } from "../../schema/features.ts";
import { MAX_VIDEO_SECONDS } from "../../schema/limits.ts";
import { jobs } from "../../schema/tables.ts";
import { randomId } from "../../schema/signing.ts";
import type { JobState } from "../durable/job.ts";
import type { Env, JobMessage } from "../env.ts";
import { JOB_ACCEPT_TIMEOUT_MS } from "../../schema/compute-protocol.ts";
import { dispatchTask } from "./compute.ts";
import { nowIso, type Db } from "./db.ts";
import type { MediaRef } from "./media.ts";
import type { Reservation } from "./ledger.ts";
import { mediaForCompute } from "./results.ts";

export function jobStub(env: Env, jobId: string) {
  return env.JOBS.get(env.JOBS.idFromName(jobId));
}

export const JOB_CALLBACK_PATH = "/internal/jobs/";

export async function createJob(
  env: Env,
  db: Db,
  input: { accountId: string; feature: FeatureId; params: Record<string, unknown>; media: MediaRef; origin: string; webhookUrl?: string; reservation: Reservation },
): Promise<JobState> {
  const now = nowIso();
  const state: JobState = {
    jobId: `job_${randomId(16)}`,
    accountId: input.accountId,
    feature: input.feature,
    params: input.params,
    media: input.media,
    origin: input.origin,
    webhookUrl: input.webhookUrl,
    status: "queued",
    progress: 0,
    createdAt: now,
    updatedAt: now,
    reservationId: input.reservation.id,
    creditsReserved: input.reservation.credits,
    attempts: 0,
  };
  await db.insert(jobs).values({ id: state.jobId, accountId: state.accountId, feature: state.feature, creditsReserved: state.creditsReserved, reservationId: input.reservation.id, createdAt: now });
  await jobStub(env, state.jobId).create(state);
  await env.JOB_QUEUE.send({ jobId: state.jobId });
  return state;
}

/** Retry delay of a job message when no compute instance took it. */
const retryDelaySeconds = (attempts: number) => Math.min(60, 2 ** attempts);
/** Queue deliveries before a job that no instance takes is failed and refunded. */
export const MAX_DELIVERIES = 10;

/** Queue consumer: hands each job to a compute instance, or retries later. */
export async function dispatchJobs(batch: MessageBatch<JobMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const stub = jobStub(env, message.body.jobId);
    if (!(await stub.startAttempt())) {
      message.ack();
      continue;
    }
    const job = (await stub.state()) as unknown as JobState;
    try {
      const feature = featureById(job.feature)!;
      const { response, instance } = await dispatchTask(
        env,
        {
          task_id: job.jobId,
          feature: job.feature,
          params: job.params,
          media: await mediaForCompute(env, job.origin, job.media),
          callback_url: `${job.origin}${JOB_CALLBACK_PATH}${job.jobId}`,
          ...(feature.media === "video" ? { max_duration_seconds: maxDurationFor(job) } : {}),
        },
        JOB_ACCEPT_TIMEOUT_MS,
        { avoid: message.body.avoid },
      );
      await response.body?.cancel();
      await stub.accepted(instance);
      message.ack();
    } catch (err) {
      if (err instanceof ApiError && err.code !== "compute_unavailable") {
        await stub.fail(err.code, err.message);
        message.ack();
      } else if (message.attempts >= MAX_DELIVERIES) {
        await stub.fail("compute_unavailable", "No compute instance could take the job; the credits were refunded.");
        message.ack();
      } else {
        await stub.abandonAttempt();
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }
  }
}

/** The reservation covers this much video; longer media is refused by compute before work. */
function maxDurationFor(job: JobState): number {
  const declared = job.params.duration_seconds;
  return typeof declared === "number" ? Math.min(MAX_VIDEO_SECONDS, Math.ceil(declared / VIDEO_BILLING_UNIT_SECONDS) * VIDEO_BILLING_UNIT_SECONDS) : MAX_VIDEO_SECONDS;
}
