// The caller's detection controls (schema/api/detections.ts) applied to what a detector found,
// and what was hidden written down as data: relative boxes for an image, a per-frame document
// with track ids for a video.
//
// Region rule: a detection belongs to a region when its box's centre lies in it (edges
// included). Overlap would make a face at a region's border hidden or not depending on a few
// pixels of its box and the margin the blur adds; the centre is one point a caller can reason
// about, and a face is either wholly hidden or wholly left, never cut in half. The selection
// happens before tracking, so in a video an excluded face forms no track; a face that leaves
// an excluded region is tracked from its first detection outside, and the tracker's backfill may
// then cover it for up to a second before that (privacy first).
import { DEFAULT_DETECTION_THRESHOLD, type DetectionBox, type DetectionControls, type DetectionsDoc, type TrackedDetectionBox } from "../../schema/api/detections.ts";
import type { Box, Detection, Frame } from "../types.ts";
import type { Rational } from "../video/rational.ts";
import type { FrameCoverage } from "../video/tracker.ts";

type Size = Pick<Frame, "width" | "height">;
type Region = NonNullable<DetectionControls["include_regions"]>[number];

/** The detections the controls keep: scoring enough, large enough, and in the regions asked for. */
export function selectDetections<T extends Box & { score: number }>(found: T[], frame: Size, controls: DetectionControls = {}): T[] {
  const threshold = controls.detection_threshold ?? DEFAULT_DETECTION_THRESHOLD;
  const minSize = controls.min_size_px ?? 0;
  const include = controls.include_regions ?? [];
  const exclude = controls.exclude_regions ?? [];
  return found.filter((d) => {
    if (d.score < threshold || Math.max(d.width, d.height) < minSize) return false;
    const cx = (d.x + d.width / 2) / frame.width;
    const cy = (d.y + d.height / 2) / frame.height;
    const holds = (r: Region) => cx >= r.x && cx <= r.x + r.w && cy >= r.y && cy <= r.y + r.h;
    return !exclude.some(holds) && (include.length === 0 || include.some(holds));
  });
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));

/** A box in relative coordinates of its frame (6 decimals: a pixel of a 16k image is 6e-5). */
export function relativeBox(d: Box & { score: number; label: string }, frame: Size): DetectionBox {
  return {
    x: round(d.x / frame.width, 6),
    y: round(d.y / frame.height, 6),
    w: round(d.width / frame.width, 6),
    h: round(d.height / frame.height, 6),
    score: round(d.score, 4),
    label: d.label,
  };
}

/** The document of an image: one frame. */
export function imageDetections(frame: Size, found: Detection[]): DetectionsDoc {
  return {
    media: "image",
    width: frame.width,
    height: frame.height,
    frames: [{ index: 0, time_seconds: 0, detections: found.map((d) => relativeBox(d, frame)) }],
  };
}

/** Collects a video's coverage, frame by frame, into its document. */
export class VideoDetections {
  private readonly frames: DetectionsDoc["frames"] = [];
  private size: Size | null = null;
  private fps: Rational | null = null;

  /** The output's frame size and rate, known once the video is probed (before any frame). */
  start(size: Size, fps: Rational): void {
    this.size = { width: size.width, height: size.height };
    this.fps = fps;
  }

  add(coverage: FrameCoverage): void {
    if (!this.size || !this.fps) throw new Error("VideoDetections.add before start");
    const size = this.size;
    const detections: TrackedDetectionBox[] = coverage.boxes.map((b) => ({ ...relativeBox(b, size), track_id: b.trackId, source: b.source }));
    this.frames.push({ index: coverage.index, time_seconds: round((coverage.index * this.fps.den) / this.fps.num, 6), detections });
  }

  document(): DetectionsDoc {
    if (!this.size || !this.fps) throw new Error("VideoDetections.document before start");
    return { media: "video", ...this.size, fps: round(this.fps.num / this.fps.den, 6), frame_count: this.frames.length, frames: this.frames };
  }
}
