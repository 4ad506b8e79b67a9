// The processing endpoints, one per catalog entry: six video, six image, and NSFW detection.
// All follow one flow: validate -> idempotency -> media -> plan -> availability -> reserve ->
// run (sync) or enqueue a job (async) -> capture or refund.
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { ApiError } from "../../schema/errors.ts";
import { FEATURES, NSFW_VIDEO_CREDITS, VIDEO_BILLING_UNIT_SECONDS, featureSlug, priceOf, type Feature, type FeatureId } from "../../schema/features.ts";
import { ImageResult, NsfwResult, VideoJob } from "../../schema/api/resources.ts";
import { checkMediaUrl } from "../../schema/media-url.ts";
import { resolvePrompt } from "../../schema/vocabulary.ts";
import { TIERS } from "../../schema/tiers.ts";
import { sha256Hex } from "../../schema/signing.ts";
import { DETECTIONS_PART, RESULT_PART } from "../../schema/compute-protocol.ts";
import type { DetectionBox, DetectionsDoc } from "../../schema/api/detections.ts";
import type { AppEnv } from "../env.ts";
import { ensureFeatureAvailable, probeMedia, sendTask } from "../services/compute.ts";
import { IDEMPOTENCY_HEADER, claimIdempotencyKey, recordIdempotentAnswer, requestFingerprint } from "../services/idempotency.ts";
import { captureReservation, creditSummary, refundReservation, reserveCredits } from "../services/ledger.ts";
import { resolveMedia, uploadMediaUrl, type MediaRef } from "../services/media.ts";
import { readBody } from "../services/request-body.ts";
import { createJob } from "../services/jobs.ts";
import { mediaForCompute, storeResult } from "../services/results.ts";
import { storeFilePart } from "../services/uploads.ts";
import { BEARER, COMMON_ERRORS, PREFERENCE_APPLIED, errorResponses, success } from "./openapi-helpers.ts";

/** Image requests run asynchronously when the client sends this standard preference (RFC 7240). */
export const PREFER_ASYNC = /(^|[,;\s])respond-async([,;\s]|$)/i;
const SYNC_TIMEOUT_MS = 120_000;

export function registerFeatureRoutes(app: OpenAPIHono<AppEnv>): void {
  for (const feature of FEATURES) {
    documentFeature(app, feature);
    app.post(`/api/v2${feature.path}`, (c) => handleFeature(c, feature));
  }
}

export async function handleFeature(c: Context<AppEnv>, feature: Feature): Promise<Response> {
  const { params, file } = await readBody(c.req.raw, feature.params, feature.filePart, feature.mediaField);
  const account = c.get("account");
  const db = c.get("db");
  const idempotencyKey = c.req.header(IDEMPOTENCY_HEADER);
  const isAsync = feature.media === "video" || PREFER_ASYNC.test(c.req.header("prefer") ?? "");
  if (idempotencyKey) {
    const fileDigest = file ? await sha256Hex(await file.arrayBuffer()) : undefined;
    const claim = await claimIdempotencyKey(db, account.id, idempotencyKey, await requestFingerprint(`${feature.path}${isAsync ? "#async" : ""}`, params, fileDigest));
    if (claim.kind === "replay") {
      const headers: Record<string, string> = { "content-type": "application/json", "Idempotent-Replayed": "true" };
      if (claim.status === 202 && feature.media === "image") headers["Preference-Applied"] = "respond-async";
      return new Response(claim.body, { status: claim.status, headers });
    }
  }
  let response: Response;
  try {
    response = await runFeature(c, feature, params as Record<string, unknown>, file, isAsync);
  } catch (err) {
    if (idempotencyKey) {
      const status = err instanceof ApiError ? err.status : 500;
      const body = err instanceof ApiError ? JSON.stringify({ error: { code: err.code, message: err.message, status } }) : "";
      await recordIdempotentAnswer(db, account.id, idempotencyKey, status, body);
    }
    throw err;
  }
  if (idempotencyKey) await recordIdempotentAnswer(db, account.id, idempotencyKey, response.status, await response.clone().text());
  return response;
}

