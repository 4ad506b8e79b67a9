// The human-models graphs, nsfwjs's MobileNetV2Mid and face-api's networks on TF.js (tfjs-wasm,
// SIMD, one thread) vs their ONNX conversions (compute/models/convert/tfjs-graph.ts, face-api/) on
// onnxruntime-node with 1 and 2 intra-op threads, on the
// same input tensors built from fixture photos. Network only (pixels -> input tensor is the same
// code for both and not timed). Prints wall ms and CPU ms per call (user + system of the whole
// process, so ORT's pool threads count) and the largest absolute difference of every output.
//   npx node bench/onnx-vs-tfjs.ts [rounds=3] [model ...]
import { loadavg } from "node:os";
import { convertedModelFile } from "../compute/models/convert/index.ts";
import type { FaceApiModelId } from "../compute/models/convert/face-api/index.ts";
import type { HumanConvertedId } from "../compute/models/convert/human-models.ts";
import { faceCrop, INPUT_SIDE, squareInput, type PixelBox } from "../compute/models/face-api-input.ts";
import { resizeToPlanes } from "../compute/models/resize-input.ts";
import { createSession, ort } from "../compute/models/runtime/onnx.ts";
import { tf } from "../compute/models/runtime/tfjs.ts";
import type { Frame } from "../compute/types.ts";
import { faceBoxes, loadPhoto } from "../test/compute/photos.ts";
import { FaceApiReference } from "../test/fixtures/face-api-reference.ts";
import { HumanTfjsReference, TF_OUTPUTS } from "../test/fixtures/human-tfjs-reference.ts";
import { NsfwjsReference } from "../test/fixtures/nsfwjs-reference.ts";
import { timePerCall } from "./timing.ts";

const ROUNDS = Number(process.argv[2] ?? 3);
const only = process.argv.slice(3);
const PHOTOS = ["group1.jpg", "astronaut.png", "group-collage-small-faces.jpg", "motorcycle_left.png", "chelsea.png"];
const ref = new HumanTfjsReference();
const nsfwjs = new NsfwjsReference();

interface Bench {
  side: number;
  /** The value range the graph expects (see convert/human-models.ts, convert/nsfwjs.ts). */
  scale: number;
  bias: number;
  /** The inputs when they are not the photos resized to side x side (face-api's own padding). */
  inputs?: () => Float32Array[];
  /** A TF.js graph model, timed as the service ran it; or, for face-api's networks, one call. */
  tfModel?: () => Promise<tf.GraphModel>;
  tfOutputs?: string[];
  tfCall?: (nchw: Float32Array) => Promise<unknown>;
  /** The TF.js outputs laid out as the ONNX graph's, for the differences. */
  reference: (nchw: Float32Array) => Promise<Float32Array[]>;
}

const human = (id: HumanConvertedId, side: number, scale: number, bias: number): Bench => ({
  side, scale, bias,
  tfModel: () => ref.model(id),
  tfOutputs: TF_OUTPUTS[id],
  reference: (x) => ref.outputs(id, x, [1, 3, side, side]),
});

/** A graph fed after its own first nodes (as converted): timed through the reference, which feeds it there. */
const fedMidGraph = (id: HumanConvertedId, side: number, scale: number, bias: number): Bench => {
  const call = (x: Float32Array) => ref.outputs(id, x, [1, 3, side, side]);
  return { side, scale, bias, tfCall: call, reference: call };
};

let faceApiRef: Promise<FaceApiReference> | undefined;
/**
 * face-api's networks (convert/face-api/) on what they are fed: SSD on the whole photos, the face
 * nets on each photo's first hand-counted face boxes (at most 4), padded and resized as face-api
 * does (face-api-input.ts), pixels 0..255 (the graphs normalise). TF.js from the NCHW planes.
 */
const faceApi = (id: FaceApiModelId, side: number): Bench => {
  const call = async (x: Float32Array) => (await (faceApiRef ??= FaceApiReference.load())).outputs(id, x, side);
  const planes = (frame: Frame, box: PixelBox, centred: boolean) => {
    const x = new Float32Array(3 * side * side);
    squareInput(frame, box, side, centred, x);
    return x;
  };
  const inputs = () =>
    id === "face-api/ssd_mobilenetv1"
      ? frames.map((f) => planes(f, { x: 0, y: 0, width: f.width, height: f.height }, false))
      : PHOTOS.flatMap((name, i) => (faceBoxes()[name] ?? []).slice(0, 4).flatMap((b) => {
          const crop = faceCrop(b, frames[i]!);
          return crop ? [planes(frames[i]!, crop, true)] : [];
        }));
  return { side, scale: 1, bias: 0, inputs, tfCall: call, reference: async (x) => call(x) };
};

