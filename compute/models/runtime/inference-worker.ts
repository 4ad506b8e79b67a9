// One inference thread of the pool (inference-pool.ts): it opens every session the pool opens and
// runs the calls it is sent. onnxruntime-node's run() is synchronous underneath (its promise only
// defers the call to the next turn of the event loop), so a thread of its own is what keeps the
// main thread free and lets two runs use two cores.
import { parentPort, workerData } from "node:worker_threads";
import * as ort from "onnxruntime-node";
import { openOrtSession } from "./ort-session.ts";
import { fromWire, movableBuffers, toWire, type InferenceWorkerData, type PoolReply, type PoolRequest } from "./inference-pool.ts";
import { currentThreadId, lowerPriority } from "../../priority.ts";

// Below compute's main thread (compute/priority.ts); ONNX Runtime runs a session on this thread
// (one intra-op thread) or on threads it starts from here, which inherit the niceness.
lowerPriority(currentThreadId(), (workerData as InferenceWorkerData).nice);

const sessions = new Map<number, Promise<ort.InferenceSession>>();
const post = (reply: PoolReply) => parentPort!.postMessage(reply);
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

// onnxruntime-node is loaded (imported above): the pool may start the next thread.
post({ type: "ready" });

parentPort!.on("message", async (req: PoolRequest) => {
  if (req.type === "open") {
    const opened = openOrtSession(req.model, req.providers, req.threads);
    sessions.set(req.session, opened.then((o) => o.session));
    try {
      const { session, provider, warning } = await opened;
      post({ type: "opened", session: req.session, provider, inputNames: [...session.inputNames], outputNames: [...session.outputNames], ...(warning ? { warning } : {}) });
    } catch (err) {
      post({ type: "opened", session: req.session, error: message(err) });
    }
    return;
  }
  if (req.type === "release") {
    const session = sessions.get(req.session);
    sessions.delete(req.session);
    try {
      // A session whose opening failed (reported then) has nothing to release.
      await (await session?.catch(() => undefined))?.release();
    } finally {
      post({ type: "released", session: req.session });
    }
    return;
  }
  try {
    const session = await sessions.get(req.session)!;
    const outputs = toWire((await session.run(fromWire(req.feeds))) as Record<string, ort.Tensor>);
    // Inputs that were handed over go back for reuse (this thread owns them now).
    const inputs = req.handOver ? movableBuffers(req.feeds) : [];
    const reply: PoolReply = { type: "ran", call: req.call, outputs, ...(inputs.length ? { inputs } : {}) };
    try {
      // Moved, not copied, where the output owns its memory (ONNX Runtime's may not be movable).
      parentPort!.postMessage(reply, [...inputs, ...movableBuffers(outputs)]);
    } catch {
      parentPort!.postMessage(reply, inputs);
    }
  } catch (err) {
    post({ type: "ran", call: req.call, error: message(err) });
  }
});
