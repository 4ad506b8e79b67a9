// face-api's 68-point landmark net and 128-d face descriptor (ResNet-34 from dlib) as one model
// class: anonymisation needs both for the same face (landmarks to align, descriptor to compare).
import type { Box, Frame } from "../types.ts";
import { Model } from "./base.ts";
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

  /** Only the 68 landmarks of each face box (no descriptor: video anonymization runs this per frame). */
  async landmarks(frame: Frame, faces: Box[]): Promise<Array<Array<{ x: number; y: number }>>> {
    const faceapi = await this.load();
    const image = frameToTensor(frame);
    try {
      const out: Array<Array<{ x: number; y: number }>> = [];
      for (const f of faces) {
        const [crop] = await faceapi.extractFaceTensors(image, [new faceapi.Rect(f.x, f.y, f.width, f.height)]);
        const lm = await faceapi.nets.faceLandmark68Net.detectLandmarks(crop);
        tf.dispose(crop);
        out.push(lm.shiftBy(f.x, f.y).positions.map((p: { x: number; y: number }) => ({ x: p.x, y: p.y })));
      }
      return out;
    } finally {
      image.dispose();
    }
  }

  /** Landmarks and descriptor for each face box (boxes as returned by FaceDetector). */
  async describe(frame: Frame, faces: Box[]): Promise<FaceLandmarks[]> {
    const faceapi = await this.load();
    const image = frameToTensor(frame);
    try {
      const out: FaceLandmarks[] = [];
      for (const f of faces) {
        const rect = new faceapi.Rect(f.x, f.y, f.width, f.height);
        const [crop] = await faceapi.extractFaceTensors(image, [rect]);
        const lm = await faceapi.nets.faceLandmark68Net.detectLandmarks(crop);
        tf.dispose(crop);
        // Landmarks are relative to the crop: shift them back into the frame.
        const shifted = lm.shiftBy(f.x, f.y);
        const [aligned] = await faceapi.extractFaceTensors(image, [shifted.align()]);
        const descriptor = (await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(aligned)) as Float32Array;
        tf.dispose(aligned);
        out.push({ points: shifted.positions.map((p: { x: number; y: number }) => ({ x: p.x, y: p.y })), descriptor });
      }
      return out;
    } finally {
      image.dispose();
    }
  }
}
