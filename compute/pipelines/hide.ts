// Hiding regions (faces, plates, objects) with the spec's knobs: blur_strength -> gaussian sigma
// per region size, or a mosaic when pixelated. Each region gets a strength scaled to its own size,
// so a 20 px face and a 400 px face are both unrecognisable. Shared by image and video pipelines.
import type { Box, Frame, Mask } from "../types.ts";
import { timeStage } from "../timing.ts";
import { edgesCutting } from "../models/geometry.ts";
import { applyRegionEffects, blurSigma, composite, DEFAULT_BLUR_STRENGTH, gaussianBlur, pixelate, pixelBlockSize } from "../effects/index.ts";

export interface HideOptions {
  blur_strength?: number;
  pixelated?: boolean;
  /** Overrides blur_strength for the mosaic (already mapped to 0..1 with pixelationToStrength). */
  pixelStrength?: number;
  shape?: "ellipse" | "rect";
  grow?: number;
  feather?: number;
  /** Raise each box's top by this fraction of its height before growing it (FACE_SHAPE). */
  headroom?: number;
}

/**
 * How every feature hides a face: an ellipse over the box raised to the hairline, then grown by 0.2
 * of its size on each side. The face detectors' boxes (BlazeFace, SSD) span brows to chin: on the
 * hand-drawn head boxes of bench/video-leaks.ts' clips a detection's top sat a median 0.25 of its
 * height below the head's (0.24-0.27 on every clip), its bottom at the chin, so an ellipse around
 * the box alone left the forehead and hair showing where the detection sat a little low.
 */
export const FACE_SHAPE = { shape: "ellipse", grow: 0.2, headroom: 0.25 } as const satisfies HideOptions;

export function hideBoxes(frame: Frame, boxes: Box[], opts: HideOptions): Promise<Frame> {
  return timeStage("effects", async () => {
    const strength = opts.blur_strength ?? DEFAULT_BLUR_STRENGTH;
    const regions = boxes.map((found) => {
      const size = Math.max(found.width, found.height);
      const whole = opts.shape === "ellipse" ? pastTheEdge(found, frame) : found;
      const box = opts.headroom ? { ...whole, y: whole.y - opts.headroom * whole.height, height: whole.height * (1 + opts.headroom) } : whole;
      return opts.pixelated
        ? { box, blockSize: pixelBlockSize(opts.pixelStrength ?? strength, size) }
        : { box, sigma: blurSigma(strength, size) };
    });
    if (regions.length === 0) return frame;
    // One copy of the frame for every box.
    const out: Frame = { ...frame, data: Buffer.from(frame.data) };
    applyRegionEffects(out, regions, { shape: opts.shape, grow: opts.grow, feather: opts.feather });
    return out;
  });
}

/**
 * A region the frame's edge cuts (a face entering, a plate half out of shot) goes on beyond it. An
 * ellipse inscribed in its visible part leaves that part's corners at the edge uncovered, so the
 * box is first extended past the edge by half its size there, and at least to a square: a face box
 * (about as tall as wide) that the edge cut to a sliver is a face mostly out of shot, and an
 * ellipse in the sliver alone left the forehead showing above it (bench/video-leaks.ts --crf 28,
 * a face leaving the bottom of pan-tiny under a predicted box clipped to 27x3 px). Only the frame
 * is painted.
 */
export function pastTheEdge(box: Box, frame: Pick<Frame, "width" | "height">): Box {
  let { x, y, width, height } = box;
  // How far a box goes on past one edge that cuts it: half its size, or up to a square.
  const past = (size: number, other: number) => Math.max(size / 2, other - size);
  const { left, right, top, bottom } = edgesCutting(box, frame.width, frame.height);
  const across = left && right ? box.width / 2 : past(box.width, box.height);
  const down = top && bottom ? box.height / 2 : past(box.height, box.width);
  if (left) { x -= across; width += across; }
  if (right) width += across;
  if (top) { y -= down; height += down; }
  if (bottom) height += down;
  return { x, y, width, height };
}

/** Hide everything under a soft mask (e.g. person segmentation); `size` = typical region size. */
export function hideMask(frame: Frame, mask: Mask, size: number, opts: HideOptions): Promise<Frame> {
  return timeStage("effects", async () => {
    const strength = opts.blur_strength ?? DEFAULT_BLUR_STRENGTH;
    const effected = opts.pixelated
      ? await pixelate(frame, pixelBlockSize(opts.pixelStrength ?? strength, size))
      : await gaussianBlur(frame, blurSigma(strength, size));
    return composite(frame, effected, mask);
  });
}
