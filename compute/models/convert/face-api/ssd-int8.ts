// face-api's SSD MobileNetV1 in int8 (../quantize.ts), which the face detector runs: 2.3-2.5x
// faster than float on the CPU, the same faces found on the evaluation sets (README, "Face
// detection"). Calibrated on face-api's own demo photos (MIT, shipped in the package): each whole,
// as the whole-frame pass sees it, in grey, and two crops, as tiles and the last looks see faces
// larger.
import sharp from "sharp";
import type { Frame } from "../../../types.ts";
import { INPUT_SIDE, squareInput, type PixelBox } from "../../face-api-input.ts";
import { packageFile } from "../../runtime/package-file.ts";
import type { OnnxGraph } from "../onnx-writer.ts";
import { quantizeConvs } from "../quantize.ts";

const SIDE = INPUT_SIDE.ssd;

export const ssdCalibrationPhotos = (): string[] => [1, 2, 3, 4, 5, 6].map((i) => packageFile("@vladmandic/face-api", `demo/sample${i}.jpg`));

async function decode(file: string, grey: boolean): Promise<Frame> {
  const image = sharp(file).removeAlpha().toColourspace("srgb");
  const { data, info } = await (grey ? image.greyscale().toColourspace("srgb") : image).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels } as Frame;
}

async function calibrationInputs(): Promise<Float32Array[]> {
  const inputs: Float32Array[] = [];
  const add = (frame: Frame, box: PixelBox) => {
    const x = new Float32Array(3 * SIDE * SIDE);
    squareInput(frame, box, SIDE, false, x);
    inputs.push(x);
  };
  for (const file of ssdCalibrationPhotos()) {
    for (const grey of [false, true]) {
      const f = await decode(file, grey);
      add(f, { x: 0, y: 0, width: f.width, height: f.height });
      if (grey) continue;
      const half = Math.floor(Math.min(f.width, f.height) / 2), third = Math.floor(Math.min(f.width, f.height) / 3);
      add(f, { x: Math.floor((f.width - half) / 2), y: Math.floor((f.height - half) / 3), width: half, height: half });
      add(f, { x: Math.floor(f.width / 5), y: Math.floor(f.height / 4), width: third, height: third });
    }
  }
  return inputs;
}

export async function ssdInt8(float: OnnxGraph): Promise<Uint8Array> {
  return quantizeConvs(float.serialize(), { input: "image", dims: [1, 3, SIDE, SIDE], samples: await calibrationInputs() });
}
