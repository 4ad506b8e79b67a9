// The small tiles of video detection, looking again only where the picture changed: the face
// detector's small-face tiles and the object finder's small-object tiles (common.ts: videoFaces,
// videoObjects). The small-face tiles are most of face detection's cost (45 tiles and the looks at
// their candidates, ~560 of ~680 CPU ms on a 720p frame), and on most of a frame they would see
// what they saw four frames before: a tile whose pixels are the same (once the camera's motion is
// taken out, video/change-map.ts) gives the same faces. So on each run of the small tiles:
//   - tiles where the picture changed are looked at (a face walking, entering at a pan's edge,
//     turning towards the camera);
//   - the small detections of the last run that lie in no such tile are carried over, moved with
//     the camera, so their tracks keep a detection every run;
//   - every FULL_SCAN_EVERY-th run, after a scene cut, with the camera's motion unknown, or once the
//     camera zoomed by more than MAX_ZOOM since the last full run, every tile is looked at. A zoom
//     makes small faces larger without changing the picture much, and what changes slowly (a face
//     turning over a second) may never count as changed between two runs. A face first found by a
//     full run that late is still hidden from its first frame, because the tracker back-fills a
//     new track over its look-ahead (tracked.ts): full runs come at least once per look-ahead
//     (every run, so no reuse, where the look-ahead is shorter than the runs' spacing: 4K frames).
import type { Box, Detection, Frame } from "../../types.ts";
import { enclosing, iou, overlapOfSmaller } from "../../models/geometry.ts";
import { moveByCamera, type CameraMotion } from "../../video/camera-motion.ts";
import type { DetectContext } from "../../video/tracked.ts";
import { ChangeMap } from "../../video/change-map.ts";

/** Every how many runs of the small tiles all of them are looked at (4 runs of every 4th frame: 16 frames). */
export const FULL_SCAN_EVERY = 4;
/** Zoom since the last full run past which all tiles are looked at again. */
const MAX_ZOOM = 1.1;

/** A detector with small tiles: it looks through those `smallTiles` picks (all when true, none when false). */
export interface SmallTileDetector {
  detect(frame: Frame, options?: { smallTiles?: boolean | ((tile: Box) => boolean) }): Promise<Detection[]>;
  /** The widest box only the small tiles may have found (their side), px. */
  smallTileCap(width: number, height: number): number;
}

/** How one run looked: for tests and benchmarks. */
export interface SmallTileRun {
  index: number;
  full: boolean;
  tiles: number;
  looked: number;
  carried: number;
}

export class SmallTileScans {
  readonly #detector: SmallTileDetector;
  readonly #changes = new ChangeMap();
  readonly #onRun: ((run: SmallTileRun) => void) | undefined;
  #last: { index: number; found: Promise<Detection[]> } | null = null;
  /** Runs since the last full one. */
  #sinceFull = 0;
  #zoom = 1;

  constructor(detector: SmallTileDetector, onRun?: (run: SmallTileRun) => void) {
    this.#detector = detector;
    this.#onRun = onRun;
  }

  /**
   * What the detector finds in `frame` (its whole run, small tiles where the picture changed).
   * Must be called in frame order; the answer may wait for the previous call's.
   */
  detect(frame: Frame, index: number, { camera, lookahead }: DetectContext): Promise<Detection[]> {
    const last = this.#last;
    const motion = last ? camera.between(last.index, index) : null;
    const zoom = motion ? this.#zoom * motion.scale : 1;
    // Runs allowed between full ones: FULL_SCAN_EVERY, fewer when the look-ahead reaches back fewer runs.
    const spacing = last ? Math.max(1, index - last.index) : 1;
    const fullEvery = Math.min(FULL_SCAN_EVERY, Math.floor(lookahead / spacing));
    const full = !motion || this.#sinceFull + 1 >= fullEvery || Math.abs(Math.log(zoom)) > Math.log(MAX_ZOOM);
    this.#sinceFull = full ? 0 : this.#sinceFull + 1;
    this.#zoom = full ? 1 : zoom;
    // The change map is fed every run (its reference is the last run's frame), full or not.
    const changed = this.#changes.next(frame, motion);
    const looked: Box[] = [];
    let tiles = 0;
    const pick = (tile: Box): boolean => {
      tiles++;
      const look = full || changed(tile);
      if (look) looked.push(tile);
      return look;
    };
    const run = (async () => {
      const found = await this.#detector.detect(frame, { smallTiles: pick });
      const carried = full || !last ? [] : this.#carried(await last.found, motion!, frame, looked);
      this.#onRun?.({ index, full, tiles, looked: looked.length, carried: carried.length });
      return withCarried(found, carried);
    })();
    // A failed run fails its own frame; the next run then carries nothing over.
    this.#last = { index, found: run.catch(() => []) };
    return run;
  }

  /** The last run's small detections, moved with the camera, that lie in no tile looked at now. */
  #carried(previous: Detection[], motion: CameraMotion, frame: Frame, looked: Box[]): Detection[] {
    const { width, height } = frame;
    const cap = this.#detector.smallTileCap(width, height);
    const out: Detection[] = [];
    for (const d of previous) {
      if (d.width > cap) continue;
      const [x, y] = moveByCamera(motion, d.x, d.y, width, height);
      const moved = { ...d, x, y, width: d.width * motion.scale, height: d.height * motion.scale };
      const cx = moved.x + moved.width / 2, cy = moved.y + moved.height / 2;
      if (cx < 0 || cy < 0 || cx >= width || cy >= height) continue;
      if (looked.some((t) => cx >= t.x && cx < t.x + t.width && cy >= t.y && cy < t.y + t.height)) continue;
      out.push(moved);
    }
    return out;
  }
}

/**
 * This run's detections and the carried ones. A carried one that a found one overlaps (as NMS
 * would judge a duplicate) widens that one to cover both instead of being dropped: the found box of a
 * face cut by the frame's edge can sit off the face, where the carried one, in a picture that did
 * not change, is where the face was found (bench/video-leaks.ts, pan-tiny: a face at the bottom
 * edge showed for four frames when NMS kept the found box alone).
 */
function withCarried(found: Detection[], carried: Detection[]): Detection[] {
  const out = [...found];
  for (const c of carried) {
    const k = out.findIndex((d) => d.label === c.label && (iou(d, c) > 0.3 || overlapOfSmaller(d, c) > 0.7));
    if (k < 0) out.push(c);
    else out[k] = { ...out[k]!, ...enclosing(out[k]!, c) };
  }
  return out;
}
