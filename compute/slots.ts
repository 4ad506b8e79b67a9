// A counting semaphore with a bounded waiting line: CPU-bound tasks run a few at a time, and
// when the line is full the instance says so (503) instead of queueing without bound.
export class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly capacity: number;
  private readonly maxWaiting: number;

  constructor(capacity: number, maxWaiting: number) {
    this.capacity = Math.max(1, capacity);
    this.maxWaiting = maxWaiting;
  }

  get busy(): number {
    return this.running;
  }

  /** No room left in the waiting line. */
  get full(): boolean {
    return this.running >= this.capacity && this.waiting.length >= this.maxWaiting;
  }

  /** A slot now, or null when all are taken. */
  tryAcquire(): (() => void) | null {
    if (this.running >= this.capacity) return null;
    this.running++;
    return this.releaser();
  }

  /**
   * A slot when one frees up, or null at once when the waiting line is full (unless `admitted`:
   * work already accepted always gets in line).
   */
  async acquire(admitted = false): Promise<(() => void) | null> {
    const now = this.tryAcquire();
    if (now) return now;
    if (!admitted && this.waiting.length >= this.maxWaiting) return null;
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next(); // the slot passes straight to the next waiter
      else this.running--;
    };
  }
}
