import { createApp } from "./app.ts";
import type { Env, JobMessage } from "./env.ts";
import { dispatchJobs } from "./services/jobs.ts";

export { JobObject } from "./durable/job.ts";
export { RateLimiter } from "./durable/rate-limiter.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<JobMessage>, env: Env) => dispatchJobs(batch, env),
} satisfies ExportedHandler<Env, JobMessage>;
