// TF.js graph model (model.json + weight shards) -> ONNX, for the op set of the human-models graphs
// we run (BlazeFace, MediaPipe face detector, CenterNet heads, Selfie).
//
// Layout: TF computes in NHWC, ONNX's Conv/Pool/Resize in NCHW. Every rank-4 activation is kept in
// NCHW from the graph input on (the ONNX input itself is NCHW), so convolutions chain without any
// Transpose; a Transpose back to NHWC is inserted only where NHWC memory order is the semantics
// (Reshape of a feature map, i.e. the detection heads). Axis-carrying ops are remapped instead:
// Concat/Mean axes, Pad specs, and per-channel constants of Add/Mul are reshaped to [C,1,1].
//
// Shapes are inferred statically (TF's 'SAME' padding is asymmetric and depends on the input size,
// so it becomes explicit ONNX pads). The batch dimension can be made symbolic ("N"): the shape
// arithmetic these graphs do at run time (Shape -> StridedSlice -> Pack -> Reshape) is folded here
// with the batch kept symbolic, and a Reshape that keeps the batch axis copies it (target dim 0).
//
// Only the nodes the requested outputs depend on are converted, which is how a graph's tail that
// ONNX Runtime does not need (e.g. CenterNet's TopK decoding) is cut off and done in JS instead.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { OnnxGraph, onnxFloat, type Attrs, type Dim } from "./onnx-writer.ts";
import { decodeTfWeights, shardFiles, type ManifestGroup, type ShardReader, type TfWeight } from "./tfjs-weights.ts";

/** A dimension or a small integer in folded shape arithmetic: "N" is the dynamic batch. */
type Sym = number | "N";

interface Value {
  /** ONNX tensor name; empty for a constant not materialised yet. */
  name: string;
  /** The TF (NHWC) shape. */
  shape: Sym[];
  /** Rank-4 tensor stored as NCHW in the ONNX graph. */
  nchw: boolean;
  /** Known constant value (TF layout). */
  constant?: TfWeight;
  /** Known integer vector/scalar whose entries may be the symbolic batch (shape arithmetic). */
  sym?: Sym[];
  /**
   * The TF value is the ONNX tensor times this (hard activations' 6c, below), carried to the next
   * convolution, which takes it into its weights; `value()` multiplies it out for other consumers.
   */
  scale?: number;
  /** ONNX channel count (NCHW axis 1) where wider than TF's: the extra channels are zero (TfjsConversion.blockChannels). */
  width?: number;
}

interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, { i?: string; f?: number; b?: boolean; s?: string; list?: { i?: string[]; s?: string[]; f?: number[] }; type?: string; shape?: { dim?: { size: string }[] } }>;
}

/** A TF.js graph model's model.json. */
export interface TfjsGraphModel {
  format?: string;
  modelTopology: { node: TfNode[] };
  weightsManifest: ManifestGroup[];
}

export interface TfjsConversion {
  /** Graph name in the ONNX file. */
  name: string;
  /**
   * TF node name -> ONNX input name (declared NCHW, float): a placeholder, or any node whose output
   * is fed instead of computed (the graph before it is left out: e.g. run-time padding arithmetic).
   */
  inputs: Record<string, string>;
  /** The inputs' NHWC shape where the graph's is dynamic or missing (a node fed as an input). */
  inputShape?: readonly number[];
  /**
   * Declares the graph outputs from converted TF tensors: `tensor(tfName)` gives the ONNX name and
   * the ONNX dims (rank-4 tensors are NCHW; other ranks keep TF's order), so a conversion can also
   * add a few nodes of its own (e.g. join heads into one output).
   */
  outputs: (g: OnnxGraph, tensor: (tfName: string) => { name: string; dims: Dim[] }) => void;
  /** Make the batch dimension symbolic ("N") so one run can take many images. */
  dynamicBatch: boolean;
  /**
   * ONNX Runtime's CPU provider computes convolutions in a blocked layout (NCHWc: 16 channels a
   * block with AVX-512, 8 with AVX2), but pools and elementwise ops only on channel counts that are
   * whole blocks, and channel Pads not at all: anything else drops to plain NCHW with a reorder on
   * each side, and a residual network stays there for every block after. With `blockChannels`,
   * feature maps of more than one block whose channel count is not a multiple of it are carried
   * widened to the next multiple (zero filters and biases: the extra channels stay zero through
   * convolutions, ReLU, pools and sums of two such maps), channel Pads become 1x1 convolutions,
   * and any other consumer gets the true channels back (Slice).
   */
  blockChannels?: number;
}

/** NCHW dims from NHWC ones: position k of NCHW holds TF axis NCHW_ORDER[k]. */
const NCHW_ORDER = [0, 3, 1, 2];
/** Where a TF (NHWC) axis lands in NCHW. */
const NCHW_AXIS = [0, 2, 3, 1];
/** A TF tensor reference ("^node", "node", "node:0") as the node's name. */
const tensorName = (ref: string) => ref.replace(/^\^/, "").replace(/:0$/, "");
const decode = (s: string | undefined) => (s ? Buffer.from(s, "base64").toString("utf8") : "");
const ints = (a: { list?: { i?: string[] } } | undefined) => (a?.list?.i ?? []).map(Number);

