// face-api's 68-point landmark net and 128-d face descriptor (ResNet-34 from dlib) as one model
// class: anonymisation needs both for the same face (landmarks to align, descriptor to compare).
import type { Box, Frame } from "../types.ts";
import { Model } from "./base.ts";
import { cropFrame, type FrameRegion } from "./geometry.ts";
import { faceApiModelDir, loadFaceApi, type FaceApi } from "./runtime/face-api.ts";
import { frameToTensor, tf } from "./runtime/tfjs.ts";

export interface FaceLandmarks {
  /** 68 (x, y) points in frame coordinates (iBUG 300-W order: jaw 0-16, brows, nose, eyes 36-47, mouth 48-67). */
  points: Array<{ x: number; y: number }>;
  /** 128-d identity embedding; euclidean distance < ~0.6 means the same person. */
  descriptor: Float32Array;
}

export class FaceLandmarker extends Model<FaceApi> {
  readonly role = "face-landmarks";

  constructor() {
    super("face-api/face_landmark_68");
  }

  protected async loadWeights(): Promise<FaceApi> {
    const faceapi = await loadFaceApi();
    const dir = faceApiModelDir();
    if (!faceapi.nets.faceLandmark68Net.isLoaded) await faceapi.nets.faceLandmark68Net.loadFromDisk(dir);
    if (!faceapi.nets.faceRecognitionNet.isLoaded) await faceapi.nets.faceRecognitionNet.loadFromDisk(dir);
    return faceapi;
  }

  protected async warmUp(faceapi: FaceApi): Promise<void> {
    const t = tf.zeros([112, 112, 3], "int32");
    await faceapi.nets.faceLandmark68Net.detectLandmarks(t);
    await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(t);
    t.dispose();
  }

  /**
   * Only the 68 landmarks of each face box (no descriptor: video anonymization runs this per frame);
   * none (an empty list) for a box with no whole pixel row or column inside the frame, such as a
   * tracked box sliding off the frame's edge, where face-api has nothing to read.
   */
  async landmarks(frame: Frame, faces: Box[]): Promise<Array<Array<{ x: number; y: number }>>> {
    const faceapi = await this.load();
    const images = new Tensors();
    try {
      const out: Array<Array<{ x: number; y: number }>> = [];
      for (const [i, region] of regionsOf(frame, faces).entries()) {
        const found = await this.landmarksIn(faceapi, images.of(region.frame), inRegion(faces[i], region));
        out.push(found ? shifted(found.positions, region) : []);
      }
      return out;
    } finally {
      images.dispose();
    }
  }

  /** Landmarks and descriptor for each face box (boxes as returned by FaceDetector). */
  async describe(frame: Frame, faces: Box[]): Promise<FaceLandmarks[]> {
    const faceapi = await this.load();
    const images = new Tensors();
    try {
      const out: FaceLandmarks[] = [];
      for (const [i, crop] of regionsOf(frame, faces).entries()) {
        let region = crop;
        let described = await this.describeIn(faceapi, images.of(region.frame), inRegion(faces[i], region));
        // The aligned box reaches past the crop only for landmarks far outside the face box: then
        // the whole frame, so the result is always the whole frame's.
        if (!readInside(described.aligned, region, frame)) {
          region = { frame, x: 0, y: 0 };
          described = await this.describeIn(faceapi, images.of(frame), faces[i]);
        }
        out.push({ points: shifted(described.points, region), descriptor: described.descriptor });
      }
      return out;
    } finally {
      images.dispose();
    }
  }

  private async landmarksIn(faceapi: FaceApi, image: tf.Tensor3D, f: Box) {
    const [crop] = await faceapi.extractFaceTensors(image, [new faceapi.Rect(f.x, f.y, f.width, f.height)]);
    // face-api drops a box that, clipped to the image and floored, has no width or height left.
    if (!crop) return undefined;
    try {
      // Landmarks are relative to the box: shift them into the image.
      return (await faceapi.nets.faceLandmark68Net.detectLandmarks(crop)).shiftBy(f.x, f.y);
    } finally {
      tf.dispose(crop);
    }
  }

  private async describeIn(faceapi: FaceApi, image: tf.Tensor3D, f: Box): Promise<{ points: Array<{ x: number; y: number }>; descriptor: Float32Array; aligned: Box }> {
    const lm = await this.landmarksIn(faceapi, image, f);
    if (!lm) throw new Error(`No face to describe: the box ${[f.x, f.y, f.width, f.height].map((v) => v.toFixed(1)).join(",")} has no whole pixel inside the image`);
    const aligned = lm.align();
    const [face] = await faceapi.extractFaceTensors(image, [aligned]);
    try {
      const descriptor = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(face)) as Float32Array;
      return { points: lm.positions, descriptor, aligned: { x: aligned.x, y: aligned.y, width: aligned.width, height: aligned.height } };
    } finally {
      tf.dispose(face);
    }
  }
}

/**
 * The part of the frame a face's landmarks and descriptor are computed from: its box grown by its
 * larger side on every side, clipped to the frame. face-api reads only the face box and the box it
 * aligns from the landmarks (their bounding box padded by 10 % a side), each clipped at the image
 * border, so on this crop it computes what it computes on the whole frame (checked by readInside)
 * without converting the whole frame to a tensor for every face: about a third of the time per
 * face on a 1920x1280 photo (250 -> 90 ms; 232 -> 141 ms a face over the test photos).
 */
function around(frame: Frame, box: Box): FrameRegion {
  const m = Math.max(box.width, box.height);
  return cropFrame(frame, { x: box.x - m, y: box.y - m, width: box.width + 2 * m, height: box.height + 2 * m });
}

/**
 * Where each face is read from: the crop around it, or the whole frame for every face when the
 * crops together would hold more pixels than the frame (many large faces: the frame is then
 * converted once for all of them).
 */
function regionsOf(frame: Frame, faces: Box[]): FrameRegion[] {
  const crops = faces.map((f) => around(frame, f));
  const pixels = crops.reduce((n, c) => n + c.frame.width * c.frame.height, 0);
  return pixels < frame.width * frame.height ? crops : faces.map(() => ({ frame, x: 0, y: 0 }));
}

/** A face box in its region's coordinates. */
function inRegion(box: Box, region: FrameRegion): Box {
  return { ...box, x: box.x - region.x, y: box.y - region.y };
}

/** Each frame converted to a tensor once, all disposed together. */
class Tensors {
  private readonly made = new Map<Frame, tf.Tensor3D>();

  of(frame: Frame): tf.Tensor3D {
    let t = this.made.get(frame);
    if (!t) this.made.set(frame, (t = frameToTensor(frame)));
    return t;
  }

  dispose(): void {
    for (const t of this.made.values()) t.dispose();
    this.made.clear();
  }
}

/** Whether `box` (crop coordinates) lies inside the crop wherever the crop cuts the frame. */
function readInside(box: Box, crop: FrameRegion, frame: Frame): boolean {
  return (box.x >= 0 || crop.x === 0) && (box.y >= 0 || crop.y === 0) &&
    (box.x + box.width <= crop.frame.width || crop.x + crop.frame.width === frame.width) &&
    (box.y + box.height <= crop.frame.height || crop.y + crop.frame.height === frame.height);
}

/** face-api points in crop coordinates, as plain points in frame coordinates. */
function shifted(points: Array<{ x: number; y: number }>, crop: FrameRegion): Array<{ x: number; y: number }> {
  return points.map((p) => ({ x: p.x + crop.x, y: p.y + crop.y }));
}
