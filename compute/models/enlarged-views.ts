// A detector run over the whole frame, enlarged so that small faces reach the network's anchors,
// in square views of the network's input (FaceBoxes and RetinaFace, face-boxes.ts, face-retina.ts).
import sharp from "sharp";
import type { Box, Detection, Frame } from "../types.ts";
import { yieldToEventLoop } from "../event-loop.ts";
import { mirrorPast, nms } from "./geometry.ts";
import { cropToPlanes } from "./resize-input.ts";
import { inputArray } from "./runtime/onnx.ts";

export interface EnlargedViews {
  /** The network's input side, px. */
  side: number;
  /** Each input value is v * scale + bias (v in 0..255; black past the frame's edges). */
  scale: number;
  bias: number;
  /** The network on one view's input (handed over): boxes in frame px, given where the view lies in the frame (x, y, and frame px per input px). */
  detect(input: Float32Array, at: { x: number; y: number; step: number }): Promise<Detection[]>;
}

/**
 * The boxes of `views` (squares of `side` px on the frame enlarged `enlarge` times), merged by NMS.
 * `pastEdge` (frame px): the views reach that far past the frame's edges where they lie past them
 * (reachPast), seeing the frame's mirror image there instead of black.
 * The frame is enlarged once, by libvips (raw pixels, no decoder): interpolating each view in JS
 * took more CPU than FaceBoxes' network itself (26 of ~45 ms a view at 720p x2). One view a run:
 * a 1024 px view's activations are ~40 MB, and more a run gained nothing on the CPU.
 */
export async function detectInViews(frame: Frame, enlarge: number, views: readonly Box[], net: EnlargedViews, pastEdge = 0): Promise<Detection[]> {
  if (views.length === 0) return [];
  const { width, height, channels } = frame;
  const sw = Math.max(1, Math.round(width * enlarge));
  const sh = Math.max(1, Math.round(height * enlarge));
  const enlarged: Frame = enlarge === 1 ? frame : { width: sw, height: sh, channels, data: await sharp(frame.data, { raw: { width, height, channels } }).resize(sw, sh, { kernel: "linear", fit: "fill" }).raw().toBuffer() };
  const margin = Math.min(Math.round(pastEdge * enlarge), sw - 1, sh - 1);
  const big = margin > 0 ? mirrorPast(enlarged, margin) : enlarged;
  const n = net.side;
  const runs: Array<Promise<Detection[]>> = [];
  for (const [i, v] of views.entries()) {
    if (i > 0) await yieldToEventLoop();
    const input = inputArray(3 * n * n);
    cropToPlanes(big, { x: v.x + margin, y: v.y + margin, side: n }, n, input, { scale: net.scale, bias: net.bias });
    const run = net.detect(input, { x: v.x / enlarge, y: v.y / enlarge, step: 1 / enlarge });
    run.catch(() => undefined);
    runs.push(run);
  }
  return nms((await Promise.all(runs)).flat());
}
