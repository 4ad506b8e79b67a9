// The worker-thread side of FaceRenderer (render-thread.ts): draws each requested frame's faces
// into the frame copy it received (anonymizeFacesInPlace) and sends the pixels back. Pure pixel work, no models: the thread that owns
// the models keeps running inference meanwhile.
import { parentPort } from "node:worker_threads";
import { anonymizeFacesInPlace } from "./render.ts";
import type { RenderReply, RenderRequest } from "./render-thread.ts";

parentPort!.on("message", (req: RenderRequest) => {
  let reply: RenderReply;
  try {
    const frame = { data: Buffer.from(req.data.buffer, req.data.byteOffset, req.data.byteLength), width: req.width, height: req.height, channels: req.channels };
    const identities = new Map(req.identities);
    anonymizeFacesInPlace(frame, req.faces, (id) => identities.get(id)!);
    reply = { id: req.id, data: req.data };
  } catch (err) {
    reply = { id: req.id, error: err instanceof Error ? err.stack ?? err.message : String(err) };
  }
  // The frame arrived as this thread's own copy: hand its memory back instead of copying it again.
  const transfer = reply.data && reply.data.byteOffset === 0 && reply.data.byteLength === reply.data.buffer.byteLength ? [reply.data.buffer as ArrayBuffer] : [];
  parentPort!.postMessage(reply, transfer);
});
