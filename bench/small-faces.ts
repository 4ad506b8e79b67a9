// Face anonymization on small faces (40-60 px), the measurement test/e2e/videos.test.ts makes
// through the Worker, without the Worker: the 480x270 3 s pan/zoom over face-api's sample1 goes
// through the pipeline's own processor (faceAnonymizationVideo, as compute runs it), and every 5th
// frame is measured with face-api (SSD score at each input face's position, descriptor distance).
// Run: npx node bench/small-faces.ts [salts, comma-separated; default 1] (VERBOSE=1: per face).
// A fixed salt makes a run reproducible (jobs draw a random one).
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeFrames } from "../test/fixtures/frames.ts";
import { makePanZoomVideo } from "../test/fixtures/make-video.ts";
import { processVideo } from "../compute/video/stream.ts";
import { faceAnonymizationVideo } from "../compute/pipelines/video/face-anonymization.ts";
import { sharedModels } from "../compute/models/index.ts";
import { FaceMeter } from "../compute/anonymize/evaluate.ts";
const W = 480, H = 270;
const clip = join(tmpdir(), "obscura-small-faces.mp4");
await makePanZoomVideo({ outPath: clip, width: W, height: H, fps: 15, seconds: 3 });
const input = await decodeFrames(clip);
const output = join(tmpdir(), "obscura-small-faces-out.mp4");
const models = sharedModels();
const meter = new FaceMeter();
const salts = (process.argv[2] ?? "1").split(",").map(Number);
const allS: number[] = [], allD: number[] = [];
for (const salt of salts) {
  const t0 = performance.now();
  await processVideo(clip, output, { processor: faceAnonymizationVideo({ video_url: clip, is_watermark: false }, models, { salt }) });
  const secs = (performance.now() - t0) / 1000;
  const out = await decodeFrames(output);
  const s: number[] = [], d: number[] = [];
  const rows: string[] = [];
  for (let i = 0; i < input.length; i += 5) {
    const originals = await meter.faces(input[i], 0.5);
    const r = await meter.compare(out[i], originals);
    r.forEach((x, j) => { s.push(x.score); d.push(x.distance); rows.push(`f${i}x${Math.round(originals[j].box.x + originals[j].box.width / 2)}@${Math.round(originals[j].box.width)}px ${x.score.toFixed(2)}/${x.distance.toFixed(2)}`); });
  }
  allS.push(...s); allD.push(...d);
  const f = (xs: number[], t: number) => `${xs.filter((x) => x >= t).length}/${xs.length}`;
  console.log(`salt ${salt} (${secs.toFixed(0)} s): score>=0.5 ${f(s, 0.5)} min ${Math.min(...s).toFixed(2)}; dist>=0.6 ${f(d, 0.6)} min ${Math.min(...d).toFixed(2)}`);
  if (process.env.VERBOSE) console.log(rows.join("  "));
}
const f = (xs: number[], t: number) => `${xs.filter((x) => x >= t).length}/${xs.length}`;
console.log(`ALL: score>=0.5 ${f(allS, 0.5)} min ${Math.min(...allS).toFixed(2)}; dist>=0.6 ${f(allD, 0.6)} min ${Math.min(...allD).toFixed(2)}`);
