// Finds every face, from 14 px wide to the whole frame, frontal, turned and tilted. One pass of one
// detector cannot: SSD sees the frame at 512 px (a 25 px face in a 1920 px photo shrinks to 7 px)
// and BlazeFace on large tiles misses what is small. So, all on ONNX Runtime:
//   1. small faces: BlazeFace-back on square tiles of 192 frame px seen at 256 px (x1.33), so a
//      14 px face reaches 19 px at the model's input (up to a 12 MP photo's 588 tiles); boxes up
//      to 0.4 of a tile are taken;
//   2. middle faces: BlazeFace-back on tiles of 512 px (boxes up to 205 px), and on large photos
//      a second level of 1365 px tiles (middleSides);
//   3. large faces: BlazeFace-back on the whole frame (zoomed-in faces past the tiles' cap);
//   4. SSD MobileNetV1 on the whole frame: turned, tilted and partly hidden faces, and faces cut by
//      the frame's edge (kept from a lower score there);
//   5. FaceBoxes (trained on WIDER FACE) on the frame at 2x, with the small-face tiles: small faces
//      a video encoder softened, which BlazeFace scores 0.2-0.4 in every look;
//   6. RetinaFace (trained on WIDER FACE too) on the frame at 2x, with the small-face tiles: small
//      faces a JPEG encoder softened; its boxes up to 24 px count where its own looks at crops 3x
//      and 4x their size agree (texture it boxed once rarely scores again);
// and merge everything with NMS. At the frame's edges the passes also see past it, into the
// frame's mirror image, where half a face the edge cuts meets its mirror image (edgeMargin).
// A tile sees a small face at whatever offset and scale the grid gives it, and there a grey, soft
// or turned face often scores 0.3-0.7, as texture does. So the tiles' boxes under a sure score are
// candidates, confirmed by four more looks centred where the full-range detector, seeing the box at
// 3x, re-finds the face: BlazeFace-back on crops 2x and 3x its size and the full-range detector on
// crops 3x and 5x; a face scores high in most of them, texture rarely in more than one. The mean of
// the four decides; what it rejects gets a last look by SSD at twice its size (trained on other
// faces, it sees many a face looking down or in three-quarter profile that both BlazeFace models
// score low), a small one the looks nearly confirmed one by FaceBoxes (JPEG'd 14-20 px faces the
// BlazeFace pair scores 0.35-0.5), and a small one still rejected RetinaFace's looks. Last, on a
// whole picture, every small box any pass gave from 0.25 that none of this found gets ten looks
// (the eight above and Face Mesh's face flag at two sizes), weighed together by a fitted logistic
// model (face-evidence.ts): a JPEG'd face that scores a little in most looks and high in none.
// The last look has boxes of its own too: the full-range detector (trained for faces far from the
// camera) on tiles of 96 px seen at 2x, where many a JPEG'd 14 px face no other pass boxes gets one.
// Chosen on bench/face-recall.ts (faces of 14-64 px pasted onto real scenes, by size and variant,
// and the fixture photos): the looks were picked on seeds 1-12 and held on seeds 13-24, SSD's
// threshold picked on the candidates of seeds 1-24 and held on seeds 25-48, the full-range tiles
// on the held-out faces' seeds 1-48 and held on their seeds 49-96; pinned by
// test/compute/face-recall.test.ts.
import type { Box, Detection, Frame } from "../types.ts";
import { centreInside, clipBox, edgesCutting, intersection, iou, mirrorPast, nms, overlapOfSmaller, reachesPast, squareTiles } from "./geometry.ts";
import { BlazeFaceModel } from "./face-blaze.ts";
import { SsdFaceModel } from "./face-ssd.ts";
import { FaceBoxesModel } from "./face-boxes.ts";
import { RetinaFaceModel } from "./face-retina.ts";
import { FacePresenceModel } from "./face-presence.ts";
import { faceProbability, type LookScores } from "./face-evidence.ts";

