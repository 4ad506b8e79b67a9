// face-api's FaceExpressionNet: the feature extractor plus a 256 -> 7 fully connected layer and a
// softmax (neutral, happy, sad, angry, fearful, disgusted, surprised; FaceExpressions.ts order).
import { OnnxGraph } from "../onnx-writer.ts";
import { FEATURE_INPUT, featureExtractor, fullyConnected } from "./feature-extractor.ts";
import { Layers } from "./layers.ts";
import type { Weight } from "./weights.ts";

export function expressionGraph(w: Map<string, Weight>): OnnxGraph {
  const g = new OnnxGraph("face_expression");
  const l = new Layers(g);
  const face = g.input("face", ["N", 3, FEATURE_INPUT, FEATURE_INPUT]);
  const feature = featureExtractor(l, { name: face, c: 3, h: FEATURE_INPUT, w: FEATURE_INPUT }, w);
  g.output(g.node("Softmax", [fullyConnected(l, feature, w, 256, 7)], { axis: 1 }), "expressions", ["N", 7]);
  return g;
}