async function runFeature(c: Context<AppEnv>, feature: Feature, params: Record<string, unknown>, file: File | undefined, isAsync: boolean): Promise<Response> {
  const account = c.get("account");
  const db = c.get("db");
  const origin = new URL(c.req.url).origin;
  const nsfwOfVideo = feature.id === "image.nsfw-detection" && params.media_type === "video";
  const mediaKind = feature.media === "video" || nsfwOfVideo ? "video" : "image";
  const computeFeature = nsfwOfVideo ? "video.nsfw-detection" : feature.id;

  if (params.is_watermark === false && !TIERS[account.tier].watermarkFree) {
    throw new ApiError("plan_restricted", `is_watermark=false needs the pro or enterprise plan; this account is on the ${account.tier} plan.`);
  }
  if (typeof params.webhook_url === "string") {
    const hook = checkWebhookUrl(params.webhook_url);
    params.webhook_url = hook;
  }
  // Prompts are checked here, so a video job naming nothing findable is refused (422) before
  // anything is reserved, exactly like an image request.
  for (const field of ["prompt", "object_text"] as const) {
    if (typeof params[field] === "string") resolvePromptFor(field, params[field] as string);
  }
  if (feature.id === "image.nsfw-detection" && isAsync) {
    throw new ApiError("invalid_request", "NSFW detection answers synchronously; drop the Prefer: respond-async header.");
  }
  // Everything the client must fix (media, credits) is answered before compute availability:
  // a final 4xx beats a 503 that a client would retry, and is what an Idempotency-Key replays.
  const media: MediaRef = file
    ? await storeFilePart(c.env, db, account.id, mediaKind, file)
    : await resolveMedia(db, account.id, origin, feature.mediaField, params[feature.mediaField] as string, mediaKind);
  if (file) params[feature.mediaField] = uploadMediaUrl(origin, (media as { uploadId: string }).uploadId);

  const knownPrice = nsfwOfVideo
    ? NSFW_VIDEO_CREDITS
    : feature.unit === "request" || typeof params.duration_seconds === "number"
      ? priceOf(feature, params.duration_seconds as number | undefined)
      : undefined;
  if (knownPrice !== undefined) {
    // Advisory only (the reservation below is the atomic check); saves a compute round trip.
    const { available } = await creditSummary(c.env.DB, account.id);
    if (available < knownPrice) throw new ApiError("insufficient_credits", `This request costs ${knownPrice} credits and the account has ${available}.`);
  }

  await ensureFeatureAvailable(c.env, computeFeature);

  // A video job's media is probed before anything is reserved, declared duration or not: what the
  // job would refuse (over the duration, frame-size or frame-rate limit, cut short, unreadable) is
  // refused now with its 413/422, never accepted with a 202 that holds credits until it fails.
  if (feature.media === "video") {
    const probe = await probeMedia(c.env, await mediaForCompute(c.env, origin, media));
    if (typeof params.duration_seconds !== "number") params.duration_seconds = probe.duration_seconds;
  }
  const price = knownPrice ?? priceOf(feature, params.duration_seconds as number);

  const reservation = await reserveCredits(c.env.DB, account.id, price, feature.id);
  if (isAsync) {
    try {
      const job = await createJob(c.env, db, { accountId: account.id, feature: feature.id, params, media, origin, webhookUrl: params.webhook_url as string | undefined, reservation });
      const body = { success: true as const, job_id: job.jobId, status: job.status, feature: featureSlug(feature.id), credits_used: reservation.credits, remaining_credits: reservation.remaining };
      return c.json(body, 202, feature.media === "image" ? { "Preference-Applied": "respond-async" } : {});
    } catch (err) {
      await refundReservation(c.env.DB, reservation.id);
      throw err;
    }
  }

  try {
    const res = await sendTask(c.env, { task_id: reservation.id, feature: computeFeature, params, media: await mediaForCompute(c.env, origin, media) }, SYNC_TIMEOUT_MS, { watch: true });
    let body: Record<string, unknown>;
    if (feature.id === "image.nsfw-detection") {
      const verdict = (await res.json()) as { is_nsfw: boolean; score: number | null };
      body = { is_nsfw: verdict.is_nsfw, score: verdict.score };
    } else {
      const { image, detections } = await readImageAnswer(res);
      body = { result_url: (await storeResult(c.env, origin, { ...image, metadata: { accountId: account.id } })).url };
      if (params.return_detections === true) {
        // An instance that predates return_detections answers the image alone: an empty list would
        // claim nothing was found, so the request fails instead (and is refunded).
        if (!detections) throw new ApiError("internal_error", "Compute answered without the detections asked for; nothing was charged. Retry later.");
        body.detections = detections;
      }
    }
    await captureReservation(c.env.DB, reservation);
    return c.json({ success: true, ...body, credits_used: reservation.credits, remaining_credits: reservation.remaining }, 200);
  } catch (err) {
    await refundReservation(c.env.DB, reservation.id);
    throw err;
  }
}

/**
 * Compute's answer to a sync image task: the image's bytes, or with return_detections a
 * multipart form carrying the image and its detections document (schema/compute-protocol.ts).
 */