/** TF's padding along one spatial axis -> [begin, end] and output size. */
function tfPad(size: number, k: number, stride: number, dilation: number, padding: string, explicit?: [number, number]): { pads: [number, number]; out: number } {
  const eff = (k - 1) * dilation + 1;
  if (padding === "SAME") {
    const out = Math.ceil(size / stride);
    const total = Math.max((out - 1) * stride + eff - size, 0);
    return { pads: [Math.floor(total / 2), total - Math.floor(total / 2)], out };
  }
  const [b, e] = padding === "EXPLICIT" && explicit ? explicit : [0, 0];
  return { pads: [b, e], out: Math.floor((size + b + e - eff) / stride) + 1 };
}

function num(d: Sym, what: string): number {
  if (typeof d !== "number") throw new Error(`${what}: needs a static size, got the symbolic batch`);
  return d;
}

/** Transposes a constant's data from TF's NHWC order to NCHW (rank 4 only). */
function constToNchw(w: TfWeight): Float32Array | Int32Array {
  const [n, h, wd, c] = w.shape;
  const out = new (w.data.constructor as Float32ArrayConstructor)(w.data.length);
  for (let b = 0; b < n; b++)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < wd; x++) for (let ch = 0; ch < c; ch++) out[((b * c + ch) * h + y) * wd + x] = w.data[((b * h + y) * wd + x) * c + ch];
  return out;
}

/**
 * Conv filter [kh, kw, in, out] -> ONNX Conv's [out, in, kh, kw]. Conv2DBackpropInput's filter is
 * [kh, kw, out, in], and the same transposition yields ConvTranspose's [in, out, kh, kw].
 */
function filterToOnnx(f: TfWeight): { data: Float32Array; dims: number[] } {
  const [kh, kw, a, b] = f.shape;
  const out = new Float32Array(f.data.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < a; i++) for (let o = 0; o < b; o++) out[((o * a + i) * kh + y) * kw + x] = f.data[((y * kw + x) * a + i) * b + o];
  return { data: out, dims: [b!, a!, kh!, kw!] };
}

/** ONNX conv weights [out, in, kh, kw] padded with zeros to `outs` x `ins` (extra filters, and weights for extra input channels). */
function widenFilter(w: { data: Float32Array; dims: number[] }, ins: number, outs: number): { data: Float32Array; dims: number[] } {
  const [o, i, kh, kw] = w.dims as [number, number, number, number];
  if (ins === i && outs === o) return w;
  const data = new Float32Array(outs * ins * kh * kw);
  for (let a = 0; a < o; a++) for (let b = 0; b < i; b++) data.set(w.data.subarray((a * i + b) * kh * kw, (a * i + b + 1) * kh * kw), (a * ins + b) * kh * kw);
  return { data, dims: [outs, ins, kh, kw] };
}

export class TfjsGraphConverter {
  private readonly nodes = new Map<string, TfNode>();
  private readonly values = new Map<string, Value>();
  readonly g: OnnxGraph;
  private readonly weights: Map<string, TfWeight>;
  private readonly spec: TfjsConversion;

  private constructor(topology: TfNode[], weights: Map<string, TfWeight>, spec: TfjsConversion) {
    this.weights = weights;
    this.spec = spec;
    for (const n of topology) this.nodes.set(n.name, n);
    this.g = new OnnxGraph(spec.name);
  }

  /** Converts the graph at `modelJsonPath` (weights read from the shards beside it). */
  static async convert(modelJsonPath: string, spec: TfjsConversion): Promise<OnnxGraph> {
    const json = JSON.parse(await readFile(modelJsonPath, "utf8")) as TfjsGraphModel;
    return TfjsGraphConverter.convertModel(json, shardFiles(path.dirname(modelJsonPath)), spec);
  }

  /** Converts a parsed model.json whose weight shards `readShard` supplies (e.g. nsfwjs's JS-module shards). */
  static async convertModel(json: TfjsGraphModel, readShard: ShardReader, spec: TfjsConversion): Promise<OnnxGraph> {
    if (!json.modelTopology?.node) throw new Error(`${spec.name}: not a TF.js graph model (a Keras layers model has no graph to convert)`);
    const weights = await decodeTfWeights(json.weightsManifest, readShard);
    const c = new TfjsGraphConverter(json.modelTopology.node, weights, spec);
    spec.outputs(c.g, (tf) => {
      const v = c.value(tf);
      return { name: c.materialise(v), dims: v.nchw ? NCHW_ORDER.map((a) => v.shape[a]!) : v.shape };
    });
    return c.g;
  }

  /** The converted value of a TF tensor reference ("node" or "node:0"), any pending scale multiplied out (once per value). */
  private value(ref: string): Value {
    const v = this.scaledValue(ref);
    if (v.scale === undefined) return v;
    return this.derived(ref, "plain", () => ({ name: this.g.node("Mul", [v.name, this.g.scalar("scale", v.scale!)]), shape: v.shape, nchw: v.nchw }));
  }

