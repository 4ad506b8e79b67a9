// npx node bench/video-leaks.ts — where video face-blur leaves a face visible, measured on pixels.
//
// For each generated clip with per-frame ground truth (test/fixtures/video-clips.ts: pan/zoom over
// small and tiny faces, sprites at 2-38 px/frame and zooming, faces entering/leaving, a hard scene
// cut) it runs the video.face-blur pipeline with its defaults and a detector that is either
//   real    the production face detector (compute/models), or
//   oracle  the ground truth with misses (runs of misses, new faces often missed at first: what
//           is left is the tracker's part of the leak: gaps, late starts, lag, cuts),
// and prints, per clip: frames with a visible face (any size / 20 px or wider), the fraction of
// face-frames hidden per face-width bucket, and the mean fraction of the frame area blurred (in
// brackets: what the same effect blurs over the true face boxes alone, the least any tracker could).
// A face is hidden when >= 90 % of its ellipse is under the effect's mask (test/fixtures/hidden.ts).
//
// Usage: npx node bench/video-leaks.ts [--detectors real,oracle] [--clips pan-small,sprites]
//        (default: the six clips of CLIP_NAMES; --clips pan-others pans over faces never tuned on)
//        [--seeds 3] (oracle runs per clip, different misses) [--sheet bench/.scratch/leaks.png]
//        [--crf 28] (each clip through libx264 at that CRF and back first, as a user's encoder leaves it)
//        [--motion-blur] (each frame as a 180-degree shutter records it: what moves is smeared)
//        [--hdr converted|as-sdr] (each clip through HLG 10-bit HEVC, as an iPhone records by default,
//        and back through the production decoder's HDR conversion, or read as SDR as it was before)
//        [--edge-margin 0.02] (the real detector seeing each frame mirrored past its edges: face-detector.ts edgeMargin)
//        [--frames N] (each clip cut after its first N frames: a video that ends while a face has just come into view)
//        [--fps 60] (each clip rendered at that rate: the same 3 s and motion in more frames; the
//        oracle's misses last as long in time)
//        [--record F.json] (keeps the real detector's output per clip and frame in F)
//        [--replay F.json] (detector "replay": that output again, without the models: a change to
//        the tracker or the effect is measured in under half the time of a real run, most of it
//        making and encoding the clips; exact, since what the detector is asked depends on the
//        frames and the schedule, never on the tracks)
import { cpus, loadavg } from "node:os";
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { Detection } from "../compute/types.ts";
import { createModels } from "../compute/models/index.ts";
import { CLIP_NAMES, compressed, makeClip, throughHdr } from "../test/fixtures/video-clips.ts";
import { facesAloneArea, leakSheet, measureLeaks, oracleWithMisses, SIZE_BUCKETS, sizeBucket } from "../test/fixtures/video-leaks.ts";
import type { LeakReport } from "../test/fixtures/video-leaks.ts";

const { values } = parseArgs({
  options: {
    detectors: { type: "string", default: "real,oracle" },
    clips: { type: "string", default: CLIP_NAMES.join(",") },
    seeds: { type: "string", default: "3" },
    sheet: { type: "string" },
    crf: { type: "string" },
    "motion-blur": { type: "boolean", default: false },
    hdr: { type: "string" },
    "edge-margin": { type: "string" },
    frames: { type: "string" },
    fps: { type: "string" },
    record: { type: "string" },
    replay: { type: "string" },
  },
});

const detectors = values.replay ? ["replay"] : values.detectors!.split(",");
/** Per clip key (name and variant), per detection frame, what the real detector returned. */
type Recording = Record<string, Record<number, Detection[]>>;
const recorded: Recording = values.replay ? JSON.parse(await readFile(values.replay, "utf8")) : {};
const hdr = values.hdr as "converted" | "as-sdr" | undefined;
if (hdr && hdr !== "converted" && hdr !== "as-sdr") throw new Error(`--hdr takes converted or as-sdr, not ${hdr}`);
const variant = [values.crf && `crf${values.crf}`, hdr && `hlg-${hdr}`, values["motion-blur"] && "motion-blur", values["edge-margin"] && `edge${values["edge-margin"]}`, values.frames && `frames${values.frames}`, values.fps && `${values.fps}fps`].filter(Boolean).join(",");
const seeds = Number(values.seeds);
const models = detectors.includes("real") ? createModels() : null;
const faces = values["edge-margin"] ? models?.faces.withOptions({ edgeMargin: Number(values["edge-margin"]) }) : models?.faces;
await faces?.load();

