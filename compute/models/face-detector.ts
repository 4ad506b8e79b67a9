// Finds every face, small and large, frontal and turned. One pass of one detector misses small
// faces in group photos (SSD sees the frame at 512 px, so a 25 px face in a 1920 px photo shrinks
// to ~7 px), so we combine:
//   1. SSD MobileNetV1 on the whole frame: large, turned, tilted and partly hidden faces;
//   2. BlazeFace (back-camera model, 256 px input) on overlapping 256 px tiles of the frame at full
//      resolution (tileScale 1), so a 14 px face stays 14 px: seen at half size (512 px tiles, the
//      earlier setting) it found 0 of 44 such faces of the evaluation set, at full size 23 of 44
//      (bench/face-recall.ts); only small boxes are taken from tiles;
//   3. BlazeFace on the whole frame for faces larger than the tiles take (zoomed-in faces);
//   4. optionally SSD on larger tiles too (ssdTiles; ~0.5 s per tile on one core, off by default:
//      on our set it added no face the passes above missed);
// and merge everything with NMS. Measured on test/fixtures/photos (faces.json): see the report
// printed by test/compute/models.test.ts.
import type { Detection, Frame } from "../types.ts";
import { clipBox, nms, squareTiles } from "./geometry.ts";
import { BlazeFaceModel } from "./face-blaze.ts";
import { SsdFaceModel } from "./face-ssd.ts";

export interface FaceDetectorOptions {
  /** Also run SSD on tiles (side = max(ssdTileMin, long side / 3)); costly: ~0.4 s per tile. */
  ssdTiles: boolean;
  ssdTileMin: number;
  /** Network px per frame px on BlazeFace's tiles (lowered on huge frames to keep <= maxTiles). */
  tileScale: number;
  /**
   * Least score of a tile box. 0.6 (the model's own) gave 11 false boxes of 100 on the evaluation
   * set (seeds 1-6), 0.7 gave 2 of 163 (seeds 1-12) for 161/200 faces, 0.8 0 false but 129/200.
   */
  blazeTileMinScore: number;
  /**
   * Least score of a full-range tile box (the full-range pass runs where OBSCURA_MODEL_FACE_DETECTORS
   * lists human/facemesh-detection-full; off by default: with it, seeds 1-12 gave 172/200 faces
   * (14 px 27/44) instead of 161 (23/44), but 9 false boxes instead of 4, 5 false boxes on the
   * group photos instead of 1, 2 on the zoomed-in 1080p faces of models.test.ts instead of 0, and
   * 830 instead of 535 CPU ms per 720p frame). On seeds 1-12 (200 faces), the full-range detector alone on
   * full-resolution tiles: 0.6 found 173 (14 px: 30/44) with 11 false boxes, 0.65 162 with 7, 0.5
   * 179 with 23.
   */
  fullRangeMinScore: number;
  /** Largest BlazeFace tile box kept, as a fraction of the tile side (larger ones are left to SSD). */
  blazeMaxFraction: number;
  /** Tile boxes wider than 0.2 of the tile (middle-sized faces) need at least this score. */
  blazeMidMinScore: number;
  maxTiles: number;
}

const DEFAULTS: FaceDetectorOptions = { ssdTiles: false, ssdTileMin: 640, tileScale: 1, blazeTileMinScore: 0.7, fullRangeMinScore: 0.65, blazeMaxFraction: 0.4, blazeMidMinScore: 0.75, maxTiles: 96 };

export class FaceDetector {
  readonly ssd: SsdFaceModel | undefined;
  readonly blaze: BlazeFaceModel | undefined;
  /** MediaPipe's full-range detector (a BlazeFaceModel with another graph), on full-resolution tiles. */
  readonly fullRange: BlazeFaceModel | undefined;
  readonly options: FaceDetectorOptions;

  constructor(models: { ssd?: SsdFaceModel; blaze?: BlazeFaceModel; fullRange?: BlazeFaceModel }, options: Partial<FaceDetectorOptions> = {}) {
    if (!models.ssd && !models.blaze && !models.fullRange) throw new Error("FaceDetector needs at least one face model");
    this.ssd = models.ssd;
    this.blaze = models.blaze;
    this.fullRange = models.fullRange;
    this.options = { ...DEFAULTS, ...options };
  }