export interface FaceDetectorOptions {
  /**
   * Small-face tiles: frame px per tile (seen at 256 px), grown on huge frames to stay under
   * smallMaxTiles (600: a 12 MP photo, 4032x3024, takes 588 at 192 px; larger photos see their
   * smallest faces at less than the model's size).
   */
  smallTile: number;
  smallMaxTiles: number;
  /**
   * Tile boxes scoring this much are candidates (`smallCandidateScore` for boxes up to
   * `smallCandidateWidth` frame px, whose scores the tile grid spreads widest); from `sureScore`
   * up they are faces without more looks.
   */
  candidateScore: number;
  smallCandidateScore: number;
  smallCandidateWidth: number;
  sureScore: number;
  /** A candidate is a face when the mean score of the four centred looks reaches this; under `rejectScore` after two it is not. */
  confirmScore: number;
  rejectScore: number;
  /** A candidate the looks did not confirm is a face when SSD, seeing it at twice its size, scores it this much. */
  ssdConfirmScore: number;
  /**
   * ... or, up to boxesSureWidth, when the looks' mean reached `nearConfirmScore` and FaceBoxes,
   * seeing it on a crop boxesRelookContext times its size, scores it `boxesSecondOpinionScore`.
   */
  nearConfirmScore: number;
  boxesSecondOpinionScore: number;
  /** BlazeFace middle-size tile side in pixels beside smallTile: each level of middle tiles is blazeTile / smallTile times the last (middleSides). */
  blazeTile: number;
  /** Largest BlazeFace tile box kept, as a fraction of the tile side (larger ones are left to the whole-frame passes). */
  blazeMaxFraction: number;
  /** SSD boxes touching the frame's edge are faces from this score (elsewhere from SSD's own 0.6). */
  edgeScore: number;
  /** Whole-frame BlazeFace boxes need at least this score. */
  wholeFrameScore: number;
  /**
   * FaceBoxes sees the frame enlarged up to `boxesScale` (less where that would take more than
   * `boxesMaxViews` views); its boxes up to `boxesSureWidth` frame px from `boxesSureScore` are
   * faces, the others from `boxesCandidateScore` candidates.
   */
  boxesScale: number;
  boxesMaxViews: number;
  boxesSureScore: number;
  boxesSureWidth: number;
  boxesCandidateScore: number;
  /** Such a candidate up to boxesSureWidth is a face when FaceBoxes, seeing it again on a crop `boxesRelookContext` times its size, scores it `boxesRelookScore`. */
  boxesRelookContext: number;
  boxesRelookScore: number;
  /** Tiles of one middle level, at most (their side grows past it: 88 at 12 MP). */
  maxTiles: number;
  /**
   * RetinaFace sees the frame enlarged `retinaScale` times (less where that would take more than
   * `retinaMaxViews` views; not at all under `retinaMinScale`: photos over about 8 MP (3400x2267,
   * 12 MP), where a 14 px face would stay well under its smallest anchor, 16 px, and its views cost
   * most). With the pass go the full-range tiles: at 1.25 they stopped from about 5 MP, and there
   * a JPEG'd photo's 14 px faces fell from 0.92 (2560x1440) to 0.74 (2720x1814, held-out seeds
   * 201-204 at q75); at 1.0 (seen at 1.024x) 0.86, for twice the CPU. The last look runs on every
   * photo, without them past 8 MP (it stopped there too until 2026-11-29: at 12 MP, held-out seeds
   * 201-208 at q75, 14 px 188 -> 194 of 223, no false box more, for a tenth to a sixth more
   * detection CPU; see evidenceLargePhotoWidth).
   * Video's runs keep `videoRetinaMinScale` (1.25): at 4K (1.024x) the pass would take a frame
   * from 4346 to 5385 CPU ms, and no 4K clip measures what it would find;
   * its boxes up to `retinaMaxWidth` frame px from `retinaCandidateScore` are faces when the mean of
   * its scores on crops 3x and 4x their size reaches `retinaConfirmScore`.
   */
  retinaScale: number;
  retinaMaxViews: number;
  retinaMinScale: number;
  videoRetinaMinScale: number;
  retinaCandidateScore: number;
  retinaMaxWidth: number;
  retinaConfirmScore: number;
  /**
   * The last look (face-evidence.ts): boxes from `evidenceScore` (0.25: from 0.2 a 2.5 MP photo's
   * detection took 1.2 s of CPU more instead of 0.7, for 2 more of the fixture faces' 1,624 at q75
   * and none as generated; bench/fit-face-evidence.ts's boxes) (the small-face tiles' up to their
   * cap, RetinaFace's up to `evidenceRetinaWidth`, FaceBoxes' up to boxesSureWidth) on no face
   * found otherwise, whose first two looks average rejectScore, are faces when the evidence of
   * their ten looks reaches `evidenceProbability`, the model's even odds (0.5). On the fixture
   * photos it adds one box, on no face (skin between two faces of the tiny-faces collage, 0.96);
   * without Face Mesh's looks it added a second at 0.56 (dark hair beside a face), and its bar was
   * 0.6 to keep those photos' precision over the 0.9 test/compute/models.test.ts asks. Where
   * RetinaFace's own pass is off (photos over about 8 MP) it takes boxes up to
   * `evidenceLargePhotoWidth` only: there it is for the small faces (28 px and up were 0.99
   * without it), and on bench/images.ts' 12 MP photo (group1 enlarged, whose hair and hands give
   * many boxes of 40-128 px) all of them took its detection CPU up a third, these a twentieth.
   */
  evidenceScore: number;
  evidenceRetinaWidth: number;
  evidenceLargePhotoWidth: number;
  evidenceProbability: number;
  /**
   * The last look's own boxes: the full-range detector on tiles of `rangeTile` frame px seen at
   * its 192 px (0: none), from `rangeMinScore`, up to `rangeMaxWidth`. Of the held-out faces
   * missed at JPEG q75 (14-20 px), most had no box from 0.25 in any other pass; these tiles at 96
   * px give 30 of 47 one from 0.25 (22 at 144 px), 18 from 0.5. From 0.5: 14 px faces 141 -> 148
   * of 172 (seeds 1-48) and 130 -> 137 of 167 (seeds 49-96), 20 px 146 -> 149 of 162, for 2 and 0
   * more false boxes; from 0.25 one face more in each half but 4 more false boxes on the fixture
   * photos (precision 0.919 -> 0.872). Off where RetinaFace's pass is (photos over about 8 MP, video).
   * Their number grows with the picture: on a 2.5 MP photo (~490 tiles) they cost three fifths more
   * detection, on a 720p one a fifth (README, Benchmarks).
   */
  rangeTile: number;
  rangeMaxWidth: number;
  rangeMinScore: number;
  /**
   * How far past the frame's edges, as a fraction of its long side (0.02: 26 px at 720p, 38 at
   * 1080p), the detector sees the frame's mirror image: a face the edge cuts (a person entering
   * shot, a crowd cropped) meets its mirror image there and reads as a whole one. The inside of the
   * frame is seen exactly as without it (test/compute/edge-mirror.test.ts):
   *   - the small-face tiles at the edges reach that far past them (reachPast: at most half their
   *     overlap with the next tile), the inner ones stay;
   *   - the middle tiles, FaceBoxes and SSD do not move: their views at the edges (at 720p every
   *     one of them) look a second time reaching past the edge, and of that look only boxes
   *     reaching past an edge count. Moving those views lost faces only their present alignment
   *     finds (the compressed fast sprite of test/compute/video-leaks.test.ts: 41 frames showed it),
   *     and padding the whole frame reshuffled false boxes over the fixture photos (6 -> 10);
   *   - the looks crop the mirrored frame; RetinaFace and whole-frame BlazeFace do not look past.
   * A box reaching well past two edges at once (a corner, mirrored both ways) is dropped.
   * Edge-cut faces hidden 0.62 -> 0.89, other people's 0.60 -> 0.84 (bench/face-recall.ts --edges, README).
   */
  edgeMargin: number;
}

