// The expression measure of the anonymizer: the issue asks for a replacement face that follows
// the original's expression, so the output face should read as the same expression as the input
// face. Read with face-api's expression network (faceExpressionNet, in @vladmandic/face-api, MIT:
// seven classes, softmax), fed the detector box as face-api's own
// `detectAllFaces(...).withFaceExpressions()` feeds it, on the input and on the output at the same
// box. Only the benches and the tests use it (like held-out.ts): nothing in the pipeline chooses
// by it.
import type { Box, Frame } from "../types.ts";
import { singleFlight } from "../models/base.ts";
import { faceApiModelDir, loadFaceApi, type FaceApi } from "../models/runtime/face-api.ts";
import { frameToTensor, tf } from "../models/runtime/tfjs.ts";

export const EXPRESSIONS = ["neutral", "happy", "sad", "angry", "fearful", "disgusted", "surprised"] as const;
export type ExpressionName = (typeof EXPRESSIONS)[number];
/** Probability of each expression (they sum to 1). */
export type Expression = Record<ExpressionName, number>;

export class ExpressionReader {
  /** Loads the expression network once (single-flight); a failed load may be retried. */
  readonly load = singleFlight(async (): Promise<FaceApi> => {
    const faceapi = await loadFaceApi();
    if (!faceapi.nets.faceExpressionNet.isLoaded) await faceapi.nets.faceExpressionNet.loadFromDisk(faceApiModelDir());
    return faceapi;
  });

  /** The expression of the face in each box. */
  async read(frame: Frame, boxes: Box[]): Promise<Expression[]> {
    if (boxes.length === 0) return [];
    const faceapi = await this.load();
    const image = frameToTensor(frame);
    let crops: tf.Tensor3D[] = [];
    try {
      crops = await faceapi.extractFaceTensors(image, boxes.map((b) => new faceapi.Rect(b.x, b.y, b.width, b.height)));
      const out: Expression[] = [];
      for (const crop of crops) {
        const p = (await faceapi.nets.faceExpressionNet.predictExpressions(crop)) as Expression;
        out.push(Object.fromEntries(EXPRESSIONS.map((e) => [e, p[e]])) as Expression);
      }
      return out;
    } finally {
      tf.dispose([image, ...crops]);
    }
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
