// Static int8 quantization of a float ONNX model's convolutions, in QDQ form: every activation a
// Conv reads passes through QuantizeLinear -> DequantizeLinear (uint8, its range measured on
// calibration inputs), each Conv's weights are stored as per-output-channel int8 with a
// DequantizeLinear, its bias as int32 at the weights' scale times its input's. ONNX Runtime fuses
// DQ -> Conv (-> Clip) -> Q into QLinearConv, which runs on int8 dot products.
//
// Why only where it pays: on this CPU (AVX-512 VNNI) face-api's SSD MobileNetV1 (47 convs up to
// 1024 channels) ran 2.3-2.5x faster with the same faces found (README, "Face detection"); the
// BlazeFace graphs, small and depthwise-heavy, ran slower in int8, so they stay float, and so
// did FaceBoxes (a 1024 px view: 35.6 ms in int8 against 23.9 in float, one thread, side by side).
import onnxProto from "onnx-proto";
import type { onnx as proto } from "onnx-proto";
import "../runtime/no-telemetry.ts"; // before onnxruntime-node
import * as ort from "onnxruntime-node";
import { ONNX_OPSET } from "./onnx-writer.ts";

const { onnx } = onnxProto;
type Tensor = proto.ITensorProto;
type Node = proto.INodeProto;
const { DataType } = onnx.TensorProto;
const AXIS_0 = { name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 0 };

export interface Calibration {
  /** The model's input name and the inputs (each a whole tensor of `dims`) to measure ranges on. */
  input: string;
  dims: readonly number[];
  samples: readonly Float32Array[];
}

