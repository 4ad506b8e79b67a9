// The inference threads (compute/models/runtime/inference-pool.ts): what a model gets from a pooled
// session is what onnxruntime-node gives on the calling thread, the event loop goes on while runs
// are in flight (onnxruntime-node's own run() blocks it), and a failed run fails alone.
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { convertedModelFile } from "../../compute/models/convert/index.ts";
import { InferencePool } from "../../compute/models/runtime/inference-pool.ts";

const SIDE = 256; // BlazeFace (back camera) input

/** A deterministic, image-like batch in BlazeFace's [-1, 1] range. */
function batch(images: number, seed: number): ort.Tensor {
  const data = new Float32Array(images * 3 * SIDE * SIDE);
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.0137 + seed) * Math.cos(i * 0.00091 * seed);
  return new ort.Tensor("float32", data, [images, 3, SIDE, SIDE]);
}

describe("InferencePool", () => {
  it("gives exactly the outputs of a session on the calling thread, whichever thread runs it", async () => {
    const file = await convertedModelFile("human/blazeface-back");
    const pool = new InferencePool(2);
    const pooled = await pool.open(file, ["cpu"], 1);
    const direct = await ort.InferenceSession.create(file, { intraOpNumThreads: 1, executionMode: "sequential", graphOptimizationLevel: "all" });
    expect(pooled.inputNames).toEqual([...direct.inputNames]);
    expect(pooled.outputNames).toEqual([...direct.outputNames]);
    const inputs = [1, 2, 3, 4].map((seed) => batch(2, seed));
    // Four at once: both threads take runs, and each answer goes back to its own caller.
    const got = await Promise.all(inputs.map((image) => pooled.run({ image })));
    for (const [k, image] of inputs.entries()) {
      const want = await direct.run({ image });
      expect(got[k]!.predictions!.dims).toEqual(want.predictions!.dims);
      expect(got[k]!.predictions!.data).toEqual(want.predictions!.data);
    }
    await pooled.release();
  });

  it("leaves the event loop free while runs are in flight", async () => {
    const pool = new InferencePool(1);
    const session = await pool.open(await convertedModelFile("human/blazeface-back"), ["cpu"], 1);
    const image = batch(16, 5);
    await session.warmUp({ image });
    // Count event-loop turns until four 16-image runs (hundreds of ms of inference) are done. On the
    // calling thread, each run would hold the loop for its whole length: a handful of turns in all.
    let turns = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    for (let i = 0; i < 4; i++) await session.run({ image });
    done = true;
    expect(turns).toBeGreaterThan(100);
  });

  it("fails a run with a bad input alone, with ONNX Runtime's reason; later runs work", async () => {
    const pool = new InferencePool(1);
    const session = await pool.open(await convertedModelFile("human/blazeface-back"), ["cpu"], 1);
    const wrong = new ort.Tensor("float32", new Float32Array(3 * 10 * 10), [1, 3, 10, 10]);
    await expect(session.run({ image: wrong })).rejects.toThrow(/ONNX Runtime: .+/);
    const out = await session.run({ image: batch(1, 7) });
    expect(out.predictions!.dims[0]).toBe(1);
  });

  it("keeps a script alive while sessions open: two opened at once do not abort it", async () => {
    // Each thread let the process go once its runs were done, though an opening was still in
    // flight on it: the script ended under ONNX Runtime's model loading and aborted (SIGABRT,
    // "terminate called after throwing an instance of 'Napi::Error'") on every run.
    const root = path.join(import.meta.dirname, "../..");
    const child = spawn(process.execPath, [path.join(root, "test/fixtures/open-models-at-once.ts")], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
    expect({ code, signal, output: output.trim() }).toEqual({ code: 0, signal: null, output: "opened 3" });
  }, 60_000);

  it("refuses a model file that cannot be opened, naming the problem", async () => {
    const pool = new InferencePool(2);
    await expect(pool.open("/nonexistent/model.onnx", ["cpu"], 1)).rejects.toThrow(/model\.onnx|No such file|Load model/i);
  });
});