/** A small box the other rules turned down, with what each look scored it (the last look's input, face-evidence.ts). */
export interface LookedCandidate {
  box: Detection;
  looks: LookScores;
}

/** The whole-frame pass must see the tiles' largest box at this many px of its 256 (middleSides). */
const MIN_WHOLE_FRAME_BOX = 24;

const DEFAULTS: FaceDetectorOptions = {
  smallTile: 192,
  smallMaxTiles: 600,
  candidateScore: 0.5,
  smallCandidateScore: 0.3,
  smallCandidateWidth: 40,
  sureScore: 0.75,
  confirmScore: 0.5,
  rejectScore: 0.25,
  ssdConfirmScore: 0.4,
  nearConfirmScore: 0.35,
  boxesSecondOpinionScore: 0.8,
  blazeTile: 512,
  blazeMaxFraction: 0.4,
  wholeFrameScore: 0.75,
  edgeScore: 0.25,
  maxTiles: 100,
  boxesScale: 2,
  boxesMaxViews: 8,
  boxesSureScore: 0.5,
  boxesSureWidth: 64,
  boxesCandidateScore: 0.3,
  boxesRelookContext: 3,
  boxesRelookScore: 0.5,
  retinaScale: 2,
  retinaMaxViews: 32,
  retinaMinScale: 1.0,
  videoRetinaMinScale: 1.25,
  retinaCandidateScore: 0.3,
  retinaMaxWidth: 24,
  retinaConfirmScore: 0.5,
  evidenceScore: 0.25,
  evidenceRetinaWidth: 40,
  evidenceLargePhotoWidth: 40,
  evidenceProbability: 0.5,
  rangeTile: 96,
  rangeMaxWidth: 40,
  rangeMinScore: 0.5,
  edgeMargin: 0.02,
};

/** A look at boxes on a crop `context` times their size (each face model's rescore). */
interface Rescorer {
  rescore(frame: Frame, boxes: readonly Box[], context: number): Promise<number[]>;
}

/**
 * The looks taken during one frame's detection, by model, context and box: the last look asks
 * again about many a box the rules before it looked at, and gets the same answer without a run.
 */
class LookMemo {
  private readonly taken = new Map<object, Map<string, Promise<unknown>>>();
  /** What the looks crop (and SSD's second run sees): the frame, mirrored `margin` px past its edges (as the outer tiles see it). */
  readonly mirrored: Frame;
  private readonly margin: number;

  constructor(frame: Frame, margin: number) {
    this.mirrored = margin > 0 ? mirrorPast(frame, margin) : frame;
    this.margin = margin;
  }

  /** Per box, `model`'s score on a crop `context` times its size. */
  score(model: Rescorer, context: number, boxes: readonly Box[]): Promise<number[]> {
    return this.look(model, `score ${context}`, boxes, (todo) => model.rescore(this.mirrored, todo.map((b) => this.moved(b, this.margin)), context));
  }

  /** Per box, where the full-range detector, seeing it at 3x, puts the face (the box itself when it finds none). */
  centre(verifier: BlazeFaceModel, boxes: readonly Box[]): Promise<Box[]> {
    return this.look(verifier, "centre 3", boxes, async (todo) => (await verifier.relook(this.mirrored, todo.map((b) => this.moved(b, this.margin)), 3)).map((l) => this.moved(l.box, -this.margin)));
  }

  private moved(b: Box, by: number): Box {
    return by === 0 ? b : { x: b.x + by, y: b.y + by, width: b.width, height: b.height };
  }

  private look<T>(model: object, what: string, boxes: readonly Box[], run: (todo: Box[]) => Promise<T[]>): Promise<T[]> {
    let taken = this.taken.get(model);
    if (!taken) this.taken.set(model, (taken = new Map()));
    const key = (b: Box) => `${what} ${b.x} ${b.y} ${b.width} ${b.height}`;
    const todo = new Map<string, Box>();
    for (const b of boxes) if (!taken.has(key(b))) todo.set(key(b), b);
    if (todo.size > 0) {
      const results = run([...todo.values()]);
      [...todo.keys()].forEach((k, i) => taken.set(k, results.then((r) => r[i])));
    }
    return Promise.all(boxes.map((b) => taken.get(key(b)) as Promise<T>));
  }
}

export class FaceDetector {
  readonly ssd: SsdFaceModel | undefined;
  readonly blaze: BlazeFaceModel | undefined;
  /** The second look at small-face candidates (MediaPipe's full-range detector). */
  readonly verifier: BlazeFaceModel | undefined;
  /** FaceBoxes, for small faces and faces a video encoder softened (run with the small-face tiles). */
  readonly boxes: FaceBoxesModel | undefined;
  /** RetinaFace, for small faces a JPEG encoder softened (run with the small-face tiles). */
  readonly retina: RetinaFaceModel | undefined;
  /** Face Mesh's face flag: two of the last look's looks. */
  readonly presence: FacePresenceModel | undefined;
  readonly options: FaceDetectorOptions;
  /** The looks of each frame's detection in progress. */
  private readonly memos = new WeakMap<Frame, LookMemo>();

  constructor(models: { ssd?: SsdFaceModel; blaze?: BlazeFaceModel; verifier?: BlazeFaceModel; boxes?: FaceBoxesModel; retina?: RetinaFaceModel; presence?: FacePresenceModel }, options: Partial<FaceDetectorOptions> = {}) {
    if (!models.ssd && !models.blaze) throw new Error("FaceDetector needs at least one face model");
    this.ssd = models.ssd;
    this.blaze = models.blaze;
    this.verifier = models.verifier;
    this.boxes = models.boxes;
    this.retina = models.retina;
    this.presence = models.presence;
    this.options = { ...DEFAULTS, ...options };
  }