async function readImageAnswer(res: Response): Promise<{ image: { body: ArrayBuffer; contentType: string }; detections?: DetectionBox[] }> {
  const contentType = res.headers.get("content-type") ?? "application/octet-stream";
  if (!contentType.startsWith("multipart/form-data")) return { image: { body: await res.arrayBuffer(), contentType } };
  const form = await res.formData();
  const file = form.get(RESULT_PART) as unknown as File | null;
  const document = form.get(DETECTIONS_PART);
  if (!file || typeof file === "string" || typeof document !== "string") throw new Error("compute answered a form without its result and detections parts");
  const detections = (JSON.parse(document) as DetectionsDoc).frames[0]?.detections ?? [];
  return { image: { body: await file.arrayBuffer(), contentType: file.type || "application/octet-stream" }, detections };
}

function resolvePromptFor(field: string, value: string): void {
  try {
    resolvePrompt(value);
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(err.code, `${field}: ${err.message}`);
    throw err;
  }
}

/** Webhook targets follow the media URL policy (public https only), so jobs cannot probe inside. */
function checkWebhookUrl(value: string): string {
  try {
    const url = checkMediaUrl(value);
    if (url.protocol !== "https:") throw new ApiError("invalid_request", "webhook_url must be an https URL.");
    return url.href;
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError("invalid_request", `webhook_url: ${err.message}`);
    throw err;
  }
}

function documentFeature(app: OpenAPIHono<AppEnv>, feature: Feature): void {
  const multipart = feature.params.extend({
    [feature.mediaField]: z.string().optional().openapi({ description: `Media URL; omit when sending the "${feature.filePart}" file part.` }),
    [feature.filePart]: z.string().optional().openapi({ type: "string", format: "binary", description: "The media file itself (stored like an upload)." }),
  });
  const isVideo = feature.media === "video";
  const opts = { authenticated: true, idempotent: true };
  const json = (schema: z.ZodType) => ({ "application/json": { schema } });
  const successes = feature.id === "image.nsfw-detection"
    ? success(200, "Classification result.", json(NsfwResult), opts)
    : isVideo
      ? success(202, "Job accepted; poll GET /api/v2/jobs/{job_id}.", json(VideoJob), opts)
      : {
          ...success(200, "Processed image.", json(ImageResult), opts),
          ...success(202, "With `Prefer: respond-async`: job accepted, poll GET /api/v2/jobs/{job_id}.", json(VideoJob), opts, PREFERENCE_APPLIED),
        };
  const price = feature.unit === "request"
    ? `${feature.credits} credit(s) per request${feature.id === "image.nsfw-detection" ? ` (${NSFW_VIDEO_CREDITS} for a video)` : ""}, charged only on success.`
    : `${feature.credits} credit(s) per started ${VIDEO_BILLING_UNIT_SECONDS} s of video, reserved on creation, settled on completion, refunded on failure.`;
  app.openAPIRegistry.registerPath({
    method: "post",
    path: `/api/v2${feature.path}`,
    operationId: feature.id.replace(/[.-](\w)/g, (_, ch: string) => ch.toUpperCase()),
    tags: [feature.media === "video" ? "Video" : feature.id === "image.nsfw-detection" ? "Detection" : "Image"],
    summary: feature.name,
    description: `${feature.description}\n\nPrice: ${price}\n\nSend \`Idempotency-Key\` to make retries safe.`,
    security: BEARER,
    request: {
      headers: z.object({
        "Idempotency-Key": z.string().optional().openapi({ description: "Retries with the same key return the first answer instead of running (and charging) again." }),
        ...(isVideo || feature.id === "image.nsfw-detection" ? {} : { Prefer: z.string().optional().openapi({ description: "`respond-async` runs the request as a job (202)." }) }),
      }),
      body: { required: true, content: { "application/json": { schema: feature.params }, "multipart/form-data": { schema: multipart } } },
    },
    responses: {
      ...successes,
      ...errorResponses(
        opts,
        ...COMMON_ERRORS,
        "invalid_request", "invalid_json", "request_too_large", "invalid_media_url", "media_url_not_allowed", "insufficient_credits", "media_not_found",
        "idempotency_conflict", "media_too_large", "unsupported_media_type", "unsupported_media_format", "corrupt_media", "media_unreachable",
        ...(isVideo ? (["plan_restricted"] as const) : []),
        ...(feature.id.endsWith("blur-anything") || feature.id.endsWith("object-removal") ? (["unsupported_prompt"] as const) : []),
        "not_implemented", "compute_unavailable",
      ),
    },
  });
}

export type { FeatureId };
