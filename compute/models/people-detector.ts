// People as boxes from a second network beside CenterNet: MoveNet MultiPose (human-models, a
// CenterNet-style pose network trained on COCO people) on ONNX Runtime. The converted graph ends at
// its heads (convert/human-models.ts); the decoding is done here, not the graph's, which kept its 6
// best people: every person-centre peak, its box from the box heads, scored by the centre and by
// its 17 keypoints together.
//
// Why a second network: CenterNet (4 MB, 80 classes) misses people a pose network sees. On
// bench/people.ts (14 real people pasted at 48-300 px tall on photos of nobody, 1080p, seeds 1-8),
// on the same tiles (pipelines/objects.ts): CenterNet alone found 126 of 192, the two 144, with 3
// boxes on nobody instead of none.
//
// Why both scores (chosen on seeds 1-4 at 1080p, CenterNet's boxes beside them): a centre peak
// alone is a person in texture too (centre >= 0.5: 78 of 96 found, 12 boxes on nobody; >= 0.6: 77
// and 4), and keypoints alone score people whose limbs are out of the frame or hidden low (mean >=
// 0.3: 82 found, 6 on nobody; >= 0.4: 71, none). Their geometric mean from 0.4 (MIN_SCORE): 77
// found, none on nobody.
import type { Detection, Frame } from "../types.ts";
import { nms } from "./geometry.ts";
import { isPeak } from "./object-detector.ts";
import { cropToPlanes } from "./resize-input.ts";
import { OnnxModel } from "./onnx-model.ts";
import { ort, type OnnxOptions } from "./runtime/onnx.ts";

const INPUT = 256;
/** The heads' grid: stride 4. */
const GRID = 64;
const STRIDE = INPUT / GRID;
const KEYPOINTS = 17;
/** A person: the geometric mean of its centre's probability and its keypoints' mean probability. */
const MIN_SCORE = 0.4;
/**
 * Boxes wider than this times their height are not people to this network: it called a red
 * motorcycle's tank and seat a person (0.40-0.51, boxes 2-5x as wide as tall) in most frames of
 * bench/object-removal.ts's clips panning over it (no person of bench/people.ts was lost by the
 * rule). A person lying down is CenterNet's to find.
 */
const WIDEST = 1.5;

/**
 * The people in one network output (input pixels): a centre is a person where it is the maximum
 * of its 3x3 neighbourhood; its box is the cell pushed by the offset head, sized by the size head;
 * each keypoint's probability is the best of its map in the 3x3 cells around where the centre's
 * offsets put it.
 */
export function decodePeople(out: Float32Array, minScore = MIN_SCORE): Detection[] {
  // Channels: centre, its offset (dy, dx), box size (h, w), 17 keypoint maps, 17 keypoint offsets (dy, dx).
  const plane = GRID * GRID;
  const at = (channel: number, y: number, x: number) => out[channel * plane + y * GRID + x]!;
  const found: Detection[] = [];
  // The mean keypoint probability is at most 1, so a centre under minScore^2 cannot make it.
  const floor = minScore * minScore;
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; x++) {
      const centre = at(0, y, x);
      if (!(centre >= floor) || !isPeak(out, 0, GRID, y, x)) continue;
      let keypoints = 0;
      for (let k = 0; k < KEYPOINTS; k++) {
        const ky = Math.round(y + at(5 + KEYPOINTS + 2 * k, y, x)), kx = Math.round(x + at(5 + KEYPOINTS + 2 * k + 1, y, x));
        let best = 0;
        for (let yy = Math.max(0, ky - 1); yy <= Math.min(GRID - 1, ky + 1); yy++) {
          for (let xx = Math.max(0, kx - 1); xx <= Math.min(GRID - 1, kx + 1); xx++) best = Math.max(best, at(5 + k, yy, xx));
        }
        keypoints += best / KEYPOINTS;
      }
      const score = Math.sqrt(centre * keypoints);
      if (score < minScore) continue;
      const cy = y + at(1, y, x), cx = x + at(2, y, x), h = at(3, y, x), w = at(4, y, x);
      if (w > WIDEST * h) continue;
      found.push({ x: (cx - w / 2) * STRIDE, y: (cy - h / 2) * STRIDE, width: w * STRIDE, height: h * STRIDE, score, label: "person" });
    }
  }
  return found;
}

export class PeopleDetector extends OnnxModel {
  readonly role = "person-detector";
  protected readonly warmUpInput = { name: "image", dims: [1, 3, INPUT, INPUT] };

  constructor(onnx: OnnxOptions = {}) {
    super("human/movenet-multipose", onnx);
  }

  /** People in the frame, in frame pixels. */
  async detect(frame: Frame): Promise<Detection[]> {
    const session = await this.load();
    // Letterboxed (black below or to the right), as MoveNet was trained: a person keeps their shape.
    const side = Math.max(frame.width, frame.height);
    const planes = new Float32Array(3 * INPUT * INPUT);
    cropToPlanes(frame, { x: 0, y: 0, side }, INPUT, planes, { scale: 1, bias: 0 });
    const out = await session.run({ image: new ort.Tensor("float32", planes, [1, 3, INPUT, INPUT]) });
    const s = side / INPUT;
    const people = decodePeople(out.people!.data as Float32Array).map((d) => ({ ...d, x: d.x * s, y: d.y * s, width: d.width * s, height: d.height * s }));
    return nms(people, 0.5, 0.9);
  }
}
