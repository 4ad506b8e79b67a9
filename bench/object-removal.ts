// Object-removal throughput and quality on this machine, measured.
//
// For each clip (a real person cut out of group6.jpg walking across motorcycle_left.png, static
// camera, 25 fps; made by test/fixtures/make-removal-video.ts), it reports:
//   floor    one ffmpeg: decode + libx264 encode with the pipeline's settings (no pipeline beats it);
//   removal  processVideo with video.object-removal (object_text "person"): fps, wall-clock ratio to
//            the floor, CPU seconds of the Node process (not the ffmpeg children), and the PSNR of the filled region
//            against the true background.
// bench/video.ts can also run it on its face clips: npm run bench:video -- --pipelines object-removal
//
// Usage: npx node bench/object-removal.ts [--only 360p|720p]
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { sharedModels } from "../compute/models/index.ts";
import { objectRemovalVideo } from "../compute/pipelines/video/object-removal.ts";
import { ffmpegPath } from "../compute/video/ffmpeg.ts";
import { DEFAULT_ENCODER, encoderSettingsArgs, processVideo } from "../compute/video/stream.ts";
import { decodeFrames } from "../test/fixtures/frames.ts";
import { makeRemovalVideo, personCutout } from "../test/fixtures/make-removal-video.ts";

const CLIPS = [
  { name: "360p", width: 640, height: 360, seconds: 8 },
  { name: "720p", width: 1280, height: 720, seconds: 4 },
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
  const cutout = await personCutout(models);
  console.log(`encoder: libx264 preset=${DEFAULT_ENCODER.preset} crf=${DEFAULT_ENCODER.crf}; node ${process.version}; ${cpus().length} cores; load ${loadavg()[0].toFixed(1)}`);
  const rows = [["clip", "frames", "floor s", "removal s", "fps", "x floor", "node CPU s", "PSNR filled dB"]];
  for (const spec of CLIPS) {
    if (only && only !== spec.name) continue;
    const clip = await makeRemovalVideo({ outPath: join(dir, `${spec.name}.mp4`), cutout, width: spec.width, height: spec.height, seconds: spec.seconds, objectHeight: 0.9 });
    const floorSeconds = await floor(clip.path, join(dir, `${spec.name}-floor.mp4`));
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const out = join(dir, `${spec.name}-out.mp4`);
    await processVideo(clip.path, out, { processor: objectRemovalVideo({ object_text: "person" } as never, models) });
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const frames = (await decodeFrames(out)).map((f) => f.data);
    let se = 0, n = 0;
    for (let i = 0; i < clip.frames; i++) {
      const bg = clip.background(i).data, alpha = clip.objectAlpha(i).data;
      for (let p = 0; p < alpha.length; p++) {
        if (!alpha[p]) continue;
        for (let k = 0; k < 3; k++) se += (frames[i][p * 3 + k] - bg[p * 3 + k]) ** 2;
        n += 3;
      }
    }
    const psnr = 10 * Math.log10((255 * 255) / (se / n));
    rows.push([spec.name, String(clip.frames), floorSeconds.toFixed(2), seconds.toFixed(1), (clip.frames / seconds).toFixed(2), (seconds / floorSeconds).toFixed(1),
      ((cpu.user + cpu.system) / 1e6).toFixed(1), psnr.toFixed(2)]);
    console.log(rows.at(-1)!.join("\t"));
  }
  console.log("");
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
} finally {
  await rm(dir, { recursive: true, force: true });
}
