// Face-detector recall by face size, precision, and speed, on the generated evaluation set
// (test/fixtures/face-eval-set.ts: real faces pasted at 14-64 px onto face-free real scenes) plus
// the group photos and collages. Run: npx node bench/face-recall.ts [--seeds 1-12] [--no-photos] [--sheet out.png]
// [--jpeg 75] (every scene through a JPEG of that quality first) [--no-faceboxes]
// [--edge-margin 0.02] (the detector seeing the picture mirrored past its edges by that fraction of its long side)
// [--range-tile 96] (the last look's own boxes: the full-range detector on tiles of that many px; 0: none)
// [--size 4032x3024] (every scene at that size, e.g. a phone's 12 MP; default 1280x720 and 1920x1080 alternating)
// [--faces held-out] (paste the held-out pool of 104 other people's faces instead of the fixtures' 24)
// [--turn 50-90] (the third of faces that are turned, turned that many degrees either way; default 0-25; not with --edges)
// [--edges] (faces the frame's edge cuts instead, 35-85 % inside, 14-100 px wide: hidden by the blur
// face-blur paints, by width and by the part inside the frame; no photos)
// [--crowd] (crowds instead: rows of faces side by side, 14 px at the back to 64 px in front; no photos)
// Prints the recall table (found: a box on the face; hidden: 90 % of it under the blur face-blur
// paints), per-variant recall, false boxes, CPU ms per 720p frame and per 12 MP image beside
// sharp's decode+encode of the same image (the floor an image job pays anyway), and PSNR of the
// face-blurred output away from the faces (hide.ts, measured only).
import { parseArgs } from "node:util";
import sharp from "sharp";
import { FaceDetector, sharedModels } from "../compute/models/index.ts";
import { hideBoxes } from "../compute/pipelines/hide.ts";
import type { Box, Frame } from "../compute/types.ts";
import { EDGE_FACE_WIDTHS, FACE_WIDTHS, crowdScenes, edgeScenes, evalScenes, photoScenes, score, scoreHidden, throughJpeg, type EvalScene, type FacePool, type HiddenReport, type RecallReport } from "../test/fixtures/face-eval-set.ts";
import { outside, psnr } from "../test/compute/photos.ts";
import { frameSizeFlag } from "./lib/frame-size.ts";

const { values: flags } = parseArgs({ allowNegative: true, options: { seeds: { type: "string", default: "1-12" }, sheet: { type: "string" }, photos: { type: "boolean", default: true }, jpeg: { type: "string" }, faceboxes: { type: "boolean", default: true }, size: { type: "string" }, faces: { type: "string", default: "fixtures" }, edges: { type: "boolean", default: false }, crowd: { type: "boolean", default: false }, "edge-margin": { type: "string" }, "range-tile": { type: "string" }, turn: { type: "string" } } });
const [first, last] = flags.seeds!.split("-").map(Number);
const turn = flags.turn ? (flags.turn.split("-").map(Number) as [number, number]) : undefined;
if (turn && !(turn.length === 2 && turn[0] >= 0 && turn[1] >= turn[0])) throw new Error(`--turn takes LEAST-MOST degrees, e.g. 50-90, not ${flags.turn}`);
// --no-faceboxes: the same detector without its FaceBoxes pass (what that pass adds, and costs).
const full = sharedModels().faces;
const chosen = full.withOptions({
  ...(flags["edge-margin"] ? { edgeMargin: Number(flags["edge-margin"]) } : {}),
  ...(flags["range-tile"] ? { rangeTile: Number(flags["range-tile"]) } : {}),
});
const detector = flags.faceboxes ? chosen : new FaceDetector({ ssd: full.ssd, blaze: full.blaze, verifier: full.verifier, retina: full.retina }, chosen.options);
await detector.load();

