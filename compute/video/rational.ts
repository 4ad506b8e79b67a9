// Exact ratios (frame rates, time bases, pixel aspect): 30000/1001 stays 30000/1001, not 29.97.

/** An exact frame rate: 30000/1001 stays 30000/1001, not 29.97. */
export interface Rational {
  num: number;
  den: number;
}

/** num/den in lowest terms (both positive integers). */
export function reduced(num: number, den: number): Rational {
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

/** ffprobe's "30000/1001" (or "25"), in lowest terms; null when absent, zero or not a number. */
export function parseRational(text: string | undefined): Rational | null {
  if (!text) return null;
  const [a, b = "1"] = text.split("/");
  const num = Number(a);
  const den = Number(b);
  if (!Number.isFinite(num) || !Number.isFinite(den) || num <= 0 || den <= 0) return null;
  return reduced(num, den);
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
