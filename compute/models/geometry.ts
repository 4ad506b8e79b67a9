// Box arithmetic shared by the detectors: IoU, non-maximum suppression, clipping, square tiles, crops.
import type { Box, Detection, Frame } from "../types.ts";

export function area(b: Box): number {
  return Math.max(0, b.width) * Math.max(0, b.height);
}

/** The smallest box holding both. */
export function enclosing(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
}

export function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The square `context` times `b`'s larger side (at least `minSide`), centred on `b`: where a look at `b` crops the frame. */
export function cropAround(b: Box, context: number, minSide = 0): { x: number; y: number; side: number } {
  const side = Math.max(minSide, context * Math.max(b.width, b.height));
  return { x: b.x + b.width / 2 - side / 2, y: b.y + b.height / 2 - side / 2, side };
}

/** Whether `a`'s centre lies inside `b` (edges included). */
export function centreInside(a: Box, b: Box): boolean {
  const cx = a.x + a.width / 2, cy = a.y + a.height / 2;
  return cx >= b.x && cx <= b.x + b.width && cy >= b.y && cy <= b.y + b.height;
}

export function iou(a: Box, b: Box): number {
  const i = intersection(a, b);
  return i === 0 ? 0 : i / (area(a) + area(b) - i);
}

/** Intersection over the smaller box: 1 when one box sits inside the other. */
export function overlapOfSmaller(a: Box, b: Box): number {
  const i = intersection(a, b);
  return i === 0 ? 0 : i / Math.min(area(a), area(b));
}

/**
 * Greedy NMS across detections of several detectors/scales. Two boxes are the same object when
 * their IoU exceeds `iouThreshold` or one mostly contains the other (detectors frame faces
 * differently: SSD includes the forehead, BlazeFace is tight).
 */
export function nms<T extends Detection>(dets: T[], iouThreshold = 0.3, containThreshold = 0.7): T[] {
  const sorted = [...dets].sort((a, b) => b.score - a.score);
  const kept: T[] = [];
  for (const d of sorted) {
    const dup = kept.some((k) => k.label === d.label && (iou(k, d) > iouThreshold || overlapOfSmaller(k, d) > containThreshold));
    if (!dup) kept.push(d);
  }
  return kept;
}

/** Within this many pixels of the frame's edge, a box is cut by it. */
const CUT_PX = 2;

/** The edges of a width x height frame that cut box `b` (it reaches within CUT_PX of them). */
export function edgesCutting(b: Box, width: number, height: number): { left: boolean; right: boolean; top: boolean; bottom: boolean } {
  return { left: b.x <= CUT_PX, right: b.x + b.width >= width - CUT_PX, top: b.y <= CUT_PX, bottom: b.y + b.height >= height - CUT_PX };
}

/** Whether `b` reaches past an edge of a frame of width x height. */
export function reachesPast(b: Box, width: number, height: number): boolean {
  return b.x < 0 || b.y < 0 || b.x + b.width > width || b.y + b.height > height;
}

