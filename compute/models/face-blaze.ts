// MediaPipe's single-shot face detectors on ONNX Runtime (converted from human-models' TF.js
// graphs, compute/models/convert/human-models.ts): BlazeFace "back camera" (256 px input, faces far
// from the camera) and the full-range detector (192 px input, one anchor per 4 px cell, made for
// small faces). Both are run on square tiles of a frame resized once, many tiles per session.run
// (the converted graphs take a batch), so a small face can be seen several times larger than in
// the frame and the tiles cost one resize, not one per tile.
import type { Box, Detection, Frame } from "../types.ts";
import { cropAround, iou, reachPast, reflect, squareTiles } from "./geometry.ts";
import { cropToPlanes, resizeToPlanes } from "./resize-input.ts";
import { yieldToEventLoop } from "../event-loop.ts";
import { OnnxModel } from "./onnx-model.ts";
import { inferencePool, inputArray, ort } from "./runtime/onnx.ts";

export type BlazeKind = "human/blazeface-back" | "human/facemesh-detection-full";

interface AnchorLayout {
  input: number;
  /** [stride, anchors per cell] of each grid, in output order. */
  grids: ReadonlyArray<readonly [number, number]>;
}

const LAYOUTS: Record<BlazeKind, AnchorLayout> = {
  "human/blazeface-back": { input: 256, grids: [[16, 2], [32, 6]] },
  "human/facemesh-detection-full": { input: 192, grids: [[4, 1]] },
};

/** Anchor centres in input pixels, in the graph's output order. */
function anchorCentres({ input, grids }: AnchorLayout): Float32Array {
  const out: number[] = [];
  for (const [stride, perCell] of grids) {
    const cells = input / stride;
    for (let y = 0; y < cells; y++) for (let x = 0; x < cells; x++) for (let n = 0; n < perCell; n++) out.push(stride * (x + 0.5), stride * (y + 0.5));
  }
  return Float32Array.from(out);
}

/**
 * Views per session.run. Small batches: BlazeFace's activations for one 256 px view (~2 MB a
 * layer) stay in the core's cache, a batch of 16 does not (6.7 vs 5.5 ms a view on one thread),
 * and 45 small-face tiles in runs of 4 spread evenly over the inference threads (in runs of 16,
 * one thread got 29 of them). On the bench clip's 720p frames a detection with the small-face
 * tiles went from 708 to 641 CPU ms and 491 to 373 ms wall.
 */
const BATCH = 4;
/**
 * On the GPU (the webgpu provider, one inference thread) each run pays a fixed ~8 ms, and 16 views
 * a run cost least per view (H100, bench/providers.ts: 2.6-3.3 ms a view in runs of 4, 1.7-2.2 in
 * runs of 16, 2.5-2.8 in runs of 48).
 */
const GPU_BATCH = 16;
/** Rows of the resized frame, and views of a batch, written between turns of the event loop. */
const RESIZE_BAND_ROWS = 96;
const VIEWS_PER_TURN = 4;
/** Runs drawn and not yet answered, at most, per inference thread: one running, one waiting. */
const RUNS_IN_FLIGHT_PER_THREAD = 2;

export class BlazeFaceModel extends OnnxModel {
  readonly role = "face-detector";
  /** Read-only: the instance is shared by every job of the process (see SsdFaceModel.minConfidence). */
  readonly minConfidence: number;
  private readonly layout: AnchorLayout;
  private readonly anchors: Float32Array;

  constructor(kind: BlazeKind = "human/blazeface-back", minConfidence = 0.6) {
    super(kind);
    this.layout = LAYOUTS[kind];
    this.anchors = anchorCentres(this.layout);
    this.minConfidence = minConfidence;
  }

  get inputSize(): number {
    return this.layout.input;
  }

  protected get warmUpInput() {
    const n = this.layout.input;
    return { name: "image", dims: [1, 3, n, n] };
  }

  /** Faces in the whole frame, padded to a square and seen at the model's input size. */
  detect(frame: Frame, minScore = this.minConfidence): Promise<Detection[]> {
    return this.detectTiles(frame, Math.max(frame.width, frame.height), 0, minScore);
  }

