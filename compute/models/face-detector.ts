// Finds every face, from 14 px wide to the whole frame, frontal, turned and tilted. One pass of one
// detector cannot: SSD sees the frame at 512 px (a 25 px face in a 1920 px photo shrinks to 7 px)
// and BlazeFace on large tiles misses what is small. So, all on ONNX Runtime:
//   1. small faces: BlazeFace-back on square tiles of 192 frame px seen at 256 px (x1.33), so a
//      14 px face reaches 19 px at the model's input; boxes up to 0.4 of a tile are taken. At a
//      score of 0.5 it misses almost nothing but also takes texture for faces, so candidates under
//      0.75 (and at most 40 px wide) get a second look (the full-range detector on a crop three
//      times their size, centred on them) and are kept where that look scores them 0.3 or more;
//   2. middle faces: BlazeFace-back on tiles of ~512 px (faces up to ~205 px at 720p/1080p), its
//      boxes under 0.75 given the same second look;
//   3. large faces: BlazeFace-back on the whole frame (zoomed-in faces past the tiles' cap);
//   4. SSD MobileNetV1 on the whole frame: turned, tilted and partly hidden faces;
// and merge everything with NMS. Chosen on bench/face-recall.ts (faces of 14-64 px pasted onto
// real scenes, by size and variant, and the fixture photos); pinned by test/compute/face-recall.test.ts.
import type { Detection, Frame } from "../types.ts";
import { clipBox, nms, overlapOfSmaller, squareTiles } from "./geometry.ts";
import { BlazeFaceModel } from "./face-blaze.ts";
import { SsdFaceModel } from "./face-ssd.ts";

export interface FaceDetectorOptions {
  /** Small-face tiles: frame px per tile (seen at 256 px), grown on huge frames to stay under smallMaxTiles. */
  smallTile: number;
  smallMaxTiles: number;
  /** Small-face candidates need this score; under `smallSureScore` they need the second look's `smallVerifyScore`. */
  smallMinScore: number;
  smallSureScore: number;
  smallVerifyScore: number;
  /** BlazeFace middle-size tile side in pixels (bounded to keep the tile count small on huge frames). */
  blazeTile: number;
  /** Largest BlazeFace tile box kept, as a fraction of the tile side (larger ones are left to the whole-frame passes). */
  blazeMaxFraction: number;
  /** Middle-size tile boxes wider than 0.2 of the tile need at least this score. */
  blazeMidMinScore: number;
  maxTiles: number;
}

const DEFAULTS: FaceDetectorOptions = {
  smallTile: 192,
  smallMaxTiles: 96,
  smallMinScore: 0.5,
  smallSureScore: 0.75,
  smallVerifyScore: 0.3,
  blazeTile: 512,
  blazeMaxFraction: 0.4,
  blazeMidMinScore: 0.75,
  maxTiles: 24,
};

export class FaceDetector {
  readonly ssd: SsdFaceModel | undefined;
  readonly blaze: BlazeFaceModel | undefined;
  /** The second look at small-face candidates (MediaPipe's full-range detector). */
  readonly verifier: BlazeFaceModel | undefined;
  readonly options: FaceDetectorOptions;

  constructor(models: { ssd?: SsdFaceModel; blaze?: BlazeFaceModel; verifier?: BlazeFaceModel }, options: Partial<FaceDetectorOptions> = {}) {
    if (!models.ssd && !models.blaze) throw new Error("FaceDetector needs at least one face model");
    this.ssd = models.ssd;
    this.blaze = models.blaze;
    this.verifier = models.verifier;
    this.options = { ...DEFAULTS, ...options };
  }

  async load(): Promise<void> {
    await Promise.all([this.ssd?.load(), this.blaze?.load(), this.verifier?.load()]);
  }

  /** A tile side of at least `side` px, grown until there are at most `max` tiles. */
  private tileSide(width: number, height: number, side: number, max: number): number {
    let s = side;
    while (squareTiles(width, height, s).length > max) s = Math.round(s * 1.25);
    return s;
  }

  async detect(frame: Frame): Promise<Detection[]> {
    await this.load();
    const { width, height } = frame;
    const long = Math.max(width, height);
    const o = this.options;
    // The passes are independent: ONNX Runtime runs each session.run on its own thread, so they overlap.
    const passes: Array<Promise<Detection[]>> = [];
    if (this.ssd) passes.push(this.ssd.detect(frame));
    let small: Promise<Detection[]> = Promise.resolve([]);
    if (this.blaze) {
      const blaze = this.blaze;
      small = this.smallFaces(frame);
      const side = this.tileSide(width, height, Math.max(o.blazeTile, Math.round(long / 6)), o.maxTiles);
      const cap = o.blazeMaxFraction * side;
      passes.push(
        blaze.detectTiles(frame, side).then((found) => this.verified(frame, found.filter((d) => d.width <= cap && (d.width <= 0.2 * side || d.score >= o.blazeMidMinScore)))),
        // Faces zoomed in past the tiles' cap: the whole frame, where such a face is 35 px or more.
        blaze.detect(frame).then((found) => found.filter((d) => d.width > cap && d.score >= o.blazeMidMinScore)),
      );
    }
    const larger = (await Promise.all(passes)).flat();
    // A small box inside a face twice its size is an eye or a nostril of that face: it would hide
    // nothing more, and NMS could keep it (at a higher score) in place of the whole face.
    const inside = (d: Detection) => larger.some((l) => l.width >= 2 * d.width && overlapOfSmaller(l, d) >= 0.5);
    const found = [...larger, ...(await small).filter((d) => !inside(d))];
    return nms(found.map((d) => ({ ...d, ...clipBox(d, width, height) })).filter((d) => d.width >= 4 && d.height >= 4));
  }

  /** Faces up to 0.4 of a small tile (77 px at the default 192), each unsure one looked at twice. */
  private async smallFaces(frame: Frame): Promise<Detection[]> {
    const o = this.options;
    const side = this.tileSide(frame.width, frame.height, o.smallTile, o.smallMaxTiles);
    // A low score is only worth a second look on a small box: a face of 40 px or more scores high
    // in some pass, and larger low-score boxes were texture (hands, clothes) on the zoomed photos.
    const candidates = nms((await this.blaze!.detectTiles(frame, side, 0.25, o.smallMinScore)).filter((d) => d.width <= o.blazeMaxFraction * side));
    return this.verified(frame, candidates.filter((d) => d.score >= o.smallSureScore || d.width <= 40));
  }

  /** Boxes under the sure score kept only where the second look scores them smallVerifyScore or more. */
  private async verified(frame: Frame, boxes: Detection[]): Promise<Detection[]> {
    const o = this.options;
    const unsure = boxes.filter((d) => d.score < o.smallSureScore);
    if (!this.verifier) return boxes.filter((d) => d.score >= o.smallSureScore);
    const second = await this.verifier.rescore(frame, unsure, 3);
    return boxes.filter((d) => d.score >= o.smallSureScore || second[unsure.indexOf(d)]! >= o.smallVerifyScore);
  }
}
