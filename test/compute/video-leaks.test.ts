// Issue 22 ("no frame shows a face"): the tracker's part of the leak, on generated 720p clips with
// exact per-frame ground truth (test/fixtures/video-clips.ts) and a detector that answers from
// that truth with runs of misses and late first detections (test/fixtures/video-leaks.ts).
// Whatever the detector finds at least now and then must be hidden in every frame: fast faces
// (up to 38 px/frame), zooming faces, faces entering and leaving, small faces.
// The real detector's figures for every clip are printed by bench/video-leaks.ts; here one clip as a
// user's encoder leaves it (libx264, CRF 23-35, one with motion blur), the real detector on it.
import { describe, expect, it } from "vitest";
import { sharedModels } from "../../compute/models/index.ts";
import { compressed, makeClip } from "../fixtures/video-clips.ts";
import { measureLeaks, oracleWithMisses, SIZE_BUCKETS, sizeBucket } from "../fixtures/video-leaks.ts";
import type { LeakReport } from "../fixtures/video-leaks.ts";

/** The face-frames left visible, named for the failure message. */
const leakedFaces = (report: LeakReport) => report.faceFrames.filter((f) => !f.hidden).map((f) => `f${f.frame} ${f.face.faceId} w${Math.round(f.face.width)} ${Math.round(f.covered * 100)}%`);

describe("video face-blur with a detector that misses (oracle with misses)", () => {
  // One clip keeps it to seconds (bench/video-leaks.ts measures them all): six faces of 14-140 px
  // entering and leaving through every edge at 16-38 px/frame, one growing.
  for (const name of ["enter-leave"]) {
    it(`${name}: no frame shows a face, and the blur stays on the faces`, async () => {
      const clip = await makeClip(name);
      const report = await measureLeaks(clip, oracleWithMisses(clip, 1));
      const leaked = leakedFaces(report);
      expect(leaked).toEqual([]);
      for (const bucket of SIZE_BUCKETS) {
        const faces = report.faceFrames.filter((f) => sizeBucket(f.face.width) === bucket);
        if (faces.length) expect(faces.filter((f) => f.hidden).length / faces.length, bucket).toBeGreaterThanOrEqual(0.97);
      }
      // Measured 8.5 % of the frame (the oracle's boxes and the margins of their predicted tracks).
      expect(report.coveredArea).toBeLessThan(0.15);
    }, 120_000);
  }
});

describe("video face-blur at other frame rates, with a detector that misses for as long (oracle with misses)", () => {
  // The tracker's constants were measured at 25 fps; a phone records at 30 or 60. The same motion
  // per second in more frames, the misses lasting as long: detection runs as often a second and
  // the tracker survives misses as long and reaches as far a second as at 25 fps
  // (compute/video/tracked.ts, `start`). With the schedule and the constants in frames, this
  // seed's faces showed in 8 frames at 60 fps (4 of 20 px and up).
  for (const fps of [60]) {
    it(`enter-leave at ${fps} fps: no frame shows a face`, async () => {
      const clip = await makeClip("enter-leave", { fps });
      const report = await measureLeaks(clip, oracleWithMisses(clip, 1));
      expect(leakedFaces(report)).toEqual([]);
      // Measured 10.3 % of the frame (8.5 % at 25 fps).
      expect(report.coveredArea).toBeLessThan(0.15);
    }, 180_000);
  }

  // A dashcam or a security camera records at 15 fps: detection on every frame (15 runs a second,
  // 12.5 at 25 fps), the small-face tiles every 4th. With the schedule and the constants in frames
  // (every 2nd frame) the fast sprites outran their tracks: seed 1 showed a face in 15 of 45
  // frames of sprites and 13 of enter-leave, blurring 23.4 and 23.6 % of the frame.
  for (const name of ["sprites", "enter-leave"]) {
    it(`${name} at 15 fps: no frame shows a face`, async () => {
      const clip = await makeClip(name, { fps: 15 });
      const report = await measureLeaks(clip, oracleWithMisses(clip, 1));
      expect(leakedFaces(report)).toEqual([]);
      // Measured 13.5 % of the frame for each (at 25 fps 12.7 and 8.5 %).
      expect(report.coveredArea).toBeLessThan(0.16);
    }, 120_000);
  }
});

describe("video face-blur over a crowd, with a detector that misses (oracle with misses)", () => {
  // pan-crowd: hundreds of faces in view at once, 1.2-1.7 face widths apart, each found late and
  // missed in runs: a track whose face a run missed is a face away from its neighbour's detection.
  // With hundreds of faces some go unfound for longer than any track reaches (bench/video-leaks.ts
  // --clips pan-crowd), so the frames are not all clean; the share of face-frames hidden is pinned.
  it("pan-crowd: 0.97 of face-frames hidden at every size", async () => {
    const clip = await makeClip("pan-crowd");
    const report = await measureLeaks(clip, oracleWithMisses(clip, 2));
    const hidden = SIZE_BUCKETS.map((bucket) => {
      const faces = report.faceFrames.filter((f) => sizeBucket(f.face.width) === bucket);
      return { bucket, share: faces.filter((f) => f.hidden).length / faces.length };
    });
    console.log(`pan-crowd, oracle seed 2: ${report.leakedFrames} / ${report.leakedFrames20} frames show a face; hidden ${hidden.map((h) => `${h.bucket} ${h.share.toFixed(3)}`).join(", ")}; ${(100 * report.coveredArea).toFixed(1)} % blurred`);
    for (const { bucket, share } of hidden) expect(share, bucket).toBeGreaterThanOrEqual(0.97);
  }, 300_000);
});