const floats = (t: Tensor) => new Float32Array(Uint8Array.from(t.rawData!).buffer);
const raw = (a: Float32Array | Int8Array | Int32Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Activation ranges: [min, max] of each named tensor over the calibration inputs (0 always inside). */
async function measureRanges(bytes: Uint8Array, tensors: readonly string[], cal: Calibration): Promise<Map<string, [number, number]>> {
  const model = onnx.ModelProto.decode(bytes);
  const outputs = new Set(model.graph!.output!.map((o) => o.name));
  for (const t of tensors) if (!outputs.has(t)) model.graph!.output!.push({ name: t, type: { tensorType: { elemType: DataType.FLOAT } } });
  const session = await ort.InferenceSession.create(onnx.ModelProto.encode(model).finish(), { intraOpNumThreads: 1, graphOptimizationLevel: "basic" });
  const ranges = new Map<string, [number, number]>(tensors.map((t) => [t, [0, 0]]));
  try {
    for (const sample of cal.samples) {
      const out = await session.run({ [cal.input]: new ort.Tensor("float32", sample, [...cal.dims]) }, [...tensors]);
      for (const t of tensors) {
        const d = out[t]!.data as Float32Array;
        const r = ranges.get(t)!;
        for (let i = 0; i < d.length; i++) {
          if (d[i]! < r[0]) r[0] = d[i]!;
          else if (d[i]! > r[1]) r[1] = d[i]!;
        }
      }
    }
  } finally {
    await session.release();
  }
  return ranges;
}

/** `bytes` (a float ONNX model) with its convolutions quantized to int8 as described above. */
export async function quantizeConvs(bytes: Uint8Array, cal: Calibration): Promise<Uint8Array> {
  const model = onnx.ModelProto.decode(bytes);
  const graph = model.graph!;
  const initializers = new Map(graph.initializer!.map((t) => [t.name!, t]));
  const convs = graph.node!.filter((n) => n.opType === "Conv" && initializers.has(n.input![1]!));
  const activations = [...new Set(convs.map((n) => n.input![0]!))].filter((x) => !initializers.has(x));
  const ranges = await measureRanges(bytes, activations, cal);

  const added: Tensor[] = [];
  const constant = (name: string, dims: number[], type: number, data: Float32Array | Int8Array | Int32Array | Uint8Array): string => {
    added.push(onnx.TensorProto.create({ name, dims, dataType: type, rawData: raw(data) }));
    return name;
  };
  const scalar = (name: string, type: number, data: Float32Array | Uint8Array) => constant(name, [], type, data);
  const vector = (name: string, type: number, data: Float32Array | Int8Array | Int32Array) => constant(name, [data.length], type, data);
  // Activations: uint8, asymmetric over the measured range. QDQ nodes go right after the
  // tensor's producer (or first, for a graph input), so the node list stays in topological order.
  const activationScale = new Map<string, number>();
  const qdqAfter = new Map<string, Node[]>();
  for (const x of activations) {
    const [lo, hi] = ranges.get(x)!;
    const scale = (hi - lo) / 255 || 1e-8;
    activationScale.set(x, scale);
    const s = scalar(`${x}__scale`, DataType.FLOAT, Float32Array.of(scale));
    const z = scalar(`${x}__zero`, DataType.UINT8, Uint8Array.of(Math.round(-lo / scale)));
    qdqAfter.set(x, [
      onnx.NodeProto.create({ opType: "QuantizeLinear", name: `${x}__Q`, input: [x, s, z], output: [`${x}__q`] }),
      onnx.NodeProto.create({ opType: "DequantizeLinear", name: `${x}__DQ`, input: [`${x}__q`, s, z], output: [`${x}__dq`] }),
    ]);
  }
  const weightNodes: Node[] = [];
  const replaced = new Set<string>();
  for (const conv of convs) {
    const [x, wName, bName] = conv.input! as string[];
    replaced.add(wName!);
    if (bName) replaced.add(bName);
    const w = initializers.get(wName!)!, wf = floats(w);
    const bias = bName ? floats(initializers.get(bName)!) : undefined;
    const channels = Number(w.dims![0]), per = wf.length / channels;
    const sx = activationScale.get(x!)!;
    // Weights: symmetric int8 per output channel. A channel whose weights are all ~0 but whose
    // (batch-norm folded) bias is not would get a bias scale so small that the int32 bias
    // overflows; its weight scale is floored so the bias fits (that overflow wrecked SSD's scores).
    const ws = new Float32Array(channels), wq = new Int8Array(wf.length);
    for (let c = 0; c < channels; c++) {
      let m = 0;
      for (let i = 0; i < per; i++) m = Math.max(m, Math.abs(wf[c * per + i]!));
      ws[c] = Math.max(m / 127, bias ? Math.abs(bias[c]!) / (sx * 2 ** 30) : 0, 1e-12);
      for (let i = 0; i < per; i++) wq[c * per + i] = Math.max(-127, Math.min(127, Math.round(wf[c * per + i]! / ws[c]!)));
    }
    const q = `${wName}__int8`;
    constant(q, w.dims!.map(Number), DataType.INT8, wq);
    const wScale = vector(`${q}__scale`, DataType.FLOAT, ws);
    const wZero = vector(`${q}__zero`, DataType.INT8, new Int8Array(channels));
    weightNodes.push(onnx.NodeProto.create({ opType: "DequantizeLinear", name: `${q}__DQ`, input: [q, wScale, wZero], output: [`${q}__dq`], attribute: [AXIS_0] }));
    const inputs = [`${x}__dq`, `${q}__dq`];
    if (bias) {
      const bs = Float32Array.from(ws, (v) => v * sx);
      const bq = `${bName}__int32`;
      vector(bq, DataType.INT32, Int32Array.from(bias, (v, c) => Math.round(v / bs[c]!)));
      const bScale = vector(`${bq}__scale`, DataType.FLOAT, bs);
      const bZero = vector(`${bq}__zero`, DataType.INT32, new Int32Array(channels));
      weightNodes.push(onnx.NodeProto.create({ opType: "DequantizeLinear", name: `${bq}__DQ`, input: [bq, bScale, bZero], output: [`${bq}__dq`], attribute: [AXIS_0] }));
      inputs.push(`${bq}__dq`);
    }
    conv.input = inputs;
  }
  const nodes: Node[] = [...weightNodes];
  for (const i of graph.input!) nodes.push(...(qdqAfter.get(i.name!) ?? []));
  for (const n of graph.node!) {
    nodes.push(n);
    for (const o of n.output!) nodes.push(...(qdqAfter.get(o) ?? []));
  }
  graph.node = nodes;
  graph.initializer = [...graph.initializer!.filter((t) => !replaced.has(t.name!)), ...added];
  model.opsetImport = [{ domain: "", version: ONNX_OPSET }];
  return onnx.ModelProto.encode(model).finish();
}
