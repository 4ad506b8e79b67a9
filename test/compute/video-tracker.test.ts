// Tracker and tracked-processor behaviour on synthetic detections with known true positions.
import { describe, expect, it } from "vitest";
import type { Box, Detection, Frame } from "../../compute/types.ts";
import { clipBox } from "../../compute/models/geometry.ts";
import { assign, FORBIDDEN } from "../../compute/video/assignment.ts";
import { trackedProcessor } from "../../compute/video/tracked.ts";
import { faceBlurVideo } from "../../compute/pipelines/video/face-blur.ts";
import type { Models } from "../../compute/models/index.ts";
import type { FeatureParams } from "../../schema/features.ts";
import { DEFAULT_TRACKER_OPTIONS, Tracker } from "../../compute/video/tracker.ts";
import type { FrameCoverage, TrackedBox, TrackerOptions } from "../../compute/video/tracker.ts";

const det = (b: Box, label = "face", score = 0.9): Detection => ({ ...b, label, score });
const contains = (outer: Box, inner: Box) =>
  outer.x <= inner.x + 1e-6 && outer.y <= inner.y + 1e-6 &&
  outer.x + outer.width >= inner.x + inner.width - 1e-6 && outer.y + outer.height >= inner.y + inner.height - 1e-6;

/** Deterministic noise in [-1, 1]. */
function noise(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  };
}

function run(tracker: Tracker, frames: Array<Detection[] | null>): FrameCoverage[] {
  const out: FrameCoverage[] = [];
  frames.forEach((d, i) => out.push(...tracker.push(i, d)));
  out.push(...tracker.finish());
  return out;
}

describe("assign (Hungarian)", () => {
  it("finds the optimal matching where greedy would not, and respects forbidden pairs", () => {
    // Greedy takes (0,0)=1 then (1,1)=10: total 11. Optimal: (0,1)+(1,0) = 2+2 = 4.
    expect(assign([[1, 2], [2, 10]])).toEqual([1, 0]);
    expect(assign([[FORBIDDEN, 1], [FORBIDDEN, 2]])).toEqual([1, -1]);
    expect(assign([[0.5], [0.2], [0.9]])).toEqual([-1, 0, -1]);
  });
});