  /** The converted value with its true channels (a widened one sliced back), possibly with a pending scale: for the consumers that take one (spatial mean, Mul). */
  private scaledValue(ref: string): Value {
    const v = this.wideValue(ref);
    if (v.width === undefined) return v;
    const c = num(v.shape[3]!, ref);
    return this.derived(ref, "narrow", () => ({ ...v, name: this.g.node("Slice", [v.name, this.g.int64s("starts", [0]), this.g.int64s("ends", [c]), this.g.int64s("axes", [1])]), width: undefined }));
  }

  /** A tensor computed from a converted value for other consumers (`kind` of it), made once per value. */
  private derived(ref: string, kind: string, make: () => Value): Value {
    const key = `${tensorName(ref)}\u0000${kind}`;
    let v = this.values.get(key);
    if (!v) {
      v = make();
      this.values.set(key, v);
    }
    return v;
  }

  /** The converted value as converted: possibly widened (blockChannels) or with a pending scale, for the consumers that handle both. */
  private wideValue(ref: string): Value {
    const name = tensorName(ref);
    if (name.includes(":")) throw new Error(`${this.spec.name}: multi-output TF node ${name} is not supported`);
    let v = this.values.get(name);
    if (!v) {
      const node = this.nodes.get(name);
      if (!node) throw new Error(`${this.spec.name}: TF node ${name} not found`);
      v = this.convertNode(node);
      this.values.set(name, v);
    }
    return v;
  }

  /** An ONNX name for the value (a constant becomes an initializer in TF layout). */
  private materialise(v: Value): string {
    if (v.name) return v.name;
    if (!v.constant) throw new Error(`${this.spec.name}: shape arithmetic value [${v.sym}] is needed at run time, which is not supported`);
    v.name = this.g.initializer(this.g.unique("const"), v.constant.shape, v.constant.data);
    return v.name;
  }

  private toNchw(v: Value): string {
    if (v.nchw) return v.name;
    if (v.shape.length !== 4) throw new Error(`${this.spec.name}: expected a rank-4 tensor, got [${v.shape}]`);
    if (v.constant) return this.g.initializer(this.g.unique("const_nchw"), NCHW_ORDER.map((a) => num(v.shape[a]!, "constant")), constToNchw(v.constant));
    return this.g.node("Transpose", [this.materialise(v)], { perm: [0, 3, 1, 2] });
  }

  private toNhwc(v: Value): string {
    return v.nchw ? this.g.node("Transpose", [v.name], { perm: [0, 2, 3, 1] }) : this.materialise(v);
  }

  private constant(ref: string): TfWeight {
    const v = this.value(ref);
    if (v.constant) return v.constant;
    if (v.sym && v.sym.every((s) => typeof s === "number")) return { shape: [v.sym.length], dtype: "int32", data: Int32Array.from(v.sym as number[]) };
    throw new Error(`${this.spec.name}: ${ref} must be a constant`);
  }

  private symOf(ref: string): Sym[] {
    const v = this.value(ref);
    if (v.sym) return v.sym;
    if (v.constant && v.constant.dtype === "int32") return [...v.constant.data];
    throw new Error(`${this.spec.name}: ${ref} is not foldable shape arithmetic`);
  }

