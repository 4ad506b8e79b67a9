// face-api's SSD MobileNetV1 face detector: MobileNetV1 (depthwise-separable, ReLU6, batch norm
// folded here) and the SSD prediction layers over six feature maps, 5118 anchors in all. The box
// decoding of face-api's outputLayer runs in the graph too (its anchors are weights), so the graph
// gives boxes [N, 5118, 4] (ymin, xmin, ymax, xmax, relative to the padded 512x512 square) and
// face scores [N, 5118]; the score threshold and NMS stay in compute/models/face-ssd.ts.
// Mirrors ssdMobilenetv1/{SsdMobilenetv1,mobileNetV1,predictionLayer,outputLayer}.ts.
import { OnnxGraph } from "../onnx-writer.ts";
import { INPUT_SIDE } from "../../face-api-input.ts";
import { depthwiseToOihw, foldBatchNorm, hwioToOihw, Layers, type Feature } from "./layers.ts";
import { take, type Weight } from "./weights.ts";

const SSD_INPUT = INPUT_SIDE.ssd;
export const SSD_ANCHORS = 5118;
/** mobileNetV1.ts's batch-norm epsilon. */
const BN_EPSILON = 0.0010000000474974513;

/** conv (weights + convolution_bn_offset) then ReLU6: pointwiseConvLayer. */
function pointwise(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string, k: number, out: number, stride: number): Feature {
  const weights = hwioToOihw(take(w, `${prefix}/weights`, [k, k, x.c, out]), k, k, x.c, out);
  return l.relu6(l.conv(x, { weights, bias: take(w, `${prefix}/convolution_bn_offset`, [out]), k, out, stride }));
}

/** 3x3 depthwise conv, batch norm, ReLU6: depthwiseConvLayer. */
function depthwise(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string, stride: number): Feature {
  const c = x.c;
  const bn = {
    gamma: take(w, `${prefix}/BatchNorm/gamma`, [c]),
    beta: take(w, `${prefix}/BatchNorm/beta`, [c]),
    mean: take(w, `${prefix}/BatchNorm/moving_mean`, [c]),
    variance: take(w, `${prefix}/BatchNorm/moving_variance`, [c]),
  };
  const folded = foldBatchNorm(depthwiseToOihw(take(w, `${prefix}/depthwise_weights`, [3, 3, c, 1]), 3, 3, c), undefined, bn, BN_EPSILON);
  return l.relu6(l.conv(x, { ...folded, k: 3, out: c, stride, group: c }));
}

const MOBILENET_CHANNELS = [64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024];
const MOBILENET_STRIDE2 = new Set([2, 4, 6, 12]);

/** A box predictor's 1x1 conv, NCHW -> NHWC -> [N, anchors, per] (boxPredictionLayer's reshape). */
function predictor(l: Layers, x: Feature, w: Map<string, Weight>, prefix: string, out: number, per: number): string {
  const weights = hwioToOihw(take(w, `${prefix}/weights`, [1, 1, x.c, out]), 1, 1, x.c, out);
  const y = l.conv(x, { weights, bias: take(w, `${prefix}/biases`, [out]), k: 1, out });
  const nhwc = l.g.node("Transpose", [y.name], { perm: [0, 2, 3, 1] });
  return l.g.node("Reshape", [nhwc, l.g.int64s("shape", [0, -1, per])]);
}

