// The camera's motion between frames (compute/video/camera-motion.ts), measured on the generated
// clips whose per-frame truth is an exact transform of a real photo (test/fixtures/video-clips.ts):
// a pan and zoom must be recovered within a pixel at the faces, a still camera with faces moving
// across it must read as still (the faces are outliers, not the camera), and a picture with
// nothing to match reads as unknown rather than as a guess.
import { describe, expect, it } from "vitest";
import { CameraMotionEstimator, CameraPath, KeyFramePath, moveBackByCamera, moveByCamera } from "../../compute/video/camera-motion.ts";
import type { CameraMotion } from "../../compute/video/camera-motion.ts";
import type { Frame } from "../../compute/types.ts";
import { CLIP_HEIGHT, CLIP_WIDTH, makeClip } from "../fixtures/video-clips.ts";

async function motions(name: string) {
  const clip = await makeClip(name);
  const estimator = new CameraMotionEstimator();
  return { clip, motions: clip.frames.map((f) => estimator.next(f)) };
}

describe("camera motion", () => {
  it("recovers a pan and zoom over a photo of small faces: faces predicted within a pixel (still camera: 18 px off)", async () => {
    const { clip, motions: m } = await motions("pan-small");
    expect(m[0]).toBeNull();
    let error = 0, still = 0, n = 0, worst = 0;
    for (let i = 1; i < clip.frames.length; i++) {
      const motion = m[i]!;
      expect(motion, `frame ${i}`).not.toBeNull();
      for (const face of clip.truth[i]!) {
        const before = clip.truth[i - 1]!.find((f) => f.faceId === face.faceId)!;
        const [x, y] = moveByCamera(motion, before.x + before.width / 2, before.y + before.height / 2, CLIP_WIDTH, CLIP_HEIGHT);
        const e = Math.hypot(x - (face.x + face.width / 2), y - (face.y + face.height / 2));
        error += e;
        worst = Math.max(worst, e);
        still += Math.hypot(before.x + before.width / 2 - face.x - face.width / 2, before.y + before.height / 2 - face.y - face.height / 2);
        n++;
      }
    }
    // Measured: 0.28 px mean against 18.3 px for a still camera.
    expect(error / n).toBeLessThan(1);
    expect(worst).toBeLessThan(4);
    expect(still / n).toBeGreaterThan(10);
  }, 60_000);

  it("reads a still camera as still while faces cross it at up to 30 px per frame", async () => {
    const { motions: m } = await motions("sprites");
    for (const motion of m.slice(1)) {
      expect(motion).not.toBeNull();
      expect(Math.abs(motion!.dx)).toBeLessThan(0.5);
      expect(Math.abs(motion!.dy)).toBeLessThan(0.5);
      expect(Math.abs(motion!.scale - 1)).toBeLessThan(0.002);
    }
  }, 60_000);

  it("follows a zoom from the first frame against key frames, where chaining frame to frame falls behind", async () => {
    // pan-tiny zooms 1.0-2.2x over 75 frames: a face of frame 0 is carried by the path's motion
    // from frame 0 to where it is in each later frame it still shows in. Measured: 2.0 px mean
    // against key frames, 5.5 px chained frame to frame (sub-pixel matching shrinks the small
    // shifts a zoom gives near the centre, and the shortfall adds up).
    const clip = await makeClip("pan-tiny");
    const keyed = new KeyFramePath(), chained = new CameraMotionEstimator(), path = new CameraPath();
    const error = { keyed: 0, chained: 0, n: 0 };
    clip.frames.forEach((frame, i) => {
      const fromFirst = keyed.next(frame);
      path.record(i, chained.next(frame));
      expect(fromFirst, `frame ${i}`).not.toBeNull();
      expect(fromFirst!.epoch).toBe(0);
      for (const face of clip.truth[i]!) {
        const first = clip.truth[0]!.find((f) => f.faceId === face.faceId);
        if (!first) continue;
        const at = (m: CameraMotion) => moveByCamera(m, first.x + first.width / 2, first.y + first.height / 2, CLIP_WIDTH, CLIP_HEIGHT);
        const off = ([x, y]: number[]) => Math.hypot(x! - (face.x + face.width / 2), y! - (face.y + face.height / 2));
        error.keyed += off(at(fromFirst!.motion));
        error.chained += off(at(path.between(0, i)!));
        error.n++;
      }
    });
    console.log(`pan-tiny, frame 0's faces carried: key frames ${(error.keyed / error.n).toFixed(2)} px mean, chained ${(error.chained / error.n).toFixed(2)} px`);
    expect(error.keyed / error.n).toBeLessThan(3);
    expect(error.chained / error.n).toBeGreaterThan(2 * (error.keyed / error.n));
  }, 60_000);

  it("answers unknown (null) when there is nothing to match", () => {
    const flat: Frame = { data: Buffer.alloc(640 * 360 * 3, 128), width: 640, height: 360, channels: 3 };
    const estimator = new CameraMotionEstimator();
    expect(estimator.next(flat)).toBeNull();
    expect(estimator.next({ ...flat, data: Buffer.alloc(640 * 360 * 3, 128) })).toBeNull();
  });

  it("composes the motions of a path between two frames, and knows none across a gap or a cut", () => {
    const path = new CameraPath();
    const steps: CameraMotion[] = [
      { scale: 1.01, dx: 3, dy: -1 },
      { scale: 0.98, dx: -2, dy: 4 },
      { scale: 1.05, dx: 0.5, dy: 0.5 },
    ];
    steps.forEach((m, i) => path.record(i + 1, m));
    const [w, h] = [1280, 720];
    let [x, y] = [100, 600];
    for (const m of steps) [x, y] = moveByCamera(m, x, y, w, h);
    const [cx, cy] = moveByCamera(path.between(0, 3)!, 100, 600, w, h);
    expect(cx).toBeCloseTo(x, 6);
    expect(cy).toBeCloseTo(y, 6);
    expect(path.between(2, 2)).toEqual({ scale: 1, dx: 0, dy: 0 });
    path.record(4, null); // a cut, or a motion the estimator could not tell
    path.record(5, steps[0]!);
    expect(path.between(3, 5)).toBeNull();
    expect(path.between(4, 5)).toEqual(steps[0]);
    expect(path.between(0, 9)).toBeNull();
  });

  it("moves a point forward and back to where it was", () => {
    const m: CameraMotion = { scale: 1.02, dx: 7.5, dy: -3 };
    const [x, y] = moveByCamera(m, 100, 600, 1280, 720);
    const [bx, by] = moveBackByCamera(m, x, y, 1280, 720);
    expect(bx).toBeCloseTo(100, 9);
    expect(by).toBeCloseTo(600, 9);
  });
});
