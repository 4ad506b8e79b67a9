// Compute's HTTP server, health checks and progress callbacks share one event loop with the
// per-frame JS of the pipelines (tiles, effects, camera motion). `await` on work that is already
// done only queues a microtask, so a loop over a chunk's frames holds the event loop for the whole
// chunk (up to ~0.9 s measured by bench/healthz-during-video.ts). Loops over frames await this
// between frames: pending I/O runs there (setImmediate fires after the poll phase).
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
}
