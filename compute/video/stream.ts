// The video pipeline: probe, then stream. One ffmpeg decodes to upright rgb24 frames on a pipe,
// the frames go through a processor in chunks, a second ffmpeg encodes them to H.264/MP4 with the
// input's audio. Memory holds at most two chunks plus what the processor holds back, whatever the
// length of the video; the output is written in a private temp dir and moved into place only when
// complete, and the temp dir is removed on every path out.
import { copyFile, mkdtemp, rename, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError } from "../../schema/errors.ts";
import type { Frame } from "../types.ts";
import { ffmpegPath, startMediaProcess } from "./ffmpeg.ts";
import type { MediaProcess } from "./ffmpeg.ts";
import { RawFrameReader, writeWithBackpressure } from "./frames.ts";
import { checkVideoLimits } from "./limits.ts";
import { decoderLimits, encoderLimits } from "./process-limits.ts";
import { untrustedInput } from "./sandbox.ts";
import type { VideoLimits } from "./limits.ts";
import { probeVideo } from "./probe.ts";
import type { HdrColour, VideoInfo } from "./probe.ts";

/** The simple form: one frame in, one frame out (same size, rgb24). */
export type FrameProcessor = (frame: Frame, index: number) => Promise<Frame>;

/**
 * The general form, for models that want many frames at once and for look-ahead (a tracker that
 * must see frame i+L before it can finish frame i). The pipeline calls `processChunk` with
 * consecutive runs of frames, at most `chunkSize` each; it returns processed frames in order,
 * continuing where its previous return stopped. It may return fewer frames than it was given
 * (holding the rest back) but never more than it has received in total; `flush` returns every
 * frame still held back at the end. The pipeline checks that every frame comes back exactly once.
 * `close` releases what the processor holds (threads), after success or failure alike.
 */
export interface ChunkProcessor {
  readonly chunkSize: number;
  /** Told the video's rate once it is probed, before the first chunk (a tracker's time constants follow it). */
  start?(video: Pick<VideoInfo, "fps">): void;
  processChunk(frames: Frame[], startIndex: number): Promise<Frame[]>;
  flush?(): Promise<Frame[]>;
  close?(): Promise<void> | void;
}

export interface EncoderSettings {
  /** libx264 preset. */
  preset: string;
  /** libx264 constant rate factor (lower = better). */
  crf: number;
}

/** veryfast/20: visually clean output at a speed a 2-core machine can sustain. */
export const DEFAULT_ENCODER: EncoderSettings = { preset: "veryfast", crf: 20 };

/**
 * Upper bound on the bytes of one chunk of raw frames. A 1080p rgb24 frame is 6.2 MB, so 128
 * frames would be 800 MB: the chunk size is lowered to fit (processors must accept any chunk
 * length up to their chunkSize anyway, because the last chunk is short).
 */
export const DEFAULT_MAX_CHUNK_BYTES = 256 * 1024 ** 2;

/**
 * Decoded frames may fall a little short of the container's count (edit lists hide a frame or
 * two); more than 2% + 2 frames short means the data is cut off.
 */
const TRUNCATION_TOLERANCE = 0.98;

export interface ProcessVideoOptions {
  processor: FrameProcessor | ChunkProcessor;
  signal?: AbortSignal;
  /** 0..100 by frames written / frames expected; 100 only once the output file is complete. */
  onProgress?: (percent: number) => void;
  encoder?: Partial<EncoderSettings>;
  limits?: VideoLimits;
  /** Where the private temp dir is made (default: the OS temp dir). */
  tempDir?: string;
  maxChunkBytes?: number;
  /** Called once the input is probed and accepted, before decoding starts. */
  onProbe?: (info: VideoInfo) => void;
}

export interface ProcessVideoResult {
  info: VideoInfo;
  /** Frames decoded and written (equal in the output). */
  frames: number;
  outputWidth: number;
  outputHeight: number;
  chunkSize: number;
}

/** Wraps a per-frame function as a chunk processor (frames run one after another, in order). */
export function perFrame(fn: FrameProcessor, chunkSize = 1): ChunkProcessor {
  return {
    chunkSize,
    async processChunk(frames, startIndex) {
      const out: Frame[] = [];
      for (let i = 0; i < frames.length; i++) out.push(await fn(frames[i], startIndex + i));
      return out;
    },
  };
}

/**
 * Process a local MP4/MOV into an H.264 MP4 at `outputPath`. Throws ApiError
 * (unsupported_media_format, corrupt_media, media_too_large, internal_error), the processor's own
 * errors, or the abort reason. Child processes are killed and temp files removed on every failure.
 */
