import type { JobObject } from "./durable/job.ts";
import type { RateLimiter } from "./durable/rate-limiter.ts";
import type { Account } from "./services/accounts.ts";
import type { Db } from "./services/db.ts";

export interface Env {
  DB: D1Database;
  MEDIA: R2Bucket;
  JOBS: DurableObjectNamespace<JobObject>;
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  JOB_QUEUE: Queue<JobMessage>;
  COMPUTE_URLS: string;
  /** Seconds an instance may leave /healthz unanswered while it holds a synchronous request (default 30). */
  COMPUTE_HUNG_AFTER_S?: string;
  SIGNING_SECRET: string;
  ENVIRONMENT: string;
}

/** Queue message: which job to dispatch to compute. */
export interface JobMessage {
  jobId: string;
  /** The instance that lost the job's previous attempt: tried last, so a survivor takes it when there is one. */
  avoid?: string;
}

/** What each request's context carries (set by middleware, read by routes). */
export interface Vars {
  db: Db;
  account: Account;
  apiKeyId: string;
}

export type AppEnv = { Bindings: Env; Variables: Vars };