  /**
   * Faces on overlapping square tiles of `tileSide` frame pixels, each seen at the model's input
   * size (tileSide < input: the frame is enlarged, so a face of w px is seen at w * input / tileSide).
   * `only` picks the tiles to look at (given each tile in frame px); the others are skipped.
   * `pastEdge`: the tiles at the frame's edges reach that many frame px past it, into the frame's
   * mirror image (reachPast), where a face the edge cuts meets its mirror image; the others stay.
   */
  async detectTiles(frame: Frame, tileSide: number, overlap = 0.25, minScore = this.minConfidence, only?: (tile: Box) => boolean, pastEdge = 0): Promise<Detection[]> {
    const n = this.layout.input;
    const scale = n / tileSide; // frame px -> network px
    const sw = Math.max(1, Math.round(frame.width * scale));
    const sh = Math.max(1, Math.round(frame.height * scale));
    const margin = Math.min(Math.round(pastEdge * scale), sw - 1, sh - 1);
    const tiles = reachPast(squareTiles(Math.max(n, sw), Math.max(n, sh), n, overlap), Math.max(n, sw), Math.max(n, sh), margin).filter(
      (t) => !only || only({ x: t.x / scale, y: t.y / scale, width: n / scale, height: n / scale }),
    );
    if (tiles.length === 0) return [];
    // Which row (column) of the resized frame a tile's row (column) at i reads: past the edge, up to
    // `margin`, its mirror image; further, none (black).
    const source = (i: number, extent: number) => (i >= -margin && i < extent + margin ? reflect(i, extent) : -1);
    const reads = (from: number, extent: number): [number, number] => {
      const read = Array.from({ length: n }, (_, k) => source(from + k, extent)).filter((i) => i >= 0);
      return [Math.min(...read), Math.max(...read) + 1];
    };
    // Row by row of tiles: the band of the resized frame they read, as [-1, 1] planes (black beyond
    // the frame's edges), made in parts of rows with the event loop let in between (a 720p frame
    // for the small-face tiles: 4.9 M values, ~30 ms on a free core, 60-90 ms on a busy one); what
    // no tile reads is left out. Each band is dropped once its tiles are drawn: the whole resized
    // frame of a 12 MP photo at the small-face scale would be 260 MB.
    const runs: Array<Promise<Detection[][]>> = [];
    const inFlight = new InFlight();
    for (const y of [...new Set(tiles.map((t) => t.y))]) {
      const row = tiles.filter((t) => t.y === y);
      const [top, bottom] = reads(y, sh);
      const h = bottom - top;
      const band = new Float32Array(3 * sw * h);
      const spans = mergedSpans(row.map((t) => reads(t.x, sw)));
      for (let r = top; r < bottom; r += RESIZE_BAND_ROWS) {
        await yieldToEventLoop();
        for (const cols of spans) resizeToPlanes(frame, sw, sh, { scale: 1 / 127.5, bias: -1, out: band, offset: -top * sw, planeStride: sw * h, rows: [r, Math.min(bottom, r + RESIZE_BAND_ROWS)], cols });
      }
      const views = row.map((t) => ({ x: t.x / scale, y: t.y / scale, step: 1 / scale }));
      runs.push(...(await this.drawViews(views, (input, k, offset) => {
        const t = row[k]!;
        const from = Math.max(0, t.x), to = Math.min(sw, t.x + n);
        const mirrored = Array.from({ length: n }, (_, i) => i).filter((i) => t.x + i < 0 || t.x + i >= sw).map((i) => [i, source(t.x + i, sw)] as const).filter(([, x]) => x >= 0);
        for (let yy = 0; yy < n; yy++) {
          const sy = source(y + yy, sh);
          if (sy < 0) continue;
          for (let c = 0; c < 3; c++) {
            const at = c * sw * h + (sy - top) * sw, into = offset + (c * n + yy) * n;
            input.set(band.subarray(at + from, at + to), into + from - t.x);
            for (const [i, x] of mirrored) input[into + i] = band[at + x]!;
          }
        }
      }, minScore, true, inFlight)));
    }
    return (await Promise.all(runs)).flat(2);
  }

  /**
   * A second look at candidate boxes: each is seen alone, centred on a square crop `context` times
   * its width (so it fills 1/context of the model's input), and gets the best score the model gives
   * a face overlapping it there (0 when none). Texture that passes for a face at one scale and
   * offset rarely does again when re-centred and re-scaled; a real face scores as high or higher.
   */
  async rescore(frame: Frame, boxes: readonly Box[], context = 5): Promise<number[]> {
    return (await this.relook(frame, boxes, context)).map((l) => l.score);
  }

  /** rescore's look, with the box the model found there (the input box when it found none). */
  async relook(frame: Frame, boxes: readonly Box[], context = 5): Promise<Array<{ score: number; box: Box }>> {
    if (boxes.length === 0) return [];
    const n = this.layout.input;
    const crops = boxes.map((b) => cropAround(b, context, 8));
    const views = crops.map((c) => ({ x: c.x, y: c.y, step: c.side / n }));
    // cropToPlanes writes every value of its image.
    const found = await this.runViews(views, (input, k, offset) => cropToPlanes(frame, crops[k]!, n, input, { offset, scale: 1 / 127.5, bias: -1 }), 0.05);
    return boxes.map((b, k) => {
      const best = found[k]!.filter((d) => iou(d, b) >= 0.3).reduce<Detection | undefined>((m, d) => (m && m.score >= d.score ? m : d), undefined);
      return best ? { score: best.score, box: best } : { score: 0, box: b };
    });
  }

