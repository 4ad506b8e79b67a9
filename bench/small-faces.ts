// Face anonymization on small faces (40-60 px), the measurement test/e2e/videos.test.ts makes
// through the Worker, without the Worker: the 480x270 3 s pan/zoom over face-api's sample1 goes
// through the pipeline's own processor (faceAnonymizationVideo, as compute runs it), and every 5th
// frame is measured with face-api (SSD score at each input face's position, descriptor distance).
// Run: npx node bench/small-faces.ts [salts, comma-separated; default 1] (VERBOSE=1: per face).
// A fixed salt makes a run reproducible (jobs draw a random one).
// --crowd: the same measurement on a crowd instead, a 1280x720 25 fps 4 s pan/zoom over
// group-collage-small-faces.jpg (22 faces), every 10th frame measured; it also prints what the
// calibration budget (CalibrationBudget) had left, so its cost is visible.
// --sheet out.png: a contact sheet of every measured face, input | output, for the last salt (to
// look at, not to measure: the figures say nothing of how natural the faces look).
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { decodeFrames } from "../test/fixtures/frames.ts";
import { makePanZoomVideo } from "../test/fixtures/make-video.ts";
import { processVideo } from "../compute/video/stream.ts";
import { faceAnonymizationVideo } from "../compute/pipelines/video/face-anonymization.ts";
import { sharedModels } from "../compute/models/index.ts";
import { CalibrationBudget } from "../compute/anonymize/calibrate.ts";
import { FaceMeter } from "../compute/anonymize/evaluate.ts";
import { faceTiles, writeSheet } from "./anonymization.ts";
const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { crowd: { type: "boolean", default: false }, sheet: { type: "string" } } });
const clipShape = flags.crowd
  ? { name: "crowd", width: 1280, height: 720, fps: 25, seconds: 4, every: 10, photo: join(import.meta.dirname, "../test/fixtures/photos/group-collage-small-faces.jpg") }
  : { name: "small-faces", width: 480, height: 270, fps: 15, seconds: 3, every: 5, photo: undefined };
const clip = join(tmpdir(), `obscura-${clipShape.name}.mp4`);
const { width, height, fps, seconds, photo } = clipShape;
await makePanZoomVideo({ outPath: clip, width, height, fps, seconds, photo });
const input = await decodeFrames(clip);
const output = join(tmpdir(), `obscura-${clipShape.name}-out.mp4`);
const models = sharedModels();
const meter = new FaceMeter();
const salts = (positionals[0] ?? "1").split(",").map(Number);
const allS: number[] = [], allD: number[] = [];
/** "passing/all" for scores at or above t. */
const f = (xs: number[], t: number) => `${xs.filter((x) => x >= t).length}/${xs.length}`;
for (const salt of salts) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const budget = new CalibrationBudget();
  await processVideo(clip, output, { processor: faceAnonymizationVideo({ video_url: clip, is_watermark: false }, models, { salt, budget }) });
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cost = `${secs.toFixed(0)} s, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU, calibration budget left ${budget.left} of ${budget.capacity}`;
  const out = await decodeFrames(output);
  const s: number[] = [], d: number[] = [];
  const rows: string[] = [];
  const sheet = salt === salts.at(-1) ? flags.sheet : undefined;
  const tiles: Buffer[] = [];
  for (let i = 0; i < input.length; i += clipShape.every) {
    const originals = await meter.faces(input[i], 0.5);
    const r = await meter.compare(out[i], originals);
    if (sheet) tiles.push(...(await faceTiles(input[i], out[i], originals)));
    r.forEach((x, j) => { s.push(x.score); d.push(x.distance); rows.push(`f${i}x${Math.round(originals[j].box.x + originals[j].box.width / 2)}@${Math.round(originals[j].box.width)}px ${x.score.toFixed(2)}/${x.distance.toFixed(2)}`); });
  }
  allS.push(...s); allD.push(...d);
  console.log(`salt ${salt} (${cost}): score>=0.5 ${f(s, 0.5)} min ${Math.min(...s).toFixed(2)}; dist>=0.6 ${f(d, 0.6)} min ${Math.min(...d).toFixed(2)}`);
  if (process.env.VERBOSE) console.log(rows.join("  "));
  if (sheet) await writeSheet(tiles, sheet);
}
console.log(`ALL: score>=0.5 ${f(allS, 0.5)} min ${Math.min(...allS).toFixed(2)}; dist>=0.6 ${f(allD, 0.6)} min ${Math.min(...allD).toFixed(2)}`);
