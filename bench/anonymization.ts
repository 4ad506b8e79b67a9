// Face anonymization, measured (run: npx node bench/anonymization.ts [--ladder] [--verbose] [--sheet out.png]).
//   1. identity: face-api descriptor distance original -> output, every face of the real test
//      photos (skimage astronaut + camera, face-api demo group photos 1-6), min and median;
//   2. still a face: SSD MobileNetV1 score at each original position in the output, min;
//   3. stability on a pan/zoom video made in memory from astronaut.png (36 frames, crop window
//      sliding and zooming, resampled with sharp): the output is mapped back to photo coordinates
//      (the camera path is known exactly) and the mean absolute frame-to-frame change inside the
//      face region is compared with the input's (flicker ratio = D_out / D_in; 1 = the output
//      changes no more than the input does under the same resampling);
//   4. expression kept: face-api's expression network on the input and the output face at the
//      same box (bench/lib/expression-reader.ts): how many keep their most probable expression,
//      and the mean total-variation change of the seven probabilities.
// --ladder also measures the alternatives (warp only, texture only, features only, ...).
import { readFileSync } from "node:fs";
import sharp from "sharp";
import type { Box, Frame } from "../compute/types.ts";
import { FaceMeter, distance, type FaceMeasure } from "../compute/anonymize/evaluate.ts";
import { anonymizeFace, DEFAULT_ANONYMIZE_OPTIONS, type AnonymizeOptions } from "../compute/anonymize/render.ts";
import { CALIBRATION, IdentityCache, calibrateIdentity } from "../compute/anonymize/calibrate.ts";
import { LandmarkSmoother } from "../compute/anonymize/smoothing.ts";
import { FlowLandmarkTracker } from "../compute/anonymize/flow-tracker.ts";
import { ExpressionReader, expressionChange, topExpression, type Expression } from "./lib/expression-reader.ts";

const PHOTOS = new URL("../test/fixtures/photos/", import.meta.url);
export const TEST_PHOTOS = ["astronaut.png", "camera.png", "group1.jpg", "group2.jpg", "group3.jpg", "group4.jpg", "group5.jpg", "group6.jpg"];

export async function loadPhoto(name: string): Promise<Frame> {
  const { data, info } = await sharp(readFileSync(new URL(name, PHOTOS))).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
export const f3 = (x: number) => x.toFixed(3);

/** Anonymize every face of a photo (track id = face index) and measure each. */
export async function measurePhoto(meter: FaceMeter, frame: Frame, faces: FaceMeasure[], options: AnonymizeOptions, calibrate: boolean) {
  const cache = new IdentityCache();
  let out = frame;
  for (let i = 0; i < faces.length; i++) {
    const face = { box: faces[i].box, landmarks: faces[i].landmarks };
    if (calibrate) cache.set(i + 1, (await calibrateIdentity(meter, [{ frame, face }], i + 1, { options })).identity);
    out = anonymizeFace(out, face, cache.identityFor(i + 1), options);
  }
  return { out, results: await meter.compare(out, faces) };
}

// ---- pan/zoom video in memory -------------------------------------------------------------
export interface Shot {
  /** Crop window in photo coordinates. */
  win: Box;
  frame: Frame;
}

export async function panZoomVideo(photo: Frame, frames = 36, size = 384): Promise<Shot[]> {
  const shots: Shot[] = [];
  for (let t = 0; t < frames; t++) {
    const u = t / (frames - 1);
    const side = Math.round(440 - 140 * u); // zoom in
    const x = Math.round(10 + 50 * u + 12 * Math.sin(6 * u));
    const y = Math.round(5 + 20 * u);
    const win = { x, y, width: side, height: side };
    const { data, info } = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: photo.channels } })
      .extract({ left: x, top: y, width: side, height: side }).resize(size, size, { kernel: "lanczos3" }).raw().toBuffer({ resolveWithObject: true });
    shots.push({ win, frame: { data, width: info.width, height: info.height, channels: 3 } });
  }
  return shots;
}

