// What the evaluation benches count: found (or hidden) of all, by key ("96 px", "greyscale", ...),
// and their seed ranges.

/** Found-of-all counts by key. */
export class Tallies {
  readonly #counts = new Map<string, { found: number; total: number }>();

  add(key: string, hit: boolean): void {
    const t = this.#counts.get(key) ?? { found: 0, total: 0 };
    t.found += +hit;
    t.total++;
    this.#counts.set(key, t);
  }

  /** "found/total", or "-" for a key never counted. */
  cell(key: string): string {
    const t = this.#counts.get(key);
    return t ? `${t.found}/${t.total}` : "-";
  }
}

/** "1-4" -> [1, 4]. */
export function seedRange(flag: string): [number, number] {
  const [first, last] = flag.split("-").map(Number);
  return [first!, last ?? first!];
}
