// Where the time of video face anonymization goes: runs video.face-anonymization on a clip
// (default: bench:video's cached 4 s 720p clip; `npm run bench:video -- --only 720p --seconds 4`
// makes it) and prints the wall time spent in each kind of model call. The drawing runs on its own
// thread (FaceRenderer), so wall time not listed is mostly decode/encode and waiting for it.
// Usage: npx node bench/anonymization-time.ts [clip.mp4]
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FaceMeter } from "../compute/anonymize/evaluate.ts";
import { FaceDetector } from "../compute/models/face-detector.ts";
import { FaceLandmarker } from "../compute/models/face-landmarks.ts";
import { createModels } from "../compute/models/index.ts";
import { faceAnonymizationVideo } from "../compute/pipelines/video/face-anonymization.ts";
import { probeVideo } from "../compute/video/probe.ts";
import { processVideo } from "../compute/video/stream.ts";
import { warmUp } from "./warm-up.ts";

const spent = new Map<string, { ms: number; calls: number }>();

/** Wraps an async method of a class so every call's wall time is added up under `label`. */
function timed(proto: object, name: string, label: string): void {
  spent.set(label, { ms: 0, calls: 0 }); // printed in this order
  const target = proto as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const original = target[name]!;
  target[name] = async function (this: unknown, ...args: unknown[]) {
    const t0 = performance.now();
    try {
      return await original.apply(this, args);
    } finally {
      const s = spent.get(label)!;
      s.ms += performance.now() - t0;
      s.calls++;
    }
  };
}

timed(FaceMeter.prototype, "compare", "calibration: measure a candidate");
timed(FaceMeter.prototype, "detect", "  of which SSD");
timed(FaceDetector.prototype, "detect", "pipeline face detection");
timed(FaceLandmarker.prototype, "landmarks", "landmarks (tracking)");
// Calibration's descriptor passes: inside "measure a candidate" and outside it (the bound at the
// original box before the SSD pass, the local search's screens).
timed(FaceLandmarker.prototype, "describe", "descriptors (calibration, all)");

const clip = process.argv[2] ?? join(tmpdir(), "obscura-bench-video", "panzoom-720p-4s-25fps.mp4");
const models = createModels();
// Load and warm only what the pipeline uses, as bench:video does.
const { width, height } = await probeVideo(clip);
await warmUp(faceAnonymizationVideo({ video_url: clip, is_watermark: false }, models, { salt: 1 }), width, height);
for (const s of spent.values()) Object.assign(s, { ms: 0, calls: 0 });
const t0 = performance.now();
const result = await processVideo(clip, join(tmpdir(), "obscura-anonymization-time.mp4"), {
  processor: faceAnonymizationVideo({ video_url: clip, is_watermark: false }, models, { salt: 1 }),
});
console.log(`${result.frames} frames in ${((performance.now() - t0) / 1000).toFixed(1)} s (${clip})`);
for (const [label, s] of spent) console.log(`${label.padEnd(34)} ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${String(s.calls).padStart(4)} calls  ${(s.ms / Math.max(1, s.calls)).toFixed(0)} ms/call`);
