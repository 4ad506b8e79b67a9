// Object-removal throughput and quality on this machine, measured.
//
// For each clip (a real person cut out of a group photo walking across a real photo, static or
// panning camera, 25 fps; made by test/fixtures/make-removal-video.ts), it reports:
//   floor    one ffmpeg: decode + libx264 encode with the pipeline's settings (no pipeline beats it);
//   removal  processVideo with video.object-removal (object_text "person"): fps, wall-clock ratio to
//            the floor, CPU seconds of the Node process (not the ffmpeg children), the PSNR of the
//            filled region against the true background (pooled and the worst frame), and on every
//            5th frame whether a person is still found (compute/pipelines/objects.ts with CenterNet
//            alone, as object removal looks, and the COCO
//            detector on the whole frame) in the input and in the output.
// bench/video.ts can also run it on its face clips: npm run bench:video -- --pipelines object-removal
//
// Usage: npx node bench/object-removal.ts [--only <clip name>]
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { sharedModels } from "../compute/models/index.ts";
import { objectRemovalVideo } from "../compute/pipelines/video/object-removal.ts";
import { ffmpegPath } from "../compute/video/ffmpeg.ts";
import { DEFAULT_ENCODER, encoderSettingsArgs, processVideo } from "../compute/video/stream.ts";
import { decodeFrames } from "../test/fixtures/frames.ts";
import { findPeople } from "../compute/pipelines/objects.ts";
import type { Frame } from "../compute/types.ts";
import { filledPsnr, makeRemovalVideo, personCutout, type Cutout, type RemovalClipOptions } from "../test/fixtures/make-removal-video.ts";

// Varied on purpose: a large colour person, the issue-22 greyscale figure half the height of a
// 720p frame, a small person (a quarter of the height), a slow pan, a fast pan, a slow pan in a
// small frame (where the camera tracking's search reaches least far), another background, other
// people (cut out of other group photos), a person cut by the frame's edges as they walk in
// and out, and a camera zooming in (slowly and faster).
const CLIPS: Array<{ name: string; person?: string } & Partial<RemovalClipOptions>> = [
  { name: "360p-large", width: 640, height: 360, seconds: 3, objectHeight: 0.9 },
  { name: "720p-grey-half", width: 1280, height: 720, seconds: 2, objectHeight: 0.5, grey: true },
  { name: "360p-small", width: 640, height: 360, seconds: 3, objectHeight: 0.25 },
  { name: "360p-pan", width: 640, height: 360, seconds: 3, objectHeight: 0.6, pan: 0.4 },
  { name: "360p-fast-pan", width: 640, height: 360, seconds: 3, objectHeight: 0.6, pan: 4 },
  { name: "240p-pan", width: 426, height: 240, seconds: 4, objectHeight: 0.7, pan: 0.6 },
  { name: "360p-coffee-pan", width: 640, height: 360, seconds: 3, objectHeight: 0.8, pan: 1, background: "coffee.png" },
  { name: "360p-crossing", width: 640, height: 360, seconds: 3, objectHeight: 0.7, crossing: true, person: "group2.jpg" },
  { name: "360p-crossing-pan", width: 640, height: 360, seconds: 3, objectHeight: 0.5, crossing: true, pan: 2, person: "group4.jpg", background: "chelsea.png" },
  { name: "360p-zoom", width: 640, height: 360, seconds: 3, objectHeight: 0.6, zoom: 0.004 },
  { name: "360p-slow-zoom", width: 640, height: 360, seconds: 3, objectHeight: 0.6, zoom: 0.001 },
];

async function floor(input: string, output: string): Promise<number> {
  const started = performance.now();
  await new Promise<void>((ok, fail) => {
    const child = spawn(ffmpegPath(), ["-hide_banner", "-nostdin", "-v", "error", "-y", "-i", input, "-map", "0:v:0", "-map", "0:a:0?", ...encoderSettingsArgs(DEFAULT_ENCODER), "-c:a", "copy", "-movflags", "+faststart", output], { stdio: "inherit" });
    child.on("close", (code) => (code === 0 ? ok() : fail(new Error(`ffmpeg exited ${code}`))));
  });
  return (performance.now() - started) / 1000;
}

const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;
const dir = await mkdtemp(join(tmpdir(), "obscura-bench-removal-"));
try {
  const models = sharedModels();
  await models.registry.warmAll();
  const cutouts = new Map<string, Cutout>();
  const cutoutOf = async (photo = "group6.jpg") => cutouts.get(photo) ?? cutouts.set(photo, await personCutout(models, photo)).get(photo)!;
  console.log(`encoder: libx264 preset=${DEFAULT_ENCODER.preset} crf=${DEFAULT_ENCODER.crf}; node ${process.version}; ${cpus().length} cores; load ${loadavg()[0].toFixed(1)}`);
  const rows = [["clip", "frames", "floor s", "removal s", "fps", "x floor", "node CPU s", "PSNR filled dB", "worst frame dB", "found in (finder/COCO)", "found out (finder/COCO)"]];
  for (const spec of CLIPS) {
    if (only && only !== spec.name) continue;
    const clip = await makeRemovalVideo({ ...spec, outPath: join(dir, `${spec.name}.mp4`), cutout: await cutoutOf(spec.person) });
    const floorSeconds = await floor(clip.path, join(dir, `${spec.name}-floor.mp4`));
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const out = join(dir, `${spec.name}-out.mp4`);
    let failed = "";
    await processVideo(clip.path, out, { processor: objectRemovalVideo({ object_text: "person" } as never, models) }).catch((e: Error) => (failed = e.message));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (failed) {
      rows.push([spec.name, String(clip.frames), floorSeconds.toFixed(2), seconds.toFixed(1), "-", "-", ((cpu.user + cpu.system) / 1e6).toFixed(1), `failed: ${failed.slice(0, 40)}`, "-", "-", "-"]);
      console.log(rows.at(-1)!.join("\t"));
      continue;
    }
    const frames = (await decodeFrames(out)).map((f) => f.data);
    const fill = filledPsnr(clip, frames);
    const inputs = (await decodeFrames(clip.path)).map((f) => f.data);
    const found = async (all: Buffer[]): Promise<string> => {
      let finder = 0, coco = 0, checked = 0;
      for (let i = 0; i < all.length; i += 5, checked++) {
        const frame: Frame = { data: all[i], width: clip.width, height: clip.height, channels: 3 };
        if ((await findPeople(frame, { objects: models.objects })).length) finder++;
        if ((await models.objects.detect(frame, ["person"])).length) coco++;
      }
      return `${finder}/${coco} of ${checked}`;
    };
    rows.push([spec.name, String(clip.frames), floorSeconds.toFixed(2), seconds.toFixed(1), (clip.frames / seconds).toFixed(2), (seconds / floorSeconds).toFixed(1),
      ((cpu.user + cpu.system) / 1e6).toFixed(1), fill.pooled.toFixed(2), fill.worst.toFixed(2), await found(inputs), await found(frames)]);
    console.log(rows.at(-1)!.join("\t"));
  }
  console.log("");
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
} finally {
  await rm(dir, { recursive: true, force: true });
}
