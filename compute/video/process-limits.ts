// How much one ffmpeg/ffprobe may take: CPU seconds, address space, bytes written to files. A
// hostile file (a decoder bug, a bomb that decodes forever or allocates without end) then costs
// one failed task, never the instance. The CPU budget scales with the work the probed video
// declares, so a small file gets seconds and a legitimate 4K/600 s video still passes.
//
// Measured with Debian's ffmpeg 5.1 on a 2-core machine (README, "Untrusted media"), per megapixel
// of one frame: decoding to rgb24 0.025 CPU-s (H.264 4K at 1.1 Gbit/s), 0.05 (HEVC 4K); encoding
// with libx264 veryfast 0.07 (4K noise, the worst case). Address space at the most threads a
// 16-core host gives them: 2.2 GB (HEVC 4K decode, 17 threads), 3.9 GB (x264 4K encode, 24 threads).
import { MAX_VIDEO_BYTES, MAX_VIDEO_FRAMES } from "../../schema/limits.ts";
import type { VideoInfo } from "./probe.ts";

export interface ProcessLimits {
  /** CPU time of the whole process (all its threads), seconds; SIGKILL when spent. None: the caller's own timeout bounds it. */
  cpuSeconds?: number;
  /** Address space (or, with `memory: "data"`, heap and private writable mappings), bytes: allocations beyond it fail. */
  memoryBytes: number;
  /**
   * Which kernel limit bounds memory: RLIMIT_AS (default; ffmpeg) or RLIMIT_DATA, for Node, whose
   * V8 and WebAssembly reserve gigabytes of address space they never touch (node dies at start
   * under RLIMIT_AS of 8 GB with a WebAssembly module loaded); RLIMIT_DATA counts what is made
   * writable, which is what a decoder's allocations are.
   */
  memory?: "address-space" | "data";
  /** Largest file the process may write, bytes (0: it writes to pipes only). */
  fileBytes: number;
}

const MiB = 1024 ** 2;

/** CPU budget per megapixel-frame: 5x the costliest codec measured, for slower CPUs and heavier codecs (AV1, 10-bit). */
const DECODE_CPU_PER_MEGAPIXEL_FRAME = 0.25;
const ENCODE_CPU_PER_MEGAPIXEL_FRAME = 0.35;
/** Start-up, demuxing, seeking, audio: what a process needs whatever the frames. */
const BASE_CPU_SECONDS = 30;
/** ffprobe only demuxes (0.7 CPU-s for a 290 MB 4K file, every packet read). */
const PROBE_CPU_SECONDS = 60;
/** 1.5x the 3.9 GB peak measured for x264 at 24 threads. */
const DEFAULT_MEMORY_MB = 6144;
/** 4x the largest accepted input: CRF 20 output measured at 0.4x its input for 4K noise. */
const DEFAULT_OUTPUT_MB = (4 * MAX_VIDEO_BYTES) / MiB;

/**
 * A positive number from the environment variable `name`, else `fallback`: the operator overrides
 * (README). Here FFMPEG_CPU_SCALE multiplies every CPU budget and FFMPEG_MEMORY_MB,
 * FFMPEG_OUTPUT_MB replace the defaults; the image decoders read theirs with it too.
 */
export function positiveSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number (got ${raw}).`);
  return value;
}

function cpu(seconds: number): number {
  // RLIMIT_CPU counts whole seconds.
  return Math.max(1, Math.ceil(seconds * positiveSetting("FFMPEG_CPU_SCALE", 1)));
}

function memoryBytes(): number {
  return Math.round(positiveSetting("FFMPEG_MEMORY_MB", DEFAULT_MEMORY_MB) * MiB);
}

/** Megapixel-frames the video declares, bounded by what the media limits allow however many frames the header claims. */
function megapixelFrames(info: VideoInfo): number {
  const frames = Math.min(Math.max(info.frameCount, 1), MAX_VIDEO_FRAMES);
  return (frames * info.width * info.height) / 1e6;
}

/** ffprobe reading the container: nothing decoded, nothing written. */
export function probeLimits(): ProcessLimits {
  return { cpuSeconds: cpu(PROBE_CPU_SECONDS), memoryBytes: memoryBytes(), fileBytes: 0 };
}

/** An ffmpeg decoding the video's frames to a pipe (the whole video, or a seek to one frame). */
export function decoderLimits(info: VideoInfo): ProcessLimits {
  return { cpuSeconds: cpu(BASE_CPU_SECONDS + DECODE_CPU_PER_MEGAPIXEL_FRAME * megapixelFrames(info)), memoryBytes: memoryBytes(), fileBytes: 0 };
}

/** The ffmpeg encoding the processed frames, with the input's audio, into the output file. */
export function encoderLimits(info: VideoInfo): ProcessLimits {
  return {
    cpuSeconds: cpu(BASE_CPU_SECONDS + ENCODE_CPU_PER_MEGAPIXEL_FRAME * megapixelFrames(info)),
    memoryBytes: memoryBytes(),
    fileBytes: Math.round(positiveSetting("FFMPEG_OUTPUT_MB", DEFAULT_OUTPUT_MB) * MiB),
  };
}