  /** The same models with some options changed (a variant to measure against this one). */
  withOptions(options: Partial<FaceDetectorOptions>): FaceDetector {
    return new FaceDetector(this, { ...this.options, ...options });
  }

  private memo(frame: Frame): LookMemo {
    let memo = this.memos.get(frame);
    if (!memo) this.memos.set(frame, (memo = new LookMemo(frame, this.pastEdge(frame.width, frame.height))));
    return memo;
  }

  /** How far past a frame's edges the detector sees its mirror image (edgeMargin), px. */
  private pastEdge(width: number, height: number): number {
    return Math.min(Math.round(this.options.edgeMargin * Math.max(width, height)), width - 1, height - 1);
  }

  async load(): Promise<void> {
    await Promise.all([this.ssd?.load(), this.blaze?.load(), this.verifier?.load(), this.boxes?.load(), this.retina?.load(), this.presence?.load()]);
  }

  /**
   * A tile side of at least `side` px, grown until there are at most `max` tiles, or until it
   * reaches the frame's short side: tiles are never taller than the frame, so past it a banner
   * (4000x40) keeps its number of tiles however large the side grows (it looped forever).
   */
  private tileSide(width: number, height: number, side: number, max: number): number {
    let s = side;
    while (s < Math.min(width, height) && squareTiles(width, height, s).length > max) s = Math.round(s * 1.25);
    return s;
  }

  /**
   * Every face in the frame. `smallFaces: false` leaves out the small-face tiles (about 3/4 of the
   * work on a 720p frame): video runs them on every other detection run and lets the tracker
   * carry small faces between (compute/pipelines/video/common.ts); a function picks the small-face
   * tiles to look at (video looks again only where the picture changed, small-tile-scans.ts).
   * `lastLook` (lastLook below) is on for a whole picture by default and off for video's runs: it
   * costs a third more of a photo's detection, which video's frame budget does not have, video's
   * tracks carry a face between the runs that find it, and on the leak clips at CRF 35 it showed a
   * face in more frames, not fewer (bench/video-leaks.ts: 39 against 34, README). `evidence` gets
   * its candidates with their looks, found or not (bench/fit-face-evidence.ts).
   */
  async detect(frame: Frame, options: { smallFaces?: boolean | ((tile: Box) => boolean); lastLook?: boolean; evidence?: (looked: LookedCandidate[]) => void } = {}): Promise<Detection[]> {
    try {
      return await this.find(frame, options);
    } finally {
      this.memos.delete(frame);
    }
  }