/** Frame sampled back in photo coordinates over `region` (bilinear, luma). */
function backToPhoto(shot: Shot, f: Frame, region: Box): Float32Array {
  const s = f.width / shot.win.width;
  const out = new Float32Array(region.width * region.height);
  for (let j = 0; j < region.height; j++) {
    for (let i = 0; i < region.width; i++) {
      const fx = (region.x + i + 0.5 - shot.win.x) * s - 0.5;
      const fy = (region.y + j + 0.5 - shot.win.y) * s - 0.5;
      const x0 = Math.max(0, Math.min(f.width - 2, Math.floor(fx)));
      const y0 = Math.max(0, Math.min(f.height - 2, Math.floor(fy)));
      const ax = Math.max(0, Math.min(1, fx - x0));
      const ay = Math.max(0, Math.min(1, fy - y0));
      const L = (x: number, y: number) => {
        const k = (y * f.width + x) * f.channels;
        return 0.299 * f.data[k] + 0.587 * f.data[k + 1] + 0.114 * f.data[k + 2];
      };
      const top = L(x0, y0) * (1 - ax) + L(x0 + 1, y0) * ax;
      const bot = L(x0, y0 + 1) * (1 - ax) + L(x0 + 1, y0 + 1) * ax;
      out[j * region.width + i] = top * (1 - ay) + bot * ay;
    }
  }
  return out;
}

/** Mean absolute frame-to-frame change of the stabilised sequences inside `region` (photo coords). */
export function stabilityMetric(shots: Shot[], outputs: Frame[], region: Box): { dIn: number; dOut: number; ratio: number } {
  let dIn = 0;
  let dOut = 0;
  let prevIn: Float32Array | null = null;
  let prevOut: Float32Array | null = null;
  for (let t = 0; t < shots.length; t++) {
    const a = backToPhoto(shots[t], shots[t].frame, region);
    const b = backToPhoto(shots[t], outputs[t], region);
    if (prevIn && prevOut) {
      let si = 0, so = 0;
      for (let k = 0; k < a.length; k++) {
        si += Math.abs(a[k] - prevIn[k]);
        so += Math.abs(b[k] - prevOut[k]);
      }
      dIn += si / a.length;
      dOut += so / a.length;
    }
    prevIn = a;
    prevOut = b;
  }
  const n = shots.length - 1;
  return { dIn: dIn / n, dOut: dOut / n, ratio: dOut / dIn };
}

// ---- contact sheet (--sheet out.png): original | anonymized pairs, to look at, not to measure --
const TILE = 160;

export async function faceTiles(frame: Frame, out: Frame, faces: FaceMeasure[]): Promise<Buffer[]> {
  const tiles: Buffer[] = [];
  for (const { box: b } of faces) {
    const left = Math.max(0, Math.round(b.x - b.width * 0.3)), top = Math.max(0, Math.round(b.y - b.height * 0.3));
    const width = Math.min(frame.width - left, Math.round(b.width * 1.6)), height = Math.min(frame.height - top, Math.round(b.height * 1.6));
    for (const f of [frame, out]) {
      tiles.push(await sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } }).extract({ left, top, width, height }).resize(TILE, TILE, { fit: "fill" }).raw().toBuffer());
    }
  }
  return tiles;
}

export async function writeSheet(tiles: Buffer[], path: string): Promise<void> {
  const cols = 8;
  await sharp({ create: { width: cols * TILE, height: Math.ceil(tiles.length / cols) * TILE, channels: 3, background: "#000" } })
    .composite(tiles.map((t, k) => ({ input: t, raw: { width: TILE, height: TILE, channels: 3 as const }, left: (k % cols) * TILE, top: Math.floor(k / cols) * TILE })))
    .png()
    .toFile(path);
  console.log(`contact sheet: ${path}`);
}

export type Smoothing = "raw" | "one-euro" | "flow";

/**
 * Run the anonymizer over the video like the pipeline does: detect, landmarks, then per track
 * "flow" (the pipeline's FlowLandmarkTracker: landmarks carried by the face's pixel motion,
 * steered slowly towards the detections), "one-euro" (the causal landmark filter it replaced) or
 * "raw" (none); identity calibrated on the track's first frame; render.
 */
