// A synthetic identity: every random choice of the replacement face, drawn once from a seed (the
// track id), so one track keeps one made-up face for the whole video and two tracks get different
// ones. Geometry parameters are relative changes with a guaranteed minimum magnitude (the sign is
// random, the size is not), so no draw can land back on the original person's proportions.

export interface SyntheticIdentity {
  seed: number;
  // Geometry (fractions of the inter-ocular distance IOD, or scale factors).
  /** Each eye moves outwards (+) or inwards (-) by this many IOD. */
  eyeSpacing: number;
  /** Eye outline scale around its centre (width, height). */
  eyeScaleX: number;
  eyeScaleY: number;
  /** Vertical shift of the eyes (IOD, + = down). */
  eyeShiftY: number;
  /** Brow vertical offset (IOD, + = down, i.e. closer to the eyes) and tilt (radians, outer end up +). */
  browShiftY: number;
  browTilt: number;
  /** Nose width scale and length change (IOD, + = longer). */
  noseWidth: number;
  noseLength: number;
  /** Mouth width scale, vertical shift (IOD) and lip thickness scale. */
  mouthWidth: number;
  mouthShiftY: number;
  lipThickness: number;
  /** Jaw width scale (about the face axis) and chin length change (IOD). */
  jawWidth: number;
  chinLength: number;
  // Appearance.
  /** Multiplicative skin tone change per channel (applied to the low-passed shading). */
  skinTint: [number, number, number];
  /** Iris colour (RGB 0..255). */
  iris: [number, number, number];
  /** Brow colour relative to the local skin (multiplier 0..1, darker = smaller). */
  browDarkness: number;
  /** Brow half-thickness (IOD). */
  browThickness: number;
  /** Lip colour (multiplier per channel on the skin colour). */
  lipTint: [number, number, number];
  /** Procedural skin detail amplitude (grey levels) and frequency (cells per IOD). */
  skinDetail: number;
  skinFrequency: number;
  /** Seed for the procedural noise fields. */
  noiseSeed: number;
  /**
   * Scale of the texture low-pass (render.ts multiplies the options' lowSigma by it): above 1,
   * less of the input's mid-scale shading survives (see IdentityOptions.flatten).
   */
  flatten: number;
}

/** mulberry32: a small, fast, well-mixed 32-bit PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Hash any track id (number or string) plus a salt into a 32-bit seed. */
export function seedOf(trackId: number | string, salt = 0): number {
  const s = `${salt}:${trackId}`;
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  h ^= h >>> 13;
  h = Math.imul(h, 0x5bd1e995);
  h ^= h >>> 15;
  return h >>> 0;
}

/**
 * Each geometric change's [smallest, largest] size at geometry 1 (IOD for shifts and spacing,
 * scale - 1 for the scales); the sign is random. One table for the seeded draw and for the
 * calibration's local search (neighbourIdentity), so both stay within the same reach.
 */
const GEOMETRY = {
  eyeSpacing: [0.05, 0.09],
  eyeScaleX: [0.08, 0.15],
  eyeScaleY: [0.1, 0.2],
  eyeShiftY: [0.02, 0.05],
  browShiftY: [0.04, 0.08],
  browTilt: [0.05, 0.15],
  noseWidth: [0.1, 0.2],
  noseLength: [0.04, 0.08],
  mouthWidth: [0.08, 0.15],
  mouthShiftY: [0.03, 0.06],
  lipThickness: [0.15, 0.3],
  jawWidth: [0.05, 0.1],
  chinLength: [0.04, 0.1],
} as const satisfies Record<string, readonly [number, number]>;
type GeometryKey = keyof typeof GEOMETRY;
/** The geometry parameters that are scale factors (1 = unchanged) rather than offsets (0). */
const SCALES = new Set<GeometryKey>(["eyeScaleX", "eyeScaleY", "noseWidth", "mouthWidth", "lipThickness", "jawWidth"]);

export interface IdentityOptions {
  /** How far the geometry moves: 1 = the defaults below (the measured choice), 0 = none. */
  geometry?: number;
  /** Texture low-pass scale (SyntheticIdentity.flatten), 1 = the rendering options' own. */
  flatten?: number;
}