  /** detect's work; its looks are memoised for the frame until detect returns. */
  private async find(frame: Frame, { smallFaces = true, lastLook = smallFaces === true, evidence }: { smallFaces?: boolean | ((tile: Box) => boolean); lastLook?: boolean; evidence?: (looked: LookedCandidate[]) => void }): Promise<Detection[]> {
    await this.load();
    const { width, height } = frame;
    const o = this.options;
    // How far past the frame's edges the outer tiles and views reach, into its mirror image.
    const margin = this.pastEdge(width, height);
    // The passes are independent: ONNX Runtime runs each session.run on its own thread, so they overlap.
    const passes: Array<Promise<Detection[]>> = [];
    if (this.ssd) passes.push(this.ssdBoxes(frame, margin));
    let small: Promise<Detection[]> = Promise.resolve([]);
    let boxesSure: Promise<Detection[]> = Promise.resolve([]);
    // Candidates the looks decide whatever their score (FaceBoxes' scores are not BlazeFace's).
    const needLooks = new Set<Detection>();
    const sides = this.middleSides(width, height);
    // The widest box the tiles are there for (larger ones: the whole-frame passes), and the first middle level's.
    const cap = o.blazeMaxFraction * sides[sides.length - 1]!;
    const middleCap = o.blazeMaxFraction * sides[0]!;
    let retinaFaces: Promise<Detection[]> = Promise.resolve([]);
    // Every small box from evidenceScore, for the last look, and the last look's own.
    const weak: Array<Promise<Detection[]>> = [];
    // RetinaFace's enlargement: video's runs (they pick their small-face tiles) have their own floor.
    const retinaScale = this.retinaScale(width, height, typeof smallFaces === "function");
    // The full-range tiles go with RetinaFace's pass (their number grows with the picture: ~2,300 at 12 MP).
    const range = lastLook && retinaScale !== undefined && this.verifier && o.rangeTile > 0 ? this.rangeBoxes(frame, margin) : Promise.resolve([]);
    if (this.blaze) {
      const blaze = this.blaze;
      // The small-face tiles picked (all of them when smallFaces is true): RetinaFace looks where they do.
      const picked: Box[] = [];
      // (Told in the frame: an outer tile reaching past its edge, clipped.)
      const pick = typeof smallFaces === "function" ? (tile: Box) => smallFaces(clipBox(tile, width, height)) && picked.push(tile) > 0 : undefined;
      if (smallFaces) {
        const tiles = this.smallFaceBoxes(frame, margin, pick);
        weak.push(tiles);
        small = tiles.then((boxes) => this.smallFaceCandidates(boxes));
      }
      if (smallFaces && this.retina) {
        const within = (view: Box) => picked.some((t) => intersection(t, view) > 0);
        const boxes = small.then(() => this.retinaBoxes(frame, retinaScale, pick ? within : undefined));
        weak.push(boxes);
        retinaFaces = boxes.then((found) => found.filter((d) => d.score >= o.retinaCandidateScore && d.width <= o.retinaMaxWidth));
      }
      // FaceBoxes is there for the small faces too, and for faces a codec softened. Its boxes up to
      // boxesSureWidth are faces from boxesSureScore, or from boxesCandidateScore when its own second
      // look confirms them, without BlazeFace's looks (BlazeFace is what loses such faces: at CRF 35
      // every face it lost on the leak clips was under 40 px, boxed by FaceBoxes up to 42 x 63 px).
      // The rest up to the middle tiles' cap are candidates for BlazeFace's looks: on a face zoomed
      // to 260 px FaceBoxes boxed the hair above it, 78 px wide, at 0.77 (test/compute/models.test.ts).
      if (smallFaces && this.boxes) {
        const faceBoxes = this.boxes;
        const all = faceBoxes.detect(frame, this.boxesScale(width, height), Math.min(o.boxesCandidateScore, o.evidenceScore));
        weak.push(all.then((found) => found.filter((d) => d.width <= o.boxesSureWidth)));
        const judged = all.then(async (found) => {
          const within = found.filter((d) => d.width <= middleCap && d.score >= o.boxesCandidateScore);
          const narrow = within.filter((d) => d.width <= o.boxesSureWidth);
          const sure = narrow.filter((d) => d.score >= o.boxesSureScore);
          // Its own second look first: a compressed face it scored 0.3-0.5 scores high again,
          // texture rarely (bench/video-leaks.ts --crf 35 and bench/face-recall.ts, see README).
          const maybe = narrow.filter((d) => d.score < o.boxesSureScore);
          const again = await this.memo(frame).score(faceBoxes, o.boxesRelookContext, maybe);
          sure.push(...maybe.filter((_, i) => again[i]! >= o.boxesRelookScore));
          return { sure, rest: within.filter((d) => !sure.includes(d)) };
        });
        // With a margin, its views at the edges look a second time reaching past them into the
        // mirror (as middleTiles'), and the boxes of that look reaching past an edge are candidates
        // for BlazeFace's looks whatever their score: from its sure 0.5 it took the mirror image
        // of an arm at the edge of a zoomed-in group photo for a face.
        const past = margin > 0
          ? faceBoxes.detect(frame, this.boxesScale(width, height), o.boxesCandidateScore, margin).then((found) => found.filter((d) => d.width <= middleCap && reachesPast(d, frame.width, frame.height)))
          : Promise.resolve([]);
        boxesSure = judged.then((j) => j.sure);
        small = Promise.all([small, judged, past]).then(([tiles, { rest }, past]) => {
          [...rest, ...past].forEach((d) => needLooks.add(d));
          return nms([...tiles, ...rest, ...past]);
        });
      }
      passes.push(
        ...sides.map((side) => this.middleTiles(frame, side, margin)),
        // Faces zoomed in past the tiles' cap: the whole frame, where such a face is 24 px or more (middleSides).
        blaze.detect(frame).then((found) => found.filter((d) => d.width > cap && d.score >= o.wholeFrameScore)),
      );
    }
    const larger = await this.confirmedLarge(frame, (await Promise.all(passes)).flat(), cap);
    // A small box inside a face twice its size is an eye or a nostril of that face: it would hide
    // nothing more, and NMS could keep it (at a higher score) in place of the whole face. One on a
    // face the other passes found is that face: it needs no looks of its own (on the bench clip's
    // 720p frames most small-face candidates were faces of 24-75 px the middle tiles had found).
    const inside = (d: Detection) => larger.some((l) => l.width >= 2 * d.width && overlapOfSmaller(l, d) >= 0.5);
    const known = (d: Detection) => inside(d) || larger.some((l) => iou(l, d) >= 0.5);
    // FaceBoxes' own box on a face another pass found too stays (NMS picks one): dropping it for
    // the other's cost the fast 29 px sprite at CRF 35 its track (bench/video-leaks.ts: 37 frames
    // showed it instead of 1), the other box being BlazeFace's, square and on the lower face.
    const found = [...larger, ...(await boxesSure).filter((d) => !inside(d)), ...(await this.confirmed(frame, (await small).filter((d) => !known(d)), needLooks))];
    found.push(...(await this.retinaConfirmed(frame, await retinaFaces, found)));
    if (lastLook) {
      const widest = retinaScale === undefined ? o.evidenceLargePhotoWidth : Infinity;
      const boxes = nms([...(await Promise.all(weak)).flat(), ...(await range)]).filter((d) => d.width <= widest);
      found.push(...(await this.lastLook(frame, boxes, found, evidence)));
    }
    // A box reaching well past two edges at once lies in a corner the frame is mirrored across
    // both ways, where anything becomes four-fold symmetric, as a face is: SSD took a dark corner
    // of the astronaut photo for a face there (0.28, from its edge-cut threshold of 0.25).
    const inCorner = (d: Detection) => {
      const past = (from: number, size: number, extent: number) => Math.max(-from, from + size - extent) > 0.1 * size;
      return margin > 0 && past(d.x, d.width, width) && past(d.y, d.height, height);
    };
    // Clipped to the frame: a box on a face's mirror image past the edge leaves nothing.
    return nms(found.filter((d) => !inCorner(d)).map((d) => ({ ...d, ...clipBox(d, width, height) })).filter((d) => d.width >= 4 && d.height >= 4));
  }

  /**
   * SSD's boxes on the whole frame: from its own minConfidence, or from edgeScore on a face the
   * frame's edge cuts. With a margin, SSD sees the frame mirrored past its edges too, and of that
   * run only the boxes reaching past an edge count: the rest of the frame it saw resampled
   * differently, which moves its false boxes about (see edgeMargin).
   */
  private async ssdBoxes(frame: Frame, margin: number): Promise<Detection[]> {
    const ssd = this.ssd!;
    const kept = (found: Detection[]) => found.filter((d) => d.score >= ssd.minConfidence || this.cutByEdge(d, frame));
    const inside = ssd.detect(frame, undefined, this.options.edgeScore).then(kept);
    if (margin === 0) return inside;
    const mirrored = ssd.detect(this.memo(frame).mirrored, undefined, this.options.edgeScore).then((found) => kept(found.map((d) => ({ ...d, x: d.x - margin, y: d.y - margin })).filter((d) => reachesPast(d, frame.width, frame.height))));
    return (await Promise.all([inside, mirrored])).flat();
  }

