// Finding people (blur-anything's and object-removal's "person") by height: the COCO detector on
// the whole frame against the finder (compute/pipelines/objects.ts: findPeople, the whole frame
// and tiles), on test/fixtures/person-eval-set.ts (14 real people cut from the group photos, four a
// scene at 48-300 px tall, some greyscale, some partly out of the frame). A person counts as found
// when the boxes, grown as blur-anything grows them, cover 90 % of them; a false box is one on
// nobody.
// Run: npx node bench/people.ts [--seeds 1-4] [--size WxH] (6 scenes, 24 people a seed); --size
// draws every scene on that frame size (e.g. 3840x2160) instead of 1280x720 or 1920x1080.
import { parseArgs } from "node:util";
import { cpus, loadavg } from "node:os";
import { createModels } from "../compute/models/index.ts";
import { findPeople } from "../compute/pipelines/objects.ts";
import type { Detection } from "../compute/types.ts";
import { hidden } from "../test/fixtures/object-eval-set.ts";
import { PERSON_HEIGHTS, boxesOnNobody, personScene, shareOffPeople } from "../test/fixtures/person-eval-set.ts";
import { frameSizeFlag } from "./lib/frame-size.ts";

const { values } = parseArgs({ options: { seeds: { type: "string", default: "1-4" }, size: { type: "string" } } });
const size = frameSizeFlag(values.size);
const [first, last] = values.seeds!.split("-").map(Number);
const models = createModels();
await models.objects.load();
await models.persons.load();

type Tally = { found: number; total: number };
const ways = ["whole frame", "finder"] as const;
const tallies = new Map<string, Tally>();
const falses = { "whole frame": 0, finder: 0 };
const cpu = { "whole frame": 0, finder: 0 };
const offArea = { "whole frame": 0, finder: 0 };
let scenes = 0;
const count = (key: string, hit: boolean) => {
  const t = tallies.get(key) ?? { found: 0, total: 0 };
  t.found += +hit;
  t.total++;
  tallies.set(key, t);
};

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
        for (const key of [`${person.height} px`, person.grey ? "greyscale" : "colour", person.cut ? "partly out" : "whole", "all"]) count(`${way} ${key}`, hit);
      }
    }
  }
}

const cell = (t?: Tally) => (t ? `${t.found}/${t.total}` : "-");
const kinds = ["colour", "greyscale", "partly out", "all"];
console.log(`people found (90 % of the person under the boxes), seeds ${first}-${last}, ${scenes} scenes${size ? ` at ${size.width}x${size.height}` : ""}; load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
console.log(`| | ${PERSON_HEIGHTS.map((h) => `${h} px`).join(" | ")} | ${kinds.join(" | ")} | false boxes | frame hidden off people | CPU ms a scene |`);
console.log(`|---|${PERSON_HEIGHTS.map(() => "---").join("|")}|${kinds.map(() => "---").join("|")}|---|---|---|`);
for (const way of ways) {
  const k = (key: string) => cell(tallies.get(`${way} ${key}`));
  console.log(`| ${way} | ${PERSON_HEIGHTS.map((h) => k(`${h} px`)).join(" | ")} | ${kinds.map(k).join(" | ")} | ${falses[way]} | ${((100 * offArea[way]) / scenes).toFixed(2)} % | ${Math.round(cpu[way] / scenes)} |`);
}
