// face-api's SSD MobileNetV1 face detector (512x512 input). Slower than BlazeFace but finds turned,
// tilted and partly hidden faces; the FaceDetector runs it on the whole frame and on tiles.
import type { Box, Detection } from "../types.ts";
import { Model } from "./base.ts";
import { faceApiModelDir, loadFaceApi, type FaceApi } from "./runtime/face-api.ts";
import { tf } from "./runtime/tfjs.ts";

export class SsdFaceModel extends Model<FaceApi> {
  readonly role = "face-detector";
  /**
   * The detector's own threshold. A caller wanting more (FaceMeter scores faces down to 0.05)
   * passes its own to detect(). This instance is shared with the FaceDetector of every job in
   * the process, and a threshold set on it by one caller while another detects leaked into every
   * later detection (two concurrent FaceMeter passes each restored what the other had set,
   * leaving 0.05 behind).
   */
  readonly minConfidence = 0.6;

  constructor() {
    super("face-api/ssd_mobilenetv1");
  }

  protected async loadWeights(): Promise<FaceApi> {
    const faceapi = await loadFaceApi();
    if (!faceapi.nets.ssdMobilenetv1.isLoaded) await faceapi.nets.ssdMobilenetv1.loadFromDisk(faceApiModelDir());
    return faceapi;
  }

  protected async warmUp(faceapi: FaceApi): Promise<void> {
    const t = tf.zeros([128, 128, 3], "int32") as tf.Tensor3D;
    await faceapi.detectAllFaces(t, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.9 }));
    t.dispose();
  }

  /** Faces inside `region` of `image` ([h, w, 3] int32), in whole-image coordinates. */
  async detect(image: tf.Tensor3D, region?: Box, minConfidence = this.minConfidence): Promise<Detection[]> {
    const faceapi = await this.load();
    const crop = region
      ? tf.slice(image, [region.y, region.x, 0], [region.height, region.width, 3])
      : image;
    try {
      const found = await faceapi.detectAllFaces(crop, new faceapi.SsdMobilenetv1Options({ minConfidence, maxResults: 200 }));
      return found.map((f: { score: number; box: Box }) => ({
        x: f.box.x + (region?.x ?? 0),
        y: f.box.y + (region?.y ?? 0),
        width: f.box.width,
        height: f.box.height,
        score: f.score,
        label: "face",
      }));
    } finally {
      if (crop !== image) crop.dispose();
    }
  }
}
