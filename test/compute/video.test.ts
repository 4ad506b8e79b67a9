// The streaming video pipeline on real videos made at test time from a real photo with faces
// (pan and zoom, sine audio): shape preservation, frame alignment, rotation, failure cleanup.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../schema/errors.ts";
import type { Frame } from "../../compute/types.ts";
import { ffmpegPath, ffprobePath } from "../../compute/video/ffmpeg.ts";
import { frameTiming } from "../../compute/video/frame-timing.ts";
import { DEFAULT_VIDEO_LIMITS } from "../../compute/video/limits.ts";
import { probeVideo } from "../../compute/video/probe.ts";
import { processVideo } from "../../compute/video/stream.ts";
import type { ChunkProcessor } from "../../compute/video/stream.ts";
import { decodeFrames, forEachFrame } from "../fixtures/frames.ts";
import { makeCoverFirstVideo, makeGarbledVideo, makeMiddleCutVideo, makePanZoomVideo, makeRotatedMov, makeSpatialAudioVideo, makeTruncatedVideo } from "../fixtures/make-video.ts";
import { descendantProcesses } from "./processes.ts";
import { bufferPsnr } from "../fixtures/psnr.ts";

let dir: string;
let clip: string; // 640x360, 25 fps, 5 s = 125 frames, AAC audio
let rotated: string; // same content stored turned, with a rotation tag, PCM audio, MOV

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "obscura-video-test-"));
  clip = await makePanZoomVideo({ outPath: join(dir, "panzoom.mp4") });
  rotated = await makeRotatedMov(clip, join(dir, "rotated.mov"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function ffprobeStreams(path: string): Array<Record<string, unknown>> {
  const out = execFileSync(ffprobePath(), ["-v", "error", "-show_streams", "-of", "json", path], { encoding: "utf8" });
  return (JSON.parse(out) as { streams: Array<Record<string, unknown>> }).streams;
}

function ffmpegChildren(): string[] {
  return descendantProcesses().filter((l) => /ffmpeg|ffprobe/.test(l));
}

// Frame-alignment marks: the frame index in binary (8 cells of 16x16, white = 1) on the top row,
// and a magenta square in every 10th frame (index % 10 === 3) at a position that moves with the index.
const CELL = 16;
const BITS = 8;
const SQUARE = 48;
const squareAt = (index: number) => ({ x: 40 + ((index * 4) % 500), y: 150 });
const hasSquare = (index: number) => index % 10 === 3;

function fillRect(frame: Frame, x0: number, y0: number, w: number, h: number, rgb: [number, number, number]): void {
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const o = (y * frame.width + x) * 3;
      frame.data[o] = rgb[0];
      frame.data[o + 1] = rgb[1];
      frame.data[o + 2] = rgb[2];
    }
  }
}

function mark(frame: Frame, index: number): Frame {
  for (let b = 0; b < BITS; b++) {
    const v = (index >> b) & 1 ? 255 : 0;
    fillRect(frame, b * CELL, 0, CELL, CELL, [v, v, v]);
  }
  if (hasSquare(index)) {
    const { x, y } = squareAt(index);
    fillRect(frame, x, y, SQUARE, SQUARE, [255, 0, 255]);
  }
  return frame;
}

function meanRgb(data: Buffer, width: number, x0: number, y0: number, w: number, h: number): [number, number, number] {
  const sum = [0, 0, 0];
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) for (let c = 0; c < 3; c++) sum[c] += data[(y * width + x) * 3 + c];
  return sum.map((s) => s / (w * h)) as [number, number, number];
}

function readMarks(data: Buffer, width: number): { index: number; squareAtOwnPlace: (i: number) => boolean } {
  let index = 0;
  for (let b = 0; b < BITS; b++) {
    const [r] = meanRgb(data, width, b * CELL + 4, 4, CELL - 8, CELL - 8);
    if (r > 128) index |= 1 << b;
  }
  const squareAtOwnPlace = (i: number) => {
    const { x, y } = squareAt(i);
    const [r, g, bl] = meanRgb(data, width, x + 8, y + 8, SQUARE - 16, SQUARE - 16);
    return r > 200 && g < 60 && bl > 200;
  };
  return { index, squareAtOwnPlace };
}