  private convertNode(n: TfNode): Value {
    const a = n.attr ?? {};
    const ins = (n.input ?? []).filter((i) => !i.startsWith("^"));
    const out = (name: string, shape: Sym[], nchw: boolean): Value => ({ name, shape, nchw });
    const fed = this.spec.inputs[n.name];
    if (fed) {
      const dims = this.spec.inputShape ?? (a.shape?.shape?.dim ?? []).map((d) => Number(d.size));
      if (dims.length !== 4) throw new Error(`${this.spec.name}: input ${n.name} must be NHWC rank 4`);
      if (dims.slice(1).some((d) => d < 0)) throw new Error(`${this.spec.name}: input ${n.name} has a dynamic size; give inputShape`);
      const shape: Sym[] = dims.map((d, i) => (i === 0 && (this.spec.dynamicBatch || d < 0) ? "N" : d));
      this.g.input(fed, NCHW_ORDER.map((i) => shape[i]!) as Dim[]);
      return out(fed, shape, true);
    }
    switch (n.op) {
      case "Const": {
        const w = this.weights.get(n.name);
        if (!w) throw new Error(`${this.spec.name}: constant ${n.name} has no weight data`);
        return { name: "", shape: w.shape, nchw: false, constant: w };
      }
      case "Placeholder":
        throw new Error(`${this.spec.name}: input ${n.name} is not mapped`);
      case "Identity":
        return this.value(ins[0]!);
      case "_FusedConv2D":
      case "Conv2D":
      case "FusedDepthwiseConv2dNative":
      case "DepthwiseConv2dNative":
        return this.conv(n, ins);
      case "Conv2DBackpropInput":
        return this.convTranspose(n, ins);
      case "MaxPool":
      case "AvgPool": {
        const x = this.zeroKeeping(ins[0]!);
        const [, kh, kw] = ints(a.ksize);
        const [, sh, sw] = ints(a.strides);
        const padding = decode(a.padding?.s);
        const ph = tfPad(num(x.shape[1]!, n.name), kh!, sh!, 1, padding);
        const pw = tfPad(num(x.shape[2]!, n.name), kw!, sw!, 1, padding);
        const y = this.g.node(n.op === "MaxPool" ? "MaxPool" : "AveragePool", [this.toNchw(x)], {
          kernel_shape: [kh!, kw!],
          strides: [sh!, sw!],
          pads: [ph.pads[0], pw.pads[0], ph.pads[1], pw.pads[1]],
        });
        return { ...out(y, [x.shape[0]!, ph.out, pw.out, x.shape[3]!], true), width: x.width };
      }
      case "Relu": {
        const x = this.zeroKeeping(ins[0]!);
        return { ...out(this.g.node(n.op, [this.materialise(x)]), x.shape, x.nchw), width: x.width };
      }
      case "Sigmoid":
      case "Tanh":
      case "Neg": {
        const x = this.value(ins[0]!);
        return out(this.g.node(n.op, [this.materialise(x)]), x.shape, x.nchw);
      }
      case "Prelu": {
        const x = this.zeroKeeping(ins[0]!);
        return { ...out(this.g.node("PRelu", [this.toNchw(x), this.preluSlope(n, ins[1]!, x.width)]), x.shape, true), width: x.width };
      }
      case "Relu6": {
        const x = this.zeroKeeping(ins[0]!);
        return { ...out(this.g.node("Clip", [this.materialise(x), this.g.scalar("zero", 0), this.g.scalar("six", 6)]), x.shape, x.nchw), width: x.width };
      }
      case "Mul":
        return this.hardActivation(ins) ?? this.binary(n, ins);
      case "Add":
      case "AddV2":
      case "Sub":
      case "RealDiv":
        return this.binary(n, ins);
      case "AddN": {
        const xs = ins.map((i) => this.value(i));
        const nchw = xs.some((x) => x.nchw);
        return out(this.g.node("Sum", xs.map((x) => (nchw ? this.toNchw(x) : this.materialise(x)))), xs[0]!.shape, nchw);
      }
      case "Pad": {
        const p = [...this.constant(ins[1]!).data]; // [[b0, e0], [b1, e1], ...] in TF axis order
        if (this.spec.blockChannels && p.length === 8 && p.slice(0, 6).every((d) => d === 0) && this.wideValue(ins[0]!).nchw) return this.channelPad(ins[0]!, p[6]!, p[7]!);
        const x = this.value(ins[0]!);
        const order = x.nchw ? NCHW_ORDER : x.shape.map((_, i) => i);
        const begins = order.map((axis) => p[axis * 2]!);
        const ends = order.map((axis) => p[axis * 2 + 1]!);
        const y = this.g.node("Pad", [x.nchw ? x.name : this.materialise(x), this.g.int64s("pads", [...begins, ...ends])], { mode: "constant" });
        return out(y, x.shape.map((d, i) => (typeof d === "number" ? d + p[i * 2]! + p[i * 2 + 1]! : d)), x.nchw);
      }
      case "ConcatV2": {
        const xs = ins.slice(0, -1).map((i) => this.value(i));
        let axis = Number(this.constant(ins[ins.length - 1]!).data[0]);
        const rank = xs[0]!.shape.length;
        if (axis < 0) axis += rank;
        const nchw = rank === 4 && xs.some((x) => x.nchw);
        const names = xs.map((x) => (nchw ? this.toNchw(x) : this.materialise(x)));
        const shape = [...xs[0]!.shape];
        shape[axis] = xs.reduce((s, x) => s + num(x.shape[axis]!, n.name), 0);
        return out(this.g.node("Concat", names, { axis: nchw ? NCHW_AXIS[axis]! : axis }), shape, nchw);
      }
      case "Mean": {
        const scaled = this.scaledValue(ins[0]!);
        const axes = [...this.constant(ins[1]!).data].map((d) => (d < 0 ? d + scaled.shape.length : d));
        const keep = a.keep_dims?.b ?? false;
        const spatial = axes.includes(1) && axes.includes(2);
        // The spatial mean of a feature map (squeeze-and-excite) as the op ONNX Runtime keeps in its
        // blocked layout; a mean is linear, so a pending scale goes on to the convolution after it.
        if (scaled.nchw && keep && spatial && axes.length === 2) {
          return { ...out(this.g.node("GlobalAveragePool", [scaled.name]), scaled.shape.map((d, i) => (i === 1 || i === 2 ? 1 : d)), true), scale: scaled.scale };
        }
        const x = this.value(ins[0]!);
        // Keep NCHW when the reduced shape reads the same in both layouts (kept dims, or H and W gone).
        const nchw = x.nchw && (keep || spatial);
        const y = this.g.node("ReduceMean", [nchw ? x.name : this.toNhwc(x)], { axes: nchw ? axes.map((d) => NCHW_AXIS[d]!) : axes, keepdims: keep ? 1 : 0 });
        const shape = keep ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) : x.shape.filter((_, i) => !axes.includes(i));
        return out(y, shape, nchw && keep);
      }
      case "ResizeBilinear": {
        const x = this.value(ins[0]!);
        const [h, w] = this.symOf(ins[1]!).map((d) => num(d, n.name));
        const mode = a.align_corners?.b ? "align_corners" : a.half_pixel_centers?.b ? "half_pixel" : "asymmetric";
        const [xh, xw] = [num(x.shape[1]!, n.name), num(x.shape[2]!, n.name)];
        let y: string;
        if (h! % xh === 0 && w! % xw === 0) {
          // A whole-number upscale as constant scales: ONNX Runtime keeps that Resize in its blocked layout.
          y = this.g.node("Resize", [this.toNchw(x), "", this.g.initializer(this.g.unique("scales"), [4], Float32Array.of(1, 1, h! / xh, w! / xw))], { mode: "linear", coordinate_transformation_mode: mode });
        } else {
          const batchAndChannels = this.g.node("Shape", [this.toNchw(x)], { start: 0, end: 2 });
          const sizes = this.g.node("Concat", [batchAndChannels, this.g.int64s("hw", [h!, w!])], { axis: 0 });
          y = this.g.node("Resize", [this.toNchw(x), "", "", sizes], { mode: "linear", coordinate_transformation_mode: mode });
        }
        return out(y, [x.shape[0]!, h!, w!, x.shape[3]!], true);
      }
      case "DepthToSpace": {
        const x = this.value(ins[0]!);
        const b = Number(a.block_size?.i);
        // TF's DepthToSpace reads depth as (block_row, block_col, channel): ONNX's DCR mode.
        const y = this.g.node("DepthToSpace", [this.toNchw(x)], { blocksize: b, mode: "DCR" });
        return out(y, [x.shape[0]!, num(x.shape[1]!, n.name) * b, num(x.shape[2]!, n.name) * b, num(x.shape[3]!, n.name) / (b * b)], true);
      }
      case "Reshape":
        return this.reshape(n, ins);
      case "Squeeze": {
        const x = this.value(ins[0]!);
        const dims = ints(a.squeeze_dims).map((d) => (d < 0 ? d + x.shape.length : d));
        const kept = x.shape.map((_, i) => i).filter((i) => !dims.includes(i));
        // Squeezing NCHW directly gives TF's order only if the kept axes stay in the same order.
        const nchw = x.nchw && kept.map((i) => NCHW_AXIS[i]!).every((v, k, arr) => k === 0 || arr[k - 1]! < v);
        const axes = nchw ? dims.map((d) => NCHW_AXIS[d]!) : dims;
        const y = this.g.node("Squeeze", [nchw ? x.name : this.toNhwc(x), this.g.int64s("axes", axes)]);
        return out(y, kept.map((i) => x.shape[i]!), false);
      }
      case "_FusedMatMul":
      case "MatMul": {
        const x = this.value(ins[0]!);
        const w = this.constant(ins[1]!);
        if (a.transpose_a?.b) throw new Error(`${this.spec.name}: MatMul ${n.name} with transpose_a`);
        const [k, m] = a.transpose_b?.b ? [w.shape[1]!, w.shape[0]!] : [w.shape[0]!, w.shape[1]!];
        const inputs = [this.materialise(x), this.g.initializer(this.g.unique(`${n.name}/w`), w.shape, Float32Array.from(w.data))];
        const fused = (a.fused_ops?.list?.s ?? []).map(decode);
        if (fused[0] === "BiasAdd") inputs.push(this.g.initializer(this.g.unique(`${n.name}/b`), [m], Float32Array.from(this.constant(ins[2]!).data)));
        if (fused.length > 1 || (fused.length === 1 && fused[0] !== "BiasAdd")) throw new Error(`${this.spec.name}: fused ops ${fused} of ${n.name} are not supported`);
        if (x.shape.length !== 2 || x.shape[1] !== k) throw new Error(`${this.spec.name}: MatMul ${n.name} of [${x.shape}] by [${w.shape}]`);
        return out(this.g.node("Gemm", inputs, { transB: a.transpose_b?.b ? 1 : 0 }), [x.shape[0]!, m], false);
      }
      case "Softmax": {
        const x = this.value(ins[0]!);
        return out(this.g.node("Softmax", [this.toNhwc(x)], { axis: -1 }), x.shape, false);
      }
      case "Shape":
        return { name: "", shape: [this.value(ins[0]!).shape.length], nchw: false, sym: this.value(ins[0]!).shape };
      case "StridedSlice":
        return this.stridedSlice(n, ins);
      case "Pack": {
        const parts = ins.map((i) => this.symOf(i));
        if (parts.some((p) => p.length !== 1) || Number(a.axis?.i ?? 0) !== 0) throw new Error(`${this.spec.name}: Pack ${n.name} of non-scalars`);
        return { name: "", shape: [parts.length], nchw: false, sym: parts.map((p) => p[0]!) };
      }
      default:
        throw new Error(`${this.spec.name}: TF op ${n.op} (${n.name}) is not supported by the converter`);
    }
  }

  private conv(n: TfNode, ins: string[]): Value {
    const a = n.attr ?? {};
    // conv(k x) = (k W) x + b: a pending scale of the input goes into the weights; a widened
    // input's zero channels get zero weights.
    const x = this.wideValue(ins[0]!);
    const unscaled = this.constant(ins[1]!);
    const f = x.scale === undefined ? unscaled : { ...unscaled, data: unscaled.data.map((w) => w * x.scale!) };
    const depthwise = n.op.includes("Depthwise");
    const [kh, kw, cin, mult] = f.shape as [number, number, number, number];
    const [, sh, sw] = ints(a.strides);
    const [, dh, dw] = ints(a.dilations).length ? ints(a.dilations) : [1, 1, 1, 1];
    const padding = decode(a.padding?.s);
    const explicit = ints(a.explicit_paddings);
    const ph = tfPad(num(x.shape[1]!, n.name), kh, sh!, dh!, padding, [explicit[2] ?? 0, explicit[3] ?? 0]);
    const pw = tfPad(num(x.shape[2]!, n.name), kw, sw!, dw!, padding, [explicit[4] ?? 0, explicit[5] ?? 0]);
    // Depthwise [kh, kw, C, m] -> grouped [C*m, 1, kh, kw]: output channel c*m + j, as TF orders it.
    const tfW = depthwise ? { data: filterToOnnx({ ...f, shape: [kh, kw, 1, cin * mult] }).data, dims: [cin * mult, 1, kh, kw] } : filterToOnnx(f);
    const cout = tfW.dims[0]!;
    const fused = (a.fused_ops?.list?.s ?? []).map(decode);
    if (fused[0] !== undefined && fused[0] !== "BiasAdd") throw new Error(`${this.spec.name}: fused ops ${fused} of ${n.name} are not supported`);
    if (fused.slice(1).some((act) => act !== "Relu" && act !== "Relu6" && act !== "LeakyRelu" && act !== "Prelu")) throw new Error(`${this.spec.name}: fused activation ${fused.slice(1)} of ${n.name} is not supported`);
    // Channels in and out as ONNX sees them: a widened input widens a depthwise output with it; a
    // full convolution's output is widened past whole blocks (every fused activation keeps 0 at 0).
    const inWidth = x.width ?? cin;
    const outWidth = depthwise ? inWidth * mult : this.blockWidth(cout);
    const onnxW = widenFilter(tfW, depthwise ? 1 : inWidth, outWidth);
    const inputs = [this.toNchw(x), this.g.initializer(this.g.unique(`${n.name}/w`), onnxW.dims, onnxW.data)];
    if (fused[0] === "BiasAdd") {
      const bias = new Float32Array(outWidth);
      bias.set(this.constant(ins[2]!).data);
      inputs.push(this.g.initializer(this.g.unique(`${n.name}/b`), [outWidth], bias));
    }
    let y = this.g.node("Conv", inputs, {
      kernel_shape: [kh, kw],
      strides: [sh!, sw!],
      dilations: [dh!, dw!],
      pads: [ph.pads[0], pw.pads[0], ph.pads[1], pw.pads[1]],
      group: depthwise ? inWidth : 1,
    });
    for (const act of fused.slice(1)) {
      if (act === "Relu") y = this.g.node("Relu", [y]);
      else if (act === "Relu6") y = this.g.node("Clip", [y, this.g.scalar("zero", 0), this.g.scalar("six", 6)]);
      else if (act === "Prelu") y = this.g.node("PRelu", [y, this.preluSlope(n, ins[3]!, outWidth)]);
      else y = this.g.node("LeakyRelu", [y], { alpha: onnxFloat(a.leakyrelu_alpha?.f ?? 0.2) });
    }
    return { name: y, shape: [x.shape[0]!, ph.out, pw.out, cout], nchw: true, ...(outWidth !== cout ? { width: outWidth } : {}) };
  }

  /** A PReLU's per-channel slope (TF [1, 1, C]) as ONNX's [C', 1, 1], zero on widened channels. */
  private preluSlope(n: TfNode, ref: string, width: number | undefined): string {
    const alpha = this.constant(ref);
    const channels = alpha.shape[alpha.shape.length - 1]!;
    if (alpha.data.length !== channels) throw new Error(`${this.spec.name}: ${n.name} has a PReLU slope per pixel, not per channel`);
    const slope = new Float32Array(width ?? channels);
    slope.set(alpha.data);
    return this.g.initializer(this.g.unique(`${n.name}/slope`), [slope.length, 1, 1], slope);
  }

  private convTranspose(n: TfNode, ins: string[]): Value {
    const a = n.attr ?? {};
    const outSize = this.symOf(ins[0]!);
    const f = this.constant(ins[1]!);
    const x = this.value(ins[2]!);
    const [kh, kw, cout] = f.shape as [number, number, number, number];
    const [, sh, sw] = ints(a.strides);
    const padding = decode(a.padding?.s);
    const axis = (i: 1 | 2, k: number, s: number) => {
      const outN = num(outSize[i]!, n.name);
      // The forward convolution maps the output size onto the input size; its pads are ours.
      const fwd = tfPad(outN, k, s, 1, padding);
      const natural = s * (num(x.shape[i]!, n.name) - 1) + k - fwd.pads[0] - fwd.pads[1];
      return { pads: fwd.pads, extra: outN - natural, out: outN };
    };
    const ah = axis(1, kh, sh!);
    const aw = axis(2, kw, sw!);
    const w = filterToOnnx(f);
    const y = this.g.node("ConvTranspose", [this.toNchw(x), this.g.initializer(this.g.unique(`${n.name}/w`), w.dims, w.data)], {
      kernel_shape: [kh, kw],
      strides: [sh!, sw!],
      pads: [ah.pads[0], aw.pads[0], ah.pads[1], aw.pads[1]],
      output_padding: [ah.extra, aw.extra],
    });
    return { name: y, shape: [x.shape[0]!, ah.out, aw.out, cout], nchw: true };
  }

  /**
   * MobileNetV3's activations as one ONNX op each: TF writes hard-swish as (c x) relu6(x + 3) and
   * hard-sigmoid as c relu6(x + 3), c = 1/6, four and three element-wise passes over the feature
   * map; as HardSwish / HardSigmoid ONNX Runtime fuses them into the convolution before them. The
   * weights hold c as float16 (0.166626, not 1/6), which over the network's 30 layers moved box
   * sizes by up to 7 px, so the result is TF's times 1/(6c): that factor is carried (Value.scale)
   * to the next convolution's weights instead of a multiply of its own. CenterNet 42.5 -> 36.9 CPU
   * ms per run (bench/onnx-vs-tfjs.ts), outputs within 2e-7 / 1.8e-3 of the plain conversion.
   */
  private hardActivation(ins: string[]): Value | undefined {
    const node = (ref: string | undefined) => (ref === undefined ? undefined : this.nodes.get(tensorName(ref)));
    const scalar = (ref: string | undefined): number | undefined => {
      const n = node(ref);
      const w = n?.op === "Const" ? this.weights.get(n.name) : undefined;
      return w !== undefined && w.data.length === 1 ? w.data[0] : undefined;
    };
    const sixth = (ref: string | undefined) => {
      const c = scalar(ref);
      return c !== undefined && Math.abs(6 * c - 1) < 1e-3 ? c : undefined;
    };
    // relu6(x + 3) -> x's reference, or undefined
    const relu6Plus3 = (ref: string | undefined): string | undefined => {
      const r = node(ref);
      if (r?.op !== "Relu6") return undefined;
      const add = node(r.input?.[0]);
      if (add?.op !== "Add" && add?.op !== "AddV2") return undefined;
      const [p, q] = add.input ?? [];
      return scalar(q) === 3 ? p : scalar(p) === 3 ? q : undefined;
    };
    const scaled = (op: "HardSwish" | "HardSigmoid", xRef: string, c: number): Value => {
      const x = this.value(xRef);
      const attrs: Attrs = op === "HardSigmoid" ? { alpha: onnxFloat(1 / 6), beta: onnxFloat(0.5) } : {};
      return { name: this.g.node(op, [this.materialise(x)], attrs), shape: x.shape, nchw: x.nchw, scale: 6 * c };
    };
    const [p, q] = ins;
    for (const [a, b] of [[p, q], [q, p]] as const) {
      const hx = relu6Plus3(b);
      if (hx === undefined) continue;
      // hard-sigmoid: c * relu6(x + 3)
      const c = sixth(a);
      if (c !== undefined) return scaled("HardSigmoid", hx, c);
      // hard-swish: (c * x) * relu6(x + 3)
      const cx = node(a);
      if (cx?.op !== "Mul") continue;
      const [m, k] = cx.input ?? [];
      for (const [cRef, x] of [[m, k], [k, m]] as const) {
        const cm = sixth(cRef);
        if (cm !== undefined && x !== undefined && tensorName(x) === tensorName(hx)) return scaled("HardSwish", x, cm);
      }
    }
    return undefined;
  }

  private binary(n: TfNode, ins: string[]): Value {
    if (n.op === "Add" || n.op === "AddV2") {
      // The sum of two maps widened alike stays widened (0 + 0).
      const [a, b] = ins.map((i) => this.zeroKeeping(i)) as [Value, Value];
      if (a.width !== undefined && a.width === b.width && a.nchw && b.nchw && a.shape.join() === b.shape.join()) {
        return { name: this.g.node("Add", [a.name, b.name]), shape: a.shape, nchw: true, width: a.width };
      }
    }
    // A product carries its operands' pending scales (squeeze-and-excite: gate times feature map).
    const [x, y] = ins.map((i) => (n.op === "Mul" ? this.scaledValue(i) : this.value(i))) as [Value, Value];
    const scale = x.scale === undefined && y.scale === undefined ? undefined : (x.scale ?? 1) * (y.scale ?? 1);
    const op = { Add: "Add", AddV2: "Add", Mul: "Mul", Sub: "Sub", RealDiv: "Div" }[n.op]!;
    if (x.sym || y.sym) return this.foldBinary(n, x, y);
    const rank = Math.max(x.shape.length, y.shape.length);
    const shape: Sym[] = [];
    for (let i = 0; i < rank; i++) {
      const dx = x.shape[i - rank + x.shape.length] ?? 1;
      const dy = y.shape[i - rank + y.shape.length] ?? 1;
      shape.push(dx === 1 ? dy : dx);
    }
    const nchw = rank === 4 && (x.nchw || y.nchw);
    const operand = (v: Value): string => {
      if (!nchw || v.nchw) return this.materialise(v);
      if (v.constant) {
        // Right-align the constant against NHWC, then store it in NCHW order ([C] -> [C, 1, 1]).
        const padded = { ...v.constant, shape: [...Array(4 - v.shape.length).fill(1), ...v.constant.shape] };
        if (padded.shape.every((d) => d === 1)) return this.materialise(v);
        return this.g.initializer(this.g.unique("const_nchw"), NCHW_ORDER.map((i) => padded.shape[i]!), constToNchw(padded));
      }
      return this.toNchw(v);
    };
    return { name: this.g.node(op, [operand(x), operand(y)]), shape, nchw, scale };
  }

  /** Integer shape arithmetic on known values (the batch stays symbolic and may not be computed on). */
  private foldBinary(n: TfNode, x: Value, y: Value): Value {
    const xs = x.sym ?? [...x.constant!.data];
    const ys = y.sym ?? [...y.constant!.data];
    const len = Math.max(xs.length, ys.length);
    const f = { Add: (p: number, q: number) => p + q, AddV2: (p: number, q: number) => p + q, Mul: (p: number, q: number) => p * q, Sub: (p: number, q: number) => p - q }[n.op as "Add"];
    if (!f) throw new Error(`${this.spec.name}: cannot fold ${n.op} ${n.name}`);
    const sym = Array.from({ length: len }, (_, i) => f(num(xs[xs.length === 1 ? 0 : i]!, n.name), num(ys[ys.length === 1 ? 0 : i]!, n.name)));
    return { name: "", shape: [len], nchw: false, sym };
  }

  private stridedSlice(n: TfNode, ins: string[]): Value {
    const a = n.attr ?? {};
    const src = this.symOf(ins[0]!);
    const [begin, end, strides] = ins.slice(1).map((i) => [...this.constant(i).data]) as [number[], number[], number[]];
    const mask = (k: string) => Number(a[k]?.i ?? 0);
    if (begin.length !== 1 || mask("ellipsis_mask") || mask("new_axis_mask")) throw new Error(`${this.spec.name}: StridedSlice ${n.name} beyond 1-D shape arithmetic`);
    const len = src.length;
    const norm = (i: number) => (i < 0 ? i + len : i);
    const s = strides[0]!;
    const b = mask("begin_mask") & 1 ? 0 : norm(begin[0]!);
    if (mask("shrink_axis_mask") & 1) return { name: "", shape: [], nchw: false, sym: [src[b]!] };
    const e = mask("end_mask") & 1 ? len : Math.min(norm(end[0]!), len);
    const sym: Sym[] = [];
    for (let i = b; s > 0 ? i < e : i > e; i += s) sym.push(src[i]!);
    return { name: "", shape: [sym.length], nchw: false, sym };
  }

  /** The value for an op that keeps zero at zero (ReLU, pools, sums): widened as converted, a pending scale multiplied out. */
  private zeroKeeping(ref: string): Value {
    const v = this.wideValue(ref);
    return v.scale === undefined ? v : this.value(ref);
  }

  /**
   * TF's Pad of the channel axis only (BlazeFace's shortcut from C to 2C channels) as a 1x1
   * convolution that copies the channels into place: ONNX Runtime keeps a convolution in its
   * blocked layout, a Pad it does not.
   */
  private channelPad(ref: string, before: number, after: number): Value {
    const x = this.zeroKeeping(ref);
    const c = num(x.shape[3]!, ref);
    const inWidth = x.width ?? c;
    const cout = before + c + after;
    const outWidth = this.blockWidth(cout);
    const w = new Float32Array(outWidth * inWidth);
    for (let i = 0; i < c; i++) w[(before + i) * inWidth + i] = 1;
    const y = this.g.node("Conv", [x.name, this.g.initializer(this.g.unique("channel_pad"), [outWidth, inWidth, 1, 1], w)], { kernel_shape: [1, 1] });
    return { name: y, shape: [x.shape[0]!, x.shape[1]!, x.shape[2]!, cout], nchw: true, ...(outWidth !== cout ? { width: outWidth } : {}) };
  }

  /** The ONNX channel count for a feature map of `c` channels: widened to whole blocks past the first (blockChannels). */
  private blockWidth(c: number): number {
    const b = this.spec.blockChannels;
    return b && c > b && c % b !== 0 ? Math.ceil(c / b) * b : c;
  }

  private reshape(n: TfNode, ins: string[]): Value {
    const x = this.value(ins[0]!);
    const target = this.symOf(ins[1]!);
    const known = x.shape.slice(1).reduce<number>((p, d) => p * num(d, n.name), 1);
    const rest = target.slice(1);
    const restKnown = rest.filter((d) => d !== -1).reduce<number>((p, d) => p * num(d, n.name), 1);
    // A reshape whose non-batch dims hold exactly the input's non-batch values keeps the batch axis:
    // copy it (ONNX 0) instead of baking in the batch size the graph was exported with.
    const keepsBatch = x.shape[0] === "N" && (rest.includes(-1) ? known % restKnown === 0 : restKnown === known);
    const onnxTarget = target.map((d, i) => (i === 0 && keepsBatch ? 0 : num(d, n.name)));
    const shape: Sym[] = target.map((d, i) => (i === 0 && keepsBatch ? "N" : d === -1 ? known / restKnown : d));
    if (!keepsBatch && target.includes("N")) throw new Error(`${this.spec.name}: Reshape ${n.name} moves the batch axis`);
    return { name: this.g.node("Reshape", [this.toNhwc(x), this.g.int64s("shape", onnxTarget)]), shape, nchw: false };
  }
}
