// MediaPipe Face Mesh's face flag on ONNX Runtime (converted from human-models' TF.js graph with
// only its flag head kept, compute/models/convert/human-models.ts): the probability that a square
// crop holds a face, which the mesh tracker uses to drop a face it lost. It is not a detector (it
// finds nothing and tells nothing of where in the crop the face is), but it was trained on other
// data than the detectors, and it tells the small boxes the last look weighs apart from texture
// where the detectors' looks do not: on the held-out faces as generated, fitted with this look
// beside the eight, the last look's boxes on no face fell from 48 to 8-10 for as many faces
// (face-evidence.ts, README "The last look"). One crop costs ~3 ms on one thread.
import type { Box, Frame } from "../types.ts";
import { yieldToEventLoop } from "../event-loop.ts";
import { cropAround } from "./geometry.ts";
import { cropToPlanes } from "./resize-input.ts";
import { OnnxModel } from "./onnx-model.ts";
import { inputArray, ort } from "./runtime/onnx.ts";

/** The graph's input side. */
const INPUT = 192;
/** Crops per session.run: 4 cost what 8 or 16 do a crop, and the runs' memory stays ~40 MB over two threads (8: ~70). */
const BATCH = 4;

export class FacePresenceModel extends OnnxModel {
  readonly role = "face-detector";
  protected readonly warmUpInput = { name: "image", dims: [1, 3, INPUT, INPUT] };

  constructor() {
    super("human/facemesh");
  }

  /** Per box, the probability that a square crop `context` times its size, centred on it, holds a face (black past the frame's edges). */
  async rescore(frame: Frame, boxes: readonly Box[], context: number): Promise<number[]> {
    if (boxes.length === 0) return [];
    const session = await this.load();
    const perImage = 3 * INPUT * INPUT;
    const runs: Array<Promise<number[]>> = [];
    for (let i = 0; i < boxes.length; i += BATCH) {
      if (i > 0) await yieldToEventLoop();
      const batch = boxes.slice(i, i + BATCH);
      const input = inputArray(batch.length * perImage);
      batch.forEach((b, k) => cropToPlanes(frame, cropAround(b, context), INPUT, input, { offset: k * perImage, scale: 1 / 255, bias: 0 }));
      const run = session.run({ image: new ort.Tensor("float32", input, [batch.length, 3, INPUT, INPUT]) }, { handOver: true }).then((out) => [...(out.faceflag!.data as Float32Array)]);
      run.catch(() => undefined);
      runs.push(run);
    }
    return (await Promise.all(runs)).flat();
  }
}
