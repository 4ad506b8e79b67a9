// The documented bounds on what a video job may be. They exist so that one request cannot occupy
// a compute instance for hours or exhaust its disk: checked after probing, before any decoding.
import { ApiError } from "../../schema/errors.ts";
import { MAX_VIDEO_BYTES, MAX_VIDEO_FPS, MAX_VIDEO_FRAMES, MAX_VIDEO_SECONDS } from "../../schema/limits.ts";
import type { VideoInfo } from "./probe.ts";

export interface VideoLimits {
  maxBytes: number;
  maxDurationSeconds: number;
  /** Longer side of the upright frame, in pixels. */
  maxLongSide: number;
  /** Shorter side of the upright frame, in pixels. */
  maxShortSide: number;
  /** Guards against absurd frame rates that would multiply the work per second. */
  maxFps: number;
  /** Frames (after edit lists and variable-rate conforming): the work is per frame. */
  maxFrames: number;
}

/** The service's limits (schema/limits.ts): 4K UHD, ten minutes, 1 GiB, 240 fps, ten minutes' worth of frames at 120 fps. */
export const DEFAULT_VIDEO_LIMITS: VideoLimits = {
  maxBytes: MAX_VIDEO_BYTES,
  maxDurationSeconds: MAX_VIDEO_SECONDS,
  maxLongSide: 3840,
  maxShortSide: 2160,
  maxFps: MAX_VIDEO_FPS,
  maxFrames: MAX_VIDEO_FRAMES,
};

/** Throws ApiError media_too_large naming the limit that was exceeded. */
export function checkVideoLimits(info: VideoInfo, limits: VideoLimits = DEFAULT_VIDEO_LIMITS): void {
  const long = Math.max(info.width, info.height);
  const short = Math.min(info.width, info.height);
  const fps = info.fps.num / info.fps.den;
  if (info.sizeBytes > limits.maxBytes) {
    throw new ApiError("media_too_large", `The video is ${mib(info.sizeBytes)} MiB; the limit is ${mib(limits.maxBytes)} MiB.`);
  }
  if (info.durationSeconds > limits.maxDurationSeconds) {
    throw new ApiError("media_too_large", `The video lasts ${info.durationSeconds.toFixed(1)} s; the limit is ${limits.maxDurationSeconds} s.`);
  }
  if (long > limits.maxLongSide || short > limits.maxShortSide) {
    throw new ApiError("media_too_large", `The video is ${info.width}x${info.height}; the limit is ${limits.maxLongSide}x${limits.maxShortSide}.`);
  }
  if (fps > limits.maxFps) {
    throw new ApiError("media_too_large", `The video runs at ${fps.toFixed(2)} fps; the limit is ${limits.maxFps} fps.`);
  }
  if (info.frameCount > limits.maxFrames) {
    throw new ApiError("media_too_large", `The video has ${info.frameCount} frames; the limit is ${limits.maxFrames}.`);
  }
}

function mib(bytes: number): string {
  return (bytes / 1024 ** 2).toFixed(0);
}