  /** RetinaFace's small boxes from evidenceScore (or retinaCandidateScore, the lower), on the frame enlarged `scale` times (none: no pass) in the views `only` picks. */
  private async retinaBoxes(frame: Frame, scale: number | undefined, only?: (view: Box) => boolean): Promise<Detection[]> {
    const o = this.options;
    if (scale === undefined) return [];
    const width = Math.max(o.retinaMaxWidth, o.evidenceRetinaWidth);
    return (await this.retina!.detect(frame, scale, Math.min(o.retinaCandidateScore, o.evidenceScore), only)).filter((d) => d.width <= width);
  }

  /**
   * The candidates on no face found otherwise (a RetinaFace box would otherwise replace, in NMS, a
   * larger box of another pass on the same face) whose two looks agree. Chosen on the candidates
   * of the fixture faces, seeds 1-48 as generated and at JPEG q75 (+8 faces for no non-face: its
   * looks score faces 0.5-1, texture under 0.35), and held on the held-out faces, seeds 1-24 (+14
   * faces, 11 of them JPEG'd 14-20 px ones, for no non-face); bench/face-recall.ts.
   */
  private async retinaConfirmed(frame: Frame, candidates: Detection[], found: readonly Box[]): Promise<Detection[]> {
    const open = candidates.filter((d) => !found.some((f) => iou(f, d) >= 0.3 || centreInside(d, f)));
    const faces = await this.retinaLooks(frame, open);
    return open.filter((_, i) => faces[i]);
  }

  /** Per box, whether RetinaFace's scores on crops 3x and 4x its size average retinaConfirmScore. */
  private async retinaLooks(frame: Frame, boxes: readonly Box[]): Promise<boolean[]> {
    if (boxes.length === 0) return [];
    const memo = this.memo(frame);
    const [near, far] = await Promise.all([memo.score(this.retina!, 3, boxes), memo.score(this.retina!, 4, boxes)]);
    return boxes.map((_, i) => (near[i]! + far[i]!) / 2 >= this.options.retinaConfirmScore);
  }

  /**
   * Boxes wider than the middle tiles' cap come from the whole-frame passes alone, where an animal's
   * face or a frame-sized patch of background can score 0.7-0.8 (a cat in a generated clip, in every
   * frame); so each gets four looks at crops 1.5x-3x its size. Real faces of 200-1000 px scored 0.56
   * or more on average over them (the zoomed group faces), the cat 0.20-0.40. Faces cut by the
   * frame's edge are exempt: the looks see what the edge leaves of them.
   */
  private async confirmedLarge(frame: Frame, boxes: Detection[], cap: number): Promise<Detection[]> {
    const large = boxes.filter((d) => d.width > cap && !this.cutByEdge(d, frame));
    if (large.length === 0 || !this.blaze || !this.verifier) return boxes;
    const squares = large.map((d) => {
      const s = Math.max(d.width, d.height);
      return { x: d.x + d.width / 2 - s / 2, y: d.y + d.height / 2 - s / 2, width: s, height: s };
    });
    const sums = await this.looks(frame, squares, [[this.blaze, 1.5], [this.blaze, 2], [this.verifier, 2], [this.verifier, 3]]);
    const rejected = new Set(large.filter((_, i) => sums[i]! / 4 < this.options.confirmScore));
    return boxes.filter((d) => !rejected.has(d));
  }

  /**
   * A face cut by the frame's edge (a person entering, a new shot) has lost the features SSD scores
   * it on; texture rarely scores `edgeScore` there (no box but faces in 149 frames of the generated
   * clips and 24 scenes of the evaluation set). SSD's frame-sized boxes over plain backgrounds
   * touch the edges too, so boxes over half the frame's short side are left out.
   */
  private cutByEdge(d: Detection, { width, height }: Frame): boolean {
    const { left, right, top, bottom } = edgesCutting(d, width, height);
    return (left || right || top || bottom) && Math.max(d.width, d.height) <= 0.5 * Math.min(width, height);
  }

  /** RetinaFace's enlargement for this frame: retinaScale, less where it would take more than retinaMaxViews views; none under retinaMinScale (videoRetinaMinScale for video's runs). */
  private retinaScale(width: number, height: number, video = false): number | undefined {
    const o = this.options;
    let scale = o.retinaScale;
    while (RetinaFaceModel.views(Math.round(width * scale), Math.round(height * scale)).length > o.retinaMaxViews) scale /= 1.25;
    return scale < (video ? o.videoRetinaMinScale : o.retinaMinScale) ? undefined : scale;
  }

  /** FaceBoxes' enlargement for this frame: boxesScale, less where it would take more than boxesMaxViews views. */
  private boxesScale(width: number, height: number): number {
    let scale = this.options.boxesScale;
    while (FaceBoxesModel.views(Math.round(width * scale), Math.round(height * scale)).length > this.options.boxesMaxViews) scale /= 1.25;
    return scale;
  }

  /**
   * The middle tiles' sides, from the small-face tiles' up: each level blazeTile / smallTile (8/3)
   * times the last, as at 720p and 1080p (192 and 512 px), so that a box at one level's cap (0.4
   * of its side) is 0.15 of the next level's tile, 38 px at the model's input, where BlazeFace
   * scores a face high; and levels are added until the whole frame, seen at the model's 256 px,
   * sees the last level's cap at MIN_WHOLE_FRAME_BOX px or more. One level up to 1080p, two at
   * 12 MP. (A single level grown to keep its tile count low left holes at 12 MP: 1050 px middle
   * tiles saw a 64 px face at 22 px and scored it 0.26, while the small tiles boxed it 90 px, over
   * their 77 px cap.)
   */
  private middleSides(width: number, height: number): number[] {
    const o = this.options;
    const long = Math.max(width, height);
    const step = o.blazeTile / o.smallTile;
    const sides = [this.tileSide(width, height, Math.round(this.smallSide(width, height) * step), o.maxTiles)];
    for (let last = sides[0]!; (o.blazeMaxFraction * last * (this.blaze?.inputSize ?? 256)) / long < MIN_WHOLE_FRAME_BOX && last < long; ) {
      last = this.tileSide(width, height, Math.round(last * step), o.maxTiles);
      sides.push(last);
    }
    return sides;
  }

