// 2x2 box downsampling of single-channel float planes: the pyramid step of the two motion
// estimators (compute/anonymize/flow-tracker.ts, compute/removal/motion.ts).

/** 2x2 average of a `w` x `h` plane (an odd last row or column is dropped). */
export function halveGrey(src: Float32Array, w: number, h: number): Float32Array {
  const w2 = w >> 1;
  const h2 = h >> 1;
  const out = new Float32Array(w2 * h2);
  for (let j = 0; j < h2; j++) {
    const a = 2 * j * w;
    const b = a + w;
    for (let i = 0; i < w2; i++) out[j * w2 + i] = (src[a + 2 * i] + src[a + 2 * i + 1] + src[b + 2 * i] + src[b + 2 * i + 1]) / 4;
  }
  return out;
}
