// Type-level checks of the SDK's generated types, run by the type check (npm run typecheck):
// each @ts-expect-error must be an error, every other line must compile.
import type { FeatureAnswer, FeatureId, FeatureParams, Job, Obscura } from "../../sdk/src/index.ts";

export const ids: FeatureId[] = ["image.face-blur", "video.object-removal", "image.nsfw-detection"];
// @ts-expect-error an upload endpoint is no feature
export const notAFeature: FeatureId = "image.uploads";

export const faceBlur: FeatureParams<"image.face-blur"> = { image_url: "https://example.com/a.jpg", blur_strength: 0.5 };
// @ts-expect-error the service refuses unknown fields, and so do the types
export const unknownField: FeatureParams<"image.face-blur"> = { image_url: "https://example.com/a.jpg", blur: 1 };
// @ts-expect-error object_text is required
export const missingField: FeatureParams<"video.object-removal"> = { video_url: "https://example.com/a.mp4" };

export function answers(video: FeatureAnswer<"video.face-blur">, nsfw: FeatureAnswer<"image.nsfw-detection">, image: FeatureAnswer<"image.face-blur">, job: Job) {
  const accepted: string = video.job_id;
  const verdict: boolean = nsfw.is_nsfw;
  // @ts-expect-error an image endpoint may answer 202 (Prefer: respond-async): narrow first
  const result: string = image.result_url;
  const status: "queued" | "processing" | "completed" | "failed" = job.status;
  return { accepted, verdict, result, status };
}

/** run() with a literal id is typed by that feature's endpoint; with an id known at run time it takes any object. */
export async function run(obscura: Obscura, featureFromCommandLine: string) {
  const { data } = await obscura.run("video.face-blur", { video_url: "https://example.com/a.mp4", blur_strength: 0.5 });
  const jobId: string = data.job_id;
  // @ts-expect-error a parameter the feature does not have
  await obscura.run("image.face-blur", { image_url: "https://example.com/a.jpg", prompt: "car" });
  // @ts-expect-error the video feature takes video_url
  await obscura.run("video.face-blur", { image_url: "https://example.com/a.jpg" });
  const loose = await obscura.run(featureFromCommandLine, { image_url: "https://example.com/a.jpg", anything: 1 });
  return { jobId, loose };
}