export async function processVideo(inputPath: string, outputPath: string, options: ProcessVideoOptions): Promise<ProcessVideoResult> {
  const { signal } = options;
  signal?.throwIfAborted();
  const info = await probeVideo(inputPath, signal);
  checkVideoLimits(info, options.limits);
  options.onProbe?.(info);

  const processor = typeof options.processor === "function" ? perFrame(options.processor) : options.processor;
  processor.start?.(info);
  const frameBytes = info.width * info.height * 3;
  const maxChunkBytes = options.maxChunkBytes ?? DEFAULT_MAX_CHUNK_BYTES;
  const chunkSize = Math.max(1, Math.min(Math.floor(processor.chunkSize) || 1, Math.floor(maxChunkBytes / frameBytes)));
  const encoder = { ...DEFAULT_ENCODER, ...options.encoder };
  const outputWidth = info.width + (info.width % 2);
  const outputHeight = info.height + (info.height % 2);

  // One controller kills both children, whether the caller aborts or something fails inside.
  const kill = new AbortController();
  const onAbort = () => kill.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });

  const workDir = await mkdtemp(join(options.tempDir ?? tmpdir(), "obscura-video-"));
  const tempOutput = join(workDir, "output.mp4");
  let decoder: MediaProcess | undefined;
  let encoderProc: MediaProcess | undefined;
  let lastPercent = -1;
  const report = (percent: number) => {
    if (percent !== lastPercent) {
      lastPercent = percent;
      options.onProgress?.(percent);
    }
  };
  try {
    decoder = await startMediaProcess(ffmpegPath(), decoderArgs(inputPath, info), { stdout: true, signal: kill.signal, limits: decoderLimits(info) });
    encoderProc = await startMediaProcess(ffmpegPath(), encoderArgs(inputPath, tempOutput, info, encoder), { stdin: true, signal: kill.signal, limits: encoderLimits(info) });
    const enc = encoderProc;
    const encoderDied: Promise<never> = enc.exited.then((code) => {
      throw encoderFailure(enc, `stopped (exit ${code})`);
    });
    encoderDied.catch(() => {});

    const reader = new RawFrameReader(decoder.stdout!, frameBytes);
    let received = 0;
    let written = 0;
    const write = async (frames: Frame[]) => {
      for (const frame of frames) {
        if (written >= received) throw new ApiError("internal_error", "The frame processor returned more frames than it was given.");
        assertFrameShape(frame, info);
        await writeWithBackpressure(enc.stdin!, frame.data, encoderDied);
        written++;
      }
      report(Math.min(99, Math.floor((written / Math.max(info.frameCount, received)) * 100)));
    };

    report(0);
    // Read the next chunk while the current one is processed: decoding overlaps processing.
    let nextChunk = reader.take(chunkSize);
    for (;;) {
      const buffers = await nextChunk;
      kill.signal.throwIfAborted();
      if (buffers.length === 0) break;
      nextChunk = reader.take(chunkSize);
      nextChunk.catch(() => {});
      const frames: Frame[] = buffers.map((data) => ({ data, width: info.width, height: info.height, channels: 3 }));
      const startIndex = received;
      received += frames.length;
      await write(await processor.processChunk(frames, startIndex));
      kill.signal.throwIfAborted();
    }
    if (processor.flush) await write(await processor.flush());
    kill.signal.throwIfAborted();

    const decoderCode = await decoder.exited;
    if (decoderCode !== 0) {
      // A video within the media limits never needs more than its decoder's limits (sized from
      // its probed frames): one that does is refused like any other undecodable file.
      const limit = decoder.limitBroken();
      if (limit) throw new ApiError("corrupt_media", `The video could not be decoded: decoding exceeded its ${limit.text}.`);
      throw new ApiError("corrupt_media", `The video could not be decoded: ${lastLines(decoder.stderrTail()) || `exit ${decoderCode}`}`);
    }
    if (received === 0) throw new ApiError("corrupt_media", "The video has no decodable frames.");
    if (received < info.frameCount * TRUNCATION_TOLERANCE - 2) {
      // The header promises more than the data holds (an interrupted upload): refuse rather than
      // return a silently shortened video.
      throw new ApiError("corrupt_media", `The video is truncated: ${received} of ${info.frameCount} frames could be decoded.`);
    }
    if (written !== received) {
      throw new ApiError("internal_error", `The frame processor returned ${written} of ${received} frames.`);
    }
    enc.stdin!.end();
    const encoderCode = await enc.exited;
    if (encoderCode !== 0) throw encoderFailure(enc, `failed (exit ${encoderCode})`);
    await moveFile(tempOutput, outputPath);
    report(100);
    return { info, frames: written, outputWidth, outputHeight, chunkSize };
  } catch (error) {
    kill.abort(error);
    throw signal?.aborted ? signal.reason : error;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await processor.close?.();
    // Wait for the children to be gone before deleting the dir they write into.
    await Promise.all([decoder?.exited, encoderProc?.exited]);
    await rm(workDir, { recursive: true, force: true });
  }
}

/** The output outgrowing its size limit is the video's size (413); any other encoder failure is ours. */
function encoderFailure(enc: MediaProcess, how: string): ApiError {
  const limit = enc.limitBroken();
  if (limit?.kind === "output-size") return new ApiError("media_too_large", `The processed video outgrew the encoder's ${limit.text}.`);
  if (limit) return new ApiError("internal_error", `The video encoder exceeded its ${limit.text}.`);
  return new ApiError("internal_error", `The video encoder ${how}: ${lastLines(enc.stderrTail())}`);
}

