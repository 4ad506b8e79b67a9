// Finding named objects (blur-anything's and object-removal's COCO classes) by size: the COCO
// detector on the whole frame against the finder (compute/pipelines/objects.ts: the whole frame and
// tiles), on test/fixtures/object-eval-set.ts (four real objects pasted at 32-400 px wide, never
// enlarged past 1.25x, some greyscale, some partly out of the frame). An object counts as found when the boxes, grown as
// blur-anything grows them, cover 90 % of it; a false box is one on none of it.
// Run: npx node bench/objects.ts [--seeds 1-4] (about 2 minutes a seed)
import { parseArgs } from "node:util";
import { cpus, loadavg } from "node:os";
import { createModels } from "../compute/models/index.ts";
import { findObjects } from "../compute/pipelines/objects.ts";
import type { Detection } from "../compute/types.ts";
import { EVAL_OBJECTS, OBJECT_WIDTHS, falseBoxes, hidden, objectCases, objectScene } from "../test/fixtures/object-eval-set.ts";

const { values } = parseArgs({ options: { seeds: { type: "string", default: "1-4" } } });
const [first, last] = values.seeds!.split("-").map(Number);
const models = createModels();
await models.objects.load();

type Tally = { found: number; total: number };
const ways = ["whole frame", "finder"] as const;
const byWidth = new Map<string, Tally>();
const byKind = new Map<string, Tally>();
const falses = { "whole frame": 0, finder: 0 };
const cpu = { "whole frame": 0, finder: 0 };
let scenes = 0;
const count = (m: Map<string, Tally>, key: string, hit: boolean) => {
  const t = m.get(key) ?? { found: 0, total: 0 };
  t.found += +hit;
  t.total++;
  m.set(key, t);
};

for (let seed = first!; seed <= last!; seed++) {
  for (const { object, width } of objectCases()) {
    const scene = await objectScene(seed, object, width);
    scenes++;
    for (const way of ways) {
      const c0 = process.cpuUsage();
      const found: Detection[] = way === "finder" ? await findObjects(scene.frame, models, object.classes) : await models.objects.detect(scene.frame, object.classes);
      const c = process.cpuUsage(c0);
      cpu[way] += (c.user + c.system) / 1000;
      const hit = hidden(scene.truth, found);
      falses[way] += falseBoxes(scene.truth, found).length;
      count(byWidth, `${way} ${width}`, hit);
      count(byKind, `${way} ${object.name}`, hit);
      count(byKind, `${way} ${scene.grey ? "greyscale" : "colour"}`, hit);
      count(byKind, `${way} ${scene.cut ? "partly out of the frame" : "whole in the frame"}`, hit);
      count(byKind, `${way} all`, hit);
    }
  }
}

const cell = (t?: Tally) => (t ? `${t.found}/${t.total}` : "-");
console.log(`objects found (90 % of the object under the boxes), seeds ${first}-${last}, ${scenes} scenes; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
console.log(`| | ${OBJECT_WIDTHS.map((w) => `${w} px`).join(" | ")} | ${EVAL_OBJECTS.map((o) => o.name).join(" | ")} | colour | greyscale | partly out | all | false boxes | CPU ms a scene |`);
console.log(`|---|${OBJECT_WIDTHS.map(() => "---").join("|")}|${EVAL_OBJECTS.map(() => "---").join("|")}|---|---|---|---|---|---|`);
for (const way of ways) {
  const k = (key: string) => cell(byKind.get(`${way} ${key}`));
  console.log(`| ${way} | ${OBJECT_WIDTHS.map((w) => cell(byWidth.get(`${way} ${w}`))).join(" | ")} | ${EVAL_OBJECTS.map((o) => k(o.name)).join(" | ")} | ${k("colour")} | ${k("greyscale")} | ${k("partly out of the frame")} | ${k("all")} | ${falses[way]} | ${Math.round(cpu[way] / scenes)} |`);
}
