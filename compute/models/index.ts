// The models layer: one instance of each model class per process, created from the model
// configuration, loaded lazily (single-flight) or eagerly with warmAll(), and listed for /healthz.
import { loadModelConfig, type ModelConfig } from "../config.ts";
import type { Model, ModelStatus } from "./base.ts";
import { BlazeFaceModel } from "./face-blaze.ts";
import { FaceBoxesModel } from "./face-boxes.ts";
import { FaceDetector } from "./face-detector.ts";
import { FaceLandmarker } from "./face-landmarks.ts";
import { FacePresenceModel } from "./face-presence.ts";
import { RetinaFaceModel } from "./face-retina.ts";
import { SsdFaceModel } from "./face-ssd.ts";
import { NsfwClassifier } from "./nsfw-classifier.ts";
import { ObjectDetector } from "./object-detector.ts";
import { PeopleDetector } from "./people-detector.ts";
import { PersonSegmenter } from "./person-segmenter.ts";
import { TextDetector } from "./text-detector.ts";
import { TextRecognizer } from "./text-recognizer.ts";

export { FaceDetector, FaceLandmarker, NsfwClassifier, ObjectDetector, PeopleDetector, PersonSegmenter, TextDetector, TextRecognizer };
export { COCO_CLASSES } from "./object-detector.ts";

/** What pipelines receive: every model role, ready to call (each loads on first use). */
export interface Models {
  faces: FaceDetector;
  /**
   * face-api's SSD as face-api runs it (float): what a face's identity is measured with
   * (compute/anonymize/evaluate.ts). The detector's own SSD where that is the float network (GPU
   * providers), else a second, float session (the detector's is int8 on the CPU, and its boxes
   * differ by a few pixels: enough to move a descriptor taken from a crop aligned on them).
   */
  identityFaces: SsdFaceModel;
  landmarks: FaceLandmarker;
  persons: PersonSegmenter;
  objects: ObjectDetector;
  /** A second network for people, beside the object detector's (pipelines/objects.ts). */
  people: PeopleDetector;
  text: TextDetector;
  nsfw: NsfwClassifier;
  registry: ModelRegistry;
}

export class ModelRegistry {
  private readonly models: Model<unknown>[] = [];

  add<M extends Model<unknown>>(model: M): M {
    this.models.push(model);
    return model;
  }

  /** For /healthz: every configured model and whether it is loaded. */
  status(): ModelStatus[] {
    return this.models.map((m) => m.status());
  }

  /** Load and warm every model (at start-up), one after another to bound peak memory. */
  async warmAll(): Promise<void> {
    for (const m of this.models) await m.load();
  }
}

/** The ONNX Runtime settings every model session takes from the configuration. */
const onnxOptions = (config: ModelConfig) => ({ intraOpThreads: config.onnxThreads, providers: config.onnxProviders });

/** The configured face detector, its networks added to `registry`. */
export function createFaceDetector(config: ModelConfig = loadModelConfig(), registry = new ModelRegistry()): FaceDetector {
  const onnx = onnxOptions(config);
  const ssd = config.faceDetectors.includes("face-api/ssd_mobilenetv1") ? registry.add(new SsdFaceModel(onnx)) : undefined;
  const blaze = config.faceDetectors.includes("human/blazeface-back") ? registry.add(new BlazeFaceModel()) : undefined;
  // The second look at small-face candidates BlazeFace is unsure of.
  const verifier = blaze ? registry.add(new BlazeFaceModel("human/facemesh-detection-full")) : undefined;
  // Small and compressed faces BlazeFace scores low (face-detector.ts).
  const boxes = blaze && config.faceDetectors.includes("human/faceboxes") ? registry.add(new FaceBoxesModel()) : undefined;
  // Small faces a JPEG encoder softened, which the BlazeFace pair scores low (face-detector.ts).
  const retina = blaze && config.faceDetectors.includes("retinaface/mnet.25") ? registry.add(new RetinaFaceModel()) : undefined;
  // Face Mesh's face flag: one of the last look's looks, which needs every model above.
  const presence = ssd && boxes && retina ? registry.add(new FacePresenceModel()) : undefined;
  return new FaceDetector({ ssd, blaze, verifier, boxes, retina, presence });
}

export function createModels(config: ModelConfig = loadModelConfig()): Models {
  const registry = new ModelRegistry();
  const onnx = onnxOptions(config);
  const faces = createFaceDetector(config, registry);
  return {
    faces,
    identityFaces: faces.ssd?.precision === "float32" ? faces.ssd : registry.add(new SsdFaceModel(onnx, "float32", "face-identity")),
    landmarks: registry.add(new FaceLandmarker(onnx)),
    persons: registry.add(new PersonSegmenter(config.personSegmenter as "human/selfie" | "human/rvm", onnx)),
    objects: registry.add(new ObjectDetector(onnx)),
    people: registry.add(new PeopleDetector(onnx)),
    text: registry.add(new TextDetector(config.onnxThreads, registry.add(new TextRecognizer(config.onnxThreads)))),
    nsfw: registry.add(new NsfwClassifier(config.nsfwClassifier as "nsfwjs/mobilenet_v2", config.nsfwThreshold, onnx)),
    registry,
  };
}

let shared: Models | undefined;

/** The process-wide models (one set per process, so nothing is ever loaded twice). */
export function sharedModels(): Models {
  shared ??= createModels();
  return shared;
}