/**
 * HDR frames to BT.709 SDR (zimg, from the stream's own transfer, primaries and
 * matrix), before the last step's BT.709 transfer: linear light with HDR reference white (203
 * nits, BT.2408; HLG's 75 % signal) as SDR white, BT.709 primaries, and highlights above 0.8 of it
 * rolled off (mobius) up to the signal's peak, with their colour kept (desat=0). Mid-tones, skin
 * among them, come out as an SDR camera would have them; without this an iPhone's HLG video came
 * out dark and dull (its reference white at 189 of 255, its colours pale).
 */
function hdrToSdr({ transfer, primaries, matrix }: HdrColour): string[] {
  return [`zscale=tin=${transfer}:pin=${primaries}:min=${matrix}:t=linear:npl=203`, "format=gbrpf32le", "zscale=p=bt709", "tonemap=tonemap=mobius:param=0.8:desat=0"];
}

/**
 * Decoded frames to the pipeline's RGB: the upright display size (explicit, so every frame has the
 * length the reader cuts by), BT.709 SDR, the colour matrix the stream's tag names.
 */
export function toRgbFilters(info: VideoInfo): string[] {
  const size = `w=${info.width}:h=${info.height}`;
  return info.hdr ? [...hdrToSdr(info.hdr), `zscale=${size}:t=bt709`, "format=rgb24"] : [`scale=${size}:in_color_matrix=auto`, "format=rgb24"];
}

function decoderArgs(inputPath: string, info: VideoInfo): string[] {
  return [
    "-hide_banner", "-nostdin", "-v", "error",
    ...untrustedInput(inputPath),
    "-map", `0:${info.videoStream}`, "-an", "-sn", "-dn",
    // Every decoded frame exactly once: no duplication or dropping to a nominal rate (but the fps
    // filter's for a variable-rate video, below).
    "-vsync", "passthrough",
    // ffmpeg's autorotate turns the frames upright before these filters. A variable-rate video is
    // conformed to its constant rate first (frame-timing.ts), from its own first frame (the
    // encoder's -itsoffset keeps a late start late).
    "-vf", [...(info.variableFrameRate ? ["setpts=PTS-STARTPTS", `fps=${info.fps.num}/${info.fps.den}`] : []), ...toRgbFilters(info)].join(","),
    "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1",
  ];
}

function encoderArgs(inputPath: string, outputPath: string, info: VideoInfo, encoder: EncoderSettings): string[] {
  const filters: string[] = [];
  const padRight = info.width % 2;
  const padBottom = info.height % 2;
  if (padRight || padBottom) {
    // 4:2:0 needs even sides: add one row/column repeating the edge rather than a black line.
    filters.push(`pad=${info.width + padRight}:${info.height + padBottom}:0:0`);
    filters.push(`fillborders=right=${padRight}:bottom=${padBottom}:mode=smear`);
  }
  const sar = info.sampleAspectRatio;
  if (sar.num !== sar.den) filters.push(`setsar=${sar.num}/${sar.den}`);
  filters.push("scale=out_color_matrix=bt709:out_range=tv", "format=yuv420p");

  const args = [
    "-hide_banner", "-nostdin", "-v", "error", "-y",
    "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${info.width}x${info.height}`,
    "-framerate", `${info.fps.num}/${info.fps.den}`,
  ];
  // Keep a late-starting video late relative to its audio, so lip sync survives re-encoding.
  if (info.videoStartSeconds > 0.0005) args.push("-itsoffset", info.videoStartSeconds.toFixed(6));
  args.push("-protocol_whitelist", "pipe", "-i", "pipe:0");
  // The audio is demuxed from the untrusted file: the same guarded input as the decoder's.
  if (info.audio) args.push(...untrustedInput(inputPath));
  args.push("-map", "0:v:0");
  if (info.audio) {
    args.push("-map", `1:${info.audio.stream}`);
    args.push(...(info.audio.codec === "aac" ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "160k"]));
  }
  args.push(
    "-vf", filters.join(","),
    ...encoderSettingsArgs(encoder),
    "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
    // A privacy service must not carry the input's metadata (GPS position, device, names) over.
    "-map_metadata", "-1", "-map_chapters", "-1",
    "-movflags", "+faststart",
    "-f", "mp4", outputPath,
  );
  return args;
}

/** The encoder arguments, exposed so the benchmark measures the floor with the same settings. */
export function encoderSettingsArgs(encoder: EncoderSettings = DEFAULT_ENCODER): string[] {
  return ["-c:v", "libx264", "-preset", encoder.preset, "-crf", String(encoder.crf), "-pix_fmt", "yuv420p"];
}

function assertFrameShape(frame: Frame, info: VideoInfo): void {
  if (frame.width !== info.width || frame.height !== info.height || frame.channels !== 3 || frame.data.length !== info.width * info.height * 3) {
    throw new ApiError(
      "internal_error",
      `The frame processor returned a ${frame.width}x${frame.height}x${frame.channels} frame; expected ${info.width}x${info.height}x3.`,
    );
  }
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await copyFile(from, to);
    await unlink(from);
  }
}

function lastLines(text: string): string {
  return text.split("\n").map((l) => l.trim()).filter(Boolean).slice(-3).join(" | ").slice(0, 400);
}
