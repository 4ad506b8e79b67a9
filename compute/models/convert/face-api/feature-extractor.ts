// face-api's FaceFeatureExtractor: four dense blocks over a 112x112 face crop, average-pooled to a
// 256-d feature, shared by the 68-point landmark net and the expression net (each adds one fully
// connected layer). Mirrors faceFeatureExtractor/{FaceFeatureExtractor,denseBlock}.ts.
import { INPUT_SIDE } from "../../face-api-input.ts";
import { depthwiseToOihw, hwioToOihw, type Feature, type Layers } from "./layers.ts";
import { take, type Weight } from "./weights.ts";

export const FEATURE_INPUT = INPUT_SIDE.features;
/** face-api's per-channel RGB mean for the face nets (ops/normalize.ts callers); then / 255. */
export const FACE_MEAN_RGB = [122.782, 117.001, 104.298];

const CHANNELS = [32, 64, 128, 256];

/** tf.separableConv2d(x, depthwise, pointwise, stride, 'same') + bias. */
export function separableConv(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string, out: number, stride: number): Feature {
  const c = x.c;
  const dw = l.conv(x, { weights: depthwiseToOihw(take(w, `${prefix}/depthwise_filter`, [3, 3, c, 1]), 3, 3, c), bias: new Float32Array(c), k: 3, out: c, stride, group: c });
  return l.conv(dw, { weights: hwioToOihw(take(w, `${prefix}/pointwise_filter`, [1, 1, c, out]), 1, 1, c, out), bias: take(w, `${prefix}/bias`, [out]), k: 1, out });
}

/** denseBlock4: each separable conv sees the ReLU of the sum of all earlier outputs of the block. */
function denseBlock(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string, out: number, first: boolean): Feature {
  const conv0 = first
    ? l.conv(x, { weights: hwioToOihw(take(w, `${prefix}/conv0/filters`, [3, 3, x.c, out]), 3, 3, x.c, out), bias: take(w, `${prefix}/conv0/bias`, [out]), k: 3, out, stride: 2 })
    : separableConv(l, x, w, `${prefix}/conv0`, out, 2);
  const out1 = l.unary("Relu", conv0);
  let sum = out1;
  let input = out1;
  for (const i of [1, 2, 3]) {
    const o = separableConv(l, input, w, `${prefix}/conv${i}`, out, 1);
    sum = l.add(sum, o);
    input = l.unary("Relu", sum);
  }
  return input;
}

/** Raw RGB pixels [N, 3, 112, 112] -> the 256-d feature [N, 256]. */
export function featureExtractor(l: Layers, image: Feature, w: Map<string, Weight>): string {
  let x = l.normalise(image, FACE_MEAN_RGB, 255);
  CHANNELS.forEach((c, i) => (x = denseBlock(l, x, w, `dense${i}`, c, i === 0)));
  const pooled = l.pool("AveragePool", x, 7, 2);
  return l.g.node("Flatten", [pooled.name], { axis: 1 });
}

/** The fully connected layer on top: [N, 256] x fc/weights + fc/bias. */
export function fullyConnected(l: Layers, x: string, w: Map<string, Weight>, cin: number, cout: number): string {
  const weights = l.g.initializer("fc_w", [cin, cout], take(w, "fc/weights", [cin, cout]));
  const bias = l.g.initializer("fc_b", [cout], take(w, "fc/bias", [cout]));
  return l.g.node("Gemm", [x, weights, bias]);
}