const BENCHES: Record<string, Bench> = {
  "human/blazeface-back": human("human/blazeface-back", 256, 1 / 127.5, -1),
  "human/facemesh-detection-full": human("human/facemesh-detection-full", 192, 1 / 127.5, -1),
  "human/centernet": human("human/centernet", 512, 1, 0),
  "human/selfie": human("human/selfie", 256, 1 / 255, 0),
  "human/movenet-multipose": fedMidGraph("human/movenet-multipose", 256, 1, 0),
  "nsfwjs/mobilenet_v2_mid": { side: 224, scale: 1 / 255, bias: 0, tfModel: async () => (await nsfwjs.load()).model, reference: async (x) => [await nsfwjs.outputs(x, 1)] },
  "face-api/ssd_mobilenetv1": faceApi("face-api/ssd_mobilenetv1", INPUT_SIDE.ssd),
  "face-api/face_landmark_68": faceApi("face-api/face_landmark_68", INPUT_SIDE.features),
  "face-api/face_recognition": faceApi("face-api/face_recognition", INPUT_SIDE.recognition),
  "face-api/face_expression": faceApi("face-api/face_expression", INPUT_SIDE.features),
};

const frames = await Promise.all(PHOTOS.map((name) => loadPhoto(name)));
const fmt = (t: { wall: number; cpu: number }) => `${t.wall.toFixed(1).padStart(7)} ms ${t.cpu.toFixed(1).padStart(7)} CPU ms`;

console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(" ")}; ${PHOTOS.length} photos x ${ROUNDS} rounds, batch 1`);
console.log(`${"model".padEnd(30)} ${"tfjs-wasm".padEnd(26)} ${"ORT 1 thread".padEnd(26)} ${"ORT 2 threads".padEnd(26)} max |diff| per output`);
for (const [id, b] of Object.entries(BENCHES)) {
  if (only.length && !only.some((o) => id.includes(o))) continue;
  const { side, scale, bias } = b;
  const inputs = b.inputs?.() ?? frames.map((f) => resizeToPlanes(f, side, side, { scale, bias }));
  const dims: [number, number, number, number] = [1, 3, side, side];
  let tfjs;
  if (b.tfModel) {
    // TF.js timed as the service ran it: an NHWC tensor in, every output downloaded.
    const model = await b.tfModel();
    const nhwc = inputs.map((x) => tf.tidy(() => tf.transpose(tf.tensor4d(x, dims), [0, 2, 3, 1])));
    tfjs = await timePerCall(inputs.length, ROUNDS, async () => {
      for (const x of nhwc) {
        const out = model.execute(x, b.tfOutputs);
        const list = Array.isArray(out) ? out : [out];
        await Promise.all(list.map((t) => t.data()));
        tf.dispose(list);
      }
    });
    tf.dispose(nhwc);
  } else {
    tfjs = await timePerCall(inputs.length, ROUNDS, async () => {
      for (const x of inputs) await b.tfCall!(x);
    });
  }
  const file = await convertedModelFile(id);
  const timings = [];
  const diffs: number[] = [];
  for (const threads of [1, 2]) {
    const session = await createSession(file, { intraOpThreads: threads, providers: ["cpu"] });
    const input = session.inputNames[0]!;
    timings.push(
      await timePerCall(inputs.length, ROUNDS, async () => {
        for (const x of inputs) await session.run({ [input]: new ort.Tensor("float32", x, dims) });
      }),
    );
    if (threads === 1) {
      for (const x of inputs) {
        const got = await session.run({ [input]: new ort.Tensor("float32", x, dims) });
        const want = await b.reference(x);
        session.outputNames.forEach((name, k) => {
          const a = got[name]!.data as Float32Array;
          diffs[k] = Math.max(diffs[k] ?? 0, a.reduce((m, v, i) => Math.max(m, Math.abs(v - want[k]![i]!)), 0));
        });
      }
    }
    await session.release();
  }
  console.log(`${id.padEnd(30)} ${fmt(tfjs)} ${fmt(timings[0]!)} ${fmt(timings[1]!)} ${diffs.map((d) => d.toExponential(1)).join(", ")}`);
}
console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
