// NSFW detection of a video: up to 15 frames sampled evenly across the whole video, each
// classified; the video's score is the highest frame score (one explicit frame makes the video
// explicit), is_nsfw applies the classifier's threshold to it. A video none of whose samples can be
// decoded fails: it is never called safe unseen.
import { join } from "node:path";
import type { Frame, NsfwVerdict } from "../types.ts";
import type { Models } from "../models/index.ts";
import { ApiError } from "../../schema/errors.ts";
import { ffmpegPath, startMediaProcess } from "../video/ffmpeg.ts";
import { decoderLimits } from "../video/process-limits.ts";
import { probeVideo } from "../video/probe.ts";
import type { VideoInfo } from "../video/probe.ts";
import { untrustedInput } from "../video/sandbox.ts";
import { toRgbFilters } from "../video/stream.ts";
import { checkVideoLimits } from "../video/limits.ts";
import { loadMediaFile } from "./media-source.ts";
import type { Task } from "./types.ts";

export const NSFW_VIDEO_SAMPLES = 15;

/**
 * One upright frame at `seconds` (ffmpeg seeks to the nearest preceding keyframe, then decodes; at
 * worst the whole video, hence the whole-video decoder limits). A frame that cannot be had is
 * skipped, but a decoder stopped by a limit fails the task: its video is not classified from the
 * frames that were easy to decode.
 */
async function frameAt(path: string, seconds: number, info: VideoInfo, signal: AbortSignal): Promise<Frame | null> {
  const { width, height } = info;
  const args = ["-v", "error", "-ss", seconds.toFixed(3), ...untrustedInput(path), "-map", `0:${info.videoStream}`, "-frames:v", "1", "-vf", toRgbFilters(info).join(","), "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"];
  const proc = await startMediaProcess(ffmpegPath(), args, { stdout: true, signal, limits: decoderLimits(info) });
  const chunks: Buffer[] = [];
  proc.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk));
  await proc.exited;
  const limit = proc.limitBroken();
  if (limit) throw new ApiError("corrupt_media", `The video could not be decoded: decoding exceeded its ${limit.text}.`);
  const data = Buffer.concat(chunks);
  return data.length === width * height * 3 ? { data, width, height, channels: 3 } : null;
}

/** The verdict on the video at `path`: its most explicit sample's. */
export async function classifyVideo(path: string, classify: (frame: Frame) => Promise<NsfwVerdict>, signal: AbortSignal, progress: (percent: number) => void = () => {}): Promise<NsfwVerdict> {
  const info = await probeVideo(path, signal);
  checkVideoLimits(info);
  const samples = Math.min(NSFW_VIDEO_SAMPLES, Math.max(1, info.frameCount));
  let best: NsfwVerdict | null = null;
  for (let i = 0; i < samples; i++) {
    // At a frame's own time (rounded down: the seek keeps the first frame at or after it), so the
    // last sample of a short video is not asked for after its last frame.
    const k = Math.floor((info.frameCount * (i + 0.5)) / samples);
    const t = info.videoStartSeconds + (k * info.fps.den) / info.fps.num;
    const frame = await frameAt(path, Math.floor(t * 1000) / 1000, info, signal);
    if (frame) {
      const verdict = await classify(frame);
      if (!best || verdict.score >= best.score) best = verdict;
    }
    progress(((i + 1) / samples) * 100);
  }
  if (!best) throw new ApiError("corrupt_media", `The video could not be decoded: none of its ${samples} sampled frames could be read.`);
  return best;
}

export function nsfwVideoTask(models: () => Models): Task {
  return {
    feature: "video.nsfw-detection",
    media: "video",
    async run(request, ctx) {
      const input = await loadMediaFile(request.media, join(ctx.workDir, "input"), ctx.signal);
      const classifier = models().nsfw;
      const verdict = await classifyVideo(input, (frame) => classifier.classify(frame), ctx.signal, ctx.progress);
      return { type: "json", body: verdict };
    },
  };
}
