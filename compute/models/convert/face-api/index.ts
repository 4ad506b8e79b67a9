// face-api's networks as ONNX graphs: each built from the weights manifest that
// @vladmandic/face-api ships (model/<name>-weights_manifest.json + .bin) and the network
// definitions in this folder, which mirror face-api's own code (src/ssdMobilenetv1,
// faceFeatureExtractor + faceLandmarkNet, faceRecognitionNet, faceExpressionNet).
import { packageFile } from "../../runtime/package-file.ts";
import type { OnnxGraph } from "../onnx-writer.ts";
import { expressionGraph } from "./expression.ts";
import { landmarkGraph } from "./landmarks.ts";
import { recognitionGraph } from "./recognition.ts";
import { ssdGraph } from "./ssd.ts";
import { readWeights, type Weight } from "./weights.ts";

export type FaceApiModelId = "face-api/ssd_mobilenetv1" | "face-api/face_landmark_68" | "face-api/face_recognition" | "face-api/face_expression";

export interface FaceApiConversion {
  /** The model's id (compute/config.ts names the first three). */
  id: FaceApiModelId;
  /** The weights manifest's name in face-api's model/ folder. */
  manifest: string;
  graph: (weights: Map<string, Weight>) => OnnxGraph;
}

export const FACE_API_CONVERSIONS: FaceApiConversion[] = [
  { id: "face-api/ssd_mobilenetv1", manifest: "ssd_mobilenetv1_model", graph: ssdGraph },
  { id: "face-api/face_landmark_68", manifest: "face_landmark_68_model", graph: landmarkGraph },
  { id: "face-api/face_recognition", manifest: "face_recognition_model", graph: recognitionGraph },
  { id: "face-api/face_expression", manifest: "face_expression_model", graph: expressionGraph },
];

/** One of face-api's networks as an ONNX graph, from the weights in node_modules. */
export async function convertFaceApi(c: FaceApiConversion): Promise<OnnxGraph> {
  return c.graph(await readWeights(packageFile("@vladmandic/face-api", "model"), c.manifest));
}
