// From the API's strength knobs to pixel parameters. A privacy service never returns an
// unblurred face: strength 0 is the WEAKEST setting that still hides identity, not "off".
//
// blur_strength s in 0..1 (default 0.7) -> gaussian sigma for a region (face, plate, object)
// whose larger side is `regionSize` px:
//
//     sigma = max(1.5 + 2.5 s,  regionSize * (0.08 + 0.17 s))
//
//   s:      0      0.3     0.5     0.7     1
//   ratio:  0.08   0.131   0.165   0.199   0.25   (sigma / regionSize)
//   100 px face: sigma 8, 13, 16.5, 20, 25.
// Why 0.08 at s = 0: a gaussian of sigma σ keeps detail up to roughly 0.13/σ cycles per pixel,
// so a face W px wide keeps about 0.13·W/σ = 1.6 cycles across it at σ = 0.08·W. Face
// recognition needs several cycles per face width (it degrades sharply below ~4-8), so even the
// weakest setting leaves a skin-coloured blob with no features. The absolute floor keeps tiny
// faces (10-20 px) from getting a sub-pixel blur. Strictly increasing in s and in regionSize.
//
// Pixelation: the region's larger side is cut into N = 6 - 3 s blocks (6 at s = 0, 3.9 at the
// default 0.7, 3 at s = 1), i.e. block = regionSize / N, at least 2 px. Six blocks across a face
// or a plate hide features and characters alike.
//
// pixelation_strength (spec: blur-anything, default 20 for images, 180 for video, unbounded,
// larger = coarser) is folded onto the same 0..1 scale logarithmically:
//     s = clamp(ln(1 + p) / ln(256), 0, 1)      p = 20 -> 0.55, p = 180 -> 0.94, p >= 255 -> 1
// so both documented defaults give a visible mosaic and 0 is still the identity-hiding floor.

/** Default of blur_strength in the spec. */
export const DEFAULT_BLUR_STRENGTH = 0.7;

function clamp01(s: number): number {
  if (!Number.isFinite(s)) return DEFAULT_BLUR_STRENGTH;
  return Math.min(1, Math.max(0, s));
}

/** Gaussian sigma (px) hiding a region whose larger side is `regionSize` px. See the table above. */
export function blurSigma(strength: number, regionSize: number): number {
  const s = clamp01(strength);
  const size = Math.max(0, Number.isFinite(regionSize) ? regionSize : 0);
  return Math.max(1.5 + 2.5 * s, size * (0.08 + 0.17 * s));
}

/** Mosaic block size (px) for a region whose larger side is `regionSize` px (strength 0..1). */
export function pixelBlockSize(strength: number, regionSize: number): number {
  const s = clamp01(strength);
  const blocks = 6 - 3 * s;
  const size = Math.max(0, Number.isFinite(regionSize) ? regionSize : 0);
  return Math.max(2, Math.round(size / blocks));
}

/** The spec's pixelation_strength (0..inf, larger = coarser) on the 0..1 strength scale. */
export function pixelationToStrength(pixelationStrength: number): number {
  if (!Number.isFinite(pixelationStrength) || pixelationStrength <= 0) return 0;
  return Math.min(1, Math.log1p(pixelationStrength) / Math.log(256));
}

/**
 * Sigma for an aesthetic background blur (blur-background, portrait depth effect), where the
 * whole frame behind the subject is blurred and identity hiding is not the goal:
 *     sigma = shortSide * (0.005 + 0.03 s)     1000 px frame: 5 px at s = 0, 26 at 0.7, 35 at 1.
 */
export function backgroundBlurSigma(strength: number, width: number, height: number): number {
  const s = clamp01(strength);
  return Math.max(1, Math.min(width, height) * (0.005 + 0.03 * s));
}