  /**
   * One level of middle tiles. Small faces are the small tiles' job: here only boxes from
   * `candidateScore` are candidates, and those over 0.2 of a tile are faces large enough to score
   * high when real.
   */
  private async middleTiles(frame: Frame, side: number, margin: number): Promise<Detection[]> {
    const o = this.options;
    const blaze = this.blaze!;
    // With a margin the tiles at the edges look a second time, reaching past them into the mirror,
    // and of that look only boxes reaching past an edge count. Moving the tiles themselves (as the
    // small-face tiles are) moves every middle tile at 720p, all of which touch an edge, and lost
    // faces only their present alignment finds (edgeMargin).
    const past = (b: Box) => reachesPast(b, frame.width, frame.height);
    const [plain, mirrored] = await Promise.all([
      blaze.detectTiles(frame, side, 0.25, o.candidateScore),
      margin > 0 ? blaze.detectTiles(frame, side, 0.25, o.candidateScore, past, margin).then((found) => found.filter(past)) : [],
    ]);
    const found = [...plain, ...mirrored];
    const boxes = nms(found.filter((d) => d.width <= o.blazeMaxFraction * side));
    // A face the frame's edge cuts (half out of shot: a mouth and chin at the top) keeps too
    // little for the looks and scores under sureScore, most of all once a video codec has
    // softened it: from BlazeFace's own threshold it is a face (bench/video-leaks.ts --crf 28,
    // scene-cut: 7 frames showed one; on seeds 1-24 a threshold of 0.5 took 2 false boxes at
    // edges, 0.6 none). Only as the plain tiles see it: past the edge the mirror completes such a
    // face and the looks see it so too (they crop the mirrored frame), while texture meeting its
    // own mirror image scored 0.61 there (pan-others: a 138 x 178 px box under a face, which the
    // tracker carried over 45 frames; with the looks edge-cut faces hid as many, 279 and 503
    // against 278 and 504, with one false box fewer each).
    const cut = boxes.filter((d) => plain.includes(d) && d.score >= blaze.minConfidence && this.cutByEdge(d, frame));
    const kept = await this.confirmed(frame, boxes.filter((d) => !cut.includes(d)));
    return [...cut, ...kept.filter((d) => d.width <= 0.2 * side || d.score >= o.sureScore)];
  }

  /** The small-face tiles' side: smallTile, grown until there are at most smallMaxTiles. */
  private smallSide(width: number, height: number): number {
    return this.tileSide(width, height, this.options.smallTile, this.options.smallMaxTiles);
  }

  /** The widest face the small-face tiles are there for in a frame of this size (77 px at the default 192 px tiles). */
  smallFaceCap(width: number, height: number): number {
    return this.options.blazeMaxFraction * this.smallSide(width, height);
  }

  /** The small-face tiles' boxes up to smallFaceCap, from evidenceScore (or smallCandidateScore, the lower); `only` picks the tiles. */
  private async smallFaceBoxes(frame: Frame, margin: number, only?: (tile: Box) => boolean): Promise<Detection[]> {
    const o = this.options;
    const found = await this.blaze!.detectTiles(frame, this.smallSide(frame.width, frame.height), 0.25, Math.min(o.smallCandidateScore, o.evidenceScore), only, margin);
    const cap = this.smallFaceCap(frame.width, frame.height);
    return found.filter((d) => d.width <= cap);
  }

  /** The full-range detector's boxes up to rangeMaxWidth on tiles of rangeTile px, from rangeMinScore: only the last look takes them. */
  private async rangeBoxes(frame: Frame, margin: number): Promise<Detection[]> {
    const o = this.options;
    return (await this.verifier!.detectTiles(frame, o.rangeTile, 0.25, o.evidenceScore, undefined, margin)).filter((d) => d.width <= o.rangeMaxWidth && d.score >= o.rangeMinScore);
  }

  /** Of the small-face tiles' boxes, the candidates for the looks. */
  private smallFaceCandidates(boxes: readonly Detection[]): Detection[] {
    const o = this.options;
    // A small face's score depends most on where the grid puts it, so a low score is a candidate
    // only on a small box: a face larger than that scores higher.
    return nms(boxes.filter((d) => d.score >= o.smallCandidateScore && (d.score >= o.candidateScore || d.width <= o.smallCandidateWidth)));
  }