export async function runVideo(meter: FaceMeter, shots: Shot[], options: AnonymizeOptions, mode: Smoothing = "flow") {
  const found: FaceMeasure[] = [];
  for (const shot of shots) {
    const faces = (await meter.faces(shot.frame, 0.5)).sort((a, b) => b.box.width - a.box.width).slice(0, 1);
    if (faces.length === 0) throw new Error("no face in a video frame");
    found.push(faces[0]);
  }
  const oneEuro = new LandmarkSmoother();
  const flow = new FlowLandmarkTracker();
  const smoothed = found.map((f, t) => (mode === "flow" ? flow.push(shots[t].frame, f.landmarks) : mode === "one-euro" ? oneEuro.push(f.landmarks) : f.landmarks));
  const cal = await calibrateIdentity(meter, [{ frame: shots[0].frame, face: { box: found[0].box, landmarks: smoothed[0] } }], 1, { options });
  const outputs: Frame[] = [];
  const perFrame: Array<{ score: number; distance: number }> = [];
  for (const [t, shot] of shots.entries()) {
    const out = anonymizeFace(shot.frame, { box: found[t].box, landmarks: smoothed[t] }, cal.identity, options);
    outputs.push(out);
    perFrame.push((await meter.compare(out, [found[t]]))[0]);
  }
  return { outputs, perFrame };
}