describe("video face-blur with the real detector on other people's faces", () => {
  it("pan-others through libx264 at CRF 23: no frame shows a face, faces entering at the frame's edge included, and the blur stays on the faces", async () => {
    // The held-out faces (nothing was tuned on them) under pan-small's pan and zoom. A 20 px face
    // entering at the top-right corner was boxed as the sliver the edge left of it, and the pan
    // carried the sliver in: its other half showed until the tracker completed such boxes past the
    // edge. A 138 x 178 px box on road markings, seen only past the edge, was taken without looks
    // and tracked 45 frames with growing margins: 14 % of the frame blurred. Measured 0 frames,
    // 3.6 % of the frame.
    const clip = await compressed(await makeClip("pan-others"), 23);
    const report = await measureLeaks(clip, sharedModels().faces);
    const leaked = leakedFaces(report);
    expect(leaked).toEqual([]);
    expect(report.coveredArea).toBeLessThan(0.06);
  }, 300_000);
});

describe("video face-blur with the real detector on a compressed clip", () => {
  it("scene-cut through libx264 at CRF 28: no frame shows a face, faces cut by the frame's edge included", async () => {
    // Compression takes the edge of a face's score: a face the top edge cuts to its mouth and chin
    // scored 0.69-0.72 in the middle tiles (0.75 is sure there, and the looks see too little of it),
    // and its track ended: 7 frames showed it until edge-cut boxes counted from BlazeFace's own 0.6.
    const clip = await compressed(await makeClip("scene-cut"), 28);
    const report = await measureLeaks(clip, sharedModels().faces);
    const leaked = leakedFaces(report);
    expect(leaked).toEqual([]);
    // Measured 35.3 % of the frame (large faces fill this clip).
    expect(report.coveredArea).toBeLessThan(0.4);
  }, 300_000);

  it("sprites with motion blur (a 180-degree shutter) through libx264 at CRF 23: the fast face the blur takes from the detector stays hidden", async () => {
    // The 29 px face crossing at 29 px/frame is smeared by half that: the detector saw it in 2 of
    // 18 detection runs, and 8 frames showed it when a track ended after 10 missed runs (tracker.ts,
    // maxMissed, now 25). Measured 0 frames.
    const clip = await compressed(await makeClip("sprites", { motionBlur: true }), 23);
    const report = await measureLeaks(clip, sharedModels().faces);
    const leaked = leakedFaces(report);
    expect(leaked).toEqual([]);
    // Measured 12.3 % of the frame (six faces of 29-200 px, and their margins).
    expect(report.coveredArea).toBeLessThan(0.25);
  }, 300_000);

  it("sprites through libx264 at CRF 35 (a body-cam's bitrate): the faces BlazeFace loses to the encoder are hidden", async () => {
    // A tilted 29 px face moving across the frame scores 0.2-0.4 with BlazeFace once the encoder
    // has softened it, in every look: 37 of 75 frames showed it. FaceBoxes (trained on WIDER
    // FACE's blurred and compressed crowds) finds it. In the last frame a 39 px face lost for 10
    // runs showed (0.83 of it covered) while its track took the frame's only box, 40 px below it:
    // the frame that ends a coast now covers the coast too (tracker.ts, coverCoastWhenFound).
    // Measured 0 frames.
    const clip = await compressed(await makeClip("sprites"), 35);
    const report = await measureLeaks(clip, sharedModels().faces);
    expect(leakedFaces(report)).toEqual([]);
  }, 300_000);

  it("pan over tiny faces through libx264 at CRF 35: the 14-23 px faces the encoder softened are hidden", async () => {
    // The pan's faces are 14-23 px; blocked by the encoder, BlazeFace and FaceBoxes lost some of
    // them (9 of 75 frames showed one). RetinaFace, seeing the frame at 2x and confirming its small
    // boxes with its own looks, finds them: measured 0 frames.
    const clip = await compressed(await makeClip("pan-tiny"), 35);
    const report = await measureLeaks(clip, sharedModels().faces);
    const leakedFrames = new Set(report.faceFrames.filter((f) => !f.hidden).map((f) => f.frame));
    expect(leakedFrames.size).toBeLessThanOrEqual(2);
    expect(report.faceFrames.filter((f) => f.hidden).length / report.faceFrames.length).toBeGreaterThanOrEqual(0.99);
  }, 300_000);
});