  /** Sure boxes, and candidates (every one in `needLooks`) whose four centred looks score `confirmScore` on average. */
  private async confirmed(frame: Frame, boxes: Detection[], needLooks?: ReadonlySet<Detection>): Promise<Detection[]> {
    const o = this.options;
    const sure = boxes.filter((d) => d.score >= o.sureScore && !needLooks?.has(d));
    const unsure = boxes.filter((d) => !sure.includes(d));
    if (!this.verifier || unsure.length === 0) return sure;
    const blaze = this.blaze!, verifier = this.verifier;
    // The looks are centred on where the full-range detector, seeing the candidate at 3x, puts the
    // face (the candidate's own box when it finds none): a tile's box on a small face is often off
    // by a third of its width, and the looks centred on it then score the face low. Re-centring
    // found 7 more of 398 faces (bench/face-recall.ts, seeds 1-24) for one more false box (9 -> 10
    // of ~390), one fewer on the photos; lowering confirmScore to 0.47 instead bought as many faces
    // for 2-3 false boxes each.
    const centred = await this.memo(frame).centre(verifier, unsure);
    // Two looks first: a candidate both score under `rejectScore` on average is texture (on the
    // evaluation set no face that the four looks would confirm was), which spares half the looks.
    const first = await this.looks(frame, centred, [[blaze, 3], [verifier, 3]]);
    const open = unsure.map((d, i) => ({ d, at: centred[i]!, sum: first[i]! })).filter((c) => c.sum / 2 >= o.rejectScore);
    const second = await this.looks(frame, open.map((c) => c.at), [[blaze, 2], [verifier, 5]]);
    const looked = open.map((c, k) => ({ ...c, mean: (c.sum + second[k]!) / 4 }));
    const confirmed = new Set(looked.filter((c) => c.mean >= o.confirmScore).map((c) => c.d));
    // The last word goes to SSD, trained on other faces than the BlazeFace pair: a face looking down
    // or in three-quarter profile that both BlazeFace models score 0.2-0.5 is often plain to it when
    // seen twice its size (bench/face-recall.ts, candidates the looks rejected: seeds 13-24 +7 faces
    // of 93 for no false box, seeds 1-12 and the photos +2 of 106 for 2 of 263 non-faces).
    const rest = unsure.map((d, i) => ({ d, at: centred[i]! })).filter((c) => !confirmed.has(c.d));
    if (this.ssd && rest.length > 0) {
      const ssd = await this.memo(frame).score(this.ssd, 2, rest.map((c) => c.at));
      rest.forEach((c, k) => ssd[k]! >= o.ssdConfirmScore && confirmed.add(c.d));
    }
    // A small candidate the looks nearly confirmed gets FaceBoxes' opinion too (trained on WIDER
    // FACE, whose small faces are compressed ones). Both together were chosen on the candidates the
    // looks and SSD rejected on the fixture faces, seeds 1-48 as generated and at JPEG q75 (+6 faces
    // for 2 non-faces), and held on the held-out faces, seeds 1-24 (+6 faces for 2 non-faces);
    // FaceBoxes alone from 0.7 took 10 non-faces there for 7 faces.
    const near = looked.filter((c) => !confirmed.has(c.d) && c.mean >= o.nearConfirmScore && c.d.width <= o.boxesSureWidth);
    if (this.boxes && near.length > 0) {
      const fb = await this.memo(frame).score(this.boxes, o.boxesRelookContext, near.map((c) => c.at));
      near.forEach((c, k) => fb[k]! >= o.boxesSecondOpinionScore && confirmed.add(c.d));
    }
    // And a small one still rejected is a face where RetinaFace's looks confirm it, as they confirm
    // its own boxes (retinaConfirmed): chosen on the same candidates of the fixture faces (+2 faces
    // for no non-face), held on the held-out faces (+3 for none: 14 px faces, two of them JPEG'd).
    const left = unsure.map((d, i) => ({ d, at: centred[i]! })).filter((c) => !confirmed.has(c.d) && c.d.width <= o.retinaMaxWidth);
    if (this.retina && left.length > 0) {
      const faces = await this.retinaLooks(frame, left.map((c) => c.at));
      left.forEach((c, k) => faces[k] && confirmed.add(c.d));
    }
    return [...sure, ...unsure.filter((d) => confirmed.has(d))];
  }

  /**
   * The small boxes every rule above turned down, on no face found, that the evidence of ten
   * looks calls faces (face-evidence.ts). The first two looks as in `confirmed` gate the rest: a
   * box both score under rejectScore on average is texture, and needs no more looks (about one
   * box in five of a 720p scene passes). `report` gets every gated box, found or not, with its looks.
   */
  private async lastLook(frame: Frame, boxes: Detection[], found: readonly Box[], report?: (looked: LookedCandidate[]) => void): Promise<Detection[]> {
    const { blaze, verifier, ssd, boxes: faceBoxes, retina, presence } = this;
    if (!blaze || !verifier || !ssd || !faceBoxes || !retina || !presence) return [];
    const o = this.options;
    const onFound = (d: Box) => found.some((f) => iou(f, d) >= 0.25 || centreInside(d, f) || centreInside(f, d));
    const open = report ? boxes : boxes.filter((d) => !onFound(d));
    if (open.length === 0) return [];
    const memo = this.memo(frame);
    const centred = await memo.centre(verifier, open);
    const [b3, v3] = await Promise.all([memo.score(blaze, 3, centred), memo.score(verifier, 3, centred)]);
    const gated = open.map((box, i) => ({ box, at: centred[i]!, blaze3: b3[i]!, verifier3: v3[i]! })).filter((c) => (c.blaze3 + c.verifier3) / 2 >= o.rejectScore);
    const at = gated.map((c) => c.at);
    const [b2, v5, ssd2, fb3, r3, r4, pTight, pWide] = await Promise.all([
      memo.score(blaze, 2, at),
      memo.score(verifier, 5, at),
      memo.score(ssd, 2, at),
      memo.score(faceBoxes, 3, at),
      memo.score(retina, 3, at),
      memo.score(retina, 4, at),
      memo.score(presence, 1.4, at),
      memo.score(presence, 2, at),
    ]);
    const looked: LookedCandidate[] = gated.map((c, k) => ({
      box: c.box,
      looks: { blaze3: c.blaze3, blaze2: b2[k]!, verifier3: c.verifier3, verifier5: v5[k]!, ssd2: ssd2[k]!, boxes3: fb3[k]!, retina3: r3[k]!, retina4: r4[k]!, presenceTight: pTight[k]!, presenceWide: pWide[k]! },
    }));
    report?.(looked);
    return looked.filter((c) => !onFound(c.box) && faceProbability(c.looks, c.box.width) >= o.evidenceProbability).map((c) => c.box);
  }

  /** Per box, the sum of the scores each (model, context) look gives it (BlazeFaceModel.rescore), the looks run concurrently. */
  private async looks(frame: Frame, boxes: readonly Box[], looks: Array<[BlazeFaceModel, number]>): Promise<number[]> {
    const scores = await Promise.all(looks.map(([model, context]) => this.memo(frame).score(model, context, boxes)));
    return boxes.map((_, i) => scores.reduce((sum, s) => sum + s[i]!, 0));
  }
}
