// A small ONNX graph builder over the protobuf definitions in `onnx-proto`: the converters in this
// folder write every model with it, so a converted .onnx file is reproducible from code and never a
// hand-edited binary.
//
// API (opset 17, IR version 8: what onnxruntime-node 1.30 loads):
//   const g = new OnnxGraph("blazeface");
//   const x = g.input("image", ["N", 3, 256, 256]);         // strings are symbolic dims (dim_param)
//   const w = g.initializer("conv1_w", [24, 3, 5, 5], f32);  // Float32Array | BigInt64Array | Int32Array
//   const s = g.int64s("shape", [0, -1, 16]);               // a 1-D int64 constant (name made unique)
//   const k = g.scalar("half", 0.5);                         // a 0-D float constant (name made unique)
//   const y = g.node("Conv", [x, w], { pads: [1, 1, 2, 2], strides: [2, 2] }); // returns its output name
//   const [v, i] = g.nodeOutputs("TopK", [y, k2], { axis: 1 }, 2);            // several outputs
//   g.output(y, "scores", ["N", 896, 1]);                    // names (renames) a tensor as a graph output
//   const bytes: Uint8Array = g.serialize();
//
// Attribute values: an integer number or number[] is written as INT/INTS, any other number as
// FLOAT/FLOATS, a string as STRING. Where ONNX wants a float that happens to be whole (Clip bounds
// are inputs since opset 11, but e.g. LeakyRelu's alpha=1 or Resize's cubic_coeff_a), wrap it:
// `{ alpha: onnxFloat(1) }`, `{ scales: onnxFloats([1, 2]) }`. Attribute names that are always floats
// in the ONNX operator set (alpha, beta, epsilon, ...) are written as floats without wrapping.
//
// Names: `node()` names its output `<op>_<n>` unless `opts.name` is given; `initializer()` keeps the
// name it is given and throws on a duplicate, so two weights can never silently share a name.
import onnxProto from "onnx-proto";
import type { onnx as proto } from "onnx-proto";

const { onnx } = onnxProto;

export const ONNX_OPSET = 17;
const IR_VERSION = 8;

/** A dimension: a fixed size, or a symbolic name (e.g. "N" for a dynamic batch). */
export type Dim = number | string;

/** A float attribute that must be written as FLOAT even when it is a whole number. */
export interface FloatAttr {
  readonly float: number;
}
export interface FloatsAttr {
  readonly floats: readonly number[];
}
export type AttrValue = number | readonly number[] | string | FloatAttr | FloatsAttr;
export type Attrs = Record<string, AttrValue>;

export const onnxFloat = (v: number): FloatAttr => ({ float: v });
export const onnxFloats = (v: readonly number[]): FloatsAttr => ({ floats: v });

/** Attributes that are floats wherever they occur in the standard operator set. */
const FLOAT_ATTRS = new Set(["alpha", "beta", "gamma", "epsilon", "momentum", "lambd", "bias", "extrapolation_value", "cubic_coeff_a", "spatial_scale"]);

export type TensorData = Float32Array | BigInt64Array | Int32Array;

const { AttributeType } = onnx.AttributeProto;
const { DataType } = onnx.TensorProto;

function elemType(data: TensorData): number {
  if (data instanceof Float32Array) return DataType.FLOAT;
  if (data instanceof BigInt64Array) return DataType.INT64;
  return DataType.INT32;
}

function attribute(name: string, v: AttrValue): proto.IAttributeProto {
  if (typeof v === "string") return { name, type: AttributeType.STRING, s: new TextEncoder().encode(v) };
  if (typeof v === "number") {
    const isFloat = FLOAT_ATTRS.has(name) || !Number.isInteger(v);
    return isFloat ? { name, type: AttributeType.FLOAT, f: v } : { name, type: AttributeType.INT, i: v };
  }
  if ("float" in v) return { name, type: AttributeType.FLOAT, f: v.float };
  if ("floats" in v) return { name, type: AttributeType.FLOATS, floats: [...v.floats] };
  const list = v as readonly number[];
  const isFloat = FLOAT_ATTRS.has(name) || list.some((x) => !Number.isInteger(x));
  return isFloat ? { name, type: AttributeType.FLOATS, floats: [...list] } : { name, type: AttributeType.INTS, ints: [...list] };
}

function valueInfo(name: string, dims: readonly Dim[], type: number = DataType.FLOAT): proto.IValueInfoProto {
  const dim = dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType: type, shape: { dim } } } };
}

export interface NodeOptions {
  /** Output tensor name(s); generated when absent. */
  name?: string;
  /** Domain of a non-standard operator (e.g. "com.microsoft"); the standard set when absent. */
  domain?: string;
}

