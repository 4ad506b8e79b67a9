import { createApp } from "./app.ts";
import type { Env, JobMessage } from "./env.ts";
import { dispatchJobs } from "./services/jobs.ts";
import { refundStaleReservations } from "./services/ledger.ts";

export { JobObject } from "./durable/job.ts";
export { RateLimiter } from "./durable/rate-limiter.ts";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch: MessageBatch<JobMessage>, env: Env) => dispatchJobs(batch, env),
  // Cron (wrangler.toml [triggers]): give back the credits of sync requests that died unsettled.
  scheduled: async (_controller: ScheduledController, env: Env) => {
    const refunded = await refundStaleReservations(env.DB);
    if (refunded > 0) console.log(`refunded ${refunded} stale reservation(s)`);
  },
} satisfies ExportedHandler<Env, JobMessage>;
