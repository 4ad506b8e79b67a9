// Finding named objects (blur-anything's and object-removal's COCO classes) by size: the COCO
// detector on the whole frame against the finder (compute/pipelines/objects.ts: the whole frame and
// tiles), on test/fixtures/object-eval-set.ts (four real objects pasted at 32-400 px wide, never
// enlarged past 1.25x, some greyscale, some partly out of the frame). An object counts as found when the boxes, grown as
// blur-anything grows them, cover 90 % of it; a false box is one on none of it.
// Run: npx node bench/objects.ts [--seeds 1-4] [--size WxH] (about 2 minutes a seed); --size draws
// every scene on that frame size (e.g. 3840x2160) instead of 1280x720 or 1920x1080.
// --video: video blur-anything instead, on each scene (48-160 px) filmed by a panning camera for
// 32 frames (objectPan): frames in which the object is hidden, clips hidden in every frame, frames
// with a false box, CPU ms a frame. About 8 minutes a seed.
import { parseArgs } from "node:util";
import { cpus, loadavg } from "node:os";
import { createModels } from "../compute/models/index.ts";
import { findObjects } from "../compute/pipelines/objects.ts";
import type { Detection } from "../compute/types.ts";
import { blurAnythingVideo } from "../compute/pipelines/video/blur-anything.ts";
import type { FrameCoverage } from "../compute/video/tracker.ts";
import { featureById, type FeatureParams } from "../schema/features.ts";
import { EVAL_OBJECTS, OBJECT_WIDTHS, falseBoxes, hidden, objectCases, objectPan, objectScene } from "../test/fixtures/object-eval-set.ts";
import { frameSizeFlag } from "./lib/frame-size.ts";
import { Tallies, seedRange } from "./lib/tally.ts";

const { values } = parseArgs({ options: { seeds: { type: "string", default: "1-4" }, video: { type: "boolean", default: false }, size: { type: "string" } } });
const size = frameSizeFlag(values.size);
const [first, last] = seedRange(values.seeds!);
const models = createModels();
await models.objects.load();
if (values.video) {
  await videoTable();
  process.exit(0);
}

const ways = ["whole frame", "finder"] as const;
const tallies = new Tallies();
const falses = { "whole frame": 0, finder: 0 };
const cpu = { "whole frame": 0, finder: 0 };
let scenes = 0;

for (let seed = first!; seed <= last!; seed++) {
  for (const { object, width } of objectCases()) {
    const scene = await objectScene(seed, object, width, size);
    scenes++;
    for (const way of ways) {
      const c0 = process.cpuUsage();
      const found: Detection[] = way === "finder" ? await findObjects(scene.frame, models, object.classes) : await models.objects.detect(scene.frame, object.classes);
      const c = process.cpuUsage(c0);
      cpu[way] += (c.user + c.system) / 1000;
      const hit = hidden(scene.truth, found);
      falses[way] += falseBoxes(scene.truth, found).length;
      for (const key of [`${width} px`, object.name, scene.grey ? "greyscale" : "colour", scene.cut ? "partly out of the frame" : "whole in the frame", "all"]) tallies.add(`${way} ${key}`, hit);
    }
  }
}

console.log(`objects found (90 % of the object under the boxes), seeds ${first}-${last}, ${scenes} scenes; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
console.log(`| | ${OBJECT_WIDTHS.map((w) => `${w} px`).join(" | ")} | ${EVAL_OBJECTS.map((o) => o.name).join(" | ")} | colour | greyscale | partly out | all | false boxes | CPU ms a scene |`);
console.log(`|---|${OBJECT_WIDTHS.map(() => "---").join("|")}|${EVAL_OBJECTS.map(() => "---").join("|")}|---|---|---|---|---|---|`);
for (const way of ways) {
  const k = (key: string) => tallies.cell(`${way} ${key}`);
  console.log(`| ${way} | ${OBJECT_WIDTHS.map((w) => k(`${w} px`)).join(" | ")} | ${EVAL_OBJECTS.map((o) => k(o.name)).join(" | ")} | ${k("colour")} | ${k("greyscale")} | ${k("partly out of the frame")} | ${k("all")} | ${falses[way]} | ${Math.round(cpu[way] / scenes)} |`);
}

/** Video blur-anything on panning clips of the scenes: the --video table. */
async function videoTable(): Promise<void> {
  const FRAMES = 32, WIDTHS = [48, 64, 96, 160];
  const rows = new Map<string, { frames: number; hidden: number; clips: number; whole: number; falses: number }>();
  let cpuMs = 0, frames = 0;
  const add = (key: string, hiddenFrames: number, falseFrames: number) => {
    const r = rows.get(key) ?? { frames: 0, hidden: 0, clips: 0, whole: 0, falses: 0 };
    r.frames += FRAMES;
    r.hidden += hiddenFrames;
    r.clips++;
    r.whole += +(hiddenFrames === FRAMES);
    r.falses += falseFrames;
    rows.set(key, r);
  };
  for (let seed = first!; seed <= last!; seed++) {
    for (const { object, width } of objectCases().filter((c) => WIDTHS.includes(c.width))) {
      const scene = await objectScene(seed, object, width);
      const clip = await objectPan(scene, FRAMES);
      // The cat is asked for as a pet (cat or dog), as in the still table.
      const prompt = object.name === "cat" ? "pets" : object.name;
      const params = featureById("video.blur-anything")!.params.parse({ video_url: "https://example.com/a.mp4", duration_seconds: 2, prompt }) as FeatureParams<"video.blur-anything">;
      const coverages: FrameCoverage[] = [];
      const processor = blurAnythingVideo(params, models, { onCoverage: (c) => coverages.push(c) });
      const c0 = process.cpuUsage();
      for (let i = 0; i < FRAMES; i += 8) await processor.processChunk(clip.frames.slice(i, i + 8), i);
      await processor.flush?.();
      const c = process.cpuUsage(c0);
      cpuMs += (c.user + c.system) / 1000;
      frames += FRAMES;
      const hiddenFrames = coverages.filter((cov, i) => hidden(clip.truths[i]!, cov.boxes)).length;
      const falseFrames = coverages.filter((cov, i) => falseBoxes(clip.truths[i]!, cov.boxes).length > 0).length;
      for (const key of [`${width} px`, object.name, scene.grey ? "greyscale" : "colour", ...(scene.cut ? ["partly out"] : []), "all"]) add(key, hiddenFrames, falseFrames);
    }
  }
  console.log(`video blur-anything on panning clips (${FRAMES} frames, the object 1.2x its bucket's width), seeds ${first}-${last}; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  console.log("| | frames hidden | clips hidden in every frame | frames with a false box |");
  console.log("|---|---|---|---|");
  for (const key of [...WIDTHS.map((w) => `${w} px`), ...EVAL_OBJECTS.map((o) => o.name), "colour", "greyscale", "partly out", "all"]) {
    const r = rows.get(key);
    if (r) console.log(`| ${key} | ${r.hidden}/${r.frames} | ${r.whole}/${r.clips} | ${r.falses} |`);
  }
  console.log(`CPU ms a frame: ${Math.round(cpuMs / frames)}`);
}