/** face-api's decodeBoxesLayer with the anchors' sizes and centres computed once, here. */
function decodeBoxes(g: OnnxGraph, encodings: string, anchors: Float32Array): string {
  const n = anchors.length / 4;
  const sizes = new Float32Array(2 * n), centres = new Float32Array(2 * n);
  for (let i = 0; i < n; i++)
    for (const a of [0, 1]) {
      sizes[2 * i + a] = anchors[4 * i + 2 + a] - anchors[4 * i + a];
      centres[2 * i + a] = anchors[4 * i + a] + sizes[2 * i + a] / 2;
    }
  const size = g.initializer("anchor_sizes", [1, n, 2], sizes);
  const centre = g.initializer("anchor_centres", [1, n, 2], centres);
  const slice = (from: number) => g.node("Slice", [encodings, g.int64s("starts", [from]), g.int64s("ends", [from + 2]), g.int64s("axes", [2])]);
  // centre + enc[0:2] / 10 * size, half extent = exp(enc[2:4] / 5) * size / 2.
  const c = g.node("Add", [g.node("Mul", [g.node("Div", [slice(0), g.scalar("ten", 10)]), size]), centre]);
  const half = g.node("Div", [g.node("Mul", [g.node("Exp", [g.node("Div", [slice(2), g.scalar("five", 5)])]), size]), g.scalar("two", 2)]);
  return g.node("Concat", [g.node("Sub", [c, half]), g.node("Add", [c, half])], { axis: 2 });
}

export function ssdGraph(w: Map<string, Weight>): OnnxGraph {
  const g = new OnnxGraph("ssd_mobilenetv1");
  const l = new Layers(g);
  const image = g.input("image", ["N", 3, SSD_INPUT, SSD_INPUT]);
  // Pixels 0..255 -> -1..1.
  let x = l.normalise({ name: image, c: 3, h: SSD_INPUT, w: SSD_INPUT }, [127.5, 127.5, 127.5], 127.5);
  x = pointwise(l, x, w, "MobilenetV1/Conv2d_0_pointwise", 3, 32, 2);
  let conv11: Feature | undefined;
  MOBILENET_CHANNELS.forEach((out, i) => {
    const idx = i + 1;
    x = depthwise(l, x, w, `MobilenetV1/Conv2d_${idx}_depthwise`, MOBILENET_STRIDE2.has(idx) ? 2 : 1);
    x = pointwise(l, x, w, `MobilenetV1/Conv2d_${idx}_pointwise`, 1, out, 1);
    if (idx === 11) conv11 = x;
  });
  if (!conv11) throw new Error("MobileNetV1 has no 11th layer");
  // The extra SSD feature maps: 1x1 then strided 3x3, four times.
  const extra: Feature[] = [];
  let y = x;
  [[256, 512], [128, 256], [128, 256], [64, 128]].forEach(([narrow, wide], i) => {
    y = pointwise(l, y, w, `Prediction/Conv2d_${2 * i}_pointwise`, 1, narrow, 1);
    y = pointwise(l, y, w, `Prediction/Conv2d_${2 * i + 1}_pointwise`, 3, wide, 2);
    extra.push(y);
  });
  const maps = [conv11, x, ...extra];
  const boxes: string[] = [], classes: string[] = [];
  maps.forEach((m, i) => {
    const anchors = i === 0 ? 3 : 6;
    boxes.push(predictor(l, m, w, `Prediction/BoxPredictor_${i}/BoxEncodingPredictor`, 4 * anchors, 4));
    classes.push(predictor(l, m, w, `Prediction/BoxPredictor_${i}/ClassPredictor`, 3 * anchors, 3));
  });
  const encodings = g.node("Concat", boxes, { axis: 1 });
  const logits = g.node("Concat", classes, { axis: 1 });
  // Class 1 is "face" (0 is background); face-api's score is its sigmoid.
  const face = g.node("Slice", [logits, g.int64s("starts", [1]), g.int64s("ends", [2]), g.int64s("axes", [2])]);
  const scores = g.node("Sigmoid", [g.node("Reshape", [face, g.int64s("shape", [0, -1])])]);
  g.output(decodeBoxes(g, encodings, take(w, "Output/extra_dim", [1, SSD_ANCHORS, 4])), "boxes", ["N", SSD_ANCHORS, 4]);
  g.output(scores, "scores", ["N", SSD_ANCHORS]);
  return g;
}
