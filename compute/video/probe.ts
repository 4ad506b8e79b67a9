// What a video is, before a single frame is decoded: the facts the pipeline needs to size its
// pipes and to give the output the same shape, and the early refusal of what we cannot handle.
// The container is sniffed from the bytes (a renamed .mkv or a JPEG called .mp4 is refused as
// unsupported); a file that looks like MP4/MOV but that ffprobe cannot read is corrupt.
import { open, stat } from "node:fs/promises";
import { ApiError } from "../../schema/errors.ts";
import { checkContainerComplete } from "./container.ts";
import { frameTiming } from "./frame-timing.ts";
import { parseRational, type Rational } from "./rational.ts";
import { ffprobePath, runMediaTool } from "./ffmpeg.ts";
import { probeLimits } from "./process-limits.ts";
import { untrustedProbeInput } from "./sandbox.ts";
import type { BrokenLimit } from "./sandbox.ts";

export interface VideoInfo {
  /** Display size: the size of the upright frames the pipeline hands to processors. */
  width: number;
  height: number;
  /** Size as stored in the stream, before rotation. */
  codedWidth: number;
  codedHeight: number;
  /**
   * The rate frames are decoded and written at, exact: the stream's average rate, or for a
   * variable-rate video the constant rate it is conformed to (frame-timing.ts).
   */
  fps: Rational;
  /**
   * A variable-rate video: its frames are conformed to `fps` when decoded (repeated or dropped at
   * their own times, frame-timing.ts), from its first frame to its last.
   */
  variableFrameRate: boolean;
  /** Frames in the video stream (container count, or counted packets when it has none); for a variable-rate one, the conformed count. */
  frameCount: number;
  durationSeconds: number;
  /** Clockwise degrees the stored frames are turned for display (legacy `rotate` tag sense: a portrait phone clip is 90). */
  rotation: 0 | 90 | 180 | 270;
  /** The audio kept in the output (null for a silent video). */
  audio: AudioTrack | null;
  /** ffmpeg codec name of the video stream ("h264", "hevc", ...). */
  codec: string;
  container: "mp4" | "mov";
  /** Video start relative to the container start, so audio stays in sync after re-encoding. */
  videoStartSeconds: number;
  sampleAspectRatio: Rational;
  sizeBytes: number;
  /**
   * HDR video (HLG, as an iPhone records by default, or PQ): its transfer, primaries and matrix,
   * in ffmpeg's names (primaries and matrix BT.2020 where the stream leaves them out), which the
   * decoder converts to BT.709 SDR, the output's colours (compute/video/README.md). Null for SDR.
   */
  hdr: HdrColour | null;
  /**
   * The container's index of the video stream processed (ffmpeg's `-map 0:N`): the first video
   * stream that is not a cover picture, which a file may list before its video.
   */
  videoStream: number;
}

/**
 * The first audio stream ffmpeg can decode. A file may list one it cannot first (an iPhone 16's
 * spatial audio, APAC, beside its AAC stereo track), so the stream is mapped by its index.
 */
export interface AudioTrack {
  /** The container's index of the stream (ffmpeg's `-map N:index`). */
  stream: number;
  /** ffmpeg codec name ("aac", "pcm_s16le", ...). */
  codec: string;
}

export interface HdrColour {
  transfer: "arib-std-b67" | "smpte2084";
  primaries: "bt2020" | "bt709";
  matrix: "bt2020nc" | "bt709";
}

/** HLG or PQ (HDR10, Dolby Vision's base layer); primaries and matrix as tagged, else BT.2020's. */
function hdrColour(stream: FfprobeStream): HdrColour | null {
  const transfer = stream.color_transfer;
  if (transfer !== "arib-std-b67" && transfer !== "smpte2084") return null;
  return { transfer, primaries: stream.color_primaries === "bt709" ? "bt709" : "bt2020", matrix: stream.color_space === "bt709" ? "bt709" : "bt2020nc" };
}