const pct = (hidden: number, total: number) => (total ? `${((100 * hidden) / total).toFixed(1)}% of ${total}` : "-");

function row(name: string, detector: string, reports: LeakReport[]): string {
  const faceFrames = reports.flatMap((r) => r.faceFrames);
  const cells = SIZE_BUCKETS.map((b) => {
    const inBucket = faceFrames.filter((f) => sizeBucket(f.face.width) === b);
    return pct(inBucket.filter((f) => f.hidden).length, inBucket.length).padEnd(16);
  });
  const frames = reports.reduce((s, r) => s + r.frames, 0);
  const leaked = reports.reduce((s, r) => s + r.leakedFrames, 0);
  const leaked20 = reports.reduce((s, r) => s + r.leakedFrames20, 0);
  const area = reports.reduce((s, r) => s + r.coveredArea * r.frames, 0) / frames;
  const faces = reports.reduce((s, r) => s + facesAlone.get(r.clip)! * r.frames, 0) / frames;
  return `${name.padEnd(12)} ${detector.padEnd(7)} ${`${leaked}/${frames}`.padEnd(9)} ${`${leaked20}/${frames}`.padEnd(9)} ${cells.join(" ")} ${(100 * area).toFixed(1)}% (${(100 * faces).toFixed(1)}%)`;
}

console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(" ")} on ${cpus().length} cores`);
console.log(`${"clip".padEnd(12)} ${"detector".padEnd(7)} ${"leak any".padEnd(9)} ${"leak>=20".padEnd(9)} ${SIZE_BUCKETS.map((b) => `hidden ${b}`.padEnd(16)).join(" ")} area (faces alone)`);
const all = new Map<string, LeakReport[]>(detectors.map((d) => [d, []]));
/** Per clip, what the blur covers over its true faces alone (the same for every detector). */
const facesAlone = new Map<string, number>();
for (const name of values.clips!.split(",")) {
  const made = await makeClip(name, { motionBlur: values["motion-blur"], fps: values.fps ? Number(values.fps) : undefined });
  const crf = values.crf ? await compressed(made, Number(values.crf)) : made;
  const encoded = hdr ? await throughHdr(crf, hdr) : crf;
  const n = values.frames ? Number(values.frames) : encoded.frames.length;
  const clip = { ...encoded, frames: encoded.frames.slice(0, n), truth: encoded.truth.slice(0, n), cuts: encoded.cuts.filter((c) => c < n) };
  facesAlone.set(clip.name, await facesAloneArea(clip));
  for (const detector of detectors) {
    const reports: LeakReport[] = [];
    const key = `${name}${variant ? `:${variant}` : ""}`;
    if (detector === "real") {
      const report = await measureLeaks(clip, faces!);
      reports.push(report);
      // Masks are not kept: face detections have none.
      recorded[key] = Object.fromEntries(report.coverages.filter((c) => c.detections).map((c) => [c.index, c.detections!.map(({ mask: _, ...d }) => d)]));
    } else if (detector === "replay") {
      const frames = recorded[key];
      if (!frames) throw new Error(`${values.replay} holds no recording of ${key}`);
      reports.push(await measureLeaks(clip, (_, index) => {
        const found = frames[index];
        if (!found) throw new Error(`${key}: frame ${index} was not detected when recorded`);
        return found;
      }));
    } else if (detector === "oracle") for (let seed = 1; seed <= seeds; seed++) reports.push(await measureLeaks(clip, oracleWithMisses(clip, seed)));
    else throw new Error(`unknown detector ${detector}`);
    console.log(row(name, detector, reports));
    all.get(detector)!.push(...reports);
  }
}
for (const [detector, reports] of all) console.log(row("all", detector, reports));
if (values.record) {
  // Adds to what the file holds: each variant is a separate run.
  const before: Recording = await readFile(values.record, "utf8").then(JSON.parse, () => ({}));
  await writeFile(values.record, JSON.stringify({ ...before, ...recorded }));
  console.log(`detections recorded in ${values.record}`);
}
if (values.sheet) {
  const leaks = await leakSheet([...all.values()].flat(), values.sheet);
  console.log(`${leaks} leaked face-frames; contact sheet: ${values.sheet}`);
}
