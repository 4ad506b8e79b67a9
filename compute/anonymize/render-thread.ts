// FaceRenderer: anonymizeFaces on a worker thread. Drawing the faces is pure JS pixel work (about
// a quarter of a video's time); on its own thread it runs while the calling thread goes on with
// the next frames' detection and landmarks, and it does not block the event loop (job heartbeats).
// Requests are answered in the order they were made.
import { Worker } from "node:worker_threads";
import type { Frame } from "../types.ts";
import type { SyntheticIdentity } from "./identity.ts";
import type { FaceInput } from "./render.ts";

type TrackId = number | string;

export interface RenderRequest {
  id: number;
  data: Uint8Array;
  width: number;
  height: number;
  channels: Frame["channels"];
  faces: Array<FaceInput & { trackId: TrackId }>;
  identities: Array<[TrackId, SyntheticIdentity]>;
}

export type RenderReply = { id: number; data: Uint8Array; error?: undefined } | { id: number; data?: undefined; error: string };

export class FaceRenderer {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (f: Frame) => void; reject: (e: Error) => void; frame: Frame }>();
  #next = 0;
  #failed: Error | undefined;

  constructor() {
    this.#worker = new Worker(new URL("./render-worker.ts", import.meta.url));
    this.#worker.on("message", (reply: RenderReply) => {
      const job = this.#pending.get(reply.id);
      if (!job) return;
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if (reply.error !== undefined) job.reject(new Error(`Face rendering failed: ${reply.error}`));
      else job.resolve({ ...job.frame, data: Buffer.from(reply.data.buffer, reply.data.byteOffset, reply.data.byteLength) });
    });
    const fail = (err: Error) => {
      this.#failed ??= err;
      for (const job of this.#pending.values()) job.reject(this.#failed);
      this.#pending.clear();
    };
    this.#worker.on("error", (err) => fail(new Error(`The face rendering thread failed: ${err.message}`)));
    this.#worker.on("exit", (code) => fail(new Error(`The face rendering thread exited (code ${code}).`)));
    // The thread keeps the process alive only while a frame is being drawn (an idle renderer that
    // was never closed does not hold the process open, and a pending one is never cut short).
    // After the listeners: adding a "message" listener refs the worker again.
    this.#worker.unref();
  }

  /** `frame` with these faces replaced (the input frame is not modified), drawn on the worker. */
  render(frame: Frame, faces: Array<FaceInput & { trackId: TrackId }>, identityFor: (trackId: TrackId) => SyntheticIdentity): Promise<Frame> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#next++;
    const identities: Array<[TrackId, SyntheticIdentity]> = [...new Set(faces.map((f) => f.trackId))].map((t) => [t, identityFor(t)]);
    return new Promise<Frame>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject, frame });
      // Copied, not transferred: the caller's frame stays valid.
      const req: RenderRequest = { id, data: frame.data, width: frame.width, height: frame.height, channels: frame.channels, faces, identities };
      this.#worker.postMessage(req);
    });
  }

  /** Stops the thread; requests still pending fail. */
  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}
