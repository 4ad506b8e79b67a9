// NSFW detection of a video: up to 15 frames sampled evenly across the whole video, each
// classified; the video's score is the highest frame score (one explicit frame makes the video
// explicit), is_nsfw applies the classifier's threshold to it.
import { join } from "node:path";
import type { Frame } from "../types.ts";
import type { Models } from "../models/index.ts";
import { ApiError } from "../../schema/errors.ts";
import { ffmpegPath, startMediaProcess } from "../video/ffmpeg.ts";
import { decoderLimits } from "../video/process-limits.ts";
import { probeVideo } from "../video/probe.ts";
import type { VideoInfo } from "../video/probe.ts";
import { untrustedInput } from "../video/sandbox.ts";
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
  const args = ["-v", "error", "-ss", seconds.toFixed(3), ...untrustedInput(path), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"];
  const proc = await startMediaProcess(ffmpegPath(), args, { stdout: true, signal, limits: decoderLimits(info) });
  const chunks: Buffer[] = [];
  proc.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk));
  await proc.exited;
  const limit = proc.limitBroken();
  if (limit) throw new ApiError("corrupt_media", `The video could not be decoded: decoding exceeded its ${limit.text}.`);
  const data = Buffer.concat(chunks);
  return data.length === width * height * 3 ? { data, width, height, channels: 3 } : null;
}

export function nsfwVideoTask(models: () => Models): Task {
  return {
    feature: "video.nsfw-detection",
    media: "video",
    async run(request, ctx) {
      const input = await loadMediaFile(request.media, join(ctx.workDir, "input"), ctx.signal);
      const info = await probeVideo(input, ctx.signal);
      checkVideoLimits(info);
      const samples = Math.min(NSFW_VIDEO_SAMPLES, Math.max(1, info.frameCount));
      const classifier = models().nsfw;
      let best = { is_nsfw: false, score: 0 };
      for (let i = 0; i < samples; i++) {
        const t = (info.durationSeconds * (i + 0.5)) / samples;
        const frame = await frameAt(input, t, info, ctx.signal);
        if (!frame) continue;
        const verdict = await classifier.classify(frame);
        if (verdict.score >= best.score) best = verdict;
        ctx.progress(((i + 1) / samples) * 100);
      }
      return { type: "json", body: best };
    },
  };
}
