// The three measurements of the anonymizer, with the registry models (face-api, MIT):
//   identity: euclidean distance between face-api's 128-d descriptor (face_recognition, dlib
//             ResNet-34) of the original face and of the output face (landmarks re-detected on
//             the output, aligned the way face-api aligns) - same person below 0.6;
//   detection: SSD MobileNetV1's score for a face at the original position in the output
//             (best detection with IoU >= 0.3 against the original box; 0 when none);
//   stability: see stabilityMetric() (used by bench/anonymization.ts and the tests).
import type { Box, Frame } from "../types.ts";
import { iou } from "../models/geometry.ts";
import { FaceLandmarker } from "../models/face-landmarks.ts";
import { SsdFaceModel } from "../models/face-ssd.ts";
import type { Pt } from "./raster.ts";

export interface FaceMeasure {
  box: Box;
  landmarks: Pt[];
  descriptor: Float32Array;
  score: number;
}

/** The "still a face": SSD finds a face at the original position with at least this score. */
export const STILL_A_FACE = 0.5;

/**
 * The "another person": face-api's descriptor at least this far from the original's.
 * It is face-api's own match rule (FaceMatcher: the same person when the distance is under 0.6,
 * its default distanceThreshold; dlib's face_recognition, which the descriptor is, uses the same
 * 0.6). It errs towards "same": on the 24 photo faces the nearest OTHER real person is itself
 * closer than 0.6 for 12 of them, so a replacement that reaches it is not a near miss.
 */
export const ANOTHER_PERSON = 0.6;

let faceApiSsd: SsdFaceModel | undefined;

/**
 * face-api's SSD as face-api runs it (float), one per process: what identity is measured with. The
 * face detector's copy is int8 on the CPU (face-ssd.ts), whose boxes differ by a few pixels, and
 * the descriptor is taken from a crop aligned on them: measured with it, 3 of the 24 anonymized
 * photo faces calibrated with the float network came out under 0.6 (test/compute/anonymize.test.ts).
 */
function sharedFaceApiSsd(): SsdFaceModel {
  return (faceApiSsd ??= new SsdFaceModel({}, "float32"));
}

export class FaceMeter {
  readonly ssd: SsdFaceModel;
  readonly landmarker: FaceLandmarker;

  /**
   * Uses the given model instances (a job passes Models.identityFaces and Models.landmarks), else,
   * for tests and benchmarks, face-api's float SSD (one per process) and a landmarker of its own.
   */
  constructor(ssd?: SsdFaceModel, landmarker?: FaceLandmarker) {
    this.ssd = ssd ?? sharedFaceApiSsd();
    this.landmarker = landmarker ?? new FaceLandmarker();
  }

  /** Faces SSD finds at `minScore` or more, with landmarks and descriptor. */
  async faces(frame: Frame, minScore = STILL_A_FACE): Promise<FaceMeasure[]> {
    const found = (await this.detect(frame, Math.min(minScore, 0.3))).filter((d) => d.score >= minScore);
    const described = await this.landmarker.describe(frame, found);
    return found.map((d, i) => ({ box: { x: d.x, y: d.y, width: d.width, height: d.height }, score: d.score, landmarks: described[i].points, descriptor: described[i].descriptor }));
  }

  async load(): Promise<void> {
    await this.ssd.load();
    await this.landmarker.load();
  }

  /** All SSD detections down to `minConfidence` (the model's own threshold is left as it is). */
  async detect(frame: Frame, minConfidence = 0.1) {
    await this.load();
    return this.ssd.detect(frame, undefined, minConfidence);
  }

  /** The detection that stands for the face at `box`: the best-scoring one with IoU >= 0.3 against it. */
  static detectionAt<D extends Box & { score: number }>(detections: D[], box: Box): D | undefined {
    let best: D | undefined;
    for (const d of detections) if (iou(d, box) >= 0.3 && (!best || d.score > best.score)) best = d;
    return best;
  }

  /**
   * For each original face: detector score at its position in `output`, and the descriptor
   * distance between the original and the output face, and the box it was described at (the
   * output detection's box when there is one, else the original box). With `atOriginal`, the
   * distance is the smaller of that one and the one at the original box.
   */
  async compare(output: Frame, originals: FaceMeasure[], opts: { atOriginal?: boolean } = {}): Promise<Array<{ score: number; distance: number; box: Box }>> {
    const dets = await this.detect(output, 0.05);
    const res: Array<{ score: number; distance: number; box: Box }> = [];
    for (const o of originals) {
      const best = FaceMeter.detectionAt(dets, o.box);
      const box = best ? { x: best.x, y: best.y, width: best.width, height: best.height } : o.box;
      const [desc] = await this.landmarker.describe(output, [box]);
      let d = distance(desc.descriptor, o.descriptor);
      if (opts.atOriginal && box !== o.box) d = Math.min(d, distance((await this.landmarker.describe(output, [o.box]))[0].descriptor, o.descriptor));
      res.push({ score: best?.score ?? 0, distance: d, box });
    }
    return res;
  }
}

export function distance(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
}
