// GET /jobs/{job_id}: the job's state, to its owner only.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { ApiError } from "../../schema/errors.ts";
import { JobRecord } from "../../schema/api/resources.ts";
import type { AppEnv } from "../env.ts";
import { jobStub } from "../services/jobs.ts";
import { AUTHENTICATED, BEARER, COMMON_ERRORS, errorResponses, success } from "./openapi-helpers.ts";

const JOB_ID = /^job_[A-Za-z0-9_-]{16,40}$/;

const getJob = createRoute({
  method: "get",
  path: "/api/v2/jobs/{job_id}",
  tags: ["Jobs"],
  summary: "Job status",
  description: "Poll every few seconds; each poll counts against the daily limit. `error` carries the failure details of a failed job.",
  security: BEARER,
  request: { params: z.object({ job_id: z.string().openapi({ example: "job_3q2X9c0d1e2f3g4h5i6j7k" }) }) },
  responses: {
    ...success(200, "The job.", { "application/json": { schema: JobRecord } }, AUTHENTICATED),
    ...errorResponses(AUTHENTICATED, ...COMMON_ERRORS, "job_not_found"),
  },
});

export function registerJobRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(getJob, async (c) => {
    const { job_id } = c.req.valid("param");
    const view = JOB_ID.test(job_id) ? await jobStub(c.env, job_id).view(c.get("account").id) : null;
    if (!view) throw new ApiError("job_not_found", `No job ${job_id} belongs to this account.`);
    return c.json({ success: true as const, ...view }, 200);
  });
}