describe("probeVideo", () => {
  it("reads size, exact frame rate, frame count, duration, audio and container", async () => {
    const info = await probeVideo(clip);
    expect(info).toMatchObject({
      width: 640, height: 360, fps: { num: 25, den: 1 }, frameCount: 125, rotation: 0,
      audio: { stream: 1, codec: "aac" }, codec: "h264", container: "mp4",
    });
    expect(info.durationSeconds).toBeCloseTo(5, 2);
  });

  it("reports the display size and rotation of a phone-style MOV", async () => {
    const info = await probeVideo(rotated);
    expect(info).toMatchObject({ width: 640, height: 360, codedWidth: 360, codedHeight: 640, rotation: 270, container: "mov", audio: { codec: "pcm_s16le" } });
  });

  it("refuses what is not MP4/MOV as unsupported, and a cut-short MP4 as corrupt", async () => {
    const png = join(dir, "photo.mp4");
    execFileSync(ffmpegPath(), ["-v", "error", "-y", "-f", "lavfi", "-i", "color=red:size=32x32", "-frames:v", "1", "-f", "image2", "-c:v", "png", png]);
    await expect(probeVideo(png)).rejects.toMatchObject({ code: "unsupported_media_format" });
    const webm = join(dir, "clip.webm");
    execFileSync(ffmpegPath(), ["-v", "error", "-y", "-i", clip, "-t", "0.5", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-an", webm]);
    await expect(probeVideo(webm)).rejects.toMatchObject({ code: "unsupported_media_format" });
    const truncated = await makeTruncatedVideo(clip, join(dir, "truncated.mp4"));
    await expect(probeVideo(truncated)).rejects.toMatchObject({ code: "corrupt_media" });
  });

  it("refuses a faststart MP4 cut inside its media data (header intact, ffprobe alone reads it) as truncated", async () => {
    const whole = (await stat(clip)).size;
    const cut = await makeTruncatedVideo(clip, join(dir, "cut-in-mdat.mp4"), Math.round(whole * 0.8));
    await expect(probeVideo(cut)).rejects.toMatchObject({ code: "corrupt_media", message: expect.stringMatching(/truncated: its 'mdat' box needs \d+ bytes and the file has \d+/) });
    await expect(probeVideo(clip)).resolves.toMatchObject({ sizeBytes: whole });
  });
});

describe("processVideo", () => {
  it("keeps frame count, duration, resolution, frame rate and audio; reports progress to 100", async () => {
    const out = join(dir, "identity.mp4");
    const progress: number[] = [];
    const result = await processVideo(clip, out, { processor: async (f) => f, onProgress: (p) => progress.push(p) });
    expect(result.frames).toBe(125);
    const info = await probeVideo(out);
    expect(info).toMatchObject({ width: 640, height: 360, fps: { num: 25, den: 1 }, frameCount: 125, codec: "h264", audio: { stream: 1, codec: "aac" }, rotation: 0 });
    expect(Math.abs(info.durationSeconds - 5)).toBeLessThanOrEqual(1 / 25);
    const streams = ffprobeStreams(out);
    expect(streams.find((s) => s.codec_type === "video")).toMatchObject({ pix_fmt: "yuv420p", profile: "High" });
    const audio = streams.find((s) => s.codec_type === "audio")!;
    expect(Math.abs(Number(audio.duration) - 5)).toBeLessThan(0.1);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    // Same picture: decoding the input and the output gives near-identical frames.
    const [a, b] = (await Promise.all([decodeFrames(clip), decodeFrames(out)])).map((v) => v.map((f) => f.data));
    expect(b.length).toBe(a.length);
    const worst = Math.min(...a.map((f, i) => bufferPsnr(f, b[i])));
    expect(worst).toBeGreaterThan(32);
  });

  it("puts every processed frame back in its own place (index code and squares, chunked and held back)", async () => {
    const out = join(dir, "marked.mp4");
    // A chunk processor that holds back 5 frames, like a tracker with look-ahead.
    const held: Frame[] = [];
    const processor: ChunkProcessor = {
      chunkSize: 16,
      async processChunk(frames, start) {
        frames.forEach((f, i) => held.push(mark(f, start + i)));
        return held.splice(0, Math.max(0, held.length - 5));
      },
      async flush() {
        return held.splice(0);
      },
    };
    await processVideo(clip, out, { processor });
    const info = await probeVideo(out);
    const seen: number[] = [];
    const count = await forEachFrame(out, ({ data }, i) => {
      const marks = readMarks(data, info.width);
      seen.push(marks.index);
      expect(marks.squareAtOwnPlace(i), `square in frame ${i}`).toBe(hasSquare(i));
      // And no square where the neighbours would have drawn theirs.
      for (const j of [i - 10, i + 10]) if (j >= 0 && j !== i && squareAt(j).x !== squareAt(i).x) expect(marks.squareAtOwnPlace(j)).toBe(false);
    });
    expect(count).toBe(125);
    expect(seen).toEqual(Array.from({ length: 125 }, (_, i) => i));
  });

  it("turns rotated MOV frames upright and outputs them without a rotation tag, audio re-encoded to AAC", async () => {
    const out = join(dir, "rotated-out.mp4");
    const sizes = new Set<string>();
    await processVideo(rotated, out, {
      processor: async (f) => {
        sizes.add(`${f.width}x${f.height}`);
        return f;
      },
    });
    expect([...sizes]).toEqual(["640x360"]);
    const info = await probeVideo(out);
    expect(info).toMatchObject({ width: 640, height: 360, codedWidth: 640, codedHeight: 360, rotation: 0, frameCount: 125, audio: { codec: "aac" } });
    const [upright, result] = (await Promise.all([decodeFrames(clip), decodeFrames(out)])).map((v) => v.map((f) => f.data));
    const mean = result.reduce((s, f, i) => s + bufferPsnr(f, upright[i]), 0) / result.length;
    expect(mean).toBeGreaterThan(30);
  });

  it("rounds odd sizes up to even (edge repeated) and keeps the frame count", async () => {
    const odd = await makePanZoomVideo({ outPath: join(dir, "odd.mp4"), width: 319, height: 179, seconds: 1, pixelFormat: "yuv444p", audio: false });
    const out = join(dir, "odd-out.mp4");
    const result = await processVideo(odd, out, { processor: async (f) => f });
    expect(result).toMatchObject({ frames: 25, outputWidth: 320, outputHeight: 180 });
    const info = await probeVideo(out);
    expect(info).toMatchObject({ width: 320, height: 180, frameCount: 25, audio: null });
  });

  it("keeps every frame of a variable-rate video at its own time: conformed to its steady rate, in sync with its audio", async () => {
    // A phone that drops from 10 to 2 fps in the dark: frames at 0, 0.1, ..., 0.9, then 1.0, 1.5,
    // 2.0 and 2.5 s, each as bright as its own time (16 + 60 t), 3 s of sound (the player holds the
    // last frame while it plays on).
    const vfr = join(dir, "vfr.mp4");
    const times = [...Array.from({ length: 10 }, (_, i) => i / 10), 1, 1.5, 2, 2.5];
    execFileSync(ffmpegPath(), [
      "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=160x120:r=10:d=3,select='lt(t\\,1)+not(mod(n\\,5))',geq=lum='16+60*T':cb=128:cr=128",
      "-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-fps_mode", "passthrough", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", vfr,
    ]);
    const input = await probeVideo(vfr);
    // Conformed: a frame every 0.1 s from the first frame to the last (the last is shown for one step).
    expect(input).toMatchObject({ variableFrameRate: true, fps: { num: 10, den: 1 }, frameCount: 26, audio: { codec: "aac" } });
    const sources = (await decodeFrames(vfr)).map((f) => meanRgb(f.data, f.width, 0, 0, f.width, f.height)[1]);
    expect(sources).toHaveLength(times.length);

    const out = join(dir, "vfr-out.mp4");
    const result = await processVideo(vfr, out, { processor: async (f) => f });
    expect(result.frames).toBe(26);
    const info = await probeVideo(out);
    expect(info).toMatchObject({ fps: { num: 10, den: 1 }, variableFrameRate: false, frameCount: 26, audio: { codec: "aac" } });
    expect(Math.abs(info.durationSeconds - 2.6)).toBeLessThanOrEqual(0.01);
    const audio = ffprobeStreams(out).find((s) => s.codec_type === "audio")!;
    expect(Math.abs(Number(audio.duration) - 3)).toBeLessThan(0.1);
    // Output frame k, shown at k / 10 s, is the input frame on screen then (the last one shown by that time).
    const shown = (await decodeFrames(out)).map((f) => meanRgb(f.data, f.width, 0, 0, f.width, f.height)[1]);
    for (const [k, level] of shown.entries()) {
      const source = times.findLastIndex((t) => t <= k / 10 + 1e-6);
      expect(Math.abs(level - sources[source]!), `frame ${k}`).toBeLessThan(3);
    }
  });

  it.each([
    ["HEVC 10-bit in MOV (an iPhone's)", ["-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", "-x265-params", "log-level=error"], "mov", ["-c:a", "aac"]],
    ["H.264 10-bit, 4:4:4 sound as PCM", ["-c:v", "libx264", "-pix_fmt", "yuv444p10le"], "mov", ["-c:a", "pcm_s16le"]],
    ["AV1 with Opus sound", ["-c:v", "libaom-av1", "-cpu-used", "8", "-b:v", "100k"], "mp4", ["-c:a", "libopus"]],
    ["VP9", ["-c:v", "libvpx-vp9", "-b:v", "100k"], "mp4", ["-c:a", "aac"]],
  ])("reads %s: every frame, the sound as AAC", async (_name, video, container, audio) => {
    const input = join(dir, `codec-${container}-${video[1]}.${container}`);
    execFileSync(ffmpegPath(), ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25:duration=1", "-f", "lavfi", "-i", "sine=duration=1", ...video, ...audio, "-shortest", input]);
    const out = join(dir, `codec-out-${video[1]}.mp4`);
    const result = await processVideo(input, out, { processor: async (f) => f });
    expect(result.frames).toBe(25);
    expect(await probeVideo(out)).toMatchObject({ width: 160, height: 120, frameCount: 25, fps: { num: 25, den: 1 }, audio: { stream: 1, codec: "aac" }, codec: "h264" });
    const [a, b] = await Promise.all([decodeFrames(input), decodeFrames(out)]);
    // The same pictures (testsrc2's sharp colour edges through 4:2:0 at CRF 20: 27-29 dB from 10-bit or 4:4:4; a wrong decode is under 15).
    expect(Math.min(...a.map((f, i) => bufferPsnr(f.data, b[i]!.data)))).toBeGreaterThan(25);
  });

  it("processes a clip trimmed without re-encoding: the frames its edit list shows, not those before the cut", async () => {
    // `ffmpeg -ss 2 -i clip -c copy` keeps the packets from the keyframe before 2 s (frame 0 here)
    // and an edit list that starts the clip at 2 s: 125 packets in the container, 75 frames shown.
    const trimmed = join(dir, "trimmed.mp4");
    execFileSync(ffmpegPath(), ["-v", "error", "-y", "-ss", "2", "-i", clip, "-c", "copy", trimmed]);
    expect(ffprobeStreams(trimmed).find((s) => s.codec_type === "video")).toMatchObject({ nb_frames: "125" });
    expect(await probeVideo(trimmed)).toMatchObject({ frameCount: 75, variableFrameRate: false });
    const out = join(dir, "trimmed-out.mp4");
    const result = await processVideo(trimmed, out, { processor: async (f) => f });
    expect(result.frames).toBe(75);
    expect(await probeVideo(out)).toMatchObject({ frameCount: 75, durationSeconds: 3, audio: { codec: "aac" } });
    const [source, output] = await Promise.all([decodeFrames(clip), decodeFrames(out)]);
    expect(bufferPsnr(output[0]!.data, source[50]!.data)).toBeGreaterThan(30);
    expect(bufferPsnr(output[74]!.data, source[124]!.data)).toBeGreaterThan(30);
  });

  it("processes a clip with a stretch cut out by its edit list: the frames either side of the cut", async () => {
    // The demuxer hands over the packets from the keyframe before each shown stretch (300 here for
    // 125 in the container), those not shown marked discarded.
    const plain = join(dir, "header-last.mp4");
    execFileSync(ffmpegPath(), ["-v", "error", "-y", "-i", clip, "-c", "copy", plain]);
    const cut = await makeMiddleCutVideo(plain, join(dir, "middle-cut.mp4"), 1, 3);
    const info = await probeVideo(cut);
    // 1 s + 2 s at 25 fps; the join may hold a frame for a step or two.
    expect(info.frameCount).toBeGreaterThanOrEqual(75);
    expect(info.frameCount).toBeLessThanOrEqual(77);
    const out = join(dir, "middle-cut-out.mp4");
    const result = await processVideo(cut, out, { processor: async (f) => f });
    expect(result.frames).toBe(info.frameCount);
    const [source, output] = await Promise.all([decodeFrames(clip), decodeFrames(out)]);
    // The source frame most like it (absolute difference over every 31st byte).
    const difference = (a: Buffer, b: Buffer) => {
      let sum = 0;
      for (let i = 0; i < a.length; i += 31) sum += Math.abs(a[i]! - b[i]!);
      return sum;
    };
    const closest = (frame: { data: Buffer }) => {
      const differences = source.map((f) => difference(frame.data, f.data));
      return differences.indexOf(Math.min(...differences));
    };
    // Each output frame is the source frame it shows: 0-24, then 75-124 (a frame held at the join).
    const shown = output.map((f) => closest(f));
    expect(shown.filter((k, i) => k !== shown[i - 1])).toEqual([...Array.from({ length: 25 }, (_, k) => k), ...Array.from({ length: 50 }, (_, k) => 75 + k)]);
  });

  it("turns HDR video (HLG in BT.2020, an iPhone's default) into SDR with the colours an SDR camera gives", async () => {
    // The test clip's first second put into HLG as BT.2408 has it (SDR white at HDR reference
    // white, 203 nits), 10-bit HEVC: what the decoder must bring back.
    const hlg = join(dir, "hlg.mov");
    execFileSync(ffmpegPath(), [
      "-v", "error", "-y", "-i", clip, "-t", "1", "-an",
      "-vf", "zscale=tin=bt709:pin=bt709:min=bt709:t=arib-std-b67:p=bt2020:m=bt2020nc:npl=203,format=yuv420p10le",
      "-c:v", "libx265", "-preset", "ultrafast", "-crf", "12", "-tag:v", "hvc1",
      "-x265-params", "log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc", hlg,
    ]);
    expect(await probeVideo(hlg)).toMatchObject({ hdr: { transfer: "arib-std-b67", primaries: "bt2020", matrix: "bt2020nc" }, frameCount: 25 });
    expect(await probeVideo(clip)).toMatchObject({ hdr: null });
    const out = join(dir, "hlg-out.mp4");
    expect((await processVideo(hlg, out, { processor: async (f) => f })).frames).toBe(25);
    const [source, output] = await Promise.all([decodeFrames(clip), decodeFrames(out)]);
    for (const [i, frame] of output.entries()) {
      const [got, want] = [meanRgb(frame.data, frame.width, 0, 0, frame.width, frame.height), meanRgb(source[i]!.data, frame.width, 0, 0, frame.width, frame.height)];
      // Within 1.5 here; read as SDR, the red was 8.7 too dark.
      for (const c of [0, 1, 2]) expect(Math.abs(got[c] - want[c]), `frame ${i} channel ${c}`).toBeLessThan(3);
    }
  });

  it("processes the video, not a cover picture the file lists before it", async () => {
    const covered = await makeCoverFirstVideo(clip, join(dir, "cover-first.mp4"));
    const streams = ffprobeStreams(covered);
    expect(streams[0]).toMatchObject({ codec_name: "png", width: 200, disposition: { attached_pic: 1 } });
    expect(await probeVideo(covered)).toMatchObject({ width: 640, height: 360, frameCount: 125, videoStream: 1 });
    const out = join(dir, "cover-first-out.mp4");
    const result = await processVideo(covered, out, { processor: async (f) => f });
    expect(result.frames).toBe(125);
    expect(await probeVideo(out)).toMatchObject({ width: 640, height: 360, frameCount: 125, audio: { codec: "aac" } });
    const [a, b] = await Promise.all([decodeFrames(clip), decodeFrames(out)]);
    expect(Math.min(...a.map((f, i) => bufferPsnr(f.data, b[i]!.data)))).toBeGreaterThan(30);
  });

  it("keeps the audio it can decode when the file lists spatial audio (APAC) first, as an iPhone 16 may; refuses a video whose only audio it cannot decode", async () => {
    const spatial = await makeSpatialAudioVideo(clip, join(dir, "spatial.mp4"));
    expect(ffprobeStreams(spatial).map((s) => [s.codec_type, s.codec_tag_string, s.codec_name ?? null])).toEqual([["video", "avc1", "h264"], ["audio", "apac", null], ["audio", "mp4a", "aac"]]);
    expect(await probeVideo(spatial)).toMatchObject({ audio: { stream: 2, codec: "aac" } });
    const out = join(dir, "spatial-out.mp4");
    await processVideo(spatial, out, { processor: async (f) => f });
    const audio = ffprobeStreams(out).filter((s) => s.codec_type === "audio");
    expect(audio).toHaveLength(1);
    expect(audio[0]).toMatchObject({ codec_name: "aac", channels: 2 });
    expect(Math.abs(Number(audio[0]!.duration) - 5)).toBeLessThan(0.1);

    const only = await makeSpatialAudioVideo(clip, join(dir, "spatial-only.mp4"), false);
    await expect(probeVideo(only)).rejects.toMatchObject({ code: "unsupported_media_format", message: expect.stringContaining("audio cannot be decoded (codec apac)") });
  });

  it("refuses a video over the limits with media_too_large", async () => {
    const limits = { ...DEFAULT_VIDEO_LIMITS, maxDurationSeconds: 2 };
    await expect(processVideo(clip, join(dir, "never.mp4"), { processor: async (f) => f, limits })).rejects.toMatchObject({ code: "media_too_large", message: "The video lasts 5.0 s; the limit is 2 s." });
    const frames = { ...DEFAULT_VIDEO_LIMITS, maxFrames: 100 };
    await expect(processVideo(clip, join(dir, "never.mp4"), { processor: async (f) => f, limits: frames })).rejects.toMatchObject({ code: "media_too_large", message: "The video has 125 frames; the limit is 100." });
  });

  it("processes a phone's 240 fps slow motion: every frame, at its rate, which the processor is told before its first frame", async () => {
    const slowMotion = join(dir, "slow-motion.mov");
    execFileSync(ffmpegPath(), ["-v", "error", "-y", "-i", clip, "-t", "1", "-vf", "scale=320:180,fps=240", "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "copy", slowMotion]);
    const out = join(dir, "slow-motion-out.mp4");
    const told: string[] = [];
    const processor: ChunkProcessor = {
      chunkSize: 16,
      start: (video) => told.push(`${video.fps.num}/${video.fps.den}`),
      processChunk: async (frames, startIndex) => (told.push(`chunk ${startIndex}`), frames),
    };
    const result = await processVideo(slowMotion, out, { processor });
    expect(told.slice(0, 2)).toEqual(["240/1", "chunk 0"]);
    expect(result.frames).toBe(240);
    expect(await probeVideo(out)).toMatchObject({ fps: { num: 240, den: 1 }, frameCount: 240, audio: { codec: "aac" } });
    await expect(processVideo(slowMotion, join(dir, "never.mp4"), { processor: async (f) => f, limits: { ...DEFAULT_VIDEO_LIMITS, maxFps: 120 } })).rejects.toMatchObject({ code: "media_too_large", message: "The video runs at 240.00 fps; the limit is 120 fps." });
  });
});

describe("processVideo failures leave nothing behind", () => {
  async function expectClean(tempDir: string, out: string) {
    expect(await readdir(tempDir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
    expect(ffmpegChildren()).toEqual([]);
  }

  it("a corrupt input (header intact, data garbled) fails with corrupt_media", async () => {
    const garbled = await makeGarbledVideo(clip, join(dir, "garbled.mp4"));
    const tempDir = join(dir, "tmp-garbled");
    await mkdir(tempDir);
    const out = join(dir, "garbled-out.mp4");
    const error = await processVideo(garbled, out, { processor: async (f) => f, tempDir }).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe("corrupt_media");
    await expectClean(tempDir, out);
  });

  it("a cut-short input fails with corrupt_media", async () => {
    const truncated = await makeTruncatedVideo(clip, join(dir, "truncated2.mp4"), 50_000);
    const tempDir = join(dir, "tmp-truncated");
    await mkdir(tempDir);
    const out = join(dir, "truncated-out.mp4");
    await expect(processVideo(truncated, out, { processor: async (f) => f, tempDir })).rejects.toMatchObject({ code: "corrupt_media" });
    await expectClean(tempDir, out);
  });

  it("a processor error mid-video kills ffmpeg, removes temp files and surfaces the error", async () => {
    const tempDir = join(dir, "tmp-throw");
    await mkdir(tempDir);
    const out = join(dir, "throw-out.mp4");
    const processor = async (f: Frame, i: number) => {
      if (i === 40) throw new Error("model crashed");
      return f;
    };
    await expect(processVideo(clip, out, { processor, tempDir })).rejects.toThrow("model crashed");
    await expectClean(tempDir, out);
  });

  it("a processor that fails while the decoder is ahead of it (its output unread) still ends: the error, nothing left", async () => {
    const tempDir = join(dir, "tmp-slow-throw");
    await mkdir(tempDir);
    const out = join(dir, "slow-throw-out.mp4");
    // Slow enough for the decoder to fill its pipe and wait: its exit was never noticed before.
    const processor = {
      chunkSize: 2,
      async processChunk(frames: Frame[], start: number) {
        if (start < 4) return frames;
        await new Promise((resolve) => setTimeout(resolve, 800));
        throw new Error("model crashed late");
      },
    };
    await expect(processVideo(clip, out, { processor, tempDir })).rejects.toThrow("model crashed late");
    await expectClean(tempDir, out);
  });

  it("an abort mid-video kills ffmpeg, removes temp files and rejects with the abort reason", async () => {
    const tempDir = join(dir, "tmp-abort");
    await mkdir(tempDir);
    const out = join(dir, "abort-out.mp4");
    const controller = new AbortController();
    let runningMidway: string[] = [];
    const processor = async (f: Frame, i: number) => {
      if (i === 20) runningMidway = ffmpegChildren();
      if (i === 40) controller.abort(new Error("job cancelled"));
      await new Promise((r) => setTimeout(r, 1));
      return f;
    };
    await expect(processVideo(clip, out, { processor, tempDir, signal: controller.signal })).rejects.toThrow("job cancelled");
    expect(runningMidway.length).toBe(2); // decoder and encoder were there: the check below is meaningful
    await expectClean(tempDir, out);
  });

  it("a processor that drops frames is caught (internal_error), not silently shortened", async () => {
    const tempDir = join(dir, "tmp-drop");
    await mkdir(tempDir);
    const out = join(dir, "drop-out.mp4");
    const processor: ChunkProcessor = { chunkSize: 8, processChunk: async (frames) => frames.slice(1) };
    await expect(processVideo(clip, out, { processor, tempDir })).rejects.toMatchObject({ code: "internal_error" });
    await expectClean(tempDir, out);
  });

  it("writes nothing for a non-video upload", async () => {
    const text = join(dir, "notes.mp4");
    await writeFile(text, "just some text, not a video at all");
    await expect(processVideo(text, join(dir, "notes-out.mp4"), { processor: async (f) => f })).rejects.toMatchObject({ code: "unsupported_media_format" });
  });
});

describe("frameTiming", () => {
  const tb = (den: number) => ({ num: 1, den });
  it("leaves constant-rate timestamps alone, QuickTime's 29.97 in a timescale of 600 (steps of 20 and 21) included", () => {
    expect(frameTiming(Array.from({ length: 300 }, (_, i) => i * 512), tb(15360), { num: 30, den: 1 })).toEqual({ variable: false });
    const quickTime = Array.from({ length: 300 }, (_, i) => Math.round((i * 600 * 1001) / 30000));
    expect(frameTiming(quickTime, tb(600), { num: 30000, den: 1001 })).toEqual({ variable: false });
    // B-frames: packets come in decoding order.
    expect(frameTiming([0, 3, 1, 2, 6, 4, 5], tb(25), { num: 25, den: 1 })).toEqual({ variable: false });
  });
  it("conforms a video whose frames a constant rate would move by more than half a frame, at its typical step", () => {
    // 29.97 fps, then a second at 15 fps (every other frame missing), then 29.97 again.
    const steps = [...Array(60).fill(3003), ...Array(15).fill(6006), ...Array(60).fill(3003)];
    const pts = steps.reduce<number[]>((all, d) => [...all, all.at(-1)! + d], [0]);
    // 5.005 s from the first frame to the last: 150 steps of 1001/30000 s, 151 frames.
    expect(frameTiming(pts, tb(90000), { num: 136, den: 5 })).toEqual({ variable: true, rate: { num: 30000, den: 1001 }, frames: 151 });
  });
});
