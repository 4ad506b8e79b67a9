// The pixels face-api feeds each of its networks, computed straight from a Frame: a box of the
// frame, zero-padded to a square (face-api's padToSquare: the padding after the image for SSD,
// split around it for the face nets), resized with TF's legacy bilinear resize (align_corners and
// half_pixel_centers both false: source = destination * in/out), as float RGB planes (NCHW, the
// ONNX graphs' layout, values 0..255: each graph normalises its own input). Reading the frame
// buffer directly replaces face-api's tensor slice + pad + resize, with the same numbers.
import type { Box, Frame } from "../types.ts";
import { ort, type Session } from "./runtime/onnx.ts";

const { Tensor } = ort;

/**
 * The square side each network reads: SSD MobileNetV1; the landmark and expression nets (face-api's
 * FaceFeatureExtractor); the recognition net. The converter builds the graphs with these too.
 */
export const INPUT_SIDE = { ssd: 512, features: 112, recognition: 150 } as const;

/** An integer box of the frame: face-api's crops are floored and clipped before they are read. */
export interface PixelBox extends Box {}

/** `box` of `frame` as one [3, side, side] image, written into `out` at `offset` (floats). */
export function squareInput(frame: Frame, box: PixelBox, side: number, centred: boolean, out: Float32Array, offset = 0): void {
  const { x: bx, y: by, width: cw, height: ch } = box;
  if (cw <= 0 || ch <= 0 || bx < 0 || by < 0 || bx + cw > frame.width || by + ch > frame.height || !Number.isInteger(bx + by + cw + ch))
    throw new Error(`squareInput: box ${bx},${by},${cw}x${ch} is not an integer box inside the ${frame.width}x${frame.height} frame`);
  const square = Math.max(cw, ch);
  // padToSquare puts round(diff / 2) after the image when centred, the rest (floor) before it.
  const padX = centred ? square - cw - Math.round((square - cw) / 2) : 0;
  const padY = centred ? square - ch - Math.round((square - ch) / 2) : 0;
  const ratio = square / side;
  const { data, width, channels } = frame;
  // For each output column: the byte offsets (within a frame row) of its two source columns, -1
  // where the source is padding (zeros), and the weight of the second.
  const col0 = new Int32Array(side), col1 = new Int32Array(side), fx = new Float64Array(side);
  for (let k = 0; k < side; k++) {
    const src = k * ratio;
    const lo = Math.floor(src), hi = Math.min(square - 1, Math.ceil(src));
    col0[k] = lo - padX >= 0 && lo - padX < cw ? (bx + lo - padX) * channels : -1;
    col1[k] = hi - padX >= 0 && hi - padX < cw ? (bx + hi - padX) * channels : -1;
    fx[k] = src - lo;
  }
  const row = (p: number) => (p - padY >= 0 && p - padY < ch ? (by + p - padY) * width * channels : -1);
  const plane = side * side;
  for (let r = 0; r < side; r++) {
    const src = r * ratio;
    const lo = Math.floor(src);
    const r0 = row(lo), r1 = row(Math.min(square - 1, Math.ceil(src)));
    const fy = src - lo;
    for (let k = 0; k < side; k++) {
      const a0 = col0[k], a1 = col1[k], f = fx[k];
      const o = offset + r * side + k;
      for (let c = 0; c < 3; c++) {
        const tl = r0 < 0 || a0 < 0 ? 0 : data[r0 + a0 + c];
        const tr = r0 < 0 || a1 < 0 ? 0 : data[r0 + a1 + c];
        const bl = r1 < 0 || a0 < 0 ? 0 : data[r1 + a0 + c];
        const br = r1 < 0 || a1 < 0 ? 0 : data[r1 + a1 + c];
        // tfjs's order of operations (ResizeBilinear): across each row, then down.
        const top = tl + (tr - tl) * f;
        const bottom = bl + (br - bl) * f;
        out[o + c * plane] = top + (bottom - top) * fy;
      }
    }
  }
}



/**
 * face-api's Box.clipAtImageBorders then floor (what extractFaceTensors reads), or undefined for a
 * box with no whole pixel row or column left (face-api drops those).
 */
export function faceCrop(b: Box, frame: Frame): PixelBox | undefined {
  const x = Math.max(b.x, 0), y = Math.max(b.y, 0);
  const width = Math.floor(Math.min(b.x + b.width - x, frame.width - x));
  const height = Math.floor(Math.min(b.y + b.height - y, frame.height - y));
  return width > 0 && height > 0 ? { x: Math.floor(x), y: Math.floor(y), width, height } : undefined;
}

/** faceCrop, or a clear error naming the box (`what`: what could not be done, e.g. "No face to describe"). */
export function requireFaceCrop(b: Box, frame: Frame, what: string): PixelBox {
  const crop = faceCrop(b, frame);
  if (!crop) throw new Error(`${what}: the box ${[b.x, b.y, b.width, b.height].map((v) => v.toFixed(1)).join(",")} has no whole pixel inside the image`);
  return crop;
}

/**
 * One batch through a face net (input "face" [N, 3, side, side]): each crop padded to a centred
 * square and resized as face-api does for its face nets; `size` outputs per face.
 */
export async function runFaceNet(session: Session, frame: Frame, crops: PixelBox[], side: number, size: number): Promise<Float32Array[]> {
  if (crops.length === 0) return [];
  const per = 3 * side * side;
  const input = new Float32Array(crops.length * per);
  crops.forEach((c, i) => squareInput(frame, c, side, true, input, i * per));
  const out = await session.run({ face: new Tensor("float32", input, [crops.length, 3, side, side]) });
  const data = out[session.outputNames[0]].data as Float32Array;
  return crops.map((_, i) => data.slice(i * size, (i + 1) * size));
}
