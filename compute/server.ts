// The compute service: runs features on media for the Worker. Every request must carry the
// Worker's signature. Sync tasks answer with the result; async tasks (with a callback URL)
// answer 202 and report progress, result or failure by signed callbacks.
import { rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createReadStream } from "node:fs";
import { ApiError, errorEnvelope } from "../schema/errors.ts";
import { DETECTIONS_PART, HEALTH_PATH, JOB_ACCEPT_TIMEOUT_MS, PROBE_PATH, RESULT_DURATION_HEADER, RESULT_PART, TASKS_PATH, verifyRequest, type ComputeHealth, type TaskRequest } from "../schema/compute-protocol.ts";
import { sha256Hex, TIMESTAMP_HEADER } from "../schema/signing.ts";
import { JobReporter } from "./callbacks.ts";
import { closeInferencePool } from "./models/runtime/onnx.ts";
import { Slots } from "./slots.ts";
import { loadTasks, modelStatuses, probeTask, warmUp } from "./tasks/index.ts";
import { checkMediaTools, ffmpegPath } from "./video/binaries.ts";
import { checkSandbox } from "./video/sandbox.ts";
import type { TaskContext, TaskResult } from "./tasks/types.ts";
import { makeWorkDir, removeLeftWorkDirs } from "./work-dirs.ts";

const MAX_REQUEST_BYTES = 64 * 1024;

export interface ComputeOptions {
  port: number;
  host: string;
  secret: string;
  /** Tasks run at once (CPU-bound: about one per core pair). */
  concurrency: number;
  /** Sync tasks allowed to wait for a slot; beyond that: 503 so the Worker tries another instance. */
  maxWaiting: number;
  /** Load every model at start (default true; tests of the HTTP layer leave them to load on use). */
  warm?: boolean;
}

/** The compute HTTP server; `stop()` shuts it down without leaving work behind (see startCompute). */
export type ComputeServer = Server & { stop(graceMs?: number): Promise<void> };

export function startCompute(options: ComputeOptions): ComputeServer {
  const tasks = loadTasks();
  const slots = new Slots(options.concurrency, options.maxWaiting);
  /** Jobs this instance runs now: a second dispatch of one of them is accepted, not run again. */
  const runningJobs = new Set<string>();
  let completed = 0;
  /** Tasks and probes in flight, by their abort controller: stop() aborts them and waits for their work directories to go. */
  const inFlight = new Map<AbortController, Promise<unknown>>();
  let stopping = false;

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_REQUEST_BYTES) throw new ApiError("invalid_request", "Task request too large.");
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  async function verify(req: IncomingMessage, path: string, body: string): Promise<void> {
    const ok = await verifyRequest(options.secret, req.method ?? "", path, await sha256Hex(body), (name) => header(req, name));
    if (!ok) throw new ApiError("unauthorized", "Missing or invalid request signature.");
  }

  async function withWorkDir<T>(fn: (ctx: Omit<TaskContext, "progress">) => Promise<T>, abort: AbortController): Promise<T> {
    const work = (async () => {
      const workDir = await makeWorkDir();
      try {
        return await fn({ workDir, signal: abort.signal });
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    })();
    inFlight.set(abort, work.catch(() => undefined));
    try {
      return await work;
    } finally {
      inFlight.delete(abort);
    }
  }

  async function handleTask(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const task = JSON.parse(body) as TaskRequest;
    const runner = tasks.get(task.feature);
    if (!runner) throw new ApiError("not_implemented", `${task.feature} is not available on this compute instance.`);

    if (task.callback_url) {
      const signedAt = Number(header(req, TIMESTAMP_HEADER)) * 1000;
      if (Date.now() - signedAt > JOB_ACCEPT_TIMEOUT_MS) {
        // The Worker stopped waiting for this dispatch and queued the job again: never run it twice.
        console.error(`compute: dropped job ${task.task_id}, dispatched ${Math.round((Date.now() - signedAt) / 1000)} s ago`);
        throw new ApiError("compute_unavailable", "This dispatch is stale; the job was queued again.");
      }
      if (runningJobs.has(task.task_id)) return send(res, 202, { accepted: true });
      // Async: accepted while the waiting line has room (else 503 and the queue retries later);
      // the reporter's heartbeat keeps the job alive while it waits for a slot.
      if (slots.full) throw new ApiError("compute_unavailable", "This compute instance is busy.");
      send(res, 202, { accepted: true });
      runningJobs.add(task.task_id);
      const reporter = new JobReporter(options.secret, task.callback_url);
      const abort = new AbortController();
      void (async () => {
        const release = await slots.acquire(true);
        try {
          if (stopping) return; // waited for a slot through a shutdown: the Worker queues it again
          await withWorkDir(async (ctx) => {
            const result = await runner.run(task, { ...ctx, progress: (p) => reporter.progress(p) });
            if (result.type === "json") throw new Error("async tasks must produce media");
            // Before the result: the result completes the job, and a job is final once completed.
            if (result.detections) await reporter.detections(result.detections);
            await reporter.complete(result.type === "media" ? { body: result.body } : { path: result.path }, result.contentType, result.durationSeconds);
          }, abort);
        } catch (err) {
          // Stopped by a shutdown: no failure is reported, so the Worker, finding this instance
          // gone, queues the job again for another one instead of failing it.
          if (stopping && abort.signal.aborted) return;
          const e = asApiError(err);
          await reporter.fail(e.code, e.message);
        } finally {
          reporter.stop();
          release?.();
          runningJobs.delete(task.task_id);
          completed += 1;
        }
      })();
      return;
    }

    const release = await slots.acquire();
    if (!release) throw new ApiError("compute_unavailable", "This compute instance is busy.");
    const abort = abortOnHangUp(res);
    try {
      await withWorkDir(async (ctx) => {
        const result = await runner.run(task, { ...ctx, progress: () => {} });
        await sendResult(res, result);
      }, abort);
    } finally {
      release();
      completed += 1;
    }
  }

  /** Work for a request the Worker waits on stops when it hangs up (its timeout, or it gave the request to another instance). */
  function abortOnHangUp(res: ServerResponse): AbortController {
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort(new ApiError("compute_unavailable", "The Worker stopped waiting for this request."));
    });
    return abort;
  }

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://compute").pathname;
    try {
      if (req.method === "GET" && path === HEALTH_PATH) {
        const health: ComputeHealth = { ok: true, features: [...tasks.keys()], models: modelStatuses(), busy: slots.busy, capacity: options.concurrency, jobs: [...runningJobs], completed };
        return send(res, 200, health);
      }
      if (req.method !== "POST" || (path !== TASKS_PATH && path !== PROBE_PATH)) throw new ApiError("not_found", `No route ${req.method} ${path}.`);
      if (stopping) throw new ApiError("compute_unavailable", "This compute instance is shutting down.");
      const body = await readBody(req);
      await verify(req, path, body);
      if (path === PROBE_PATH) {
        const { media } = JSON.parse(body) as { media: TaskRequest["media"] };
        return send(res, 200, await withWorkDir((ctx) => probeTask(media, ctx), abortOnHangUp(res)));
      }
      await handleTask(req, res, body);
    } catch (err) {
      const e = asApiError(err);
      if (!res.headersSent) send(res, e.status, errorEnvelope(e.code, e.message));
      else res.destroy();
    }
  });

  /**
   * Stops taking work, aborts what runs (each task's ffmpeg and work directory go with it) and
   * waits up to `graceMs` for it to end. An async job stopped so reports nothing: the Worker's
   * watchdog finds the instance gone and queues the job again.
   */
  async function stop(graceMs = 10_000): Promise<void> {
    stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const abort of inFlight.keys()) abort.abort(new ApiError("compute_unavailable", "This compute instance is shutting down."));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(inFlight.values()), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    server.closeAllConnections();
    await closed;
  }

  server.listen(options.port, options.host);
  if (options.warm !== false) void warmUp();
  return Object.assign(server, { stop });
}

