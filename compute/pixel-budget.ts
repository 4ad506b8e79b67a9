// How many decoded pixels an instance holds at once, by memory. The megapixel limit bounds one
// image; it does not bound two 50 MP images decoded side by side (each costs its RGB frame, the
// pipeline's copies and masks, the encoder's buffers: a 49 MP PNG took compute from 628 MB to
// 1.98 GB, ~28 bytes per pixel). Each image task reserves its estimate before decoding and waits
// while the budget is spent; one image larger than the whole budget runs alone. Small photos
// (12 MP: ~340 MB) still run side by side.

/** Peak bytes an image task holds per decoded pixel (measured: +1.35 GB for 49 MP). */
export const BYTES_PER_PIXEL = 28;
/** Default budget (OBSCURA_PIXEL_MEMORY_MB): one 50 MP image, or four 12 MP ones, at a time. */
export const DEFAULT_PIXEL_MEMORY_MB = 1536;

export class PixelBudget {
  readonly bytes: number;
  #used = 0;
  readonly #waiting: Array<{ bytes: number; grant: () => void }> = [];

  constructor(bytes: number) {
    this.bytes = Math.max(1, bytes);
  }

  get used(): number {
    return this.#used;
  }

  /**
   * Reserves the memory of `pixels` decoded pixels, waiting (first come, first served) until it
   * fits; returns its release. An abort while waiting rejects with the signal's reason.
   */
  async reserve(pixels: number, signal?: AbortSignal): Promise<() => void> {
    const bytes = Math.min(this.bytes, Math.max(0, pixels) * BYTES_PER_PIXEL);
    signal?.throwIfAborted();
    if (this.#waiting.length === 0 && this.#used + bytes <= this.bytes) {
      this.#used += bytes;
      return this.#releaser(bytes);
    }
    await new Promise<void>((resolve, reject) => {
      const entry = { bytes, grant: resolve };
      this.#waiting.push(entry);
      signal?.addEventListener("abort", () => {
        const i = this.#waiting.indexOf(entry);
        if (i < 0) return; // already granted
        this.#waiting.splice(i, 1);
        reject(signal.reason);
        this.#grant(); // a large waiter leaving may let smaller ones behind it in
      }, { once: true });
    });
    return this.#releaser(bytes);
  }

  #releaser(bytes: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#used -= bytes;
      this.#grant();
    };
  }

  /** Lets in waiters, in order, while the first one fits. */
  #grant(): void {
    while (this.#waiting.length && this.#used + this.#waiting[0]!.bytes <= this.bytes) {
      const next = this.#waiting.shift()!;
      this.#used += next.bytes;
      next.grant();
    }
  }
}

let shared: PixelBudget | undefined;

/** The instance's budget, from OBSCURA_PIXEL_MEMORY_MB. */
export function pixelBudget(): PixelBudget {
  const mb = Number(process.env.OBSCURA_PIXEL_MEMORY_MB);
  shared ??= new PixelBudget((Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_PIXEL_MEMORY_MB) * 1024 ** 2);
  return shared;
}
