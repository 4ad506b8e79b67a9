// Detections as data, and the caller's control over them: the request fields every face, plate
// and blur-anything feature takes, and the shapes the detections come back in (inline for a
// synchronous image, a JSON document at detections_url for a job).
import { z } from "@hono/zod-openapi";

/**
 * The lowest score any detector keeps (SSD faces cut by the frame's edge score from 0.25; other
 * faces, objects, people, text and plates score higher), so the default drops nothing.
 */
export const DEFAULT_DETECTION_THRESHOLD = 0.25;
/** Regions per list: enough to frame every face of a group photo, little to validate. */
export const MAX_REGIONS = 20;

const unit = (field: string) =>
  z
    .number({ error: `a region's ${field} must be a number from 0 to 1` })
    .min(0, { error: `a region's ${field} must be between 0 and 1` })
    .max(1, { error: `a region's ${field} must be between 0 and 1` });
const extent = (field: string) =>
  z
    .number({ error: `a region's ${field} must be a number from 0 to 1` })
    .gt(0, { error: `a region's ${field} must be greater than 0 and at most 1` })
    .max(1, { error: `a region's ${field} must be greater than 0 and at most 1` });

/** Floating-point slack for x + w and y + h (0.7 + 0.3 is 0.9999999999999999, 0.1 + 0.2 is 0.30000000000000004). */
const EPSILON = 1e-9;

export const Region = z
  .strictObject({ x: unit("x"), y: unit("y"), w: extent("w"), h: extent("h") })
  .refine((r) => r.x + r.w <= 1 + EPSILON, { error: "a region must lie inside the image: x + w is over 1", path: ["w"] })
  .refine((r) => r.y + r.h <= 1 + EPSILON, { error: "a region must lie inside the image: y + h is over 1", path: ["h"] })
  // Inline, not a named component: GET /features hands each request schema out on its own, where
  // a $ref to the document's components would point nowhere.
  .openapi({
    description: "A rectangle in relative coordinates of the image or frame: x, y (top-left) and w, h in 0..1, x + w and y + h at most 1.",
    example: { x: 0.5, y: 0, w: 0.5, h: 0.5 },
  });

const regions = (field: string) =>
  z
    .array(Region, { error: `${field} must be an array of regions {x, y, w, h}` })
    .max(MAX_REGIONS, { error: `${field} must hold at most ${MAX_REGIONS} regions` });

/**
 * The fields a detector-based feature adds to its request. Their defaults are documented (the
 * OpenAPI `default`) and applied by compute, not filled in by validation: a request that leaves
 * them out is the same request as before they existed (its Idempotency-Key fingerprint too).
 */
export const detectionControls = {
  return_detections: z
    .boolean({ error: "return_detections must be a boolean" })
    .optional()
    .openapi({
      default: false,
      description:
        "Also answer with what was found and hidden: an image's boxes in `detections`, a job's per-frame boxes and track ids in the JSON document at `detections_url` (format: the DetectionsDocument schema).",
    }),
  detection_threshold: z
    .number({ error: "detection_threshold must be a number from 0 to 1" })
    .min(0, { error: "detection_threshold must be between 0 and 1" })
    .max(1, { error: "detection_threshold must be between 0 and 1" })
    .optional()
    .openapi({
      default: DEFAULT_DETECTION_THRESHOLD,
      description: `Detections scoring under this are neither hidden nor returned. The default, ${DEFAULT_DETECTION_THRESHOLD}, is the lowest score any detector keeps, so it drops nothing; values under it change nothing.`,
      example: 0.6,
    }),
  min_size_px: z
    .number({ error: "min_size_px must be a number" })
    .int({ error: "min_size_px must be a whole number of pixels" })
    .min(0, { error: "min_size_px must be between 0 and 10000" })
    .max(10_000, { error: "min_size_px must be between 0 and 10000" })
    .optional()
    .openapi({
      default: 0,
      description: "Detections whose larger side is under this many pixels (of the image or frame) are neither hidden nor returned. 0: no minimum beyond the detectors' own (faces at least 4 px each way, plate lines 6 px tall).",
      example: 24,
    }),
  // An empty include list would hide nothing: refused, so a client that means "everywhere" never
  // sends a request that quietly leaves every face visible.
  include_regions: regions("include_regions")
    .min(1, { error: "include_regions must hold at least one region (leave it out for the whole image)" })
    .optional()
    .openapi({ description: `Only detections whose box centre lies in one of these regions are hidden (and returned); at most ${MAX_REGIONS}. Absent: the whole image.` }),
  exclude_regions: regions("exclude_regions")
    .optional()
    .openapi({ description: `Detections whose box centre lies in one of these regions are left untouched (and not returned); wins over include_regions; at most ${MAX_REGIONS}.` }),
};

export type DetectionControls = { [K in keyof typeof detectionControls]?: z.output<(typeof detectionControls)[K]> };

export const Detection = z
  .object({
    x: z.number().openapi({ description: "Left edge, relative to the width (0..1)." }),
    y: z.number().openapi({ description: "Top edge, relative to the height (0..1)." }),
    w: z.number().openapi({ description: "Width, relative to the width." }),
    h: z.number().openapi({ description: "Height, relative to the height." }),
    score: z.number().openapi({ description: "The detector's confidence (0..1)." }),
    label: z.string().openapi({ description: "What it is: face, license plate, person, text, or a COCO class (car, dog, ...).", example: "face" }),
  })
  .openapi("Detection", { description: "A box that was hidden, in relative coordinates of the output image (EXIF orientation applied)." });

export const TrackedDetection = Detection.extend({
  track_id: z.number().int().openapi({ description: "The track the box belongs to: one id per object for its whole life in the video, never reused." }),
  source: z.enum(["detected", "predicted", "interpolated", "backfilled"]).openapi({
    description: "detected: the detector found it in this frame; interpolated: between two detections; predicted: carried on after one; backfilled: before the track's first detection.",
  }),
}).openapi("TrackedDetection", {
  description: "A box hidden in one frame: the tracker's box (the detection plus a margin that grows with the distance to the nearest detection), in relative coordinates; score is the track's latest detection score.",
});

export const DetectionsDocument = z
  .object({
    media: z.enum(["image", "video"]),
    width: z.number().int().openapi({ description: "Width in pixels of the output (boxes are relative to it)." }),
    height: z.number().int(),
    fps: z.number().optional().openapi({ description: "Video: frames per second." }),
    frame_count: z.number().int().optional().openapi({ description: "Video: frames in the output, the length of `frames`." }),
    frames: z.array(
      z.object({
        index: z.number().int().openapi({ description: "Frame number from 0." }),
        time_seconds: z.number().openapi({ description: "index / fps." }),
        detections: z.array(z.union([TrackedDetection, Detection])),
      }),
    ).openapi({ description: "One entry per frame, in order, every frame included (an empty list where nothing was hidden); an image has one." }),
  })
  .openapi("DetectionsDocument", { description: "The JSON document at a job's detections_url." });

export type DetectionBox = z.output<typeof Detection>;
export type TrackedDetectionBox = z.output<typeof TrackedDetection>;
export type DetectionsDoc = z.output<typeof DetectionsDocument>;