export class OnnxGraph {
  readonly name: string;
  private readonly nodes: proto.INodeProto[] = [];
  private readonly initializers: proto.ITensorProto[] = [];
  private readonly inputs: proto.IValueInfoProto[] = [];
  private readonly outputs: proto.IValueInfoProto[] = [];
  private readonly names = new Set<string>();
  private readonly domains = new Set<string>();
  private counter = 0;

  constructor(name: string) {
    this.name = name;
  }

  /** A name not used yet in this graph, from a readable stem (not reserved until a tensor takes it). */
  unique(stem: string): string {
    let name = stem;
    while (this.names.has(name)) name = `${stem}_${++this.counter}`;
    return name;
  }

  private claim(name: string): string {
    if (this.names.has(name)) throw new Error(`ONNX graph ${this.name}: tensor name ${name} used twice`);
    this.names.add(name);
    return name;
  }

  /** Declares a float graph input; returns its name. */
  input(name: string, dims: readonly Dim[], type: number = DataType.FLOAT): string {
    this.inputs.push(valueInfo(this.claim(name), dims, type));
    return name;
  }

  /** A constant tensor stored in the file. Data length must match the dims' product. */
  initializer(name: string, dims: readonly number[], data: TensorData): string {
    const size = dims.reduce((a, b) => a * b, 1);
    if (size !== data.length) throw new Error(`ONNX initializer ${name}: dims [${dims}] hold ${size} values, got ${data.length}`);
    // Little-endian raw bytes (what TypedArrays hold on every platform Node runs on here).
    const rawData = new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    this.initializers.push({ name: this.claim(name), dims: [...dims], dataType: elemType(data), rawData });
    return name;
  }

  /** A 1-D int64 constant (shapes, axes, pads, slice bounds); the name is made unique. */
  int64s(stem: string, values: readonly number[]): string {
    return this.initializer(this.unique(stem), [values.length], BigInt64Array.from(values, (v) => BigInt(v)));
  }

  /** A 0-D float constant; the name is made unique. */
  scalar(stem: string, value: number): string {
    return this.initializer(this.unique(stem), [], Float32Array.of(value));
  }

  /** A node with one output; returns the output's name. */
  node(op: string, inputs: readonly string[], attrs: Attrs = {}, opts: NodeOptions = {}): string {
    return this.nodeOutputs(op, inputs, attrs, 1, opts)[0]!;
  }

  /** A node with `count` outputs; returns their names. An empty input name means "omitted". */
  nodeOutputs(op: string, inputs: readonly string[], attrs: Attrs, count: number, opts: NodeOptions = {}): string[] {
    const stem = opts.name ?? op.toLowerCase();
    const outputs = Array.from({ length: count }, (_, i) => this.claim(opts.name && i === 0 ? opts.name : this.unique(count > 1 ? `${stem}_out${i}` : stem)));
    const attribute_ = Object.entries(attrs).map(([k, v]) => attribute(k, v));
    if (opts.domain) this.domains.add(opts.domain);
    this.nodes.push({ opType: op, domain: opts.domain ?? "", name: outputs[0], input: [...inputs], output: outputs, attribute: attribute_ });
    return outputs;
  }

  /**
   * Declares `tensor` as a graph output named `name`. A tensor a node produces is renamed in place
   * (its consumers follow); an input or initializer is passed through an Identity.
   */
  output(tensor: string, name: string, dims: readonly Dim[], type: number = DataType.FLOAT): string {
    if (tensor !== name) {
      const producer = this.nodes.find((n) => n.output?.includes(tensor));
      if (producer) {
        this.claim(name);
        for (const n of this.nodes) {
          n.input = n.input?.map((i) => (i === tensor ? name : i));
          n.output = n.output?.map((o) => (o === tensor ? name : o));
        }
        for (const o of this.outputs) if (o.name === tensor) o.name = name;
      } else {
        this.nodes.push({ opType: "Identity", name, input: [tensor], output: [this.claim(name)] });
      }
    }
    this.outputs.push(valueInfo(name, dims, type));
    return name;
  }

  /** The model as ONNX protobuf bytes. */
  serialize(): Uint8Array {
    const graph: proto.IGraphProto = {
      name: this.name,
      node: this.nodes,
      initializer: this.initializers,
      input: this.inputs,
      output: this.outputs,
    };
    const opsetImport = [{ domain: "", version: ONNX_OPSET }, ...[...this.domains].map((domain) => ({ domain, version: 1 }))];
    const model = onnx.ModelProto.create({ irVersion: IR_VERSION, producerName: "obscura-convert", opsetImport, graph });
    return onnx.ModelProto.encode(model).finish();
  }
}

export { DataType as OnnxDataType };