describe("Tracker", () => {
  const truth = (i: number): Box => ({ x: 50 + 5 * i, y: 100 + 2 * i, width: 60, height: 60 });

  for (const lookahead of [0, 6]) {
    it(`keeps a face covered through 3 missed frames (lookahead ${lookahead}), with one id`, () => {
      const frames = Array.from({ length: 30 }, (_, i) => (i >= 10 && i <= 12 ? [] : [det(truth(i))]));
      const coverage = run(new Tracker({ lookahead }), frames);
      expect(coverage.map((c) => c.index)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      for (const c of coverage) {
        expect(c.boxes, `frame ${c.index}`).toHaveLength(1);
        expect(contains(c.boxes[0], truth(c.index)), `frame ${c.index} covered`).toBe(true);
      }
      expect(new Set(coverage.map((c) => c.boxes[0].trackId)).size).toBe(1);
      const gapSources = coverage.slice(10, 13).map((c) => c.boxes[0].source);
      // Without look-ahead the gap is predicted; with it, interpolated between the detections.
      expect(gapSources).toEqual(Array(3).fill(lookahead >= 4 ? "interpolated" : "predicted"));
    });
  }

  it("ends a track after maxMissed unmatched detection runs", () => {
    const frames = Array.from({ length: 30 }, (_, i) => (i < 10 ? [det(truth(i))] : []));
    const coverage = run(new Tracker({ maxMissed: 4 }), frames);
    const covered = coverage.filter((c) => c.boxes.length > 0).map((c) => c.index);
    expect(covered).toEqual(Array.from({ length: 14 }, (_, i) => i)); // 10 detected + 4 predicted
  });

  it("ends a track seen only once after maxMissedOnce runs, one seen twice after maxMissed", () => {
    // Frame 0: a one-off box (a false 'person'); frames 0-1: another object seen twice.
    const once = { x: 300, y: 50, width: 60, height: 60 };
    const frames = Array.from({ length: 20 }, (_, i) => (i === 0 ? [det(once), det(truth(0))] : i === 1 ? [det(truth(1))] : []));
    const coverage = run(new Tracker({ maxMissed: 8, maxMissedOnce: 2 }), frames);
    const coveredBy = (x: number) => coverage.filter((c) => c.boxes.some((b) => b.x <= x && b.x + b.width >= x)).map((c) => c.index);
    expect(coveredBy(330)).toEqual([0, 1, 2]); // seen + 2 predicted
    expect(coveredBy(truth(0).x + 30)).toEqual(Array.from({ length: 10 }, (_, i) => i)); // 2 seen + 8 predicted
    // Without it, a track seen once coasts as long as any other.
    const plain = run(new Tracker({ maxMissed: 8 }), frames);
    expect(plain.filter((c) => c.boxes.some((b) => b.x <= 330 && b.x + b.width >= 330)).map((c) => c.index)).toEqual(Array.from({ length: 9 }, (_, i) => i));
  });

  it("keeps covering a fast face the detector lost (motion blur) along its way for maxMissed runs", () => {
    // 40 px wide, 20 px a frame: half its width every frame. Seen on frames 0 and 1, then never again.
    const fast = (i: number): Box => ({ x: 20 + 20 * i, y: 100, width: 40, height: 40 });
    const frames = Array.from({ length: 30 }, (_, i) => (i < 2 ? [det(fast(i))] : []));
    const coverage = run(new Tracker({ maxMissed: 12 }), frames);
    const covered = coverage.filter((c) => c.boxes.length > 0).map((c) => c.index);
    expect(covered).toEqual(Array.from({ length: 14 }, (_, i) => i)); // 2 detected + 12 predicted
    for (const i of covered) expect(contains(coverage[i]!.boxes[0]!, fast(i)), `frame ${i}`).toBe(true);
  });

  it("covers where a lost face's coast put it in the frame that finds it again, when the box found is beside it", () => {
    // A 40 px face at 8 px a frame, detected every 2nd frame up to frame 8, missed for 8 runs, then
    // boxed 20 px below and 12 px behind it (sprites at CRF 35: the last frame's only box was on
    // the blocky neck, and the track that had followed the face took it).
    const face = (i: number): Box => ({ x: 100 + 8 * i, y: 200, width: 40, height: 40 });
    const frames = Array.from({ length: 27 }, (_, i): Detection[] | null => {
      if (i % 2) return null;
      if (i <= 8) return [det(face(i))];
      return i < 26 ? [] : [det({ ...face(i), x: face(i).x - 12, y: face(i).y + 20 })];
    });
    const covers = (options: Partial<TrackerOptions>) => {
      const coverage = run(new Tracker({ lookahead: 3, frameWidth: 1280, frameHeight: 720, ...options }), frames);
      expect(coverage.map((c) => c.boxes.length)).toEqual(frames.map(() => 1));
      return coverage.map((c, i) => contains(c.boxes[0]!, face(i)));
    };
    const withCoast = covers({});
    expect(withCoast.slice(0, 21)).toEqual(Array(21).fill(true)); // seen, then coasting
    expect(withCoast[26]).toBe(true); // found again beside it: its coast is covered too
    expect(covers({ coverCoastWhenFound: false })[26]).toBe(false);
  });

  it("keeps a face that left the frame where the camera takes it, so a pan turning back brings its box back onto it", () => {
    // A 30 px face standing in the scene, seen drifting 2 px a frame (the detector's jitter, not
    // its own motion) while the camera pans 40 px a frame left for 20 frames, then back. Out of
    // the frame it is not covered; back in, its box is where the camera brought the face.
    const W = 640, H = 360;
    const pans = Array.from({ length: 40 }, (_, i) => ({ scale: 1, dx: i < 20 ? -40 : 40, dy: 0 }));
    const face = (i: number): Box => {
      let x = 100;
      for (let k = 1; k <= i; k++) x += pans[k]!.dx;
      return { x, y: 150, width: 30, height: 30 };
    };
    const tracker = new Tracker({ frameWidth: W, frameHeight: H, maxMissed: 25 });
    const out: FrameCoverage[] = [];
    for (let i = 0; i < 40; i++) {
      const seen = i < 2 ? [det({ ...face(i), x: face(i).x + 2 * i })] : i % 2 === 0 ? [] : null;
      out.push(...tracker.push(i, seen, false, i === 0 ? null : pans[i]!));
    }
    out.push(...tracker.finish());
    for (const c of out.slice(2)) {
      const f = face(c.index);
      // Carried on by its 2 px a frame, the box would come back 66 px off the face.
      if (c.index > 20 && f.x >= 0) expect(c.boxes.some((b) => contains(b, f)), `frame ${c.index}: the face is back in`).toBe(true);
    }
  });

  it("covers a lost face leaving the frame until its box, margin and all, is out, then draws nothing however long it waits", () => {
    // A 30 px face leaving through the left edge at 20 px a frame, seen on frames 0 and 1 only.
    // Its margin (up to 0.85 of its size past the edge) covers what its prediction misjudges of a
    // face leaving; once out, a margin growing on would blur a strip of the edge for as long as the
    // track waits there.
    const leaving = (i: number): Box => ({ x: 60 - 20 * i, y: 150, width: 30, height: 30 });
    const tracker = new Tracker({ frameWidth: 640, frameHeight: 360, maxMissed: 25 });
    const out = run(tracker, Array.from({ length: 60 }, (_, i) => (i < 2 ? [det(leaving(i))] : i % 2 === 0 ? [] : null)));
    for (const c of out) {
      const f = leaving(c.index);
      if (f.x + f.width > 0) expect(c.boxes.some((b) => contains(b, clipBox(f, 640, 360))), `frame ${c.index}`).toBe(true);
      else if (f.x + f.width < -f.width) expect(c.boxes, `frame ${c.index}`).toEqual([]);
    }
  });

  it("covers a face whose detections the edge shifted past it while it leaves (the sliver left of it still shows)", () => {
    // A 26 x 44 px face leaving through the bottom at 4 px a frame. Cut by the edge, the detector
    // boxes it from below its hairline, which the tracker completes past the edge to the track's
    // size: the track runs ahead of the face, and its box was wholly past the edge while 19 px of
    // a face still showed (pan-tiny with motion blur, where the detector's box started 13 px low).
    const H = 720;
    const face = (i: number): Box => ({ x: 200, y: 640 + 4 * i, width: 26, height: 44 });
    // Detection on every 2nd frame: the whole face while it is whole, from 12 px below its top to
    // the edge once the edge cuts it (frames 10 and 12); from frame 14 on it misses the face.
    const seen = (i: number): Detection[] | null => {
      if (i % 2 === 1) return null;
      const f = face(i);
      if (i >= 14) return [];
      return [det(f.y + f.height <= H ? f : { ...f, y: f.y + 12, height: H - f.y - 12 })];
    };
    const tracker = new Tracker({ frameWidth: 1280, frameHeight: H, maxMissed: 25, lookahead: 25 });
    const out = run(tracker, Array.from({ length: 24 }, (_, i) => seen(i)));
    for (const c of out) {
      const f = clipBox(face(c.index), 1280, H);
      // After its last detection: what the prediction alone covers.
      if (c.index > 12 && f.height > 0) expect(c.boxes.some((b) => contains(b, f)), `frame ${c.index}: ${f.height} px of the face show`).toBe(true);
    }
  });

  it("covers a face leaving through the edge when the detector boxes only part of what still shows", () => {
    // A 34 px face leaving through the left edge at 12 px a frame, detected on every 2nd frame:
    // whole while inside, then as the 8 px next to the edge (pan-others at 30 fps boxed 8 of the
    // 32 px in view). Completed past the edge to the track's size, that box lies 26 px left of what
    // shows; the frames between two such detections were interpolated from it alone.
    const face = (i: number): Box => ({ x: 150 - 12 * i, y: 300, width: 34, height: 34 });
    const seen = (i: number): Detection[] | null => {
      if (i % 2 === 1) return null;
      const f = face(i);
      if (f.x + f.width <= 0) return [];
      return [det(f.x >= 0 ? f : { ...f, x: 0, width: 8 })];
    };
    const tracker = new Tracker({ frameWidth: 1280, frameHeight: 720, lookahead: 25 });
    const out = run(tracker, Array.from({ length: 24 }, (_, i) => seen(i)));
    for (const c of out) {
      const f = clipBox(face(c.index), 1280, 720);
      if (f.width > 0) expect(c.boxes.some((b) => contains(b, f)), `frame ${c.index}: ${f.width} px of the face show`).toBe(true);
    }
  });

  it("keeps ids when two faces cross", () => {
    const n = 60;
    const rnd = noise(7);
    const a = (i: number): Box => ({ x: 20 + 8 * i, y: 100, width: 50, height: 50 });
    const b = (i: number): Box => ({ x: 500 - 8 * i, y: 110, width: 50, height: 50 });
    const jitter = (box: Box): Box => ({ ...box, x: box.x + 2 * rnd(), y: box.y + 2 * rnd() });
    // Order of detections alternates so that list position carries no identity.
    const frames = Array.from({ length: n }, (_, i) => (i % 2 ? [det(jitter(b(i))), det(jitter(a(i)))] : [det(jitter(a(i))), det(jitter(b(i)))]));
    const coverage = run(new Tracker({ lookahead: 3 }), frames);
    const idOf = (c: FrameCoverage, truthBox: Box) => c.boxes.find((box) => contains(box, truthBox))?.trackId;
    const idsA = new Set(coverage.map((c) => idOf(c, a(c.index))));
    const idsB = new Set(coverage.map((c) => idOf(c, b(c.index))));
    expect(idsA.size).toBe(1);
    expect(idsB.size).toBe(1);
    expect([...idsA][0]).not.toBe([...idsB][0]);
    // Check the crossing itself: at the end, A's id is on the right, B's on the left.
    const last = coverage.at(-1)!;
    const boxA = last.boxes.find((box) => box.trackId === [...idsA][0])!;
    const boxB = last.boxes.find((box) => box.trackId === [...idsB][0])!;
    expect(boxA.x).toBeGreaterThan(boxB.x);
  });

  it("smooths jitter (without lagging) and still contains every raw detection", () => {
    const rnd = noise(3);
    const n = 80;
    const raw = Array.from({ length: n }, (_, i) => {
      const t = truth(i);
      return { ...t, x: t.x + 4 * rnd(), y: t.y + 4 * rnd(), width: t.width + 3 * rnd(), height: t.height + 3 * rnd() };
    });
    const coverage = run(new Tracker({ lookahead: 3, smoothingRadius: 3 }), raw.map((r) => [det(r)]));
    const centre = (b: Box) => b.x + b.width / 2;
    const jitter = (xs: number[]) => xs.slice(2).reduce((s, x, i) => s + Math.abs(x - 2 * xs[i + 1] + xs[i]), 0) / (xs.length - 2);
    const rawJitter = jitter(raw.map(centre));
    const outJitter = jitter(coverage.map((c) => centre(c.boxes[0])));
    expect(outJitter).toBeLessThan(rawJitter * 0.5);
    // No lag: the covered centre follows the true centre, on average within a pixel.
    const bias = coverage.reduce((s, c) => s + (centre(c.boxes[0]) - centre(truth(c.index))), 0) / n;
    expect(Math.abs(bias)).toBeLessThan(1);
    coverage.forEach((c) => expect(contains(c.boxes[0], raw[c.index])).toBe(true));
  });

  it("covers frames before a late first detection (look-ahead backfill), moved back along the velocity", () => {
    // The face is there from frame 0 but the detector finds it only from frame 5.
    const frames = Array.from({ length: 20 }, (_, i) => (i < 5 ? [] : [det(truth(i))]));
    const coverage = run(new Tracker({ lookahead: 6 }), frames);
    for (let i = 0; i < 20; i++) {
      expect(coverage[i].boxes, `frame ${i}`).toHaveLength(1);
      expect(contains(coverage[i].boxes[0], truth(i)), `frame ${i} covered`).toBe(true);
    }
    expect(coverage[0].boxes[0].source).toBe("backfilled");
  });

  it("follows a panning crowd of small faces with the camera's motion: every face covered in every frame", () => {
    // 15 faces of 16 px, 28 px apart, all moved by a pan of (+9, -4) px per frame; small faces are
    // detected on every 4th frame only and each is missed on some runs. A track seen once and
    // predicted standing still is then nearer its neighbour's detection than its own (the pan moves
    // 36 px between runs, more than the spacing): without the camera's motion faces are left bare.
    const W = 1280, H = 720, n = 40, pan = { dx: 9, dy: -4 };
    const face = (k: number, i: number): Box => ({ x: 300 + 28 * (k % 5) + pan.dx * i, y: 400 + 28 * Math.floor(k / 5) + pan.dy * i, width: 16, height: 16 });
    const frames = Array.from({ length: n }, (_, i) =>
      i % 4 ? null : Array.from({ length: 15 }, (_, k) => k).filter((k) => (i / 4 + k) % 3 !== 0).map((k) => det(face(k, i))),
    );
    const bare = (motion: boolean) => {
      const tracker = new Tracker({ frameWidth: W, frameHeight: H, lookahead: 8 });
      const out: FrameCoverage[] = [];
      frames.forEach((d, i) => out.push(...tracker.push(i, d, false, motion && i > 0 ? { scale: 1, ...pan } : null)));
      out.push(...tracker.finish());
      expect(out.map((c) => c.index)).toEqual(Array.from({ length: n }, (_, i) => i));
      return out.flatMap((c) => Array.from({ length: 15 }, (_, k) => k).filter((k) => !c.boxes.some((b) => contains(b, face(k, c.index)))).map((k) => `f${c.index} face ${k}`));
    };
    expect(bare(true)).toEqual([]);
    // The same detections without the camera's motion (the case this prevents).
    expect(bare(false).length).toBeGreaterThan(10);
  });

  it("smooths a face's boxes along the camera's path, so a pan that turns back does not pull the box off the face", () => {
    // A 30 px face standing in the scene; the camera pans 40 px a frame (a 10 fps video's pan) one
    // way until frame 6, then back. Frame 6, where it turns, has no detection. Averaged where they
    // lie in the frame, its neighbours' boxes (all 40-120 px to one side of it) put its box 50 px
    // off the face; averaged where the camera takes them into frame 6, on it.
    const W = 1280, H = 720;
    const step = (i: number) => (i <= 6 ? -40 : 40);
    const xAt = (i: number): number => (i === 0 ? 640 : xAt(i - 1) + step(i));
    const face = (i: number): Box => ({ x: xAt(i), y: 300, width: 30, height: 30 });
    const tracker = new Tracker({ frameWidth: W, frameHeight: H, lookahead: 8 });
    const out: FrameCoverage[] = [];
    for (let i = 0; i < 13; i++) out.push(...tracker.push(i, i === 6 ? null : [det(face(i))], false, i > 0 ? { scale: 1, dx: step(i), dy: 0 } : null));
    out.push(...tracker.finish());
    for (const c of out) expect(c.boxes.some((b) => contains(b, face(c.index))), `frame ${c.index}`).toBe(true);
  });

  it("covers both faces when a track seen once reaches for a new face beside its own, which the detector missed", () => {
    // Two 16 px faces standing 28 px apart, detected on every 2nd frame. A is seen on frame 0, then
    // missed until frame 20 (past the look-ahead); B is there from frame 0 but first found on frame
    // 2, within reach of A's track (a face seen once may be fast). Matched alone, A's track moved
    // onto B and left A bare in frames 1-11, before what A's next detection could backfill.
    const W = 1280, H = 720;
    const a: Box = { x: 600, y: 300, width: 16, height: 16 }, b: Box = { ...a, x: 628 };
    const frames = Array.from({ length: 30 }, (_, i) => (i % 2 ? null : [...(i === 0 || i >= 20 ? [det(a)] : []), ...(i >= 2 ? [det(b)] : [])]));
    const coverage = run(new Tracker({ frameWidth: W, frameHeight: H, lookahead: 8 }), frames);
    const bare = coverage.flatMap((c) => [["A", a], ["B", b]].filter(([, f]) => !c.boxes.some((x) => contains(x, f as Box))).map(([n]) => `f${c.index} ${n}`));
    expect(bare).toEqual([]);
  });

  it("keeps covering a face seen once that a track seen once reached for, after the track flies on", () => {
    // A seen on frame 0 only, B (28 px to its right, standing) on frame 2 only. A's track reaches B's
    // detection by its unknown speed and goes on at 14 px a frame; B's own story (a new face, seen
    // once) coasts on where B was seen: matched alone, B was bare from frame 3 on (a person on
    // bench/people.ts --video the same way, 16 frames).
    const W = 1280, H = 720;
    const a: Box = { x: 600, y: 300, width: 16, height: 16 }, b: Box = { ...a, x: 628 };
    const frames = Array.from({ length: 30 }, (_, i) => (i % 2 ? null : [...(i === 0 ? [det(a)] : []), ...(i === 2 ? [det(b)] : [])]));
    const coverage = run(new Tracker({ frameWidth: W, frameHeight: H, lookahead: 8 }), frames);
    const bare = coverage.flatMap((c) => [["A", a], ["B", b]].filter(([, f]) => !c.boxes.some((x) => contains(x, f as Box))).map(([n]) => `f${c.index} ${n}`));
    expect(bare).toEqual([]);
  });

  it("keeps what the other story covered when a third face in the row seems to settle it", () => {
    // A, B and C stand in a row 28 px apart, each found once: A on frame 0, B on frame 2, C on
    // frame 4. A's track reaches B by its unknown speed (14 px a frame), so C lies where that
    // velocity puts it: the third sighting says A's face moved. In a crowd it is a third face, and
    // when the other story's boxes were taken back, A was bare in frames 1-3 and B, standing where
    // it was seen, in frames 0, 1 and 3 (bench/video-leaks.ts pan-crowd).
    const W = 1280, H = 720;
    const a: Box = { x: 600, y: 300, width: 16, height: 16 }, b: Box = { ...a, x: 628 }, c: Box = { ...a, x: 656 };
    const frames = Array.from({ length: 12 }, (_, i) => (i % 2 ? null : [...(i === 0 ? [det(a)] : []), ...(i === 2 ? [det(b)] : []), ...(i === 4 ? [det(c)] : [])]));
    const coverage = run(new Tracker({ frameWidth: W, frameHeight: H, lookahead: 8 }), frames);
    const bare = coverage.filter((f) => f.index < 4).flatMap((f) => [["A", a], ["B", b]].filter(([, x]) => !f.boxes.some((box) => contains(box, x as Box))).map(([n]) => `f${f.index} ${n}`));
    expect(bare).toEqual([]);
  });

  it("goes on covering the other story's face when it is found again in the run that settles the story", () => {
    // As above, and B is found again on frame 4 beside C: B is a face of its own (seen twice,
    // still) and its track goes on. Ended with the story before its own match was applied, B was
    // bare from frame 5 on.
    const W = 1280, H = 720;
    const a: Box = { x: 600, y: 300, width: 16, height: 16 }, b: Box = { ...a, x: 628 }, c: Box = { ...a, x: 656 };
    const frames = Array.from({ length: 12 }, (_, i) => (i % 2 ? null : [...(i === 0 ? [det(a)] : []), ...(i === 2 || i === 4 ? [det(b)] : []), ...(i === 4 ? [det(c)] : [])]));
    const coverage = run(new Tracker({ frameWidth: W, frameHeight: H, lookahead: 8 }), frames);
    const bare = coverage.filter((f) => !f.boxes.some((box) => contains(box, b))).map((f) => f.index);
    expect(bare).toEqual([]);
  });

  it("covers a predicted face cut by the frame's edge with a wider margin than one inside it", () => {
    // Detected in frame 0, predicted (not detected) in frame 1: still, so the box stays where it was.
    const coverAt = (y: number) => run(new Tracker({ frameWidth: 200, frameHeight: 200 }), [[det({ x: 80, y, width: 30, height: 30 })], []]);
    const [insideSeen, inside] = coverAt(80).map((c) => c.boxes[0]);
    const [edgeSeen, edge] = coverAt(180).map((c) => c.boxes[0]);
    // Detected: margin 0.1 of the size on each side wherever it is. Predicted one frame on: 0.1 +
    // 0.03 inside; with edgeMargin 0.25 more at the edge (and clipped there).
    expect(insideSeen.y).toBeCloseTo(80 - 0.1 * 30, 6);
    expect(edgeSeen.y).toBeCloseTo(180 - 0.1 * 30, 6);
    expect(inside.y).toBeCloseTo(80 - 0.13 * 30, 6);
    expect(edge.y).toBeCloseTo(180 - 0.38 * 30, 6);
    expect(edge.y + edge.height).toBe(200);
  });

  it("completes a face the frame's edge cuts to a square past it, so the pan that carries it in carries all of it", () => {
    // A 24 px face 10 px inside the right edge, boxed as the sliver the detector sees; the camera
    // pans 19 px a frame, bringing it in; frame 1 is not detected (predicted from frame 0).
    const W = 1280, H = 720, pan = { scale: 1, dx: -19, dy: 0 };
    const face = (i: number): Box => ({ x: 1270 + pan.dx * i, y: 300, width: 24, height: 24 });
    const sliver = (label: string) => det({ x: 1270, y: 300, width: 10, height: 24 }, label);
    const cover = (label: string) => {
      const tracker = new Tracker({ frameWidth: W, frameHeight: H });
      return [...tracker.push(0, [sliver(label)]), ...tracker.push(1, null, false, pan), ...tracker.finish()].map((c) => c.boxes[0]!);
    };
    const [seen, carried] = cover("face");
    expect(seen.x + seen.width).toBe(W);
    expect(contains(carried, face(1)), "the whole face covered a frame later").toBe(true);
    // Other labels are tracked as seen: the sliver is carried in as a sliver.
    expect(cover("person")[1].width).toBeLessThan(15);
  });

  it("learns no change of size from a size it guessed past the edge", () => {
    // The 20 x 24 face enters as a 10 px sliver (tracked as 24 x 24), is seen whole two frames
    // later, then predicted for 10 frames while the pan goes on: 24 -> 20 px is no shrinking.
    const W = 1280, H = 720, pan = { scale: 1, dx: -19, dy: 0 };
    const face = (i: number): Box => ({ x: 1270 + pan.dx * i, y: 300, width: 20, height: 24 });
    const tracker = new Tracker({ frameWidth: W, frameHeight: H });
    const out: FrameCoverage[] = [...tracker.push(0, [det({ x: 1270, y: 300, width: 10, height: 24 })])];
    for (let i = 1; i <= 12; i++) out.push(...tracker.push(i, i === 2 ? [det(face(2))] : null, false, pan));
    out.push(...tracker.finish());
    for (const c of out.slice(2)) expect(contains(c.boxes[0]!, face(c.index)), `frame ${c.index}`).toBe(true);
  });

  it("completes a tracked face the edge cuts to the track's size, not to the shape of what the edge leaves of it", () => {
    // A 35 x 47 px face seen whole in frames 0-3; the camera pans 117 px left and the face, 17 px
    // past the left edge, is boxed as a tall sliver (18 x 87, as a face leaving pan-small was); the
    // camera then pans 60 px back (frame 5, predicted). Completed to a square the sliver would
    // come back 87 px wide.
    const W = 1280, H = 720;
    const tracker = new Tracker({ frameWidth: W, frameHeight: H });
    const out: FrameCoverage[] = [];
    for (let i = 0; i < 4; i++) out.push(...tracker.push(i, [det({ x: 100, y: 300, width: 35, height: 47 })]));
    out.push(...tracker.push(4, [det({ x: 0, y: 280, width: 18, height: 87 })], false, { scale: 1, dx: -117, dy: 0 }));
    out.push(...tracker.push(5, null, false, { scale: 1, dx: 60, dy: 0 }), ...tracker.finish());
    const back = out[5]!.boxes[0]!;
    expect(contains(back, { x: 43, y: 300, width: 35, height: 47 }), "the face the pan brought back is covered").toBe(true);
    expect(back.width).toBeLessThan(60);
  });

  it("coasts a lost face at the size it was last seen (moved by the camera), not at a size its detections' jitter extrapolates", () => {
    // Two sightings six frames apart whose heights differ by the detector's jitter (40 then 52 px,
    // as a false box on pan-small was), then missed while the camera pans: the predicted box keeps
    // the last size and shape, its margin alone grows. Extrapolated, the height grew 2 px a frame
    // and the box became 38 x 343 px.
    const pan = { scale: 1, dx: -5, dy: 0 };
    const tracker = new Tracker({ frameWidth: 1280, frameHeight: 720 });
    const out: FrameCoverage[] = [...tracker.push(0, [det({ x: 600, y: 300, width: 38, height: 40 })])];
    for (let i = 1; i <= 26; i++) {
      const seen = i === 6 ? [det({ x: 600 + 6 * pan.dx, y: 300, width: 38, height: 52 })] : i % 2 === 0 ? [] : null;
      out.push(...tracker.push(i, seen, false, pan));
    }
    out.push(...tracker.finish());
    const predicted = out.filter((c) => c.index > 6).flatMap((c) => c.boxes);
    expect(predicted.length).toBeGreaterThan(10);
    const { maxMargin } = tracker.options;
    for (const b of predicted) {
      expect(b.height).toBeLessThanOrEqual(52 * (1 + 2 * maxMargin) + 1e-6);
      expect(b.height / b.width).toBeLessThan((52 / 38) * 1.05);
    }
  });

  it("keeps labels apart and clips to the frame", () => {
    const tracker = new Tracker({ frameWidth: 100, frameHeight: 100 });
    const out = run(tracker, [[det({ x: 80, y: 80, width: 30, height: 30 }, "face"), det({ x: 80, y: 80, width: 30, height: 30 }, "car")]]);
    expect(out[0].boxes.map((b) => b.label).sort()).toEqual(["car", "face"]);
    for (const b of out[0].boxes) expect(b.x + b.width).toBeLessThanOrEqual(100);
  });
});

describe("trackedProcessor (detect every k frames)", () => {
  // Tiny fake frames; what matters is which frames the detector sees and what gets covered.
  const frame = (): Frame => ({ data: Buffer.alloc(4 * 4 * 3), width: 640, height: 360, channels: 3 });
  const truth = (i: number): Box => ({ x: 100 + 6 * i, y: 50 + 3 * i, width: 40, height: 40 });

  async function simulate(n: number, every: number, appearsAt: number, chunkSize: number) {
    const detectedOn: number[] = [];
    const covered = new Map<number, TrackedBox[]>();
    const processor = trackedProcessor({
      detectEvery: every,
      chunkSize,
      batchSize: 3,
      async detect(frames, indices) {
        expect(frames.length).toBeLessThanOrEqual(3);
        detectedOn.push(...indices);
        return indices.map((i) => (i >= appearsAt ? [det(truth(i))] : []));
      },
      async apply(f, coverage) {
        covered.set(coverage.index, coverage.boxes);
        return f;
      },
    });
    let returned = 0;
    for (let start = 0; start < n; start += chunkSize) {
      const frames = Array.from({ length: Math.min(chunkSize, n - start) }, frame);
      returned += (await processor.processChunk(frames, start)).length;
    }
    returned += (await processor.flush!()).length;
    return { detectedOn, covered, returned };
  }

  it("detects on every 5th frame and the last, and covers every frame where the face is, including before its first detection", async () => {
    const n = 43;
    const { detectedOn, covered, returned } = await simulate(n, 5, 7, 8);
    expect(returned).toBe(n);
    expect(detectedOn).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 42]);
    for (let i = 0; i < n; i++) {
      const boxes = covered.get(i)!;
      if (i >= 7) {
        expect(boxes.length, `frame ${i}`).toBe(1);
        expect(contains(boxes[0], truth(i)), `frame ${i} covered`).toBe(true);
      }
    }
    // Frames 7..9 appear between detection runs 5 and 10: covered by backfill.
    expect(covered.get(7)![0].source).toBe("backfilled");
  });

  it("tells the detector which frame is the video's last, however the chunks end", async () => {
    // A face entering in the last frames has no later detection to be back-filled from: video
    // face detection runs its small-face tiles on that frame (videoFaces), off their schedule.
    for (const [n, chunkSize] of [[43, 8], [40, 8], [41, 1], [1, 32]] as const) {
      const lastOn: number[] = [];
      const detectedOn: number[] = [];
      const processor = trackedProcessor({
        detectEvery: 2,
        chunkSize,
        async detect(_frames, indices, context) {
          detectedOn.push(...indices);
          if (context.last) lastOn.push(...indices);
          return indices.map(() => []);
        },
        apply: async (f) => f,
      });
      let returned = 0;
      for (let start = 0; start < n; start += chunkSize) {
        returned += (await processor.processChunk(Array.from({ length: Math.min(chunkSize, n - start) }, frame), start)).length;
      }
      returned += (await processor.flush!()).length;
      expect(returned).toBe(n);
      expect(lastOn, `${n} frames in chunks of ${chunkSize}`).toEqual([n - 1]);
      expect(detectedOn).toEqual([...Array.from({ length: Math.ceil((n - 1) / 2) }, (_, k) => 2 * k), n - 1]);
    }
  });

  it("detects about as often a second at any frame rate: every 2nd frame at 25 fps, every 5th at 60, every frame at 15; at 4K 60 fps every 3rd, within the look-ahead's memory", async () => {
    const small = Buffer.alloc(64 * 36 * 3);
    const uhd = Buffer.alloc(3840 * 2160 * 3); // one buffer for every frame: only the size matters here
    for (const [fps, every, width] of [[25, 2, 64], [30, 2, 64], [60, 5, 64], [15, 1, 64], [25, 2, 3840], [60, 3, 3840]] as const) {
      const frame = (): Frame => (width === 64 ? { data: small, width, height: 36, channels: 3 } : { data: uhd, width, height: 2160, channels: 3 });
      const detectedOn: number[] = [];
      const processor = trackedProcessor({
        detectEvery: 2,
        chunkSize: 8,
        async detect(_frames, indices, context) {
          expect(context.every).toBe(every);
          detectedOn.push(...indices);
          return indices.map(() => []);
        },
        apply: async (f) => f,
      });
      processor.start({ fps: { num: fps, den: 1 } });
      for (let start = 0; start < 40; start += 8) await processor.processChunk(Array.from({ length: 8 }, frame), start);
      await processor.flush!();
      expect(detectedOn, `${fps} fps, ${width} px`).toEqual([...Array.from({ length: Math.ceil(39 / every) }, (_, k) => k * every), 39]);
      // The reach and the margins per frame follow the rate (a face moves 25/15 as far between two
      // frames at 15 fps); the misses a track survives, the runs a second: 2 s of them.
      const options = processor.tracker()!.options;
      expect(options.unknownSpeed, `${fps} fps`).toBeCloseTo((DEFAULT_TRACKER_OPTIONS.unknownSpeed * 25) / fps, 10);
      expect(options.marginPerUncertainFrame, `${fps} fps`).toBeCloseTo((DEFAULT_TRACKER_OPTIONS.marginPerUncertainFrame * 25) / fps, 10);
      expect(options.maxMissed, `${fps} fps`).toBe(Math.round((DEFAULT_TRACKER_OPTIONS.maxMissed * (fps / 25) * 2) / every));
    }
  });

  it("video face-blur runs face detection's small-face tiles every 4th frame at 25 fps and below (and on the last), every 10th at 60 fps; the whole-frame passes on every detection frame", async () => {
    for (const [fps, every, smallEvery] of [[25, 2, 4], [15, 1, 4], [60, 5, 10]] as const) {
      const data = Buffer.alloc(64 * 36 * 3);
      const frames: Frame[] = Array.from({ length: 40 }, () => ({ data, width: 64, height: 36, channels: 3 }));
      const runs: { index: number; small: boolean }[] = [];
      const faces = {
        async detect(frame: Frame, options?: { smallFaces?: boolean | ((tile: Box) => boolean) }) {
          runs.push({ index: frames.indexOf(frame), small: options?.smallFaces !== false });
          return [];
        },
        smallFaceCap: () => 0,
      };
      const processor = faceBlurVideo({ pixelated: false } as FeatureParams<"video.face-blur">, { faces } as unknown as Pick<Models, "faces">);
      processor.start!({ fps: { num: fps, den: 1 } });
      for (let start = 0; start < 40; start += 8) await processor.processChunk(frames.slice(start, start + 8), start);
      await processor.flush!();
      expect(runs.map((r) => r.index), `${fps} fps`).toEqual([...Array.from({ length: Math.ceil(39 / every) }, (_, k) => k * every), 39]);
      expect(runs.filter((r) => r.small).map((r) => r.index), `${fps} fps`).toEqual([...Array.from({ length: Math.ceil(39 / smallEvery) }, (_, k) => k * smallEvery), 39]);
    }
  });

  it("refuses a look-ahead too short for the skip interval", () => {
    expect(() =>
      trackedProcessor({ detectEvery: 8, tracker: { lookahead: 3 }, detect: async () => [], apply: async (f) => f }),
    ).toThrow(/look-ahead/);
  });

  // Issue 22: faces left visible between, before and after detections. Each case failed with the
  // old 3-frame look-ahead and no scene-cut handling.
  /** Runs the processor (detect every 2nd frame, chunks of 8) over `frames`; `found(i)` is what the detector answers on frame i. */
  async function cover(frames: Frame[], found: (i: number) => Box[]) {
    const detectedOn: number[] = [];
    const covered: TrackedBox[][] = [];
    const processor = trackedProcessor({
      detectEvery: 2,
      chunkSize: 8,
      async detect(_frames, indices) {
        detectedOn.push(...indices);
        return indices.map((i) => found(i).map((b) => det(b)));
      },
      async apply(f, coverage) {
        covered[coverage.index] = coverage.boxes;
        return f;
      },
    });
    for (let start = 0; start < frames.length; start += 8) await processor.processChunk(frames.slice(start, start + 8), start);
    await processor.flush!();
    return { detectedOn, covered };
  }
  const frames = (n: number) => Array.from({ length: n }, frame);
  const coveredBy = (boxes: TrackedBox[], truthBox: Box) => boxes.some((b) => contains(b, truthBox));

  it("covers a face from its first frame when the detector first finds it 20 frames late", async () => {
    const face = (i: number): Box => ({ x: 200 + 4 * i, y: 100, width: 40, height: 40 });
    const { covered } = await cover(frames(40), (i) => (i >= 20 ? [face(i)] : []));
    for (let i = 0; i < 40; i++) expect(coveredBy(covered[i], face(i)), `frame ${i}`).toBe(true);
  });

  it("covers a fast face (20 px/frame) through 14 frames of misses while it stops, without the forward guess running on", async () => {
    // Moves right at 20 px/frame until frame 5, then stands still; the detector misses frames 6-20.
    const face = (i: number): Box => ({ x: 100 + 20 * Math.min(i, 5), y: 100, width: 40, height: 40 });
    const { covered } = await cover(frames(40), (i) => (i >= 6 && i <= 20 ? [] : [face(i)]));
    for (let i = 0; i < 40; i++) expect(coveredBy(covered[i], face(i)), `frame ${i}`).toBe(true);
  });

  it("links a small face crossing fast (14x24 px at 16 px/frame) and covers the frames between its detections", async () => {
    const face = (i: number): Box => ({ x: 20 + 16 * i, y: 100, width: 14, height: 24 });
    const { covered } = await cover(Array.from({ length: 30 }, () => ({ ...frame(), width: 1280, height: 720 })), (i) => [face(i)]);
    for (let i = 0; i < 30; i++) expect(coveredBy(covered[i], face(i)), `frame ${i}`).toBe(true);
  });

  it("on a scene cut: detects its first frame, ends the old shot's tracks, and reaches no track back across it", async () => {
    // Shot A (dark, frames 0-10): a face at the left. Shot B (bright, from frame 11, which the
    // every-2nd schedule would skip): a face at the right, first found on frame 15.
    const shot = (i: number): Frame => ({ data: Buffer.alloc(320 * 180 * 3, i < 11 ? 40 : 210), width: 320, height: 180, channels: 3 });
    const a: Box = { x: 20, y: 60, width: 40, height: 40 };
    const b: Box = { x: 250, y: 60, width: 40, height: 40 };
    const clip = Array.from({ length: 30 }, (_, i) => shot(i));
    const { detectedOn, covered } = await cover(clip, (i) => (i < 11 ? [a] : i >= 15 ? [b] : []));
    expect(detectedOn).toContain(11);
    for (let i = 0; i < 30; i++) {
      expect(coveredBy(covered[i], a), `frame ${i}: old shot's face`).toBe(i < 11);
      expect(coveredBy(covered[i], b), `frame ${i}: new shot's face`).toBe(i >= 11);
    }
  });
});
