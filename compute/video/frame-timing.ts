// When a video's frames keep their times. The encoder is handed raw frames at one constant rate, so
// the output re-times frame i to i / rate. For a constant-rate video that is where it was; a phone
// that drops to 15 fps in the dark, or a screen recording that only writes a frame on a change,
// has variable-rate frames, and re-timing them at their average rate would pull the picture ahead
// of the audio by seconds. Such a video is conformed instead: decoded to a constant rate, a frame
// repeated while the scene held it and dropped where two fall into one step (ffmpeg's fps filter),
// so every frame shows at its own time and sound stays in sync.
import { reduced, type Rational } from "./rational.ts";

/** `frames`: the conformed count, a frame every step from the first frame's time through the last one's. */
export type FrameTiming = { variable: false } | { variable: true; rate: Rational; frames: number };

/**
 * Variable when re-timing every frame at the average rate would move one by more than half a
 * frame. The constant rate it is conformed to is the one of its typical (median) frame step, so the
 * frames of its steady parts are all kept; never under the average rate (which would drop frames
 * for nothing). `pts`: the video packets' timestamps in `timeBase` units, in any order.
 */
export function frameTiming(pts: readonly number[], timeBase: Rational, average: Rational): FrameTiming {
  const times = [...pts].sort((a, b) => a - b);
  if (times.length < 3) return { variable: false };
  const span = times.at(-1)! - times[0]!;
  const step = span / (times.length - 1);
  if (!(step > 0)) return { variable: false };
  // A loop, not Math.max(...): a 10-minute 120 fps video has 72,000 frames.
  let worst = 0;
  for (const [i, t] of times.entries()) worst = Math.max(worst, Math.abs(t - times[0]! - i * step));
  if (worst <= step / 2) return { variable: false };
  const steps = times.slice(1).map((t, i) => t - times[i]!).filter((d) => d > 0).sort((a, b) => a - b);
  const median = steps[Math.floor(steps.length / 2)]!;
  // rate = 1 / (median * timeBase), exact: 3003 ticks of 1/90000 is 30000/1001.
  const typical = reduced(timeBase.den, median * timeBase.num);
  const rate = typical.num / typical.den >= average.num / average.den ? typical : average;
  const spanSeconds = (span * timeBase.num) / timeBase.den;
  return { variable: true, rate, frames: Math.floor((spanSeconds * rate.num) / rate.den + 1e-6) + 1 };
}
