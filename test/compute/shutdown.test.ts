// A compute instance told to stop (SIGTERM: a deploy, `npm stop`) while a video job runs leaves
// nothing behind: the job's ffmpeg processes end, its work directory goes and nothing of ours is
// left in the temp folder, the process exits 0 promptly, and no failure is reported for the job,
// so the Worker's watchdog queues it again for another instance instead of failing it. One that
// starts removes the work directories a killed one left.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { TASKS_PATH, signedParts, type TaskRequest } from "../../schema/compute-protocol.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, sha256Hex, signParts } from "../../schema/signing.ts";
import { makePanZoomVideo } from "../fixtures/make-video.ts";

const SECRET = "test-only-compute-secret";
const ROOT = join(import.meta.dirname, "../..");
const hits: string[] = [];
let peer: Server | undefined;
let temp: string | undefined;

afterAll(async () => {
  peer?.closeAllConnections();
  peer?.close();
  if (temp) await rm(temp, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await ok()) return;
  throw new Error(`timed out waiting for ${what}`);
}

/** The command names of the processes (other than this one) whose environment names `dir` as their temp folder: compute and what it started. */
async function processesWithTmp(dir: string): Promise<string[]> {
  const names: string[] = [];
  for (const pid of (await readdir("/proc")).filter((p) => /^\d+$/.test(p) && Number(p) !== process.pid)) {
    const env = await readFile(`/proc/${pid}/environ`, "latin1").catch(() => "");
    if (env.split("\0").includes(`TMPDIR=${dir}`)) names.push((await readFile(`/proc/${pid}/comm`, "utf8").catch(() => "?")).trim());
  }
  return names;
}

it("at start, removes a killed compute's work directory; SIGTERM during a video job: exits 0, its ffmpeg processes end, the job's files go, no failure reported", async () => {
  temp = await mkdtemp(join(tmpdir(), "obscura-shutdown-test-"));
  const video = await readFile(await makePanZoomVideo({ outPath: join(temp, "clip.mp4"), seconds: 8 }));
  const media = await mkdtemp(join(temp, "compute-"));
  // The peer plays the Worker: it serves the video and records the job's callbacks.
  peer = createServer((req, res) => {
    hits.push(req.url!);
    if (req.url!.startsWith("/media")) res.writeHead(200, { "content-type": "video/mp4", "content-length": String(video.length) }).end(video);
    else res.writeHead(200, { "content-type": "application/json" }).end("{}");
  }).listen(0, "127.0.0.1");
  await new Promise<void>((r) => peer!.once("listening", () => r()));
  const peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;

  // What a compute killed earlier left (its pid is gone), and a live process's running task.
  const gone = spawn("/bin/true");
  await new Promise((r) => gone.once("exit", r));
  await mkdir(join(media, `obscura-task-${gone.pid}-aB3dE9`));
  await writeFile(join(media, `obscura-task-${gone.pid}-aB3dE9`, "input.mp4"), video);
  await mkdir(join(media, `obscura-task-${process.pid}-Zz0912`));

  const port = await freePort();
  const child = spawn(process.execPath, ["compute/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, SIGNING_SECRET: SECRET, COMPUTE_PORT: String(port), COMPUTE_CONCURRENCY: "1", TMPDIR: media },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    await until("compute to listen", () => output.includes("compute listening"));
    // At start it removed the killed compute's work directory, and only that.
    expect((await readdir(media)).filter((e) => e.startsWith("obscura-task-"))).toEqual([`obscura-task-${process.pid}-Zz0912`]);
    await rm(join(media, `obscura-task-${process.pid}-Zz0912`), { recursive: true });
    const jobId = "job_shutdown";
    const task = {
      task_id: jobId,
      feature: "video.face-blur",
      params: { video_url: `${peerUrl}/media/${jobId}` },
      media: { url: `${peerUrl}/media/${jobId}`, internal: true },
      callback_url: `${peerUrl}/internal/jobs/${jobId}`,
    } as TaskRequest;
    const body = JSON.stringify(task);
    const { timestamp, signature } = await signParts(SECRET, signedParts("POST", TASKS_PATH, await sha256Hex(body)));
    const res = await fetch(`http://127.0.0.1:${port}${TASKS_PATH}`, { method: "POST", body, headers: { "content-type": "application/json", [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature } });
    expect(res.status).toBe(202);
    // Mid-job: it has reported progress, and its work directory and the ffmpeg processes the
    // spawner started (decoder, encoder) are there.
    await until("the job to report progress", () => hits.includes(`/internal/jobs/${jobId}/progress`), 150_000);
    const entries = await readdir(media);
    expect(entries.some((d) => d.startsWith("obscura-task-")), entries.join()).toBe(true);
    expect(await processesWithTmp(media)).toContain("ffmpeg");
    child.kill("SIGTERM");
    const code = await Promise.race([exited, new Promise<"hung">((r) => setTimeout(() => r("hung"), 20_000))]);
    expect(code, output).toBe(0);
    // (ONNX Runtime leaves its own two files there, an empty mat-debug-<pid>.log and .ses.)
    expect((await readdir(media)).filter((e) => e.startsWith("obscura-"))).toEqual([]);
    await until("compute's processes to end", async () => (await processesWithTmp(media)).length === 0, 5_000);
    expect(hits).not.toContain(`/internal/jobs/${jobId}/fail`);
    expect(hits).not.toContain(`/internal/jobs/${jobId}/complete`);
  } finally {
    child.kill("SIGKILL");
  }
}, 240_000);
