// face-api's FaceLandmark68Net: the feature extractor plus a 256 -> 136 fully connected layer whose
// outputs are the 68 (x, y) points relative to the padded 112x112 square (face-api's postProcess,
// which undoes the padding, runs in compute/models/face-landmarks.ts).
import { OnnxGraph } from "../onnx-writer.ts";
import { FEATURE_INPUT, featureExtractor, fullyConnected } from "./feature-extractor.ts";
import { Layers } from "./layers.ts";
import type { Weight } from "./weights.ts";

export function landmarkGraph(w: Map<string, Weight>): OnnxGraph {
  const g = new OnnxGraph("face_landmark_68");
  const l = new Layers(g);
  const face = g.input("face", ["N", 3, FEATURE_INPUT, FEATURE_INPUT]);
  const feature = featureExtractor(l, { name: face, c: 3, h: FEATURE_INPUT, w: FEATURE_INPUT }, w);
  g.output(fullyConnected(l, feature, w, 256, 136), "landmarks", ["N", 136]);
  return g;
}