/** ISO-BMFF / QuickTime top-level box types a file may start with. */
const LEADING_BOX_TYPES = new Set(["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot", "uuid"]);

/** Sniff MP4/MOV from the first bytes; returns which, or throws the right ApiError. */
export async function sniffContainer(path: string): Promise<"mp4" | "mov"> {
  const handle = await open(path, "r").catch(() => {
    throw new ApiError("corrupt_media", "The video file could not be read.");
  });
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    if (bytesRead < 12) throw new ApiError("corrupt_media", "The video file is empty or truncated.");
    const boxType = head.toString("latin1", 4, 8);
    if (!LEADING_BOX_TYPES.has(boxType)) {
      throw new ApiError("unsupported_media_format", "The file is not an MP4 or MOV video (checked from its bytes). Supported formats: MP4, MOV.");
    }
    if (boxType !== "ftyp") return "mov"; // pre-ftyp QuickTime files
    const brand = head.toString("latin1", 8, 12);
    return brand === "qt  " ? "mov" : "mp4";
  } finally {
    await handle.close();
  }
}

interface FfprobeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  codec_tag_string?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  time_base?: string;
  nb_frames?: string;
  duration?: string;
  start_time?: string;
  sample_aspect_ratio?: string;
  color_transfer?: string;
  color_primaries?: string;
  color_space?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
  disposition?: { attached_pic?: number };
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string; start_time?: string; size?: string };
}

/** The display rotation, from the display matrix (counter-clockwise in ffprobe) or the old tag. */
function rotationOf(stream: FfprobeStream): 0 | 90 | 180 | 270 {
  const matrix = stream.side_data_list?.find((d) => typeof d.rotation === "number");
  let clockwise = 0;
  if (matrix) clockwise = -(matrix.rotation as number);
  else if (stream.tags?.rotate) clockwise = Number(stream.tags.rotate) || 0;
  // ffmpeg's autorotate only handles quarter turns; other angles are rare enough to round.
  const quarter = ((Math.round(clockwise / 90) % 4) + 4) % 4;
  return (quarter * 90) as 0 | 90 | 180 | 270;
}

/**
 * Probe a local MP4/MOV file. Throws ApiError unsupported_media_format (not MP4/MOV, no video
 * stream, codec ffmpeg cannot decode) or corrupt_media (looks like MP4/MOV but unreadable, or cut short).
 */
export async function probeVideo(path: string, signal?: AbortSignal): Promise<VideoInfo> {
  const container = await sniffContainer(path);
  await checkContainerComplete(path);
  const { size } = await stat(path);
  const result = await runMediaTool(ffprobePath(), ["-v", "error", "-show_streams", "-show_format", "-of", "json", ...untrustedProbeInput(path)], signal, probeLimits());
  signal?.throwIfAborted();
  if (result.code !== 0) throw unreadable(result);
  const parsed = JSON.parse(result.stdout) as FfprobeOutput;
  const video = parsed.streams?.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  if (!video) throw new ApiError("unsupported_media_format", "The file has no video stream.");
  if (!video.codec_name || video.codec_name === "none") {
    throw new ApiError("unsupported_media_format", "The video codec is not supported.");
  }
  if (!video.width || !video.height) throw new ApiError("corrupt_media", "The video stream has no frame size.");
  const { width, height, codec_name: codec } = video;

  // The frames are the packets shown: an edit list (a clip trimmed without re-encoding, or cut in
  // the middle) makes the demuxer hand over the packets before each cut to decode from, marked to be
  // discarded, and the container's count (nb_frames) counts them. Packets the header lists but the
  // file lacks count as frames, so a file cut short still falls short when decoded.
  const packets = await videoPackets(path, video.index, signal);
  let frameCount = packets.total - packets.discarded + Math.max(0, (Number(video.nb_frames) || 0) - packets.total);
  if (frameCount <= 0) throw new ApiError("corrupt_media", "The video stream has no frames.");

  const average = parseRational(video.avg_frame_rate) ?? parseRational(video.r_frame_rate);
  if (!average) throw new ApiError("corrupt_media", "The video stream has no frame rate.");
  const durationSeconds =
    Number(video.duration) || Number(parsed.format?.duration) || (frameCount * average.den) / average.num;
  const timeBase = parseRational(video.time_base);
  const timing = timeBase ? frameTiming(packets.times, timeBase, average) : { variable: false as const };
  const fps = timing.variable ? timing.rate : average;
  if (timing.variable) frameCount = timing.frames;
  const rotation = rotationOf(video);
  const swap = rotation === 90 || rotation === 270;
  const audio = audioTrack(parsed.streams ?? []);
  const formatStart = Number(parsed.format?.start_time) || 0;
  const videoStart = Number(video.start_time) || 0;
  return {
    width: swap ? height : width,
    height: swap ? width : height,
    codedWidth: width,
    codedHeight: height,
    fps,
    variableFrameRate: timing.variable,
    frameCount,
    durationSeconds,
    rotation,
    audio,
    codec,
    container,
    videoStartSeconds: Math.max(0, videoStart - formatStart),
    sampleAspectRatio: parseRational(video.sample_aspect_ratio) ?? { num: 1, den: 1 },
    sizeBytes: size,
    hdr: hdrColour(video),
    videoStream: video.index,
  };
}

