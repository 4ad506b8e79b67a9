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
  /** Hide each box as one at least this many px wide and tall, about its centre (FACE_SHAPE). */
  minSide?: number;
}

/**
 * How every feature hides a face: an ellipse over the box raised to the hairline, then grown by 0.2
 * of its size on each side. The face detectors' boxes (BlazeFace, SSD) span brows to chin: on the
 * hand-drawn head boxes of bench/video-leaks.ts' clips a detection's top sat a median 0.25 of its
 * height below the head's (0.24-0.27 on every clip), its bottom at the chin, so an ellipse around
 * the box alone left the forehead and hair showing where the detection sat a little low.
 *
 * A box under 20 px is hidden as a 20 px one. On faces of 14-20 px a box a few pixels narrow or
 * off is a large part of the face: on the held-out faces at JPEG q75 one box in twenty was 0.5-0.7
 * of its face's width, and the blur grown from it left a cheek or the chin of 15 of 172 faces of
 * 14 px showing that a box was on (bench/face-recall.ts prints found against hidden). Hidden as
 * 20 px, every 14 and 20 px face a box is on is hidden, for 4 % more blurred area.
 */
export const FACE_SHAPE = { shape: "ellipse", grow: 0.2, headroom: 0.25, minSide: 20 } as const satisfies HideOptions;

export function hideBoxes(frame: Frame, boxes: Box[], opts: HideOptions): Promise<Frame> {
  return timeStage("effects", async () => {
    const strength = opts.blur_strength ?? DEFAULT_BLUR_STRENGTH;
    const regions = boxes.map((found) => {
      const size = Math.max(found.width, found.height, opts.minSide ?? 0);
      const whole = atLeast(opts.shape === "ellipse" ? pastTheEdge(found, frame) : found, opts.minSide ?? 0);
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

/** `box` widened and heightened about its centre to at least `side` px. */
function atLeast(box: Box, side: number): Box {
  const width = Math.max(box.width, side), height = Math.max(box.height, side);
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
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