  /**
   * The model on square views of the frame (view k: `draw` writes it into the input at `offset`;
   * its input pixel (i, j) is frame point (x + i * step, y + j * step)), BATCH views per run
   * (GPU_BATCH on the GPU) and the runs at once, on as many inference threads as there are. Each
   * view's boxes from `minScore`, in frame coordinates. `blank`: the input starts black (-1), for
   * views `draw` fills only in part.
   */
  private async runViews(
    views: ReadonlyArray<{ x: number; y: number; step: number }>,
    draw: (input: Float32Array, k: number, offset: number) => void,
    minScore: number,
    blank = false,
  ): Promise<Detection[][]> {
    return (await Promise.all(await this.drawViews(views, draw, minScore, blank, new InFlight()))).flat();
  }

  /**
   * runViews' drawing: resolves once every view is drawn and handed over, with the runs' answers
   * (one promise a batch). Drawing waits while `inFlight` is full: drawing is ~25x faster than
   * inference, and the 588 small-face tiles of a 12 MP photo queued at once would hold 460 MB of
   * inputs (with 4 inference threads, 8 runs of 4 views hold 25 MB).
   */
  private async drawViews(
    views: ReadonlyArray<{ x: number; y: number; step: number }>,
    draw: (input: Float32Array, k: number, offset: number) => void,
    minScore: number,
    blank: boolean,
    inFlight: InFlight,
  ): Promise<Array<Promise<Detection[][]>>> {
    const session = await this.load();
    const n = this.layout.input;
    const perImage = 3 * n * n;
    const perView = (this.anchors.length / 2) * 17;
    // Views are drawn VIEWS_PER_TURN at a time with the event loop let in between, and each batch
    // is handed to the inference threads as soon as it is drawn (45 small-face tiles of a 720p
    // frame are ~9 M values to copy; 16 centred crops ~3 M values to interpolate).
    const runs: Array<Promise<Detection[][]>> = [];
    for (const batch of chunks(views.map((view, k) => ({ view, k })), session.provider === "webgpu" ? GPU_BATCH : BATCH)) {
      if (runs.length > 0) await yieldToEventLoop();
      await inFlight.room();
      const input = inputArray(batch.length * perImage);
      if (blank) input.fill(-1);
      for (let b = 0; b < batch.length; b++) {
        if (b > 0 && b % VIEWS_PER_TURN === 0) await yieldToEventLoop();
        draw(input, batch[b]!.k, b * perImage);
      }
      const run = session.run({ image: new ort.Tensor("float32", input, [batch.length, 3, n, n]) }, { handOver: true }).then((out) => {
        const data = out.predictions!.data as Float32Array;
        return batch.map(({ view }, b) => this.decode(data, b * perView, view.x, view.y, view.step, minScore));
      });
      inFlight.add(run);
      // A run failing while the next batch is drawn is reported by the caller's Promise.all, not as unhandled.
      run.catch(() => undefined);
      runs.push(run);
    }
    return runs;
  }

  private decode(data: Float32Array, offset: number, x0: number, y0: number, scale: number, minScore: number): Detection[] {
    const out: Detection[] = [];
    const logit = Math.log(minScore / (1 - minScore));
    for (let i = 0; i < this.anchors.length / 2; i++) {
      const o = offset + i * 17;
      if (data[o]! < logit) continue;
      const score = 1 / (1 + Math.exp(-data[o]!));
      const cx = data[o + 1]! + this.anchors[i * 2]!;
      const cy = data[o + 2]! + this.anchors[i * 2 + 1]!;
      const bw = data[o + 3]!;
      const bh = data[o + 4]!;
      out.push({ x: x0 + (cx - bw / 2) * scale, y: y0 + (cy - bh / 2) * scale, width: bw * scale, height: bh * scale, score, label: "face" });
    }
    return out;
  }
}

/** Runs handed to the inference threads and not answered yet: room() waits while there are RUNS_IN_FLIGHT_PER_THREAD per thread. */
class InFlight {
  readonly #runs = new Set<Promise<unknown>>();
  readonly #max = RUNS_IN_FLIGHT_PER_THREAD * inferencePool().size;

  add(run: Promise<unknown>): void {
    const done: Promise<unknown> = run.then(() => undefined, () => undefined).finally(() => this.#runs.delete(done));
    this.#runs.add(done);
  }

  /** Waits until one more run fits (a failed run frees its room too; its error goes to the caller). */
  async room(): Promise<void> {
    while (this.#runs.size >= this.#max) await Promise.race(this.#runs);
  }
}

/** The union of [from, to) spans, as sorted disjoint spans. */
function mergedSpans(spans: ReadonlyArray<readonly [number, number]>): Array<readonly [number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

/** `items` in consecutive runs of at most `size`. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