/** CPU ms (user+system, all threads of the process) and wall ms of one call. */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T; cpu: number; wall: number }> {
  const c0 = process.cpuUsage(), t0 = performance.now();
  const value = await f();
  const c = process.cpuUsage(c0);
  return { value, cpu: (c.user + c.system) / 1000, wall: performance.now() - t0 };
}

const size = frameSizeFlag(flags.size);
if (!["fixtures", "held-out"].includes(flags.faces!)) throw new Error(`--faces must be fixtures or held-out, not ${flags.faces}`);
const count = last! - first! + 1;
if (flags.edges && flags.crowd) throw new Error("--edges and --crowd are two sets: pick one");
const withPhotos = flags.photos && !flags.edges && !flags.crowd;
const generated = flags.edges
  ? await edgeScenes(first!, count, flags.faces as FacePool)
  : flags.crowd
  ? await crowdScenes(first!, count, flags.faces as FacePool)
  : [...(await evalScenes(first!, count, size, flags.faces as FacePool, turn)), ...(withPhotos ? await photoScenes() : [])];
const scenes: EvalScene[] = flags.jpeg ? await Promise.all(generated.map((s) => throughJpeg(s, Number(flags.jpeg)))) : generated;
const found: Box[][] = [];
// CPU per generated scene: the 720p ones, or every one of --size.
const cpuScene: number[] = [];
for (const s of scenes) {
  const t = await timed(() => detector.detect(s.frame));
  found.push(t.value);
  if (flags.size ? s.name.startsWith("seed") : s.frame.width === 1280) cpuScene.push(t.cpu);
}
const synthetic = scenes.filter((s) => /^(seed|edge|crowd)/.test(s.name));
const rep = score(synthetic, found.slice(0, synthetic.length));
const photos = score(scenes.slice(synthetic.length), found.slice(synthetic.length));
const pct = (e?: { found: number; total: number }) => (e ? `${e.found}/${e.total} ${(e.found / e.total).toFixed(3)}` : "-");
// What the contact sheet shows: faces left visible (not hidden by the blur) and false boxes.
let sheet: { missed: HiddenReport["missed"]; falses: RecallReport["falses"] };
if (flags.edges) {
  const edges = await scoreHidden(synthetic, found);
  console.log(`faces the frame's edge cuts, ${flags.faces} faces, seeds ${first}-${last} (${synthetic.length} scenes, ${edges.total} faces), hidden:`);
  for (const w of EDGE_FACE_WIDTHS) console.log(`  ${String(w).padStart(3)} px: ${pct(edges.byWidth.get(w))}`);
  for (const [k, v] of [...edges.byInside].sort()) console.log(`  ${k.padEnd(5)} inside: ${pct(v)}`);
  console.log(`  all: ${pct(edges)}; false boxes ${edges.falseBoxes} of ${edges.detections}`);
  sheet = { missed: edges.missed, falses: [] };
} else {
  const hidden = await scoreHidden(synthetic, found);
  console.log(`generated ${flags.crowd ? "crowds" : "set"}, ${flags.faces} faces, seeds ${first}-${last} (${synthetic.length} scenes, ${rep.total} faces), found (a box on the face) and hidden (90 % of it under the blur):`);
  for (const w of FACE_WIDTHS) console.log(`  ${String(w).padStart(2)} px: found ${pct(rep.bySize.get(w))}, hidden ${pct(hidden.byWidth.get(w))}`);
  console.log(`  all  : found ${pct(rep)}, hidden ${pct(hidden)}; false boxes ${rep.falseBoxes} of ${rep.detections} (precision ${((rep.detections - rep.falseBoxes) / Math.max(1, rep.detections)).toFixed(3)})`);
  console.log(`  by variant: ${[...rep.byVariant].map(([k, v]) => `${k} ${pct(v)}`).join(", ")}`);
  if (withPhotos) console.log(`fixture photos (group1-6, collages; ${photos.total} faces): ${pct(photos)}; false boxes ${photos.falseBoxes} of ${photos.detections}`);
  sheet = { missed: hidden.missed, falses: [...rep.falses, ...photos.falses] };
}