/**
 * The audio to keep: the first stream with a codec ffmpeg can decode. A file whose every audio
 * stream is in a codec it cannot is refused rather than returned silent: the sound is part of what
 * the caller sent.
 */
function audioTrack(streams: FfprobeStream[]): AudioTrack | null {
  const audio = streams.filter((s) => s.codec_type === "audio");
  if (audio.length === 0) return null;
  const readable = audio.find((s) => s.codec_name && s.codec_name !== "none");
  if (readable) return { stream: readable.index, codec: readable.codec_name as string };
  const tags = audio.map((s) => s.codec_tag_string?.replace(/[^\x20-\x7e]/g, "?") ?? "?").join(", ");
  throw new ApiError("unsupported_media_format", `The video's audio cannot be decoded (codec ${tags}); send it with AAC, MP3, Opus or PCM audio, or without audio.`);
}

/**
 * The video stream's packets, demuxed only (not decoded): how many, how many an edit list discards,
 * and the presentation timestamps of those shown, in the stream's time base.
 */
async function videoPackets(path: string, stream: number, signal?: AbortSignal): Promise<{ total: number; discarded: number; times: number[] }> {
  const args = ["-v", "error", "-select_streams", `${stream}`, "-show_entries", "packet=pts,flags", "-of", "csv=p=0", ...untrustedProbeInput(path)];
  const result = await runMediaTool(ffprobePath(), args, signal, probeLimits());
  signal?.throwIfAborted();
  if (result.code !== 0) throw unreadable(result);
  // One line a packet, "pts,flags": pts "N/A" where a packet has none; flags "K_", "__", "KD": D discarded.
  const packets = { total: 0, discarded: 0, times: [] as number[] };
  for (const line of result.stdout.split("\n")) {
    const [pts, flags] = line.trim().split(",");
    if (flags === undefined) continue;
    packets.total++;
    if (flags.includes("D")) packets.discarded++;
    else if (/^-?\d+$/.test(pts!)) packets.times.push(Number(pts));
  }
  return packets;
}

/** A valid MP4/MOV of at most the media limits never needs more than the prober's limits: one that does is refused as corrupt. */
function unreadable(result: { stderr: string; limitBroken: BrokenLimit | null }): ApiError {
  if (result.limitBroken) return new ApiError("corrupt_media", `The video could not be read: reading its container exceeded the prober's ${result.limitBroken.text}.`);
  return new ApiError("corrupt_media", `The video could not be read: ${lastLine(result.stderr) || "ffprobe failed"}.`);
}

function lastLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  return (lines.at(-1) ?? "").replace(/^.*?: /, "").slice(0, 200);
}
