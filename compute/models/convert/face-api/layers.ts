// The layers face-api's three networks are made of, written as ONNX nodes. face-api computes in
// NHWC with TF's 'same' padding; ONNX convolutions are NCHW with explicit pads, so each feature map
// carries its static channel/height/width here, which is what TF's asymmetric 'same' padding of a
// strided convolution needs (the extra row/column goes at the end, as TF puts it). Batch norm and
// the recognition net's scale layers are folded into the convolution before them.
import type { OnnxGraph } from "../onnx-writer.ts";

/** A feature map in the graph: its tensor name and static NCHW shape after the batch dim. */
export interface Feature {
  name: string;
  c: number;
  h: number;
  w: number;
}

export type Padding = "same" | "valid";

/** TF's padding along one axis: [begin, end] and the output size. */
function tfPads(size: number, k: number, stride: number, padding: Padding): { begin: number; end: number; out: number } {
  if (padding === "valid") return { begin: 0, end: 0, out: Math.floor((size - k) / stride) + 1 };
  const out = Math.ceil(size / stride);
  const total = Math.max((out - 1) * stride + k - size, 0);
  return { begin: Math.floor(total / 2), end: total - Math.floor(total / 2), out };
}

/** TF conv filter [kh, kw, in, out] -> ONNX [out, in, kh, kw]. */
export function hwioToOihw(f: Float32Array, kh: number, kw: number, cin: number, cout: number): Float32Array {
  const out = new Float32Array(f.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < cin; i++)
        for (let o = 0; o < cout; o++) out[((o * cin + i) * kh + y) * kw + x] = f[((y * kw + x) * cin + i) * cout + o];
  return out;
}

/** TF depthwise filter [kh, kw, c, 1] -> ONNX grouped [c, 1, kh, kw] (the same memory order as [1, c, kh, kw]). */
export function depthwiseToOihw(f: Float32Array, kh: number, kw: number, c: number): Float32Array {
  return hwioToOihw(f, kh, kw, c, 1);
}

export interface ConvSpec {
  /** ONNX-layout weights [out, in/group, kh, kw]. */
  weights: Float32Array;
  bias: Float32Array;
  k: number;
  out: number;
  stride?: number;
  padding?: Padding;
  /** Depthwise when equal to the input channels. */
  group?: number;
}

export class Layers {
  readonly g: OnnxGraph;

  constructor(g: OnnxGraph) {
    this.g = g;
  }

  conv(x: Feature, s: ConvSpec): Feature {
    const stride = s.stride ?? 1;
    const py = tfPads(x.h, s.k, stride, s.padding ?? "same");
    const px = tfPads(x.w, s.k, stride, s.padding ?? "same");
    const group = s.group ?? 1;
    const w = this.g.initializer(this.g.unique("conv_w"), [s.out, x.c / group, s.k, s.k], s.weights);
    const b = this.g.initializer(this.g.unique("conv_b"), [s.out], s.bias);
    const name = this.g.node("Conv", [x.name, w, b], {
      kernel_shape: [s.k, s.k],
      strides: [stride, stride],
      pads: [py.begin, px.begin, py.end, px.end],
      group,
    });
    return { name, c: s.out, h: py.out, w: px.out };
  }

  unary(op: "Relu" | "Sigmoid" | "Exp", x: Feature): Feature {
    return { ...x, name: this.g.node(op, [x.name]) };
  }

  /** min(max(x, 0), 6): MobileNet's ReLU6. */
  relu6(x: Feature): Feature {
    return { ...x, name: this.g.node("Clip", [x.name, this.g.scalar("zero", 0), this.g.scalar("six", 6)]) };
  }

  add(a: Feature, b: Feature): Feature {
    return { ...a, name: this.g.node("Add", [a.name, b.name]) };
  }

  pool(op: "MaxPool" | "AveragePool", x: Feature, k: number, stride: number): Feature {
    const name = this.g.node(op, [x.name], { kernel_shape: [k, k], strides: [stride, stride] });
    return { name, c: x.c, h: Math.floor((x.h - k) / stride) + 1, w: Math.floor((x.w - k) / stride) + 1 };
  }

  /** Zeros appended at the end of the channel, height and width axes (face-api's shape adjusters). */
  padEnd(x: Feature, c: number, h: number, w: number): Feature {
    const pads = this.g.int64s("pads", [0, 0, 0, 0, 0, c, h, w]);
    return { name: this.g.node("Pad", [x.name, pads]), c: x.c + c, h: x.h + h, w: x.w + w };
  }

  /** (x - mean[c]) / divisor, per channel: the networks' input normalisation. */
  normalise(x: Feature, mean: number[], divisor: number): Feature {
    const m = this.g.initializer(this.g.unique("mean"), [1, mean.length, 1, 1], Float32Array.from(mean));
    const centred = this.g.node("Sub", [x.name, m]);
    return { ...x, name: this.g.node("Div", [centred, this.g.scalar("divisor", divisor)]) };
  }
}

/** y = (conv - mean) / sqrt(var + eps) * gamma + beta, folded into the convolution's weights and bias. */
export function foldBatchNorm(weights: Float32Array, bias: Float32Array | undefined, bn: { gamma: Float32Array; beta: Float32Array; mean: Float32Array; variance: Float32Array }, eps: number): { weights: Float32Array; bias: Float32Array } {
  const out = bn.gamma.length;
  const per = weights.length / out;
  const w = new Float32Array(weights.length);
  const b = new Float32Array(out);
  for (let o = 0; o < out; o++) {
    const s = bn.gamma[o] / Math.sqrt(bn.variance[o] + eps);
    for (let i = 0; i < per; i++) w[o * per + i] = weights[o * per + i] * s;
    b[o] = ((bias?.[o] ?? 0) - bn.mean[o]) * s + bn.beta[o];
  }
  return { weights: w, bias: b };
}

/** y = (conv + bias) * scale + shift, folded (the recognition net's scale layers). */
export function foldScale(weights: Float32Array, bias: Float32Array, scale: Float32Array, shift: Float32Array): { weights: Float32Array; bias: Float32Array } {
  const out = scale.length;
  const per = weights.length / out;
  const w = new Float32Array(weights.length);
  const b = new Float32Array(out);
  for (let o = 0; o < out; o++) {
    for (let i = 0; i < per; i++) w[o * per + i] = weights[o * per + i] * scale[o];
    b[o] = bias[o] * scale[o] + shift[o];
  }
  return { weights: w, bias: b };
}
