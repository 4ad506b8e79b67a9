// face-api's 68-point landmark net and 128-d face descriptor (ResNet-34 from dlib) as one model
// class: anonymisation needs both for the same face (landmarks to align, descriptor to compare).
// Both are converted to ONNX by compute/models/convert/face-api/ and run on onnxruntime-node; the
// steps around them are face-api's (extractFaceTensors, detectLandmarks, FaceLandmarks.align,
// computeFaceDescriptor), written out here on the frame's pixels, every face of a call in one batch.
import type { Box, Frame } from "../types.ts";
import { Model } from "./base.ts";
import { convertedModelFile } from "./convert/index.ts";
import { faceCrop, INPUT_SIDE, requireFaceCrop, runFaceNet, type PixelBox } from "./face-api-input.ts";
import { createSession, ort, type OnnxOptions, type Session } from "./runtime/onnx.ts";

export interface FaceLandmarks {
  /** 68 (x, y) points in frame coordinates (iBUG 300-W order: jaw 0-16, brows, nose, eyes 36-47, mouth 48-67). */
  points: Array<{ x: number; y: number }>;
  /** 128-d identity embedding; euclidean distance < ~0.6 means the same person. */
  descriptor: Float32Array;
}

type Point = { x: number; y: number };

const LANDMARK_SIDE = INPUT_SIDE.features;
const DESCRIPTOR_SIDE = INPUT_SIDE.recognition;
/** FaceLandmarks.align()'s padding of the landmarks' bounding box (alignMinBbox's default). */
const ALIGN_PADDING = 0.2;

interface Sessions {
  landmarks: Session;
  descriptor: Session;
}

export class FaceLandmarker extends Model<Sessions> {
  readonly role = "face-landmarks";
  private readonly onnx: OnnxOptions;

  constructor(onnx: OnnxOptions = {}) {
    super("face-api/face_landmark_68");
    this.onnx = onnx;
  }

  protected async loadWeights(): Promise<Sessions> {
    return {
      landmarks: await createSession(await convertedModelFile("face-api/face_landmark_68"), this.onnx),
      descriptor: await createSession(await convertedModelFile("face-api/face_recognition"), this.onnx),
    };
  }

  protected async warmUp(s: Sessions): Promise<void> {
    await s.landmarks.warmUp({ face: new ort.Tensor("float32", new Float32Array(3 * LANDMARK_SIDE ** 2), [1, 3, LANDMARK_SIDE, LANDMARK_SIDE]) });
    await s.descriptor.warmUp({ face: new ort.Tensor("float32", new Float32Array(3 * DESCRIPTOR_SIDE ** 2), [1, 3, DESCRIPTOR_SIDE, DESCRIPTOR_SIDE]) });
  }

  /**
   * Only the 68 landmarks of each face box (no descriptor: video anonymization runs this per frame);
   * none (an empty list) for a box with no whole pixel row or column inside the frame, such as a
   * tracked box sliding off the frame's edge, where face-api has nothing to read.
   */
  async landmarks(frame: Frame, faces: Box[]): Promise<Point[][]> {
    const s = await this.load();
    const crops = faces.map((f) => faceCrop(f, frame));
    const readable = crops.flatMap((crop, i) => (crop ? [{ face: faces[i], crop, i }] : []));
    const found = await landmarksIn(s, frame, readable);
    const out: Point[][] = faces.map(() => []);
    readable.forEach(({ i }, k) => (out[i] = found[k]));
    return out;
  }

  /** Landmarks and descriptor for each face box (boxes as returned by FaceDetector). */
  async describe(frame: Frame, faces: Box[]): Promise<FaceLandmarks[]> {
    const s = await this.load();
    const jobs = faces.map((face) => ({ face, crop: requireFaceCrop(face, frame, "No face to describe") }));
    const points = await landmarksIn(s, frame, jobs);
    const aligned = points.map((p) => requireFaceCrop(alignedBox(p), frame, "No face to describe (its aligned box)"));
    const descriptors = await runFaceNet(s.descriptor, frame, aligned, DESCRIPTOR_SIDE, 128);
    return points.map((p, i) => ({ points: p, descriptor: descriptors[i] }));
  }
}

/** Landmarks of each face in frame coordinates: detectLandmarks on its crop, shifted by its box. */
async function landmarksIn(s: Sessions, frame: Frame, jobs: Array<{ face: Box; crop: PixelBox }>): Promise<Point[][]> {
  const raw = await runFaceNet(s.landmarks, frame, jobs.map((j) => j.crop), LANDMARK_SIDE, 136);
  return jobs.map(({ face, crop }, k) => {
    // face-api's postProcess: undo the centred padding of the square (|w - h| / 2 on the short
    // side), relative to the crop. The points are then shifted by the box as it was given, not
    // by the clipped and floored crop (FaceLandmarks.shiftBy(box.x, box.y) in face-api's usage).
    const scale = LANDMARK_SIDE / Math.max(crop.width, crop.height);
    const w = crop.width * scale, h = crop.height * scale;
    const padX = w < h ? (h - w) / 2 : 0;
    const padY = h < w ? (w - h) / 2 : 0;
    const r = raw[k];
    return Array.from({ length: 68 }, (_, i) => ({
      x: ((r[2 * i] * LANDMARK_SIDE - padX) / w) * crop.width + face.x,
      y: ((r[2 * i + 1] * LANDMARK_SIDE - padY) / h) * crop.height + face.y,
    }));
  });
}

/** FaceLandmarks.align(): the landmarks' bounding box grown by 20 % of its size (10 % a side). */
function alignedBox(points: Point[]): Box {
  // minBbox starts its maxima at 0, not -Infinity.
  const minX = Math.min(...points.map((p) => p.x)), minY = Math.min(...points.map((p) => p.y));
  const maxX = Math.max(0, ...points.map((p) => p.x)), maxY = Math.max(0, ...points.map((p) => p.y));
  const w = maxX - minX, h = maxY - minY;
  return { x: minX - (w * ALIGN_PADDING) / 2, y: minY - (h * ALIGN_PADDING) / 2, width: w + w * ALIGN_PADDING, height: h + h * ALIGN_PADDING };
}
