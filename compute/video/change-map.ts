// Which parts of a frame show something new since an earlier frame, once the camera's motion is
// taken out. Video face detection uses it to look again with the small-face tiles only where the
// picture changed since their last look (compute/pipelines/video/small-tile-scans.ts): a tile
// whose pixels are the same gives the same answer, and on a still camera most of a street scene
// is the same from one look to the next.
//
// Method: both frames averaged down to about 320 px wide (camera-motion.ts' luma level); every
// fine pixel of the new frame is compared with the point of the reference the camera's motion
// brought there (bilinear). A pixel's difference counts only past what a motion error of half a
// fine pixel explains on its edges (MOTION_SLACK x the local gradient), so a pan over sharp
// texture is not "new" everywhere; a block of BLOCK x BLOCK fine pixels changed when its mean
// difference past that is over CHANGE_LEVEL, or when any of its pixels was outside the reference
// (new picture at the edge of a pan or zoom). Measured over four frames on the generated clips
// (test/fixtures/video-clips.ts, scratch statistics): blocks on faces that moved 8 px or more
// differ by 17-25 (median), and by more than 4 in all of 136 such faces' boxes; blocks of a still
// picture under a still camera stay under 3 (99th percentile), but under a zoom that re-samples a
// collage of small faces 1 % of blocks pass 5-8, so there most tiles count as changed (pan-small:
// 77 % of them). A slack of 1 px (level 4 or 6) flagged far fewer there and still every moving
// face, but left a face at the frame's edge visible in 5 of 450 frames of bench/video-leaks.ts
// (0 with these values).
import type { Box, Frame } from "../types.ts";
import { fineLevel, moveBackByCamera, type CameraMotion, type Level } from "./camera-motion.ts";

/** Block side in fine pixels (16 frame px at 720p). */
const BLOCK = 4;
/** Mean luma difference (0-255) past the motion slack that makes a block changed. */
const CHANGE_LEVEL = 4;
/** Fine pixels of motion error tolerated: the difference a gradient explains over this distance is not change. */
const MOTION_SLACK = 0.5;

interface Reference {
  level: Level;
  factor: number;
  width: number;
  height: number;
}

/** Answers whether a box (frame px) holds any changed block. */
export type ChangedIn = (box: Box) => boolean;

const EVERYTHING: ChangedIn = () => true;

export class ChangeMap {
  #reference: Reference | null = null;

  /**
   * Makes `frame` the reference for the next call and answers what changed in it since the
   * current reference, `motion` being where a point of the reference is in `frame`. Without a
   * reference or a motion (unknown, or a scene cut) everything changed.
   */
  next(frame: Frame, motion: CameraMotion | null): ChangedIn {
    const current: Reference = { ...fineLevel(frame), width: frame.width, height: frame.height };
    const previous = this.#reference;
    this.#reference = current;
    if (!previous || !motion || previous.width !== current.width || previous.height !== current.height) return EVERYTHING;
    const { changed, columns, rows } = changedBlocks(previous, current, motion);
    const side = BLOCK * current.factor;
    return (box) => {
      const c0 = Math.max(0, Math.floor(box.x / side)), c1 = Math.min(columns - 1, Math.floor((box.x + box.width - 1) / side));
      const r0 = Math.max(0, Math.floor(box.y / side)), r1 = Math.min(rows - 1, Math.floor((box.y + box.height - 1) / side));
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (changed[r * columns + c]) return true;
      // Frame px past the last whole block (a width that is not a multiple of the block) count as changed.
      return box.x + box.width > columns * side || box.y + box.height > rows * side;
    };
  }
}

function changedBlocks(previous: Reference, current: Reference, motion: CameraMotion): { changed: Uint8Array; columns: number; rows: number } {
  const { level: cur, factor, width, height } = current;
  const prev = previous.level;
  const columns = Math.floor(cur.width / BLOCK), rows = Math.floor(cur.height / BLOCK);
  const changed = new Uint8Array(columns * rows);
  const a = cur.luma, b = prev.luma, w = cur.width, pw = prev.width;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      let excess = 0;
      let outside = false;
      for (let y = r * BLOCK; y < (r + 1) * BLOCK && !outside; y++) {
        for (let x = c * BLOCK; x < (c + 1) * BLOCK; x++) {
          // Fine pixel centre -> frame px -> where it was in the reference -> reference fine px.
          const [fx, fy] = moveBackByCamera(motion, (x + 0.5) * factor, (y + 0.5) * factor, width, height);
          const px = fx / factor - 0.5, py = fy / factor - 0.5;
          if (px < 0 || py < 0 || px > pw - 1 || py > prev.height - 1) {
            outside = true;
            break;
          }
          const x0 = Math.min(pw - 2, Math.floor(px)), y0 = Math.min(prev.height - 2, Math.floor(py));
          const tx = px - x0, ty = py - y0, i = y0 * pw + x0;
          const before = (b[i]! * (1 - tx) + b[i + 1]! * tx) * (1 - ty) + (b[i + pw]! * (1 - tx) + b[i + pw + 1]! * tx) * ty;
          const j = y * w + x;
          const gx = Math.abs(a[Math.min(j + 1, y * w + w - 1)]! - a[Math.max(j - 1, y * w)]!) / 2;
          const gy = Math.abs(a[Math.min(j + w, a.length - w + x)]! - a[Math.max(j - w, x)]!) / 2;
          excess += Math.max(0, Math.abs(a[j]! - before) - MOTION_SLACK * (gx + gy));
        }
      }
      changed[r * columns + c] = outside || excess / (BLOCK * BLOCK) > CHANGE_LEVEL ? 1 : 0;
    }
  }
  return { changed, columns, rows };
}
