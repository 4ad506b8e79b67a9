// Media limits: one place for the numbers. Pure TypeScript (no Node or Worker APIs) so the
// Worker (upload checks, README/OpenAPI text) and the compute service (fetch, decode, video
// probing) enforce the same values. Breaking any of them answers 413 `media_too_large`.

const MiB = 1024 * 1024;

/** Largest image file accepted (bytes). A 50 MP PNG can exceed this; such files are rare and
 * a 12 MP phone photo is 3-12 MB as JPEG/HEIC, 15-25 MB as PNG. */
export const MAX_IMAGE_BYTES = 40 * MiB;

/** Largest decoded image (width x height). Checked from the header BEFORE decoding, so a
 * decompression bomb (a few KB of PNG declaring 100k x 100k pixels) is refused without
 * allocating its pixels. 50 MP = 200 MB of RGBA, the most a 2-core, few-GB worker should
 * hold for one request; covers every phone and most DSLR photos (a 45 MP camera is 8192x5464). */
/** A JSON request body: parameters and URLs only (media travels by URL, upload or file part). */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

export const MAX_IMAGE_PIXELS = 50_000_000;

/** Largest side of an image in pixels (libheif and some codecs refuse more; also bounds a
 * 1 x 50M "line" image that passes the pixel limit but breaks tiling). */
export const MAX_IMAGE_SIDE = 16_384;

/** Largest video file accepted (bytes). */
export const MAX_VIDEO_BYTES = 1024 * MiB;

/** Longest video accepted (seconds, from the container's duration). */
export const MAX_VIDEO_SECONDS = 10 * 60;

/** Largest video frame: 4K UHD, in either orientation. */
export const MAX_VIDEO_FRAME_PIXELS = 3840 * 2160;
/** Highest video frame rate accepted (frames per second): a phone's or action camera's slow motion. */
export const MAX_VIDEO_FPS = 240;

/**
 * Most frames in one video: ten minutes at 120 fps. The work is per frame, so this, not the rate,
 * bounds a job; a 240 fps slow-motion clip may last up to 300 s.
 */
export const MAX_VIDEO_FRAMES = MAX_VIDEO_SECONDS * 120;

/** Fetching a media URL: overall deadline (connect + all redirects + body), per kind. */
export const FETCH_TIMEOUT_MS = { image: 30_000, video: 300_000 } as const;

/**
 * Pricing a video: how long the Worker waits for compute's probe before it tries another instance,
 * and how long compute may spend fetching what it probes (its container index, or the whole file
 * where the server does not serve ranges), so that a slow URL is answered media_unreachable by the
 * instance it reached instead of fetched again by each one in turn.
 */
export const PROBE_TIMEOUT_MS = 60_000;
export const PROBE_FETCH_TIMEOUT_MS = 45_000;

/** Fetching a media URL: the most redirects followed (each one re-checked by the URL policy). */
export const FETCH_MAX_REDIRECTS = 3;

/** Byte limit for a media kind. */
export function maxBytesFor(kind: "image" | "video"): number {
  return kind === "image" ? MAX_IMAGE_BYTES : MAX_VIDEO_BYTES;
}

/** The limits as a table, for the README and the OpenAPI description. */
export const LIMITS_TABLE: ReadonlyArray<{ limit: string; value: string }> = [
  { limit: "Image file size", value: `${MAX_IMAGE_BYTES / MiB} MiB` },
  { limit: "Image pixels", value: `${MAX_IMAGE_PIXELS / 1_000_000} megapixels, at most ${MAX_IMAGE_SIDE} px per side` },
  { limit: "Video file size", value: `${MAX_VIDEO_BYTES / MiB} MiB` },
  { limit: "Video duration", value: `${MAX_VIDEO_SECONDS} s` },
  { limit: "Video frame size", value: "3840x2160 (4K UHD) pixels per frame, either orientation" },
  { limit: "Video frame rate", value: `${MAX_VIDEO_FPS} fps` },
  { limit: "Video frames", value: `${MAX_VIDEO_FRAMES.toLocaleString("en-US")} (${MAX_VIDEO_SECONDS} s at ${MAX_VIDEO_FRAMES / MAX_VIDEO_SECONDS} fps; a ${MAX_VIDEO_FPS} fps clip may last ${MAX_VIDEO_FRAMES / MAX_VIDEO_FPS} s)` },
  { limit: "Media URL fetch", value: `${FETCH_TIMEOUT_MS.image / 1000} s (image) / ${FETCH_TIMEOUT_MS.video / 1000} s (video) overall, at most ${FETCH_MAX_REDIRECTS} redirects` },
];
