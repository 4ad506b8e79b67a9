// Face detection recall by face size and variant, precision, and speed, from one command:
//   npx node bench/face-recall.ts [--seeds 1,2] [--scenes 12] [--sheet out.png]
// Scenes: test/fixtures/face-scenes.ts (real faces pasted at 14-64 px onto real backgrounds),
// plus the fixture photos and collages with their hand-counted faces. Speed: CPU and wall ms per
// 1280x720 scene, beside sharp's decode + encode of the same frame as a JPEG (the image floor).
import { parseArgs } from "node:util";
import sharp, { type OverlayOptions, type Sharp } from "sharp";
import { createModels } from "../compute/models/index.ts";
import type { Detection } from "../compute/types.ts";
import { FACE_SIZES, makeFaceScenes, photoScenes, scoreScene, type FaceScene, type SceneScore, type Variant } from "../test/fixtures/face-scenes.ts";

const { values } = parseArgs({
  options: { seeds: { type: "string", default: "1,2" }, scenes: { type: "string", default: "12" }, sheet: { type: "string" }, help: { type: "boolean" } },
});
if (values.help) {
  console.log("npx node bench/face-recall.ts [--seeds 1,2] [--scenes 12] [--sheet out.png]");
  process.exit(0);
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const models = createModels();
await models.faces.load();

const seeds = values.seeds.split(",").map(Number);
const scenes: FaceScene[] = [];
for (const seed of seeds) scenes.push(...(await makeFaceScenes({ seed, count: Number(values.scenes) })));
const photos = await photoScenes(["group1.jpg", "group2.jpg", "group3.jpg", "group4.jpg", "group5.jpg", "group6.jpg", "astronaut.png", "camera.png", "coffee.png", "chelsea.png", "motorcycle_left.png", "group-collage-small-faces.jpg", "group-collage-tiny-faces.jpg"]);

const results: Array<{ scene: FaceScene; score: SceneScore; detections: Detection[]; wallMs: number; cpuMs: number }> = [];
for (const scene of [...scenes, ...photos]) {
  const t0 = performance.now();
  const c0 = cpuMs();
  const detections = await models.faces.detect(scene.frame);
  results.push({ scene, score: scoreScene(scene, detections), detections, wallMs: performance.now() - t0, cpuMs: cpuMs() - c0 });
}

const generated = results.filter((r) => scenes.includes(r.scene));
const pct = (a: number, b: number) => (b ? `${a}/${b} (${((100 * a) / b).toFixed(1)} %)` : "-");
console.log(`\nGenerated scenes: ${scenes.length} of 1280x720 (seeds ${seeds.join(",")}), ${generated.reduce((s, r) => s + r.scene.faces.length, 0)} faces`);
console.log("| face width | recall |\n|---|---|");
for (const size of FACE_SIZES) {
  const all = generated.flatMap((r) => r.scene.faces.filter((f) => f.size === size));
  const found = generated.flatMap((r) => r.score.found.filter((f) => f.size === size));
  console.log(`| ${size} px | ${pct(found.length, all.length)} |`);
}
console.log("\n| variant | recall (all sizes) | recall (20 px and up) |\n|---|---|---|");
for (const v of ["mirrored", "turned", "grey", "dim", "soft"] as Variant[]) {
  const all = generated.flatMap((r) => r.scene.faces.filter((f) => f.variants.includes(v)));
  const found = generated.flatMap((r) => r.score.found.filter((f) => f.variants.includes(v)));
  console.log(`| ${v} | ${pct(found.length, all.length)} | ${pct(found.filter((f) => f.size >= 20).length, all.filter((f) => f.size >= 20).length)} |`);
}
const boxes = generated.reduce((s, r) => s + r.detections.length, 0);
const falseBoxes = generated.reduce((s, r) => s + r.score.falseBoxes.length, 0);
console.log(`\nPrecision (generated scenes): ${pct(boxes - falseBoxes, boxes)} of boxes stand for a face; ${falseBoxes} false boxes in ${scenes.length} scenes`);

console.log("\n| photo | faces found | false boxes | ms (CPU ms) |\n|---|---|---|---|");
for (const r of results.filter((x) => photos.includes(x.scene))) {
  console.log(`| ${r.scene.name} (${r.scene.frame.width}x${r.scene.frame.height}) | ${r.score.found.length}/${r.scene.faces.length} | ${r.score.falseBoxes.length} | ${r.wallMs.toFixed(0)} (${r.cpuMs.toFixed(0)}) |`);
}

// Speed on the 1280x720 scenes, beside the image floor (sharp decode + JPEG encode of the frame).
const jpeg = await sharp(scenes[0]!.frame.data, { raw: { width: 1280, height: 720, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
const f0 = performance.now();
const fc = cpuMs();
for (let i = 0; i < 10; i++) await sharp(jpeg).jpeg({ quality: 90 }).toBuffer();
const floorWall = (performance.now() - f0) / 10;
const floorCpu = (cpuMs() - fc) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const wall = median(generated.map((r) => r.wallMs));
const cpu = median(generated.map((r) => r.cpuMs));
console.log(`\nSpeed, 1280x720 (median of ${generated.length}): detection ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU; image floor (sharp decode+encode) ${floorWall.toFixed(1)} ms wall, ${floorCpu.toFixed(1)} ms CPU: detection = ${(wall / floorWall).toFixed(1)}x the floor's wall time`);

if (values.sheet) {
  // Every missed face and false box of the generated scenes, 96 px tiles: misses framed red, false boxes blue.
  const tiles: OverlayOptions[] = [];
  const items = generated.flatMap((r) => [...r.score.missed.map((b) => ({ r, b, colour: "red" })), ...r.score.falseBoxes.map((b) => ({ r, b, colour: "blue" }))]).slice(0, 160);
  for (const [i, { r, b, colour }] of items.entries()) {
    const side = Math.max(b.width, b.height) * 2.5;
    const left = Math.max(0, Math.round(b.x + b.width / 2 - side / 2));
    const top = Math.max(0, Math.round(b.y + b.height / 2 - side / 2));
    const w = Math.min(r.scene.frame.width - left, Math.round(side));
    const h = Math.min(r.scene.frame.height - top, Math.round(side));
    const crop = await sharp(r.scene.frame.data, { raw: { width: r.scene.frame.width, height: r.scene.frame.height, channels: 3 } })
      .extract({ left, top, width: w, height: h })
      .resize(92, 92, { fit: "contain", background: "#000" })
      .extend({ top: 2, bottom: 2, left: 2, right: 2, background: colour })
      .png()
      .toBuffer();
    tiles.push({ input: crop, left: (i % 16) * 96, top: Math.floor(i / 16) * 96 });
  }
  await sharp({ create: { width: 16 * 96, height: Math.max(96, Math.ceil(items.length / 16) * 96), channels: 3, background: "#222" } }).composite(tiles).png().toFile(values.sheet);
  console.log(`sheet: ${values.sheet} (${items.length} tiles: red = missed face, blue = false box)`);
}