// Speed: 720p frames (the generated ones), and a ~12 MP image (a 4000x3000 upscale of a scene).
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const big = synthetic.reduce((a, s) => (s.frame.width > a.frame.width ? s : a));
const bigData = await sharp(big.frame.data, { raw: { width: big.frame.width, height: big.frame.height, channels: 3 } }).resize(4000, 3000, { fit: "fill" }).raw().toBuffer();
const image12: Frame = { data: bigData, width: 4000, height: 3000, channels: 3 };
const jpeg = await sharp(bigData, { raw: { width: 4000, height: 3000, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
const floor = await timed(async () => sharp(await sharp(jpeg).raw().toBuffer(), { raw: { width: 4000, height: 3000, channels: 3 } }).jpeg({ quality: 90 }).toBuffer());
const det12 = await timed(() => detector.detect(image12));
const load = (await import("node:os")).loadavg()[0]!.toFixed(1);
console.log(`speed (load ${load} on 2 cores): ${flags.size ?? "720p"} detect ${mean(cpuScene).toFixed(0)} CPU ms/frame (${cpuScene.length} frames); 12 MP detect ${det12.cpu.toFixed(0)} CPU ms (${det12.wall.toFixed(0)} ms wall) vs sharp decode+encode ${floor.cpu.toFixed(0)} CPU ms (${floor.wall.toFixed(0)} ms wall)`);

// The blur changes nothing away from the faces it hides.
const blurPsnr: number[] = [];
for (let i = 0; i < Math.min(4, synthetic.length); i++) {
  const s = synthetic[i]!;
  const out = await hideBoxes(s.frame, found[i]!, {});
  blurPsnr.push(psnr(s.frame, out, outside([...s.faces.map((f) => f.box), ...found[i]!], 0.5)));
}
console.log(`blurred output, PSNR away from faces and boxes (grown 50%): min ${Math.min(...blurPsnr).toFixed(1)} dB over ${blurPsnr.length} scenes`);

if (flags.sheet) {
  // Faces left visible (green frame) and false boxes (red frame), each cut with some context, 96 px tiles.
  const crops: Buffer[] = [];
  const tile = async (f: Frame, b: Box, colour: string) => {
    const side = Math.round(Math.max(48, Math.max(b.width, b.height) * 2));
    const left = Math.max(0, Math.min(f.width - side, Math.round(b.x + b.width / 2 - side / 2))), top = Math.max(0, Math.min(f.height - side, Math.round(b.y + b.height / 2 - side / 2)));
    const k = 96 / side;
    const svg = `<svg width="96" height="96"><rect x="${(b.x - left) * k}" y="${(b.y - top) * k}" width="${b.width * k}" height="${b.height * k}" fill="none" stroke="${colour}"/></svg>`;
    return sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } }).extract({ left, top, width: Math.round(side), height: Math.round(side) }).resize(96, 96).composite([{ input: Buffer.from(svg) }]).removeAlpha().raw().toBuffer();
  };
  for (const m of sheet.missed) crops.push(await tile(m.scene.frame, m.face.box, "lime"));
  for (const m of sheet.falses) crops.push(await tile(m.scene.frame, m.box, "red"));
  const cols = 16, rows = Math.max(1, Math.ceil(crops.length / cols));
  await sharp({ create: { width: cols * 96, height: rows * 96, channels: 3, background: "#222" } })
    .composite(crops.map((input, i) => ({ input, raw: { width: 96, height: 96, channels: 3 as const }, left: (i % cols) * 96, top: Math.floor(i / cols) * 96 })))
    .png()
    .toFile(flags.sheet);
  console.log(`contact sheet: ${flags.sheet} (${sheet.missed.length} left visible in green, ${sheet.falses.length} false boxes in red)`);
}
