// NSFW detection of a video samples frames of the video the other features process (the first
// that is not a cover picture) up to its last frame, and a video none of whose samples can be
// decoded fails rather than being called safe.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Frame } from "../../compute/types.ts";
import { NSFW_VIDEO_SAMPLES, classifyVideo } from "../../compute/tasks/nsfw-video.ts";
import { ffmpegPath } from "../../compute/video/ffmpeg.ts";
import { makeCoverFirstVideo, makeGarbledVideo, makePanZoomVideo } from "../fixtures/make-video.ts";

let dir: string;
let clip: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "obscura-nsfw-video-test-"));
  clip = await makePanZoomVideo({ outPath: join(dir, "clip.mp4"), width: 320, height: 180, seconds: 2, fps: 10 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Records what it is shown; scores a frame by how red it is (the cover picture is pure red). */
function recorder() {
  const seen: Frame[] = [];
  const classify = async (frame: Frame) => {
    seen.push(frame);
    let red = 0;
    for (let i = 0; i < frame.data.length; i += 3) if (frame.data[i]! > 200 && frame.data[i + 1]! < 60) red++;
    const score = red / (frame.width * frame.height);
    return { is_nsfw: score > 0.5, score };
  };
  return { seen, classify };
}

/** A file with a second, larger video stream flagged default: ffmpeg's own pick (a dual dashcam's). */
async function makeDualVideo(path: string): Promise<string> {
  execFileSync(ffmpegPath(), [
    "-v", "error", "-y", "-i", clip, "-f", "lavfi", "-i", "color=c=red:s=640x360:r=10:d=2",
    "-map", "0:v", "-map", "1:v", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-disposition:v:0", "0", "-disposition:v:1", "default", path,
  ]);
  return path;
}

it.each([
  ["a cover picture listed before the video", () => makeCoverFirstVideo(clip, join(dir, "cover-first.mp4"))],
  ["a second video ffmpeg alone would pick", () => makeDualVideo(join(dir, "dual.mp4"))],
])("samples 15 frames of the video every feature processes, its last frame included, never %s", async (_name, make) => {
  const { seen, classify } = recorder();
  const verdict = await classifyVideo(await make(), classify, new AbortController().signal);
  expect(seen).toHaveLength(NSFW_VIDEO_SAMPLES);
  expect(seen.every((f) => f.width === 320 && f.height === 180)).toBe(true);
  expect(verdict.is_nsfw).toBe(false);
});

it("fails with corrupt_media when none of the sampled frames can be decoded, never calling the video safe", async () => {
  const garbled = await makeGarbledVideo(clip, join(dir, "garbled.mp4"));
  const { seen, classify } = recorder();
  const error = await classifyVideo(garbled, classify, new AbortController().signal).catch((e) => e);
  expect(error).toMatchObject({ code: "corrupt_media" });
  expect(error.message).toMatch(/none of its \d+ sampled frames/);
  expect(seen).toHaveLength(0);
});
