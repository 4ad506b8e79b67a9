// A crashed inference thread fails only the runs it had in flight and is replaced with the same
// sessions open; later runs succeed on every thread. Its own file: node:worker_threads is wrapped
// here (and only here) to reach the real threads the pool starts, so one can be terminated.
import * as ort from "onnxruntime-node";
import { expect, it, vi } from "vitest";
import { convertedModelFile } from "../../compute/models/convert/index.ts";
import { InferencePool } from "../../compute/models/runtime/inference-pool.ts";

const started = vi.hoisted(() => [] as Array<{ terminate(): Promise<number> }>);
vi.mock("node:worker_threads", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:worker_threads")>();
  class Watched extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      super(...args);
      started.push(this);
    }
  }
  return { ...real, Worker: Watched };
});

const image = (seed: number) => {
  const data = new Float32Array(4 * 3 * 256 * 256).map((_, i) => Math.sin(i * 0.01 + seed));
  return new ort.Tensor("float32", data, [4, 3, 256, 256]);
};

it("a thread that dies fails its runs in flight, is replaced with the session open, and later runs all succeed", async () => {
  const pool = new InferencePool(2);
  const session = await pool.open(await convertedModelFile("human/blazeface-back"), ["cpu"], 1);
  await session.run({ image: image(0) }); // both threads have answered: a dead one is replaced
  await session.warmUp({ image: image(0) });
  expect(started).toHaveLength(2);

  // The thread dies between runs, with runs already sent to it. Killed inside ONNX Runtime's
  // native run instead, onnxruntime-node takes the whole process down ("terminate called after
  // throwing an instance of 'Napi::Error'", SIGABRT; this test did that on some runs when it
  // terminated the thread after sending the runs): no pool can outlive that.
  const dying = started[0]!.terminate();
  const inFlight = [1, 2, 3, 4].map((seed) => session.run({ image: image(seed) }).then(() => "ok", (err: Error) => err.message));
  await dying;
  const outcomes = await Promise.all(inFlight);
  // Runs alternate between the two threads: the dead thread's runs fail with the reason, the others complete.
  expect(outcomes.filter((o) => o === "ok").length).toBeGreaterThanOrEqual(2);
  expect(outcomes.filter((o) => o !== "ok").length).toBeGreaterThanOrEqual(1);
  for (const o of outcomes.filter((o) => o !== "ok")) expect(o).toMatch(/inference thread exited/);
  expect(started).toHaveLength(3);

  // The replacement has the session open: eight runs at once spread over both threads, all succeed.
  const later = await Promise.all([5, 6, 7, 8, 9, 10, 11, 12].map((seed) => session.run({ image: image(seed) })));
  expect(later.every((out) => out.predictions!.dims.join() === "4,896,17")).toBe(true);
  await session.release();
});
