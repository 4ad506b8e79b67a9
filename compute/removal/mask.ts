// The removal mask of one frame: what must disappear, from the tracked boxes of that frame.
//  - people: the person segmenter on a crop around each tracked box (a crop looks like the
//    portraits it was trained on, far better than the whole frame), thresholded low (removal
//    errs towards taking too much: what is taken is refilled with background anyway); when the
//    segmenter finds little inside the box (back views, odd poses), the box's ellipse instead,
//    and with it always where the frame's side cuts the box (a person walking in or out), unless
//    the box is larger than a quarter of the frame (see addPerson);
//  - other COCO objects, text and plates: the tracked box itself (a rectangle);
//  - faces: an ellipse over the box.
// Then the union is dilated (shadows of the outline, motion blur, compression halo, a box that lags
// the object by a pixel or two) and given a soft rim outside the dilated area, through which the
// fill is blended into the frame. Every pixel of the dilated area is 255.
import { addEllipses, addRects, dilateMask, emptyMask, featherMask, growBox } from "../effects/mask.ts";
import { cropFrame, edgesCutting } from "../models/geometry.ts";
import type { Models } from "../models/index.ts";
import type { Box, Frame, Mask } from "../types.ts";

export interface LabelledBox extends Box {
  label: string;
}

export interface RemovalMaskOptions {
  /** Segmenter probability (0..1) above which a pixel is part of the person. */
  personThreshold: number;
  /** Below this fraction of the box covered by the segmenter, the box's ellipse is used instead... */
  minPersonCoverage: number;
  /** ...unless the box takes more than this share of the frame (see addPerson). */
  maxEllipseShare: number;
  /** Dilation as a fraction of the box's larger side (at least `minDilate` px). */
  dilate: number;
  minDilate: number;
}

export const DEFAULT_REMOVAL_MASK: RemovalMaskOptions = { personThreshold: 0.25, minPersonCoverage: 0.15, maxEllipseShare: 0.25, dilate: 0.05, minDilate: 4 };

export async function removalMask(
  frame: Frame,
  boxes: LabelledBox[],
  models: Pick<Models, "persons">,
  options: Partial<RemovalMaskOptions> = {},
): Promise<Mask> {
  const o = { ...DEFAULT_REMOVAL_MASK, ...options };
  const { width: W, height: H } = frame;
  const hard = emptyMask(W, H);
  if (boxes.length === 0) return hard;
  let radius = o.minDilate;
  for (const box of boxes) {
    radius = Math.max(radius, o.dilate * Math.max(box.width, box.height));
    if (box.label === "person") await addPerson(hard, frame, box, models, o);
    else if (box.label === "face") addEllipses(hard, [box], { grow: 0.15, feather: 0 });
    else addRects(hard, [box], { grow: 0.02, feather: 0 });
  }
  const r = Math.round(radius);
  return featherMask(dilateMask(hard, r), Math.max(2, Math.round(r / 2)));
}

/**
 * Adds one person's silhouette to `hard` (255 where the segmenter, run on a crop around the box,
 * passes `personThreshold`), or the box's ellipse when it sees too little of the person there.
 * Not for a box larger than `maxEllipseShare` of the frame (a quarter in video): there the
 * ellipse, dilated, takes most of the frame, and such boxes were a track's guess grown by its
 * uncertainty (a person 118 px wide had a backfilled box 608 px wide in a 640 px frame: the
 * segmenter's share of it is small even when it finds the person) or a false 'person' (a cat's
 * face filling the frame); a person that large is a close-up, what the segmenter (made for
 * portraits) sees best.
 */
export async function addPerson(hard: Mask, frame: Frame, box: Box, models: Pick<Models, "persons">, o: RemovalMaskOptions = DEFAULT_REMOVAL_MASK): Promise<void> {
  const crop = cropFrame(frame, growBox(box, 0.15));
  const seg = await models.persons.segment(crop.frame);
  const cut = Math.round(o.personThreshold * 255);
  const W = hard.width;
  // Coverage inside the box itself, to judge whether the segmenter saw the person.
  const bx0 = Math.max(0, Math.floor(box.x)), by0 = Math.max(0, Math.floor(box.y));
  const bx1 = Math.min(W, Math.ceil(box.x + box.width)), by1 = Math.min(hard.height, Math.ceil(box.y + box.height));
  let inBox = 0;
  for (let y = 0; y < seg.height; y++) {
    for (let x = 0; x < seg.width; x++) {
      if (seg.data[y * seg.width + x] < cut) continue;
      const fx = crop.x + x, fy = crop.y + y;
      hard.data[fy * W + fx] = 255;
      if (fx >= bx0 && fx < bx1 && fy >= by0 && fy < by1) inBox++;
    }
  }
  const area = Math.max(1, (bx1 - bx0) * (by1 - by0));
  if (area > o.maxEllipseShare * W * hard.height) return;
  // A person the frame's side cuts (walking in or out) is a sliver the segmenter sees poorly: the
  // ellipse is added whatever it saw, drawn as if the box went on past that side by its own width,
  // so it is as tall as the box at the edge (360p-crossing frame 3: coverage 0.15, just enough
  // to go without the ellipse, and a 10x40 px part of the sliver was left under the soft rim).
  const { left, right } = edgesCutting(box, W, hard.height);
  if (left !== right) addEllipses(hard, [{ ...box, x: left ? box.x - box.width : box.x, width: 2 * box.width }], { grow: 0.12, feather: 0 });
  else if (inBox / area < o.minPersonCoverage) addEllipses(hard, [box], { grow: 0.12, feather: 0 });
}
