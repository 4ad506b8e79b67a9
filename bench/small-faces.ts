// Face anonymization on small faces (40-60 px), the measurement test/e2e/videos.test.ts makes
// through the Worker, without the Worker: the 480x270 3 s pan/zoom over face-api's sample1 goes
// through the pipeline's own processor (faceAnonymizationVideo, as compute runs it), and every 5th
// frame is measured with face-api (SSD score at each input face's position, descriptor distance).
// Run: npx node bench/small-faces.ts [salts, comma-separated; default 1] (VERBOSE=1: per face).
// A fixed salt makes a run reproducible (jobs draw a random one).
// --crowd: the same measurement on a crowd instead, a 1280x720 25 fps 4 s pan/zoom over
// group-collage-small-faces.jpg (22 faces), every 10th frame measured; it also prints what the
// calibration budget (CalibrationBudget) had left, so its cost is visible.
// Each measured face is also counted as drawn or blurred (the processor's onFaces; a track whose
// replacement the calibration's verdict does not call another person is blurred): "still a face"
// is over the drawn faces, and "hidden" (blurred, or drawn and >= 0.6 from the original) over
// all. The sharpness ratio (output/input, inside the face) of each kind is printed too: the e2e
// test tells blurred faces from drawn ones by it.
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
import { ANOTHER_PERSON, FaceMeter, STILL_A_FACE } from "../compute/anonymize/evaluate.ts";
import { iou } from "../compute/models/geometry.ts";
import type { Box } from "../compute/types.ts";
import { sharpness } from "../test/compute/photos.ts";
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
let allBlurred = 0, allDrawn = 0, allUntouched = 0, allHidden = 0, allMeasured = 0;
/** The centre of a box (the face without its box's background corners), as the e2e test measures it. */
const core = (b: Box, f = 0.15): Box => ({ x: b.x + b.width * f, y: b.y + b.height * f, width: b.width * (1 - 2 * f), height: b.height * (1 - 2 * f) });
/** "passing/all" for scores at or above t. */
const f = (xs: number[], t: number) => `${xs.filter((x) => x >= t).length}/${xs.length}`;
for (const salt of salts) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const budget = new CalibrationBudget();
  const plans = new Map<number, { drawn: Box[]; blurred: Box[] }>();
  const onFaces = (index: number, faces: { drawn: Box[]; blurred: Box[] }) => void plans.set(index, faces);
  await processVideo(clip, output, { processor: faceAnonymizationVideo({ video_url: clip, is_watermark: false }, models, { salt, budget, onFaces }) });
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cost = `${secs.toFixed(0)} s, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s CPU, calibration budget left ${budget.left} of ${budget.capacity}`;
  const out = await decodeFrames(output);
  const s: number[] = [], d: number[] = [];
  const rows: string[] = [];
  let blurred = 0, untouched = 0, hidden = 0;
  const sharpDrawn: number[] = [], sharpBlurred: number[] = [];
  const sheet = salt === salts.at(-1) ? flags.sheet : undefined;
  const tiles: Buffer[] = [];
  for (let i = 0; i < input.length; i += clipShape.every) {
    const originals = await meter.faces(input[i], 0.5);
    const r = await meter.compare(out[i], originals);
    if (sheet) tiles.push(...(await faceTiles(input[i], out[i], originals)));
    const plan = plans.get(i) ?? { drawn: [], blurred: [] };
    r.forEach((x, j) => {
      const box = originals[j].box;
      // What the processor did with the face here: the box (drawn or blurred) it overlaps most.
      const near = (boxes: Box[]) => Math.max(0, ...boxes.map((b) => iou(b, box)));
      const kind = Math.max(near(plan.drawn), near(plan.blurred)) < 0.3 ? "untouched" : near(plan.blurred) > near(plan.drawn) ? "blurred" : "drawn";
      const ratio = sharpness(out[i], core(box)) / sharpness(input[i], core(box));
      if (kind === "drawn") {
        s.push(x.score); d.push(x.distance); sharpDrawn.push(ratio);
        if (x.distance >= ANOTHER_PERSON) hidden++;
      } else if (kind === "blurred") {
        blurred++; hidden++; sharpBlurred.push(ratio);
      } else untouched++;
      rows.push(`f${i}x${Math.round(box.x + box.width / 2)}@${Math.round(box.width)}px ${kind} ${x.score.toFixed(2)}/${x.distance.toFixed(2)} sharp ${ratio.toFixed(2)}`);
    });
  }
  allS.push(...s); allD.push(...d);
  const measured = s.length + blurred + untouched;
  allBlurred += blurred; allDrawn += s.length; allUntouched += untouched; allHidden += hidden; allMeasured += measured;
  const range = (xs: number[]) => (xs.length ? `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}` : "-");
  console.log(
    `salt ${salt} (${cost}): ${measured} faces: drawn ${s.length}, blurred ${blurred}, untouched ${untouched}; ` +
      `another person or blurred ${hidden}/${measured}; drawn: score>=0.5 ${f(s, STILL_A_FACE)} min ${Math.min(...s).toFixed(2)}, dist>=0.6 ${f(d, ANOTHER_PERSON)} min ${Math.min(...d).toFixed(2)}; ` +
      `sharpness out/in drawn ${range(sharpDrawn)}, blurred ${range(sharpBlurred)}`,
  );
  if (process.env.VERBOSE) console.log(rows.join("  "));
  if (sheet) await writeSheet(tiles, sheet);
}
console.log(
  `ALL: ${allMeasured} faces: drawn ${allDrawn}, blurred ${allBlurred}, untouched ${allUntouched}; another person or blurred ${allHidden}/${allMeasured}; ` +
    `drawn: score>=0.5 ${f(allS, STILL_A_FACE)} min ${Math.min(...allS).toFixed(2)}, dist>=0.6 ${f(allD, ANOTHER_PERSON)} min ${Math.min(...allD).toFixed(2)}`,
);