export function clipBox(b: Box, width: number, height: number): Box {
  const x0 = Math.max(0, Math.min(width, b.x));
  const y0 = Math.max(0, Math.min(height, b.y));
  const x1 = Math.max(0, Math.min(width, b.x + b.width));
  const y1 = Math.max(0, Math.min(height, b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Square tiles of side `size` covering width x height with at least `overlap` fraction overlap. */
export function squareTiles(width: number, height: number, size: number, overlap = 0.25): Box[] {
  const side = Math.min(size, width, height);
  const positions = (extent: number): number[] => {
    if (extent <= side) return [0];
    const stride = side * (1 - overlap);
    const n = Math.ceil((extent - side) / stride) + 1;
    const step = (extent - side) / (n - 1);
    return Array.from({ length: n }, (_, i) => Math.round(i * step));
  };
  const tiles: Box[] = [];
  for (const y of positions(height)) for (const x of positions(width)) tiles.push({ x, y, width: side, height: side });
  return tiles;
}

/** A part of a frame (or all of it) and where its top-left corner sits in the frame. */
export interface FrameRegion {
  frame: Frame;
  x: number;
  y: number;
}

/** Crop (integer, clipped) of a frame. */
export function cropFrame(frame: Frame, box: Box): FrameRegion {
  const x0 = Math.max(0, Math.floor(box.x)), y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(frame.width, Math.ceil(box.x + box.width)), y1 = Math.min(frame.height, Math.ceil(box.y + box.height));
  const w = Math.max(1, x1 - x0), h = Math.max(1, y1 - y0);
  const c = frame.channels;
  const data = Buffer.alloc(w * h * c);
  for (let y = 0; y < h; y++) frame.data.copy(data, y * w * c, ((y0 + y) * frame.width + x0) * c, ((y0 + y) * frame.width + x0 + w) * c);
  return { frame: { data, width: w, height: h, channels: c }, x: x0, y: y0 };
}

/** Index `i` of a row or column of `n`, mirrored across the ends (the end one not repeated; for i in -(n-1)..2n-2). */
export function reflect(i: number, n: number): number {
  return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i;
}

/**
 * `tiles` laid out on width x height (squareTiles), those at an edge moved `margin` px past it where
 * there is more than one tile across: the inner tiles stay where they were, so they see what they
 * saw, and the outer ones see `margin` px of what lies past the edge (its mirror image, mirrorPast).
 * An outer tile moves at most half its overlap with the next one, so that a face in between is
 * still whole in one of them (at 12 MP, 2 % of the long side is 81 px, and 192 px tiles overlap by
 * 50: moved that far, they left a gap where 20 px faces went unseen).
 */
export function reachPast(tiles: readonly Box[], width: number, height: number, margin: number): Box[] {
  if (margin <= 0) return [...tiles];
  const sorted = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
  const xs = sorted(tiles.map((t) => t.x)), ys = sorted(tiles.map((t) => t.y));
  const moved = (at: number, side: number, extent: number, positions: number[]) => {
    if (positions.length < 2) return at;
    const overlap = side - (positions[1]! - positions[0]!);
    const by = Math.min(margin, Math.floor(overlap / 2));
    return at <= 0 ? at - by : at + side >= extent ? at + by : at;
  };
  return tiles.map((t) => ({ ...t, x: moved(t.x, t.width, width, xs), y: moved(t.y, t.height, height, ys) }));
}

/**
 * The frame with `margin` px more on every side, each a mirror image of the frame across that edge
 * (the edge pixel not repeated; margin at most the frame's side less one). A face the edge cuts
 * in half meets its own mirror image there: the detectors see a whole face where they saw half of
 * one, and anchors centred past the edge exist.
 */
export function mirrorPast(frame: Frame, margin: number): Frame {
  const { width, height, channels: c } = frame;
  const m = Math.max(0, Math.min(margin, width - 1, height - 1));
  const w = width + 2 * m, h = height + 2 * m;
  const data = Buffer.alloc(w * h * c);
  for (let y = 0; y < height; y++) {
    const row = (y + m) * w * c;
    frame.data.copy(data, row + m * c, y * width * c, (y + 1) * width * c);
    for (let x = 0; x < m; x++) {
      const left = (y * width + reflect(x - m, width)) * c, right = (y * width + reflect(width + x, width)) * c;
      for (let k = 0; k < c; k++) {
        data[row + x * c + k] = frame.data[left + k]!;
        data[row + (m + width + x) * c + k] = frame.data[right + k]!;
      }
    }
  }
  for (let y = 0; y < m; y++) {
    data.copy(data, y * w * c, (reflect(y - m, height) + m) * w * c, (reflect(y - m, height) + m + 1) * w * c);
    data.copy(data, (m + height + y) * w * c, (reflect(height + y, height) + m) * w * c, (reflect(height + y, height) + m + 1) * w * c);
  }
  return { data, width: w, height: h, channels: c };
}