  async load(): Promise<void> {
    await Promise.all([this.ssd?.load(), this.blaze?.load(), this.fullRange?.load()]);
  }

  /** SSD's tiles: about `side` px, grown until there are at most maxTiles of them. */
  private tiles(width: number, height: number, side: number) {
    let s = side;
    let tiles = squareTiles(width, height, s);
    while (tiles.length > this.options.maxTiles) {
      s = Math.round(s * 1.25);
      tiles = squareTiles(width, height, s);
    }
    return tiles;
  }

  async detect(frame: Frame): Promise<Detection[]> {
    await this.load();
    const { width, height } = frame;
    const long = Math.max(width, height);
    const found: Detection[] = [];
    if (this.ssd) {
      found.push(...(await this.ssd.detect(frame)));
      // SSD sees 512 px; tiles pay off once the frame is well above that.
      if (this.options.ssdTiles && long > 900) {
        const side = Math.max(this.options.ssdTileMin, Math.round(long / 3));
        for (const t of this.tiles(width, height, side)) {
          if (t.width === width && t.height === height) continue;
          found.push(...(await this.ssd.detect(frame, t)));
        }
      }
    }
    // The tile scale, lowered until the frame takes at most maxTiles 256 px tiles (a 12 MP photo:
    // ~0.45, so its faces need ~30 px to be seen at 14 px).
    let scale = this.options.tileScale;
    while (squareTiles(Math.round(width * scale), Math.round(height * scale), 256).length > this.options.maxTiles) scale *= 0.9;
    if (this.fullRange) {
      // Small faces only (up to 0.4 of a 192 px tile): larger ones are the passes' below.
      const cap = (0.4 * this.fullRange.input) / scale;
      const min = this.options.fullRangeMinScore;
      found.push(...(await this.fullRange.detectTiles(frame, scale)).filter((d) => d.width <= cap && d.score >= min));
    }
    if (this.blaze) {
      // Two tile passes: full resolution for the smallest faces, then half of it (512 px tiles, the
      // earlier single pass) so faces up to 0.4 of its tiles (205 px) are still taken from tiles.
      for (const k of [scale, scale / 2]) {
        const side = 256 / k;
        // Tiles are for small and middle-sized faces; a face filling much of a tile is SSD's job on
        // the whole frame, and BlazeFace's large boxes on tiles are mostly texture false positives.
        // The cap was 0.2 of the tile (102 px): faces 110-200 px wide were then left to SSD alone,
        // which sees a 720p frame at 0.4x and scores such faces 0.25-0.6 (under its 0.6): a 720p
        // pan/zoom over group1.jpg lost 14 of 48 sampled face-frames. At 0.4 the photo set keeps
        // recall 0.956 (65/68); the two false boxes it adds there (BlazeFace 0.61 and 0.62) are
        // why boxes above 0.2 of the tile need a score of 0.75 (the video's faces score 0.82-0.97).
        // Measured by test/compute/models.test.ts and test/compute/video-face-blur.test.ts.
        const cap = this.options.blazeMaxFraction * side;
        const small = (await this.blaze.detectTiles(frame, k)).filter(
          (d) => d.width <= cap && d.score >= this.options.blazeTileMinScore && (d.width <= 0.2 * side || d.score >= this.options.blazeMidMinScore),
        );
        found.push(...small);
      }
      const cap = (this.options.blazeMaxFraction * 512) / scale;
      // Large faces: boxes above the tiles' cap were SSD's alone, and SSD scores faces zoomed in
      // past about 250 px in a 1080p frame (upscaled, tilted, looking down) under its 0.6: on
      // the group photos zoomed so one face is 260-640 px wide in 1920x1080, it found 24 of 32
      // whole faces. BlazeFace on the whole frame (256 px, where such a face is 35 px or more)
      // finds them; only its boxes wider than the cap are taken, at the mid-size score.
      found.push(...(await this.blaze.detect(frame)).filter((d) => d.width > cap && d.score >= this.options.blazeMidMinScore));
    }
    return nms(found.map((d) => ({ ...d, ...clipBox(d, width, height) })).filter((d) => d.width >= 4 && d.height >= 4));
  }
}