export function syntheticIdentity(trackId: number | string, salt = 0, opts: IdentityOptions = {}): SyntheticIdentity {
  const seed = seedOf(trackId, salt);
  const r = prng(seed);
  const g = opts.geometry ?? 1;
  const uni = (lo: number, hi: number) => lo + (hi - lo) * r();
  // A signed change whose size is at least `min` (random sign): never close to "no change".
  const signed = (min: number, max: number) => (r() < 0.5 ? -1 : 1) * uni(min, max) * g;
  const pick = <T,>(xs: T[]): T => xs[Math.floor(r() * xs.length) % xs.length];
  const irises: [number, number, number][] = [
    [92, 60, 38], [70, 45, 30], [110, 80, 50], [60, 90, 120], [80, 110, 90], [120, 100, 70], [50, 40, 35],
  ];
  const lipTints: [number, number, number][] = [
    [0.95, 0.62, 0.62], [0.9, 0.58, 0.6], [0.85, 0.6, 0.58], [0.92, 0.66, 0.68], [0.8, 0.55, 0.55],
  ];
  const warm = uni(-0.06, 0.06);
  const light = uni(0.92, 1.08);
  // Drawn in GEOMETRY's order (the draw order is part of what a seed means); a scale is 1 + change.
  const geometry = {} as Record<GeometryKey, number>;
  for (const key of Object.keys(GEOMETRY) as GeometryKey[]) {
    const change = signed(GEOMETRY[key][0], GEOMETRY[key][1]);
    geometry[key] = SCALES.has(key) ? 1 + change : change;
  }
  return {
    seed,
    ...geometry,
    skinTint: [light * (1 + warm), light, light * (1 - warm)],
    iris: pick(irises),
    browDarkness: uni(0.35, 0.6),
    browThickness: uni(0.05, 0.08),
    lipTint: pick(lipTints),
    skinDetail: uni(3, 6),
    skinFrequency: uni(9, 14),
    noiseSeed: Math.floor(r() * 2 ** 31),
    flatten: opts.flatten ?? 1,
  };
}

/** The appearance parameters the local search moves: [step, lowest, highest]. */
const APPEARANCE_STEPS: Record<"browDarkness" | "browThickness" | "flatten", [number, number, number]> = {
  browDarkness: [0.1, 0.3, 0.7],
  browThickness: [0.02, 0.04, 0.1],
  flatten: [0.3, 0.6, 2.5],
};

/**
 * A neighbour of `id` for the calibration's local search: each parameter moves with probability
 * 0.3, the skin tone's brightness likewise. A geometric change moves by up to half its largest
 * seeded size (either way) and stays within `reach` times that size (the escalated candidates'
 * reach, so the warp's own limits still apply); the brows and the texture low-pass stay in
 * APPEARANCE_STEPS' ranges (a little wider than the seeded draw's), and the skin tone within
 * +-15 % of the input's. Same seed and noise, so the procedural detail stays the same.
 */
export function neighbourIdentity(id: SyntheticIdentity, rand: () => number, reach: number): SyntheticIdentity {
  const next: SyntheticIdentity = { ...id, skinTint: [...id.skinTint] };
  const move = (value: number, step: number, lo: number, hi: number) => (rand() < 0.3 ? Math.min(hi, Math.max(lo, value + (rand() * 2 - 1) * step)) : value);
  for (const key of Object.keys(GEOMETRY) as GeometryKey[]) {
    const largest = GEOMETRY[key][1];
    const centre = SCALES.has(key) ? 1 : 0;
    next[key] = move(next[key], largest / 2, centre - largest * reach, centre + largest * reach);
  }
  for (const [key, [step, lo, hi]] of Object.entries(APPEARANCE_STEPS) as Array<[keyof typeof APPEARANCE_STEPS, [number, number, number]]>) {
    next[key] = move(next[key], step, lo, hi);
  }
  if (rand() < 0.3) {
    const mean = (next.skinTint[0] + next.skinTint[1] + next.skinTint[2]) / 3;
    const wanted = Math.min(1.15, Math.max(0.85, mean * (0.95 + 0.1 * rand())));
    next.skinTint = next.skinTint.map((v) => (v * wanted) / mean) as [number, number, number];
  }
  return next;
}
