// Video features as tasks: fetch to a private file, probe, refuse what the reservation does not
// cover, stream through the pipeline, hand back the MP4 with its real duration for settlement
// (and, with return_detections, the per-frame document of what was hidden).
import { join } from "node:path";
import { ApiError } from "../../schema/errors.ts";
import type { Models } from "../models/index.ts";
import { VideoDetections } from "../pipelines/detections.ts";
import type { VideoPipeline } from "../pipelines/video/index.ts";
import { processVideo } from "../video/stream.ts";
import { loadMediaFile } from "./media-source.ts";
import type { Task } from "./types.ts";

export function videoTask(feature: string, pipeline: VideoPipeline, models: () => Models): Task {
  return {
    feature,
    media: "video",
    async run(request, ctx) {
      const input = await loadMediaFile(request.media, join(ctx.workDir, "input"), ctx.signal);
      const recorder = request.params.return_detections === true ? new VideoDetections() : undefined;
      // Built before decoding starts, so a bad prompt fails before any work.
      const processor = pipeline(request.params, models(), { onCoverage: recorder && ((coverage) => recorder.add(coverage)) });
      const output = join(ctx.workDir, "output.mp4");
      const result = await processVideo(input, output, {
        processor,
        signal: ctx.signal,
        tempDir: ctx.workDir,
        onProgress: ctx.progress,
        onProbe: (info) => {
          const covered = request.max_duration_seconds;
          // One frame of tolerance: containers round durations.
          if (covered !== undefined && info.durationSeconds > covered + 0.5) {
            throw new ApiError("media_too_large", `The video is ${info.durationSeconds.toFixed(1)} s long but the job was priced for at most ${covered} s (duration_seconds); resubmit with the real duration.`);
          }
          recorder?.start(info, info.fps);
        },
      });
      const detections = recorder?.document();
      return { type: "file", path: output, contentType: "video/mp4", durationSeconds: result.info.durationSeconds, ...(detections ? { detections } : {}) };
    },
  };
}
