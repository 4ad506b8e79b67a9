// A second look at candidate boxes, many to one network run: each box is centred in a cell of a
// mosaic filling the network's square input, on a crop `context` times its size, and scored with
// the best box the network finds over it there (0 when none). A face seen again at another scale
// and offset scores high again; texture that passed once rarely does. FaceBoxes and RetinaFace
// confirm their small boxes this way (face-boxes.ts, face-retina.ts).
import type { Box, Detection, Frame } from "../types.ts";
import { yieldToEventLoop } from "../event-loop.ts";
import { cropAround, iou } from "./geometry.ts";
import { cropToPlanes } from "./resize-input.ts";
import { inputArray } from "./runtime/onnx.ts";

export interface MosaicLook {
  /** The network's input side, px. */
  side: number;
  /** Cells per row and column. */
  cells: number;
  /** Each input value is v * scale + bias (v in 0..255); 0 must be black (the cells' margins). */
  scale: number;
  bias: number;
  /** The network on one filled input (handed over), boxes in input px. */
  detect(input: Float32Array): Promise<Detection[]>;
}

/** Per box, the best score the network gives a box over it (IoU >= 0.3) in its cell; boxes in order. */
export async function mosaicLook(frame: Frame, boxes: readonly Box[], context: number, look: MosaicLook): Promise<number[]> {
  const { side: n, cells, scale, bias } = look;
  const cell = n / cells;
  const runs: Array<Promise<number[]>> = [];
  for (let i = 0; i < boxes.length; i += cells * cells) {
    const batch = boxes.slice(i, i + cells * cells);
    if (i > 0) await yieldToEventLoop();
    const input = inputArray(3 * n * n);
    input.fill(0);
    // Each box's place in the mosaic, in input px.
    const expected = batch.map((b, k) => {
      const at = cropAround(b, context);
      const [cx, cy] = [(k % cells) * cell, Math.floor(k / cells) * cell];
      cropToPlanes(frame, at, cell, input, { scale, bias, offset: cy * n + cx, rowStride: n, planeStride: n * n });
      const s = cell / at.side;
      return { x: cx + (b.x - at.x) * s, y: cy + (b.y - at.y) * s, width: b.width * s, height: b.height * s };
    });
    const run = look.detect(input).then((found) => expected.map((e) => found.filter((d) => iou(d, e) >= 0.3).reduce((best, d) => Math.max(best, d.score), 0)));
    run.catch(() => undefined);
    runs.push(run);
  }
  return (await Promise.all(runs)).flat();
}
