// Response bodies of the API, as the SPEC defines them (plus the fields it leaves to us).
import { z } from "@hono/zod-openapi";
import { ERROR_CODES } from "../errors.ts";
import { Detection } from "./detections.ts";

const errorCodes = Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]];

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(errorCodes).openapi({ description: "Machine-readable code; the complete list is in the API description." }),
      message: z.string().openapi({ description: "Human-readable explanation naming the problem." }),
      status: z.number().int().openapi({ description: "The HTTP status." }),
    }),
  })
  .openapi("Error");

export const JobStatusEnum = z.enum(["queued", "processing", "completed", "failed"]);

export const VideoJob = z
  .object({
    success: z.literal(true),
    job_id: z.string().openapi({ example: "job_Zt3q9LkV2xWm8PcR1nYb4A" }),
    status: JobStatusEnum,
    feature: z.string().openapi({ description: "The feature submitted, e.g. face-blur.", example: "face-blur" }),
    credits_used: z.number().openapi({ description: "Credits reserved for the job." }),
    remaining_credits: z.number().openapi({ description: "Balance after the reservation." }),
  })
  .openapi("VideoJob");

export const JobError = z
  .object({ code: z.string(), message: z.string() })
  .openapi("JobError", { description: "Why a job failed. Present only when status is failed." });

export const JobRecord = z
  .object({
    success: z.literal(true),
    job_id: z.string().openapi({ example: "job_Zt3q9LkV2xWm8PcR1nYb4A" }),
    status: JobStatusEnum,
    feature: z.string().openapi({ example: "face-blur" }),
    progress: z.number().min(0).max(100).openapi({ description: "Percentage of the work done." }),
    result_url: z.string().optional().openapi({ description: "Present when completed." }),
    detections_url: z.string().optional().openapi({ description: "Present when completed and the job was asked for return_detections: a JSON DetectionsDocument, served like result_url." }),
    credits_used: z.number().optional(),
    error: JobError.optional(),
    created_at: z.string().openapi({ format: "date-time" }),
    updated_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("JobRecord");

export const ImageResult = z
  .object({
    success: z.literal(true),
    result_url: z.string().openapi({ format: "uri" }),
    detections: z.array(Detection).optional().openapi({ description: "Present with return_detections: every box hidden in the image (an empty list when none)." }),
    credits_used: z.number(),
    remaining_credits: z.number(),
  })
  .openapi("ImageResult");

export const NsfwResult = z
  .object({
    success: z.literal(true),
    is_nsfw: z.boolean(),
    score: z.number().nullable().openapi({ description: "Probability-like score in 0..1 that the media is NSFW; is_nsfw is score >= the documented threshold." }),
    credits_used: z.number(),
    remaining_credits: z.number(),
  })
  .openapi("NsfwResult");

export const Account = z
  .object({
    success: z.literal(true),
    id: z.string().openapi({ example: "acct_9fK2mQ7xLp3V1cRt" }),
    name: z.string().nullable().openapi({ example: "Ada Lovelace" }),
    email: z.string().openapi({ example: "ada@example.com" }),
    is_developer: z.boolean(),
    available_credits: z.number(),
    tier: z.enum(["free", "pro", "enterprise"]),
  })
  .openapi("Account");

export const Credits = z
  .object({
    success: z.literal(true),
    available_credits: z.number(),
    total_purchased: z.number(),
    total_spent: z.number(),
    reserved_credits: z.number().openapi({ description: "Held by running jobs: available = purchased - spent - reserved." }),
    active_api_keys: z.number(),
  })
  .openapi("Credits");

export const FeatureEntry = z
  .object({
    id: z.string().openapi({ example: "image.face-blur" }),
    name: z.string(),
    description: z.string(),
    media: z.enum(["image", "video"]),
    method: z.literal("POST"),
    path: z.string().openapi({ example: "/api/v2/images/face-blur" }),
    credits: z.number().openapi({ description: "Price in credits per unit." }),
    unit: z.string().openapi({ description: "request, or video_10s: each started 10 seconds of video." }),
    available: z.boolean().openapi({ description: "Whether a compute instance serves this feature right now." }),
    parameters: z.record(z.string(), z.unknown()).openapi({ description: "JSON Schema of the JSON request body, as the endpoint's requestBody in this document states it." }),
  })
  .openapi("FeatureEntry");

export const FeatureCatalog = z.object({ success: z.literal(true), features: z.array(FeatureEntry) }).openapi("FeatureCatalog");

export const UploadRequest = z
  .strictObject({
    content_type: z.string().optional().openapi({ description: "Informational only: the content is checked by its bytes." }),
  })
  .openapi("UploadRequest");

export const UploadTicket = z
  .object({
    success: z.literal(true),
    upload_id: z.string().openapi({ example: "q3ZkL9vT2mXw8RcP1nYbAg" }),
    upload_url: z.string().openapi({ description: "PUT the file here, with a Content-Length.", example: "https://obscura.example.com/uploads/eyJpZCI6InEzWmtMOXZUMm1YdzhSY1AxbllQQWciLCJleHAiOjE3OTg3NjE2MDB9.8Xr2" }),
    method: z.literal("PUT"),
    image_url: z.string().optional().openapi({ description: "Pass this to an image feature after the upload.", example: "https://obscura.example.com/media/q3ZkL9vT2mXw8RcP1nYbAg" }),
    video_url: z.string().optional().openapi({ description: "Pass this to a video feature after the upload.", example: "https://obscura.example.com/media/q3ZkL9vT2mXw8RcP1nYbAg" }),
    expires_at: z.string().openapi({ format: "date-time", description: "The upload URL is valid until then; the media URL for 24 hours after upload." }),
    max_bytes: z.number().int(),
    accepted_formats: z.array(z.string()),
  })
  .openapi("UploadTicket");

export const UploadDone = z
  .object({ success: z.literal(true), upload_id: z.string(), format: z.string(), size_bytes: z.number().int(), media_url: z.string() })
  .openapi("UploadDone");
