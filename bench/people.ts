// Finding people (blur-anything's and object-removal's "person") by height: the COCO detector on
// the whole frame against the finder (compute/pipelines/objects.ts: findPeople, the whole frame
// and tiles), on test/fixtures/person-eval-set.ts (14 real people cut from the group photos, four a
// scene at 48-300 px tall, some greyscale, some partly out of the frame). A person counts as found
// when the boxes, grown as blur-anything grows them, cover 90 % of them; a false box is one on
// nobody.
// Run: npx node bench/people.ts [--seeds 1-4] [--size WxH] (6 scenes, 24 people a seed); --size
// draws every scene on that frame size (e.g. 3840x2160) instead of 1280x720 or 1920x1080.
// --video: video blur-anything "people" instead, each scene's people walking across it for 32
// frames (personWalk, 1-6 px a frame): person-frames hidden by height, clips with every person
// hidden in every frame, frames with a box on nobody, CPU ms a frame. About 5 minutes a seed.
import { parseArgs } from "node:util";
import { cpus, loadavg } from "node:os";
import { createModels } from "../compute/models/index.ts";
import { findPeople } from "../compute/pipelines/objects.ts";
import type { Detection } from "../compute/types.ts";
import { blurAnythingVideo } from "../compute/pipelines/video/blur-anything.ts";
import type { FrameCoverage } from "../compute/video/tracker.ts";
import { featureById, type FeatureParams } from "../schema/features.ts";
import { hidden } from "../test/fixtures/object-eval-set.ts";
import { PERSON_HEIGHTS, boxesOnNobody, personScene, personWalk, shareOffPeople } from "../test/fixtures/person-eval-set.ts";
import { frameSizeFlag } from "./lib/frame-size.ts";
import { Tallies, seedRange } from "./lib/tally.ts";

const { values } = parseArgs({ options: { seeds: { type: "string", default: "1-4" }, size: { type: "string" }, video: { type: "boolean", default: false } } });
const size = frameSizeFlag(values.size);
const [first, last] = seedRange(values.seeds!);
const models = createModels();
await models.objects.load();
await models.persons.load();
if (values.video) {
  await videoTable();
  process.exit(0);
}

const ways = ["whole frame", "finder"] as const;
const tallies = new Tallies();
const falses = { "whole frame": 0, finder: 0 };
const cpu = { "whole frame": 0, finder: 0 };
const offArea = { "whole frame": 0, finder: 0 };
let scenes = 0;

for (let seed = first!; seed <= last!; seed++) {
  for (let index = 0; index < PERSON_HEIGHTS.length; index++) {
    const scene = await personScene(models, seed, index, size);
    scenes++;
    for (const way of ways) {
      const c0 = process.cpuUsage();
      const found: Detection[] = way === "finder" ? await findPeople(scene.frame, models) : await models.objects.detect(scene.frame, ["person"]);
      const c = process.cpuUsage(c0);
      cpu[way] += (c.user + c.system) / 1000;
      falses[way] += boxesOnNobody(scene.people, found).length;
      offArea[way] += shareOffPeople(scene, found);
      for (const person of scene.people) {
        const hit = hidden(person.truth, found);
        for (const key of [`${person.height} px`, person.grey ? "greyscale" : "colour", person.cut ? "partly out" : "whole", "all"]) tallies.add(`${way} ${key}`, hit);
      }
    }
  }
}

const kinds = ["colour", "greyscale", "partly out", "all"];
console.log(`people found (90 % of the person under the boxes), seeds ${first}-${last}, ${scenes} scenes${size ? ` at ${size.width}x${size.height}` : ""}; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
console.log(`| | ${PERSON_HEIGHTS.map((h) => `${h} px`).join(" | ")} | ${kinds.join(" | ")} | on nobody | off people | CPU ms a scene |`);
console.log(`|---|${PERSON_HEIGHTS.map(() => "---").join("|")}|${kinds.map(() => "---").join("|")}|---|---|---|`);
for (const way of ways) {
  const k = (key: string) => tallies.cell(`${way} ${key}`);
  console.log(`| ${way} | ${PERSON_HEIGHTS.map((h) => k(`${h} px`)).join(" | ")} | ${kinds.map(k).join(" | ")} | ${falses[way]} | ${((100 * offArea[way]) / scenes).toFixed(2)} % | ${Math.round(cpu[way] / scenes)} |`);
}

/** Video blur-anything "people" on the scenes' people walking: the --video table. */
async function videoTable(): Promise<void> {
  const FRAMES = 32;
  const rows = new Tallies();
  let clips = 0, whole = 0, nobodyFrames = 0, cpuMs = 0, frames = 0;
  const params = featureById("video.blur-anything")!.params.parse({ video_url: "https://example.com/a.mp4", duration_seconds: 2, prompt: "people" }) as FeatureParams<"video.blur-anything">;
  for (let seed = first!; seed <= last!; seed++) {
    for (let index = 0; index < PERSON_HEIGHTS.length; index++) {
      const walk = await personWalk(models, seed, index, FRAMES, size);
      const coverages: FrameCoverage[] = [];
      const processor = blurAnythingVideo(params, models, { onCoverage: (c) => coverages.push(c) });
      const c0 = process.cpuUsage();
      for (let i = 0; i < FRAMES; i += 8) await processor.processChunk(walk.frames.slice(i, i + 8), i);
      await processor.flush?.();
      const c = process.cpuUsage(c0);
      cpuMs += (c.user + c.system) / 1000;
      frames += FRAMES;
      let all = true;
      for (const cov of coverages) {
        const people = walk.people[cov.index]!;
        // Scored: the people at least half in the frame (a sliver at the edge is another measure).
        for (const person of people.filter((p) => p.shown >= 0.5)) {
          const hit = hidden(person.truth, cov.boxes);
          all &&= hit;
          for (const key of [`${person.height} px`, person.grey ? "greyscale" : "colour", ...(person.cut ? ["partly out"] : []), "all"]) rows.add(key, hit);
        }
        nobodyFrames += +(boxesOnNobody(people, cov.boxes).length > 0);
      }
      clips++;
      whole += +all;
    }
  }
  const keys = [...PERSON_HEIGHTS.map((h) => `${h} px`), "colour", "greyscale", "partly out", "all"];
  console.log(`video blur-anything "people" on walking people (${FRAMES} frames, 1-6 px a frame), seeds ${first}-${last}${size ? ` at ${size.width}x${size.height}` : ""}; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
  console.log(`| ${keys.join(" | ")} | clips with every person hidden in every frame | frames with a box on nobody | CPU ms a frame |`);
  console.log(`|${keys.map(() => "---").join("|")}|---|---|---|`);
  console.log(`| ${keys.map((k) => rows.cell(k)).join(" | ")} | ${whole}/${clips} | ${nobodyFrames}/${frames} | ${Math.round(cpuMs / frames)} |`);
}
