// Field schemas shared by several endpoints, with the SPEC's types, ranges and defaults.
import { z } from "@hono/zod-openapi";
import { MAX_VIDEO_SECONDS } from "../limits.ts";
import { MAX_MEDIA_URL_LENGTH } from "../media-url.ts";

// What a schema can say of the media-URL policy (schema/media-url.ts): http(s), no user:password@
// before the host, at most MAX_MEDIA_URL_LENGTH characters. The server refuses the rest (private,
// loopback, link-local and reserved addresses, localhost names, signed URLs) with its own codes,
// so these patterns live in the document only: a broken URL still answers invalid_media_url.
const HTTP_URL_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\\\@]*(?:[/?#\\\\]|$)";
const HTTPS_URL_PATTERN = "^[Hh][Tt][Tt][Pp][Ss]://[^/?#\\\\@]*(?:[/?#\\\\]|$)";
const URL_POLICY =
  "Refused: other schemes, credentials (user:password@), localhost and single-label or private-use names, private, loopback, link-local, CGNAT, multicast and reserved IPv4/IPv6 addresses (numeric encodings included), and signed URLs (S3, GCS, Azure SAS, CloudFront and similar query signatures).";

export const mediaUrl = (what: string) =>
  z
    .string({ error: `${what} must be a string URL` })
    .min(1, { error: `${what} is required` })
    .openapi({
      format: "uri",
      pattern: HTTP_URL_PATTERN,
      maxLength: MAX_MEDIA_URL_LENGTH,
      description: `Public http(s) URL of the ${what.replace("_url", "")}, or a media URL returned by an upload endpoint. ${URL_POLICY}`,
      example: "https://example.com/photo.jpg",
    });

export const blurStrength = z
  .number({ error: "blur_strength must be a number from 0 to 1" })
  .min(0, { error: "blur_strength must be between 0 and 1" })
  .max(1, { error: "blur_strength must be between 0 and 1" })
  .default(0.7)
  .openapi({ description: "Blur strength from 0 (lightest blur that still hides identity) to 1 (strongest).", example: 0.7 });

export const pixelated = z
  .boolean({ error: "pixelated must be a boolean" })
  .default(false)
  .openapi({ description: "Pixelate (mosaic) instead of gaussian blur." });

export const isWatermark = z
  .boolean({ error: "is_watermark must be a boolean" })
  .default(true)
  .openapi({ description: "Add a visible watermark. false is allowed on the pro and enterprise plans only (403 plan_restricted otherwise)." });

export const durationSeconds = z
  .number({ error: "duration_seconds must be a number" })
  .positive({ error: "duration_seconds must be greater than 0" })
  .max(MAX_VIDEO_SECONDS, { error: `duration_seconds must be at most ${MAX_VIDEO_SECONDS} (the longest video accepted)` })
  .optional()
  .openapi({ description: `Duration of the video in seconds, used to estimate the credits reserved (at most ${MAX_VIDEO_SECONDS}, the longest video accepted). When absent the service probes the video.` });

export const webhookUrl = z
  .string({ error: "webhook_url must be a string URL" })
  .optional()
  .openapi({
    format: "uri",
    pattern: HTTPS_URL_PATTERN,
    maxLength: MAX_MEDIA_URL_LENGTH,
    description: `Public https URL that receives the job record (signed) when the job completes or fails. ${URL_POLICY.replace("other schemes", "http and other schemes")}`,
  });

export const prompt = (field: string, max: number) =>
  z
    .string({ error: `${field} is required and must be a string` })
    .trim()
    .min(1, { error: `${field} is required and must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` });

export const hexColor = z
  .string({ error: "background_color must be a string" })
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: "background_color must be a hex color such as #00FF00 or #0F0" })
  .default("#00FF00")
  .openapi({ description: "Fill colour used when output_transparent is false.", example: "#00FF00" });
