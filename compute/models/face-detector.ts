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
// and merge everything with NMS. A tile sees a small face at whatever offset and scale the grid
// gives it, and there a grey, soft or turned face often scores 0.3-0.7, as texture does. So the
// tiles' boxes under a sure score are candidates, confirmed by four more looks centred where the
// full-range detector, seeing the box at 3x, re-finds the face: BlazeFace-back on crops 2x and 3x
// its size and the full-range detector on crops 3x and 5x; a face scores high in most of them,
// texture rarely in more than one. The mean of the four decides; what it rejects gets a last look
// by SSD at twice its size (trained on other faces, it sees many a face looking down or in
// three-quarter profile that both BlazeFace models score low), a small one the looks nearly
// confirmed one by FaceBoxes (JPEG'd 14-20 px faces the BlazeFace pair scores 0.35-0.5), and a
// small one still rejected RetinaFace's looks.
// Chosen on bench/face-recall.ts (faces of 14-64 px pasted onto real scenes, by size and variant,
// and the fixture photos): the looks were picked on seeds 1-12 and held on seeds 13-24, SSD's
// threshold picked on the candidates of seeds 1-24 and held on seeds 25-48; pinned by
// test/compute/face-recall.test.ts.
import type { Box, Detection, Frame } from "../types.ts";
import { clipBox, intersection, iou, nms, overlapOfSmaller, squareTiles } from "./geometry.ts";
import { BlazeFaceModel } from "./face-blaze.ts";
import { SsdFaceModel } from "./face-ssd.ts";
import { FaceBoxesModel } from "./face-boxes.ts";
import { RetinaFaceModel } from "./face-retina.ts";

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
   * `retinaMaxViews` views; not at all under `retinaMinScale`: 12 MP photos and 4K video, where a
   * 14 px face would stay under its smallest anchor, 16 px, and its views cost most);
   * its boxes up to `retinaMaxWidth` frame px from `retinaCandidateScore` are faces when the mean of
   * its scores on crops 3x and 4x their size reaches `retinaConfirmScore`.
   */
  retinaScale: number;
  retinaMaxViews: number;
  retinaMinScale: number;
  retinaCandidateScore: number;
  retinaMaxWidth: number;
  retinaConfirmScore: number;
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
  retinaMinScale: 1.25,
  retinaCandidateScore: 0.3,
  retinaMaxWidth: 24,
  retinaConfirmScore: 0.5,
};

export class FaceDetector {
  readonly ssd: SsdFaceModel | undefined;
  readonly blaze: BlazeFaceModel | undefined;
  /** The second look at small-face candidates (MediaPipe's full-range detector). */
  readonly verifier: BlazeFaceModel | undefined;
  /** FaceBoxes, for small faces and faces a video encoder softened (run with the small-face tiles). */
  readonly boxes: FaceBoxesModel | undefined;
  /** RetinaFace, for small faces a JPEG encoder softened (run with the small-face tiles). */
  readonly retina: RetinaFaceModel | undefined;
  readonly options: FaceDetectorOptions;

  constructor(models: { ssd?: SsdFaceModel; blaze?: BlazeFaceModel; verifier?: BlazeFaceModel; boxes?: FaceBoxesModel; retina?: RetinaFaceModel }, options: Partial<FaceDetectorOptions> = {}) {
    if (!models.ssd && !models.blaze) throw new Error("FaceDetector needs at least one face model");
    this.ssd = models.ssd;
    this.blaze = models.blaze;
    this.verifier = models.verifier;
    this.boxes = models.boxes;
    this.retina = models.retina;
    this.options = { ...DEFAULTS, ...options };
  }

  async load(): Promise<void> {
    await Promise.all([this.ssd?.load(), this.blaze?.load(), this.verifier?.load(), this.boxes?.load(), this.retina?.load()]);
  }

  /** A tile side of at least `side` px, grown until there are at most `max` tiles. */
  private tileSide(width: number, height: number, side: number, max: number): number {
    let s = side;
    while (squareTiles(width, height, s).length > max) s = Math.round(s * 1.25);
    return s;
  }

