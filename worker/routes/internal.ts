// Routes for the compute service and operators, authenticated by HMAC signatures with the
// shared SIGNING_SECRET (no API keys): job callbacks, media reads, and key administration.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError } from "../../schema/errors.ts";
import { CONTENT_SHA256_HEADER, RESULT_DURATION_HEADER, verifyRequest } from "../../schema/compute-protocol.ts";
import { sha256Hex, verifyToken } from "../../schema/signing.ts";
import { TIERS, type Tier } from "../../schema/tiers.ts";
import type { AppEnv } from "../env.ts";
import { ensureAccount } from "../services/accounts.ts";
import { createDb } from "../services/db.ts";
import { createApiKey, revokeApiKey } from "../services/keys.ts";
import { creditSummary, grantCredits } from "../services/ledger.ts";
import { JOB_CALLBACK_PATH, jobStub } from "../services/jobs.ts";
import { rangedObjectResponse } from "../services/byte-ranges.ts";
import { INTERNAL_MEDIA_PATH, discardResult, storeResult, type StoredResult } from "../services/results.ts";
import type { JobState } from "../durable/job.ts";

async function verifySigned(c: Context<AppEnv>, bodyHash: string): Promise<void> {
  const path = new URL(c.req.url).pathname;
  const ok = await verifyRequest(c.env.SIGNING_SECRET, c.req.method, path, bodyHash, (name) => c.req.header(name));
  if (!ok) throw new ApiError("unauthorized", "Missing or invalid request signature.");
}

async function signedJson<T>(c: Context<AppEnv>): Promise<T> {
  const text = await c.req.text();
  await verifySigned(c, await sha256Hex(text));
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError("invalid_json", "The body is not valid JSON.");
  }
}

/** A signed upload from compute for a running job, stored in R2 like a result (streamed, checked against its signed SHA-256). */
async function storeJobUpload(c: Context<AppEnv>, what: "result" | "detections document"): Promise<{ stub: ReturnType<typeof jobStub>; result: StoredResult }> {
  const contentSha256 = c.req.header(CONTENT_SHA256_HEADER) ?? "";
  await verifySigned(c, contentSha256);
  const stub = jobStub(c.env, c.req.param("id")!);
  const job = (await stub.state()) as unknown as JobState | undefined;
  if (!job || (job.status !== "processing" && job.status !== "queued")) throw new ApiError("job_not_found", "No running job with this id.");
  const contentType = c.req.header("content-type") ?? "application/octet-stream";
  const length = Number(c.req.header("content-length"));
  if (!c.req.raw.body || !Number.isInteger(length)) throw new ApiError("invalid_request", `The ${what} needs a body with Content-Length.`);
  try {
    const result = await storeResult(c.env, job.origin, {
      body: c.req.raw.body,
      length,
      contentType,
      sha256: contentSha256,
      metadata: { accountId: job.accountId, jobId: job.jobId },
    });
    return { stub, result };
  } catch (err) {
    // R2 refuses the write when the bytes are not the ones signed: the sender's fault, not ours.
    if (err instanceof Error && /checksum/i.test(err.message)) throw new ApiError("invalid_request", `The ${what}'s bytes do not match its signed SHA-256.`);
    throw err;
  }
}

export function registerInternalRoutes(app: OpenAPIHono<AppEnv>): void {
  app.post(`${JOB_CALLBACK_PATH}:id/progress`, async (c) => {
    const { progress } = await signedJson<{ progress: number }>(c);
    await jobStub(c.env, c.req.param("id")).progress(Number(progress) || 0);
    return c.json({ success: true });
  });

  app.post(`${JOB_CALLBACK_PATH}:id/fail`, async (c) => {
    const { code, message } = await signedJson<{ code: string; message: string }>(c);
    await jobStub(c.env, c.req.param("id")).fail(String(code), String(message));
    return c.json({ success: true });
  });

  // The result itself, streamed: the signature covers its SHA-256, which R2 checks on write.
  app.put(`${JOB_CALLBACK_PATH}:id/result`, async (c) => {
    const { stub, result } = await storeJobUpload(c, "result");
    const duration = c.req.header(RESULT_DURATION_HEADER);
    if (!(await stub.complete(result.url, duration ? Number(duration) : undefined))) {
      // Another result (or a failure) settled the job while this one was uploading: the object
      // just written belongs to nothing, so it goes.
      await discardResult(c.env, result);
      throw new ApiError("job_not_found", "No running job with this id.");
    }
    return c.json({ success: true });
  });

  // The detections document of a job run with return_detections, sent before its result.
  app.put(`${JOB_CALLBACK_PATH}:id/detections`, async (c) => {
    const { stub, result } = await storeJobUpload(c, "detections document");
    if (!(await stub.attachDetections(result))) {
      await discardResult(c.env, result);
      throw new ApiError("job_not_found", "No running job with this id.");
    }
    return c.json({ success: true });
  });

  // Compute reads uploaded media through short-lived signed URLs, whole or by range (its probe).
  app.get(`${INTERNAL_MEDIA_PATH}:token`, async (c) => {
    const claims = await verifyToken<{ key: string; exp: number }>(c.env.SIGNING_SECRET, "media", c.req.param("token"));
    if (!claims) throw new ApiError("unauthorized", "Invalid or expired media token.");
    const res = await rangedObjectResponse(c.env.MEDIA, claims.key, c.req.header("range"), {});
    if (!res) throw new ApiError("media_not_found", "The media no longer exists.");
    return res;
  });

  // Operators: create and revoke keys (npm run keys:create / keys:revoke sign these requests).
  app.post("/internal/admin/keys", async (c) => {
    const input = await signedJson<{ email: string; name?: string; tier?: Tier; credits?: number; daily_limit?: number; key_name?: string }>(c);
    if (!input.email || !/^[^@\s]+@[^@\s]+$/.test(input.email)) throw new ApiError("invalid_request", "email must be an e-mail address.");
    if (input.tier !== undefined && !Object.hasOwn(TIERS, input.tier)) throw new ApiError("invalid_request", `tier must be one of: ${Object.keys(TIERS).join(", ")}.`);
    if (input.daily_limit !== undefined && (!Number.isInteger(input.daily_limit) || input.daily_limit < 0)) throw new ApiError("invalid_request", "daily_limit must be a whole number >= 0.");
    if (input.credits !== undefined && (!Number.isInteger(input.credits) || input.credits < 0)) throw new ApiError("invalid_request", "credits must be a whole number >= 0.");
    const db = createDb(c.env.DB);
    const account = await ensureAccount(db, { email: input.email, name: input.name, tier: input.tier, dailyLimit: input.daily_limit });
    if (input.credits) await grantCredits(c.env.DB, account.id, input.credits, "admin grant");
    const key = await createApiKey(db, account.id, input.key_name ?? null);
    // The balance lets keys:create say when the new key cannot run anything yet.
    const { available } = await creditSummary(c.env.DB, account.id);
    return c.json({ success: true, account_id: account.id, key_id: key.id, key: key.key, available_credits: available }, 201);
  });

  app.post("/internal/admin/keys/revoke", async (c) => {
    const input = await signedJson<{ key_id?: string; key?: string }>(c);
    const db = createDb(c.env.DB);
    const hash = input.key ? await sha256Hex(input.key) : null;
    const row = await db.query.apiKeys.findFirst({ where: (k, { eq }) => (hash ? eq(k.hash, hash) : eq(k.id, input.key_id ?? "")) });
    if (!row || !(await revokeApiKey(db, row.accountId, row.id))) throw new ApiError("not_found", "No active key matches.");
    return c.json({ success: true, key_id: row.id });
  });
}
