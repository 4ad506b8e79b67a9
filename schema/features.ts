// The feature catalog: every processing feature, its endpoint, price and parameters.
// Routes, the OpenAPI document, GET /features, billing and the compute service all read this.
import { z } from "@hono/zod-openapi";
import { blurStrength, durationSeconds, hexColor, isWatermark, mediaUrl, pixelated, prompt, webhookUrl } from "./api/fields.ts";
import { detectionControls } from "./api/detections.ts";

/** Video is billed per started unit of this many seconds. */
export const VIDEO_BILLING_UNIT_SECONDS = 10;

export const FACE_BLUR_MODES = ["gaussian", "pixelated", "emoji"] as const;
export const BLUR_ANYTHING_MODES = ["gaussian", "pixelated"] as const;
export const SUNGLASSES_EMOJI = "\u{1F60E}";
const SINGLE_EMOJI = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator})(?:\uFE0F|\u20E3|[\u{1F3FB}-\u{1F3FF}]|\u200D\p{Extended_Pictographic}|\p{Regional_Indicator})*$/u;

const videoBase = { video_url: mediaUrl("video_url"), duration_seconds: durationSeconds, webhook_url: webhookUrl };
const imageBase = { image_url: mediaUrl("image_url") };

const enumField = <T extends readonly [string, ...string[]]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of: ${values.join(", ")}` });

const pixelationStrength = (dflt: number) =>
  z
    .number({ error: "pixelation_strength must be a number" })
    .min(1, { error: "pixelation_strength must be between 1 and 1000" })
    .max(1000, { error: "pixelation_strength must be between 1 and 1000" })
    .default(dflt)
    .openapi({ description: "Mosaic strength when pixelated is true: larger means coarser blocks (see README for the mapping)." });

// Strict: unknown fields are refused (400 naming them), and the schema says so (additionalProperties: false).
const params = {
  "video.background-blur": z.strictObject({ ...videoBase, blur_strength: blurStrength, is_watermark: isWatermark }),
  "video.face-blur": z.strictObject({
    ...videoBase,
    blur_strength: blurStrength,
    pixelated,
    face_blur_mode: enumField("face_blur_mode", FACE_BLUR_MODES)
      .optional()
      .openapi({ description: "gaussian, pixelated or emoji. Wins over pixelated; when absent it follows pixelated." }),
    emoji: z
      .string({ error: "emoji must be a string" })
      .min(1, { error: "emoji must not be empty" })
      .max(16, { error: "emoji must be a single emoji" })
      .regex(SINGLE_EMOJI, { error: "emoji must be a single emoji, e.g. \u{1F60E}" })
      .default(SUNGLASSES_EMOJI)
      // The pattern without its /u flag (what JSON Schema expects; matched in Unicode mode).
      .openapi({ description: "Emoji drawn over each face in emoji mode.", example: SUNGLASSES_EMOJI, pattern: SINGLE_EMOJI.source }),
    ...detectionControls,
  }),
  "video.license-plate-blur": z.strictObject({ ...videoBase, blur_strength: blurStrength, pixelated, ...detectionControls }),
  "video.object-removal": z.strictObject({
    ...videoBase,
    object_text: prompt("object_text", 40).openapi({ description: "What to remove, at most 40 characters.", example: "person" }),
    prompt_bg: z
      .string({ error: "prompt_bg must be a string" })
      .max(200, { error: "prompt_bg must be at most 200 characters" })
      .optional()
      .openapi({ description: "Guidance for the background fill (see README)." }),
  }),
  "video.blur-anything": z.strictObject({
    ...videoBase,
    prompt: prompt("prompt", 200).openapi({ description: "What to blur across frames.", example: "car" }),
    blur_strength: blurStrength,
    pixelated,
    pixelation_strength: pixelationStrength(180),
    sam3_batch_size: z
      .number({ error: "sam3_batch_size must be a number" })
      .int({ error: "sam3_batch_size must be an integer" })
      .min(1, { error: "sam3_batch_size must be between 1 and 64" })
      .max(64, { error: "sam3_batch_size must be between 1 and 64" })
      .default(8)
      .openapi({ description: "Frames sent through the detector at once." }),
    sam3_chunk_size: z
      .number({ error: "sam3_chunk_size must be a number" })
      .int({ error: "sam3_chunk_size must be an integer" })
      .min(1, { error: "sam3_chunk_size must be between 1 and 1024" })
      .max(1024, { error: "sam3_chunk_size must be between 1 and 1024" })
      .default(128)
      .openapi({ description: "Frames processed as one chunk (tracking look-ahead window)." }),
    blur_anything_blur_mode: enumField("blur_anything_blur_mode", BLUR_ANYTHING_MODES)
      .optional()
      .openapi({ description: "gaussian or pixelated; when absent it follows pixelated." }),
    ...detectionControls,
  }),
  "video.face-anonymization": z.strictObject({ ...videoBase, is_watermark: isWatermark, ...detectionControls }),
  "image.blur-background": z.strictObject({ ...imageBase, blur_strength: blurStrength }),
  "image.remove-background": z.strictObject({
    ...imageBase,
    output_transparent: z
      .boolean({ error: "output_transparent must be a boolean" })
      .default(true)
      .openapi({ description: "true: transparent PNG; false: background filled with background_color." }),
    background_color: hexColor,
  }),
  "image.portrait-enhance": z.strictObject({
    ...imageBase,
    blur_strength: blurStrength,
    enhance_face: z.boolean({ error: "enhance_face must be a boolean" }).default(true),
    depth_effect: z.boolean({ error: "depth_effect must be a boolean" }).default(true),
  }),
  "image.face-blur": z.strictObject({ ...imageBase, blur_strength: blurStrength, pixelated, ...detectionControls }),
  "image.license-plate-blur": z.strictObject({ ...imageBase, blur_strength: blurStrength, pixelated, ...detectionControls }),
  "image.blur-anything": z.strictObject({
    ...imageBase,
    prompt: prompt("prompt", 200).openapi({ description: "What to blur.", example: "car" }),
    blur_strength: blurStrength,
    pixelated,
    pixelation_strength: pixelationStrength(20),
    ...detectionControls,
  }),
  "image.nsfw-detection": z.strictObject({
    media_url: mediaUrl("media_url"),
    media_type: enumField("media_type", ["image", "video"]).default("image"),
  }),
} as const;

export type FeatureId = keyof typeof params;
export type FeatureParams<F extends FeatureId> = z.output<(typeof params)[F]>;

export interface Feature {
  id: FeatureId;
  media: "image" | "video";
  /** Endpoint path under /api/v2. */
  path: string;
  name: string;
  description: string;
  /** Credits per request (images, NSFW) or per started VIDEO_BILLING_UNIT_SECONDS of video. */
  credits: number;
  unit: "request" | "video_unit";
  /** Request field carrying the media URL, and the multipart file part that may replace it. */
  mediaField: "image_url" | "video_url" | "media_url";
  filePart: "image" | "video" | "media";
  params: (typeof params)[FeatureId];
}

const video = (slug: string, name: string, credits: number, description: string): Feature => ({
  id: `video.${slug}` as FeatureId,
  media: "video",
  path: `/videos/${slug}`,
  name,
  description,
  credits,
  unit: "video_unit",
  mediaField: "video_url",
  filePart: "video",
  params: params[`video.${slug}` as FeatureId],
});
const image = (slug: string, name: string, credits: number, description: string): Feature => ({
  id: `image.${slug}` as FeatureId,
  media: "image",
  path: `/images/${slug}`,
  name,
  description,
  credits,
  unit: "request",
  mediaField: "image_url",
  filePart: "image",
  params: params[`image.${slug}` as FeatureId],
});

export const FEATURES: readonly Feature[] = [
  video("background-blur", "Video background blur", 2, "Blurs everything behind the people in a video."),
  video("face-blur", "Video face blur", 2, "Blurs, pixelates or covers with an emoji every face, tracked across frames."),
  video("license-plate-blur", "Video licence plate blur", 2, "Blurs every licence plate, tracked across frames."),
  video("object-removal", "Video object removal", 5, "Removes the named object and fills in what is behind it."),
  video("blur-anything", "Video blur anything", 3, "Blurs whatever the prompt names, tracked across frames."),
  video("face-anonymization", "Video face anonymization", 5, "Replaces every face with a generated face that is not the same person; a face it cannot make another person is blurred."),
  image("blur-background", "Image background blur", 2, "Blurs the background behind the subject."),
  image("remove-background", "Image background removal", 2, "Cuts out the subject: transparent PNG or a flat colour."),
  image("portrait-enhance", "Portrait enhancement", 3, "Enhances the face and adds a depth-of-field background blur."),
  image("face-blur", "Image face blur", 1, "Blurs or pixelates every face."),
  image("license-plate-blur", "Image licence plate blur", 1, "Blurs or pixelates every licence plate."),
  image("blur-anything", "Image blur anything", 2, "Blurs whatever the prompt names."),
  {
    id: "image.nsfw-detection",
    media: "image",
    path: "/detect/nsfw",
    name: "NSFW detection",
    description: "Classifies an image (or a video, sampling up to 15 frames) as NSFW or not.",
    credits: 1,
    unit: "request",
    mediaField: "media_url",
    filePart: "media",
    params: params["image.nsfw-detection"],
  },
];

/** NSFW detection of a video samples frames and costs a flat price. */
export const NSFW_VIDEO_CREDITS = 2;

/** The feature's name as job records show it: the endpoint's last path segment ("face-blur"). */
export function featureSlug(id: FeatureId): string {
  return id.slice(id.indexOf(".") + 1);
}

export function featureById(id: string): Feature | undefined {
  return FEATURES.find((f) => f.id === id);
}

/** Credits a request costs. Video: per started billing unit of its duration. */
export function priceOf(feature: Feature, durationSeconds?: number): number {
  if (feature.unit === "request") return feature.credits;
  const units = Math.max(1, Math.ceil((durationSeconds ?? 0) / VIDEO_BILLING_UNIT_SECONDS));
  return feature.credits * units;
}
