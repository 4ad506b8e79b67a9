// face-api's FaceRecognitionNet (dlib's ResNet-34 face descriptor): 150x150 aligned face crop ->
// 128-d descriptor, not L2-normalised (computeFaceDescriptor returns the fully connected layer's
// output as it is). Mirrors faceRecognitionNet/{FaceRecognitionNet,convLayer,residualLayer}.ts.
import { OnnxGraph } from "../onnx-writer.ts";
import { INPUT_SIDE } from "../../face-api-input.ts";
import { FACE_MEAN_RGB } from "./feature-extractor.ts";
import { foldScale, hwioToOihw, Layers, type Feature, type Padding } from "./layers.ts";
import { take, type Weight } from "./weights.ts";

const RECOGNITION_INPUT = INPUT_SIDE.recognition;

/** conv + bias, then the scale layer (x * weights + biases) folded in, then optionally ReLU. */
function convLayer(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string, k: number, out: number, stride: number, padding: Padding, relu: boolean): Feature {
  const filters = hwioToOihw(take(w, `${prefix}/conv/filters`, [k, k, x.c, out]), k, k, x.c, out);
  const folded = foldScale(filters, take(w, `${prefix}/conv/bias`, [out]), take(w, `${prefix}/scale/weights`, [out]), take(w, `${prefix}/scale/biases`, [out]));
  const y = l.conv(x, { ...folded, k, out, stride, padding });
  return relu ? l.unary("Relu", y) : y;
}

function residual(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string): Feature {
  const a = convLayer(l, x, w, `${prefix}/conv1`, 3, x.c, 1, "same", true);
  const b = convLayer(l, a, w, `${prefix}/conv2`, 3, x.c, 1, "same", false);
  return l.unary("Relu", l.add(b, x));
}

/**
 * The downsampling residual: a strided 'valid' conv beside a 2x2 average pool. Where the two
 * disagree in size face-api appends a zero row and column to the conv side, and where the channel
 * count doubles it appends zero channels to the pooled side.
 */
function residualDown(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string, out: number): Feature {
  const a = convLayer(l, x, w, `${prefix}/conv1`, 3, out, 2, "valid", true);
  let b = convLayer(l, a, w, `${prefix}/conv2`, 3, out, 1, "same", false);
  let pooled = l.pool("AveragePool", x, 2, 2);
  const dh = pooled.h - b.h, dw = pooled.w - b.w;
  if (dh < 0 || dh > 1 || dw < 0 || dw > 1) throw new Error(`${prefix}: face-api pads one row and column, here ${dh}x${dw} would be needed`);
  if (dh || dw) b = l.padEnd(b, 0, dh, dw);
  if (pooled.c !== out) pooled = l.padEnd(pooled, out - pooled.c, 0, 0);
  return l.unary("Relu", l.add(pooled, b));
}

export function recognitionGraph(w: Map<string, Weight>): OnnxGraph {
  const g = new OnnxGraph("face_recognition");
  const l = new Layers(g);
  const face = g.input("face", ["N", 3, RECOGNITION_INPUT, RECOGNITION_INPUT]);
  let x = l.normalise({ name: face, c: 3, h: RECOGNITION_INPUT, w: RECOGNITION_INPUT }, FACE_MEAN_RGB, 255);
  x = convLayer(l, x, w, "conv32_down", 7, 32, 2, "valid", true);
  x = l.pool("MaxPool", x, 3, 2);
  for (const p of ["conv32_1", "conv32_2", "conv32_3"]) x = residual(l, x, w, p);
  x = residualDown(l, x, w, "conv64_down", 64);
  for (const p of ["conv64_1", "conv64_2", "conv64_3"]) x = residual(l, x, w, p);
  x = residualDown(l, x, w, "conv128_down", 128);
  for (const p of ["conv128_1", "conv128_2"]) x = residual(l, x, w, p);
  x = residualDown(l, x, w, "conv256_down", 256);
  for (const p of ["conv256_1", "conv256_2"]) x = residual(l, x, w, p);
  x = residualDown(l, x, w, "conv256_down_out", 256);
  const mean = g.node("Flatten", [g.node("GlobalAveragePool", [x.name])], { axis: 1 });
  const fc = g.initializer("fc", [256, 128], take(w, "fc", [256, 128]));
  g.output(g.node("MatMul", [mean, fc]), "descriptor", ["N", 128]);
  return g;
}
