// The expression measure of the anonymizer (measuring only, hence under bench/): the issue asks for a replacement face that follows
// the original's expression, so the output face should read as the same expression as the input
// face. Read with face-api's expression network (faceExpressionNet, in @vladmandic/face-api, MIT:
// seven classes, softmax; converted to ONNX by compute/models/convert/face-api/expression.ts), fed
// the detector box as face-api's own `detectAllFaces(...).withFaceExpressions()` feeds it, on the
// input and on the output at the same box. Only the benches and the tests use it (like
// held-out-recognizer.ts): nothing in the pipeline chooses by it.
import type { Box, Frame } from "../../compute/types.ts";
import { singleFlight } from "../../compute/models/base.ts";
import { convertedModelFile } from "../../compute/models/convert/index.ts";
import { INPUT_SIDE, requireFaceCrop, runFaceNet } from "../../compute/models/face-api-input.ts";
import { createSession } from "../../compute/models/runtime/onnx.ts";

export const EXPRESSIONS = ["neutral", "happy", "sad", "angry", "fearful", "disgusted", "surprised"] as const;
export type ExpressionName = (typeof EXPRESSIONS)[number];
/** Probability of each expression (they sum to 1). */
export type Expression = Record<ExpressionName, number>;

export class ExpressionReader {
  /** Loads the expression network once (single-flight); a failed load may be retried. */
  readonly load = singleFlight(async () => createSession(await convertedModelFile("face-api/face_expression")));

  /** The expression of the face in each box (a box with no whole pixel inside the frame is an error). */
  async read(frame: Frame, boxes: Box[]): Promise<Expression[]> {
    const crops = boxes.map((b) => requireFaceCrop(b, frame, "No expression to read"));
    const probabilities = await runFaceNet(await this.load(), frame, crops, INPUT_SIDE.features, EXPRESSIONS.length);
    return probabilities.map((p) => Object.fromEntries(EXPRESSIONS.map((e, i) => [e, p[i]])) as Expression);
  }
}

/** The most probable expression. */
export function topExpression(e: Expression): ExpressionName {
  return EXPRESSIONS.reduce((a, b) => (e[b] > e[a] ? b : a));
}

/** How far apart two readings are: total variation distance, 0 (the same) to 1 (disjoint). */
export function expressionChange(a: Expression, b: Expression): number {
  return EXPRESSIONS.reduce((s, e) => s + Math.abs(a[e] - b[e]), 0) / 2;
}