  /**
   * Every face in the frame. `smallFaces: false` leaves out the small-face tiles (about 3/4 of the
   * work on a 720p frame): video runs them on every other detection run and lets the tracker
   * carry small faces between (compute/pipelines/video/common.ts); a function picks the small-face
   * tiles to look at (video looks again only where the picture changed, small-face-scans.ts).
   */
  async detect(frame: Frame, { smallFaces = true }: { smallFaces?: boolean | ((tile: Box) => boolean) } = {}): Promise<Detection[]> {
    await this.load();
    const { width, height } = frame;
    const o = this.options;
    // The passes are independent: ONNX Runtime runs each session.run on its own thread, so they overlap.
    const passes: Array<Promise<Detection[]>> = [];
    if (this.ssd) passes.push(this.ssd.detect(frame, undefined, o.edgeScore).then((found) => found.filter((d) => d.score >= this.ssd!.minConfidence || this.cutByEdge(d, width, height))));
    let small: Promise<Detection[]> = Promise.resolve([]);
    let boxesSure: Promise<Detection[]> = Promise.resolve([]);
    // Candidates the looks decide whatever their score (FaceBoxes' scores are not BlazeFace's).
    const needLooks = new Set<Detection>();
    const sides = this.middleSides(width, height);
    // The widest box the tiles are there for (larger ones: the whole-frame passes), and the first middle level's.
    const cap = o.blazeMaxFraction * sides[sides.length - 1]!;
    const middleCap = o.blazeMaxFraction * sides[0]!;
    let retinaFaces: Promise<Detection[]> = Promise.resolve([]);
    if (this.blaze) {
      const blaze = this.blaze;
      // The small-face tiles picked (all of them when smallFaces is true): RetinaFace looks where they do.
      const picked: Box[] = [];
      const pick = typeof smallFaces === "function" ? (tile: Box) => smallFaces(tile) && picked.push(tile) > 0 : undefined;
      if (smallFaces) small = this.smallFaceCandidates(frame, pick);
      if (smallFaces && this.retina) {
        const within = (view: Box) => picked.some((t) => intersection(t, view) > 0);
        retinaFaces = small.then(() => this.retinaCandidates(frame, pick ? within : undefined));
      }
      // FaceBoxes is there for the small faces too, and for faces a codec softened. Its boxes up to
      // boxesSureWidth are faces from boxesSureScore, or from boxesCandidateScore when its own second
      // look confirms them, without BlazeFace's looks (BlazeFace is what loses such faces: at CRF 35
      // every face it lost on the leak clips was under 40 px, boxed by FaceBoxes up to 42 x 63 px).
      // The rest up to the middle tiles' cap are candidates for BlazeFace's looks: on a face zoomed
      // to 260 px FaceBoxes boxed the hair above it, 78 px wide, at 0.77 (test/compute/models.test.ts).
      if (smallFaces && this.boxes) {
        const faceBoxes = this.boxes;
        const judged = faceBoxes.detect(frame, this.boxesScale(width, height), o.boxesCandidateScore).then(async (found) => {
          const within = found.filter((d) => d.width <= middleCap);
          const narrow = within.filter((d) => d.width <= o.boxesSureWidth);
          const sure = narrow.filter((d) => d.score >= o.boxesSureScore);
          // Its own second look first: a compressed face it scored 0.3-0.5 scores high again,
          // texture rarely (bench/video-leaks.ts --crf 35 and bench/face-recall.ts, see README).
          const maybe = narrow.filter((d) => d.score < o.boxesSureScore);
          const again = await faceBoxes.rescore(frame, maybe, o.boxesRelookContext);
          sure.push(...maybe.filter((_, i) => again[i]! >= o.boxesRelookScore));
          return { sure, rest: within.filter((d) => !sure.includes(d)) };
        });
        boxesSure = judged.then((j) => j.sure);
        small = Promise.all([small, judged]).then(([tiles, { rest }]) => {
          rest.forEach((d) => needLooks.add(d));
          return nms([...tiles, ...rest]);
        });
      }
      passes.push(
        ...sides.map((side) => this.middleTiles(frame, side)),
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
    return nms(found.map((d) => ({ ...d, ...clipBox(d, width, height) })).filter((d) => d.width >= 4 && d.height >= 4));
  }

  /** RetinaFace's small boxes from retinaCandidateScore, on the frame enlarged (retinaScale) in the views `only` picks. */
  private async retinaCandidates(frame: Frame, only?: (view: Box) => boolean): Promise<Detection[]> {
    const o = this.options;
    let scale = o.retinaScale;
    while (RetinaFaceModel.views(Math.round(frame.width * scale), Math.round(frame.height * scale)).length > o.retinaMaxViews) scale /= 1.25;
    if (scale < o.retinaMinScale) return [];
    return (await this.retina!.detect(frame, scale, o.retinaCandidateScore, only)).filter((d) => d.width <= o.retinaMaxWidth);
  }

  /**
   * The candidates on no face found otherwise (a RetinaFace box would otherwise replace, in NMS, a
   * larger box of another pass on the same face) whose two looks agree. Chosen on the candidates
   * of the fixture faces, seeds 1-48 as generated and at JPEG q75 (+8 faces for no non-face: its
   * looks score faces 0.5-1, texture under 0.35), and held on the held-out faces, seeds 1-24 (+14
   * faces, 11 of them JPEG'd 14-20 px ones, for no non-face); bench/face-recall.ts.
   */
  private async retinaConfirmed(frame: Frame, candidates: Detection[], found: readonly Box[]): Promise<Detection[]> {
    const centre = (d: Box, b: Box) => d.x + d.width / 2 >= b.x && d.x + d.width / 2 <= b.x + b.width && d.y + d.height / 2 >= b.y && d.y + d.height / 2 <= b.y + b.height;
    const open = candidates.filter((d) => !found.some((f) => iou(f, d) >= 0.3 || centre(d, f)));
    const faces = await this.retinaLooks(frame, open);
    return open.filter((_, i) => faces[i]);
  }

  /** Per box, whether RetinaFace's scores on crops 3x and 4x its size average retinaConfirmScore. */
  private async retinaLooks(frame: Frame, boxes: readonly Box[]): Promise<boolean[]> {
    if (boxes.length === 0) return [];
    const [near, far] = await Promise.all([this.retina!.rescore(frame, boxes, 3), this.retina!.rescore(frame, boxes, 4)]);
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
    const large = boxes.filter((d) => d.width > cap && !this.cutByEdge(d, frame.width, frame.height));
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
  private cutByEdge(d: Detection, width: number, height: number): boolean {
    const edge = d.x <= 2 || d.y <= 2 || d.x + d.width >= width - 2 || d.y + d.height >= height - 2;
    return edge && Math.max(d.width, d.height) <= 0.5 * Math.min(width, height);
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
  private async middleTiles(frame: Frame, side: number): Promise<Detection[]> {
    const { width, height } = frame;
    const o = this.options;
    const blaze = this.blaze!;
    const found = await blaze.detectTiles(frame, side, 0.25, o.candidateScore);
    const boxes = nms(found.filter((d) => d.width <= o.blazeMaxFraction * side));
    // A face the frame's edge cuts (half out of shot: a mouth and chin at the top) keeps too
    // little for the looks and scores under sureScore, most of all once a video codec has
    // softened it: from BlazeFace's own threshold it is a face (bench/video-leaks.ts --crf 28,
    // scene-cut: 7 frames showed one; on seeds 1-24 a threshold of 0.5 took 2 false boxes at
    // edges, 0.6 none).
    const cut = boxes.filter((d) => d.score >= blaze.minConfidence && this.cutByEdge(d, width, height));
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

  /** Candidates for faces up to smallFaceCap, before their looks; `only` picks the tiles. */
  private async smallFaceCandidates(frame: Frame, only?: (tile: Box) => boolean): Promise<Detection[]> {
    const o = this.options;
    const found = await this.blaze!.detectTiles(frame, this.smallSide(frame.width, frame.height), 0.25, o.smallCandidateScore, only);
    // A small face's score depends most on where the grid puts it, so a low score is a candidate
    // only on a small box: a face larger than that scores higher.
    const cap = this.smallFaceCap(frame.width, frame.height);
    return nms(found.filter((d) => d.width <= cap && (d.score >= o.candidateScore || d.width <= o.smallCandidateWidth)));
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
    const centred = (await verifier.relook(frame, unsure, 3)).map((l) => l.box);
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
      const ssd = await this.ssd.rescore(frame, rest.map((c) => c.at), 2);
      rest.forEach((c, k) => ssd[k]! >= o.ssdConfirmScore && confirmed.add(c.d));
    }
    // A small candidate the looks nearly confirmed gets FaceBoxes' opinion too (trained on WIDER
    // FACE, whose small faces are compressed ones). Both together were chosen on the candidates the
    // looks and SSD rejected on the fixture faces, seeds 1-48 as generated and at JPEG q75 (+6 faces
    // for 2 non-faces), and held on the held-out faces, seeds 1-24 (+6 faces for 2 non-faces);
    // FaceBoxes alone from 0.7 took 10 non-faces there for 7 faces.
    const near = looked.filter((c) => !confirmed.has(c.d) && c.mean >= o.nearConfirmScore && c.d.width <= o.boxesSureWidth);
    if (this.boxes && near.length > 0) {
      const fb = await this.boxes.rescore(frame, near.map((c) => c.at), o.boxesRelookContext);
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

  /** Per box, the sum of the scores each (model, context) look gives it (BlazeFaceModel.rescore), the looks run concurrently. */
  private async looks(frame: Frame, boxes: readonly Box[], looks: Array<[BlazeFaceModel, number]>): Promise<number[]> {
    const scores = await Promise.all(looks.map(([model, context]) => model.rescore(frame, boxes, context)));
    return boxes.map((_, i) => scores.reduce((sum, s) => sum + s[i]!, 0));
  }
}