async function main() {
  const meter = new FaceMeter();
  const ladder = process.argv.includes("--ladder");
  const t0 = performance.now();
  const expressions = new ExpressionReader();
  const set: Array<{ name: string; frame: Frame; faces: FaceMeasure[]; expressions: Expression[] }> = [];
  for (const name of TEST_PHOTOS) {
    const frame = await loadPhoto(name);
    const faces = await meter.faces(frame, 0.5);
    set.push({ name, frame, faces, expressions: await expressions.read(frame, faces.map((f) => f.box)) });
  }
  const nFaces = set.reduce((a, s) => a + s.faces.length, 0);
  console.log(`test set: ${set.length} photos, ${nFaces} faces (SSD score >= 0.5)`);
  // Reference: how far apart different real people are with this descriptor on this set.
  const all = set.flatMap((s) => s.faces.map((f) => f.descriptor));
  const nearest = all.map((d, i) => Math.min(...all.filter((_, j) => j !== i).map((e) => distance(d, e))));
  const med = all.map((d, i) => median(all.filter((_, j) => j !== i).map((e) => distance(d, e))));
  console.log(`reference: distance to the nearest OTHER face of the set: min ${f3(Math.min(...nearest))}, median ${f3(median(nearest))}; median distance to other faces ${f3(median(med))}`);

  const F = { eyes: true, brows: true, lips: true, nose: true };
  const T = DEFAULT_ANONYMIZE_OPTIONS.texture as Exclude<AnonymizeOptions["texture"], false>;
  const variants: Array<[string, AnonymizeOptions, boolean]> = ladder
    ? [
        ["warp x1 only", { warp: 1, texture: false, features: false }, false],
        ["warp x3 only", { warp: 3, texture: false, features: false }, false],
        ["texture only (low-pass 0.12 IOD + procedural)", { warp: 0, texture: T, features: false }, false],
        ["texture only (low-pass 0.25 IOD)", { warp: 0, texture: { ...T, lowSigma: 0.25 }, features: false }, false],
        ["features only", { warp: 0, texture: false, features: F }, false],
        // A ceiling, not a candidate: no features, the face a flat low-pass of itself. What is left
        // is what the replacement never touches (hair, outline, ears, pose).
        ["featureless face (low-pass 2.4 IOD, nothing drawn)", { warp: 0, texture: { ...T, lowSigma: 2.4, procedural: false }, features: false }, false],
        ["warp x1 + texture + features", { ...DEFAULT_ANONYMIZE_OPTIONS, warp: 1 }, false],
        ["warp x2 + texture + features", { ...DEFAULT_ANONYMIZE_OPTIONS, warp: 2 }, false],
        ["default + synthetic relief shading", { ...DEFAULT_ANONYMIZE_OPTIONS, texture: { ...T, lowSigma: 0.3, shading: 1 } }, false],
        ["default (fixed seed per track)", DEFAULT_ANONYMIZE_OPTIONS, false],
        ["default + calibration", DEFAULT_ANONYMIZE_OPTIONS, true],
      ]
    : [
        ["default (fixed seed per track)", DEFAULT_ANONYMIZE_OPTIONS, false],
        [`default + calibration (up to ${CALIBRATION.candidates} escalating candidates, target ${CALIBRATION.target})`, DEFAULT_ANONYMIZE_OPTIONS, true],
      ];
  const sheetAt = process.argv.indexOf("--sheet");
  for (const [label, options, calibrate] of variants) {
    const ds: number[] = [];
    const ss: number[] = [];
    const kept: boolean[] = [];
    const changes: number[] = [];
    const per: string[] = [];
    const tiles: Buffer[] = [];
    const t = performance.now();
    for (const s of set) {
      const { out, results } = await measurePhoto(meter, s.frame, s.faces, options, calibrate);
      if (sheetAt > 0 && calibrate) tiles.push(...(await faceTiles(s.frame, out, s.faces)));
      const outExpressions = await expressions.read(out, s.faces.map((f) => f.box));
      results.forEach((r, i) => {
        const [a, b] = [s.expressions[i], outExpressions[i]];
        ds.push(r.distance);
        ss.push(r.score);
        kept.push(topExpression(a) === topExpression(b));
        changes.push(expressionChange(a, b));
        per.push(`${s.name}#${i} ${f3(r.distance)}/${r.score.toFixed(2)} ${topExpression(a)}->${topExpression(b)}`);
      });
    }
    console.log(`\n[${label}] identity distance min ${f3(Math.min(...ds))} median ${f3(median(ds))}, faces >= 0.6: ${ds.filter((d) => d >= 0.6).length}/${ds.length}; detector score min ${f3(Math.min(...ss))} median ${f3(median(ss))}, faces >= 0.5: ${ss.filter((x) => x >= 0.5).length}/${ss.length}; expression kept ${kept.filter(Boolean).length}/${kept.length}, mean change ${f3(changes.reduce((a, b) => a + b, 0) / changes.length)}  (${((performance.now() - t) / 1000).toFixed(0)} s)`);
    if (process.argv.includes("--verbose")) console.log("  " + per.join("\n  "));
    if (tiles.length) await writeSheet(tiles, process.argv[sheetAt + 1]!);
  }

  // ---- stability ---------------------------------------------------------------------------
  const astro = set[0];
  const shots = await panZoomVideo(astro.frame);
  const fb = astro.faces[0].box;
  const region = { x: Math.round(fb.x + fb.width * 0.05), y: Math.round(fb.y + fb.height * 0.05), width: Math.round(fb.width * 0.9), height: Math.round(fb.height * 0.9) };
  for (const smooth of ["raw", "one-euro", "flow"] as const) {
    const { outputs, perFrame } = await runVideo(meter, shots, DEFAULT_ANONYMIZE_OPTIONS, smooth);
    const st = stabilityMetric(shots, outputs, region);
    const ds = perFrame.map((p) => p.distance);
    const ss = perFrame.map((p) => p.score);
    console.log(`\n[video, ${shots.length} frames pan/zoom of astronaut.png, landmarks ${smooth === "flow" ? "flow-tracked (the pipeline)" : smooth}] flicker ratio D_out/D_in = ${f3(st.ratio)} (D_in ${st.dIn.toFixed(2)}, D_out ${st.dOut.toFixed(2)} grey levels/frame); per-frame identity distance min ${f3(Math.min(...ds))} median ${f3(median(ds))}; detector score min ${f3(Math.min(...ss))}`);
    if (smooth === "flow" && process.argv.includes("--save")) {
      for (const [i, o] of outputs.entries()) if (i % 7 === 0) await sharp(o.data, { raw: { width: o.width, height: o.height, channels: 3 } }).png().toFile(`/tmp/anon-video-${i}.png`);
    }
  }
  console.log(`\ntotal ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
