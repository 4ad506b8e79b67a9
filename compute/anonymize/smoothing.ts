// Per-track landmark smoothing (One-Euro filter, Casiez et al. 2012), the baseline the flow
// tracker (flow-tracker.ts, used by the pipeline) is measured against in bench/anonymization.ts:
// strong smoothing when the face is still (kills the landmark model's jitter, which would
// otherwise make the drawn features shimmer), little lag when it moves fast. Cut-offs are in face units per frame, so the behaviour
// does not depend on the face's size in pixels.
import type { Pt } from "./raster.ts";
import { faceFrame } from "./geometry.ts";

export interface SmootherOptions {
  /** Minimum cut-off (cycles per frame) at rest; lower = smoother. */
  minCutoff: number;
  /** How fast the cut-off rises with speed (per IOD per frame). */
  beta: number;
  /** Cut-off of the speed estimate. */
  dCutoff: number;
}

export const DEFAULT_SMOOTHER_OPTIONS: SmootherOptions = { minCutoff: 0.08, beta: 6, dCutoff: 0.3 };

const alphaOf = (cutoff: number) => {
  const tau = 1 / (2 * Math.PI * cutoff);
  return 1 / (1 + tau);
};

export class LandmarkSmoother {
  private prev: Pt[] | null = null;
  private dprev: Pt[] | null = null;
  readonly options: SmootherOptions;

  constructor(options: Partial<SmootherOptions> = {}) {
    this.options = { ...DEFAULT_SMOOTHER_OPTIONS, ...options };
  }

  reset(): void {
    this.prev = null;
    this.dprev = null;
  }

  /** Feed this frame's raw landmarks, get the smoothed ones. */
  push(points: Pt[]): Pt[] {
    if (!this.prev || this.prev.length !== points.length) {
      this.prev = points.map((p) => ({ ...p }));
      this.dprev = points.map(() => ({ x: 0, y: 0 }));
      return points.map((p) => ({ ...p }));
    }
    const iod = faceFrame(points).iod;
    const { minCutoff, beta, dCutoff } = this.options;
    const ad = alphaOf(dCutoff);
    // One speed for the whole face (mean landmark motion): all points share one cut-off, so the
    // face moves rigidly instead of parts lagging differently.
    let speed = 0;
    const d = points.map((p, i) => {
      const dx = ad * (p.x - this.prev![i].x) + (1 - ad) * this.dprev![i].x;
      const dy = ad * (p.y - this.prev![i].y) + (1 - ad) * this.dprev![i].y;
      speed += Math.hypot(dx, dy);
      return { x: dx, y: dy };
    });
    speed /= points.length * Math.max(1e-3, iod);
    const a = alphaOf(minCutoff + beta * speed);
    const out = points.map((p, i) => ({ x: this.prev![i].x + a * (p.x - this.prev![i].x), y: this.prev![i].y + a * (p.y - this.prev![i].y) }));
    this.prev = out;
    this.dprev = d;
    return out.map((p) => ({ ...p }));
  }
}
