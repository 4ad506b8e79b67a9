// Licence-plate recall and precision on the generated plate set (test/fixtures/plate-eval-set.ts:
// drawn plates of four styles, 48 px wide to close-ups, on real photos and the real motorcycle,
// among road signs, shop fronts, posters, captions, street-name plates and house numbers).
// Run: npx node bench/plate-precision.ts [--seeds 1-24] [--held-out 201-240] [--jpeg Q] [--size WxH] [--list]
// Prints, per seed range, plates covered by style and width, distractors blurred by kind, boxes on
// no plate, and the share of the blurred area that is on no plate; --jpeg Q first round-trips every
// scene through JPEG at quality Q (camera and upload compression); --size renders the scenes at
// another frame size (default 1280x720) with plates and signs at the same pixel widths, as a 1080p
// or 4K street picture shows them; --list names every miss and false box.
import { parseArgs } from "node:util";
import sharp from "sharp";
import { sharedModels } from "../compute/models/index.ts";
import { findPlates } from "../compute/pipelines/plates.ts";
import type { Box } from "../compute/types.ts";
import { DISTRACTOR_KINDS, plateScenes } from "../test/fixtures/plate-eval-set.ts";
import { scorePlates, type PlateReport, type Tally } from "../test/fixtures/plate-score.ts";
import { frameSizeFlag } from "./lib/frame-size.ts";

const { values: flags } = parseArgs({ options: { seeds: { type: "string", default: "1-24" }, "held-out": { type: "string", default: "201-240" }, jpeg: { type: "string" }, size: { type: "string", default: "1280x720" }, list: { type: "boolean", default: false } } });
const size = frameSizeFlag(flags.size)!;
const models = sharedModels();
await Promise.all([models.objects.load(), models.text.load()]);

async function measure(range: string): Promise<{ rep: PlateReport; ms: number; cpu: number }> {
  const [first, last] = range.split("-").map(Number);
  const scenes = await plateScenes(first!, last! - first! + 1, size);
  if (flags.jpeg) for (const s of scenes) {
    const raw = { width: s.frame.width, height: s.frame.height, channels: 3 as const };
    s.frame = { ...s.frame, data: await sharp(await sharp(s.frame.data, { raw }).jpeg({ quality: Number(flags.jpeg) }).toBuffer()).raw().toBuffer() };
  }
  const found: Box[][] = [];
  const t0 = performance.now(), c0 = process.cpuUsage();
  for (const s of scenes) found.push(await findPlates(s.frame, models));
  const c = process.cpuUsage(c0);
  return { rep: scorePlates(scenes, found), ms: (performance.now() - t0) / scenes.length, cpu: (c.user + c.system) / 1000 / scenes.length };
}

const cell = (t?: Tally) => (t ? `${t.hit}/${t.total}` : "-");
const ranges = [flags.seeds!, ...(flags["held-out"] ? [flags["held-out"]] : [])];
const reps: Array<{ range: string; rep: PlateReport; ms: number; cpu: number }> = [];
for (const r of ranges) reps.push({ range: r, ...(await measure(r)) });

const rows: string[][] = [];
const row = (name: string, f: (r: PlateReport) => string) => rows.push([name, ...reps.map((r) => f(r.rep))]);
const keys = (f: (r: PlateReport) => Map<string, Tally>) => [...new Set(reps.flatMap((r) => [...f(r.rep).keys()]))];
row("**plates covered**", (r) => `**${r.covered}/${r.plates} (${(r.covered / r.plates).toFixed(3)})**`);
for (const k of keys((r) => r.byStyle)) row(`  style ${k}`, (r) => cell(r.byStyle.get(k)));
const sizes = keys((r) => r.bySize).sort((a, b) => (parseInt(a) || 1e9) - (parseInt(b) || 1e9));
for (const k of sizes) row(`  width ${k}`, (r) => cell(r.bySize.get(k)));
row("**distractors blurred**", (r) => { const t = [...r.byKind.values()].reduce((a, b) => ({ hit: a.hit + b.hit, total: a.total + b.total }), { hit: 0, total: 0 }); return `**${t.hit}/${t.total}**`; });
for (const k of DISTRACTOR_KINDS) row(`  ${k}`, (r) => cell(r.byKind.get(k)));
row("boxes on no plate", (r) => `${r.falseBoxes}/${r.boxes}`);
row("box precision", (r) => (1 - r.falseBoxes / Math.max(1, r.boxes)).toFixed(3));
row("blurred area on plates", (r) => (1 - r.offPlatePx / Math.max(1, r.blurredPx)).toFixed(3));
row("off-plate blur, % of frame", (r) => ((100 * r.offPlatePx) / r.framePx).toFixed(2));
rows.push([`ms per ${flags.size} scene, wall (CPU)`, ...reps.map((r) => `${r.ms.toFixed(0)} (${r.cpu.toFixed(0)})`)]);

console.log(`| | ${reps.map((r, i) => `seeds ${r.range}${i ? " (held out)" : ""}`).join(" | ")} |`);
console.log(`|---|${reps.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (flags.list) for (const { range, rep } of reps) {
  for (const m of rep.missed) console.log(`${range} missed ${m.scene} ${m.plate.style} ${m.plate.width}px "${m.plate.text}" cover ${m.cover.toFixed(2)} at ${Math.round(m.plate.box.x)},${Math.round(m.plate.box.y)}`);
  for (const f of rep.falses) console.log(`${range} false ${f.scene} ${[f.box.x, f.box.y, f.box.width, f.box.height].map(Math.round).join(",")}`);
}