function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  console.error("compute task failed:", err instanceof Error ? (err.stack ?? err.message) : err);
  return new ApiError("internal_error", "Processing failed unexpectedly; nothing was charged.");
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function sendResult(res: ServerResponse, result: TaskResult): Promise<void> {
  if (result.type === "json") return send(res, 200, result.body);
  if (result.type === "media" && result.detections) return sendWithDetections(res, result);
  const headers: Record<string, string> = { "content-type": result.contentType };
  if (result.durationSeconds !== undefined) headers[RESULT_DURATION_HEADER] = String(result.durationSeconds);
  if (result.type === "media") {
    res.writeHead(200, { ...headers, "content-length": String(result.body.length) });
    res.end(result.body);
    return;
  }
  res.writeHead(200, headers);
  await new Promise<void>((resolve, reject) => createReadStream(result.path).on("error", reject).pipe(res).on("finish", resolve));
}

/**
 * An image and its detections in one answer: multipart/form-data with the RESULT_PART file and
 * the DETECTIONS_PART JSON (the Worker reads it with Response.formData()).
 */
async function sendWithDetections(res: ServerResponse, result: Extract<TaskResult, { type: "media" }>): Promise<void> {
  const form = new FormData();
  form.append(RESULT_PART, new Blob([result.body], { type: result.contentType }), "result");
  form.append(DETECTIONS_PART, JSON.stringify(result.detections));
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  res.writeHead(200, { "content-type": encoded.headers.get("content-type")!, "content-length": String(body.length) });
  res.end(body);
}

// Run directly: `node compute/server.ts` (npm start does this).
if (import.meta.main) {
  const secret = process.env.SIGNING_SECRET;
  if (!secret) {
    console.error("SIGNING_SECRET must be set (the same secret the Worker has).");
    process.exit(1);
  }
  try {
    // Untrusted video is decoded only by a maintained ffmpeg under limits: fail here, not on the first video.
    console.log(`compute decodes video with ffmpeg ${checkMediaTools()} (${ffmpegPath()})`);
    for (const warning of checkSandbox()) console.warn(`WARNING: ${warning}`);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  const left = await removeLeftWorkDirs();
  if (left.length > 0) console.log(`compute removed ${left.length} work director${left.length === 1 ? "y" : "ies"} left by a compute that was killed`);
  const port = Number(process.env.COMPUTE_PORT ?? 8788);
  const host = process.env.COMPUTE_HOST ?? "127.0.0.1";
  const compute = startCompute({ port, host, secret, concurrency: Number(process.env.COMPUTE_CONCURRENCY ?? 2), maxWaiting: Number(process.env.COMPUTE_MAX_WAITING ?? 64) });
  console.log(`compute listening on http://${host}:${port}`);
  // A deploy or `npm stop` sends SIGTERM: without this the process died at once and left each
  // running task's work directory (its whole input video) and the process spawner's socket
  // directory in the temp folder. process.exit then runs the spawner's own clean-up.
  // Ctrl-C under `npm start` brings both (SIGINT from the terminal, SIGTERM from the stack): one stop.
  let exiting = false;
  const exit = () => {
    if (exiting) return;
    exiting = true;
    void compute.stop().then(closeInferencePool).finally(() => process.exit(0));
  };
  process.on("SIGTERM", exit);
  process.on("SIGINT", exit);
}
