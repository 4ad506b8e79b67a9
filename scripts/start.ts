// npm start: the whole service on its embedded local stack. Applies the D1 migrations, starts
// COMPUTE_INSTANCES compute processes (each supervised: restarted with backoff when it dies or
// stops answering /healthz) and the Worker (wrangler dev: real workerd with local D1, R2, Durable
// Objects and Queues), waits until they answer, fires the Worker's cron trigger on its schedule
// (wrangler dev does not), then prints where to go.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { readLocalStack, stackFile, stateDir, stateDirPrefix, type LocalStack } from "./local-stack.ts";
import { isRunning } from "../compute/pids.ts";
import { logLines } from "./log-lines.ts";
import { Supervisor } from "./supervisor.ts";

const host = process.env.HOST ?? "127.0.0.1";
const workerPort = Number(process.env.WORKER_PORT ?? 8787);
const computePort = Number(process.env.COMPUTE_PORT ?? 8788);
const computeInstances = Number(process.env.COMPUTE_INSTANCES ?? 1);
if (!Number.isInteger(computeInstances) || computeInstances < 1) {
  console.error(`COMPUTE_INSTANCES must be a whole number >= 1 (got ${process.env.COMPUTE_INSTANCES}).`);
  process.exit(1);
}
/** Instance i listens on COMPUTE_PORT + i. */
const computeUrls = Array.from({ length: computeInstances }, (_, i) => `http://${host}:${computePort + i}`);
const stack: LocalStack = {
  workerUrl: `http://${host}:${workerPort}`,
  computeUrl: computeUrls[0]!,
  computeUrls,
  computePids: [],
  pid: process.pid,
  secret: randomBytes(32).toString("hex"),
};
/** The cron of wrangler.toml's [triggers] (the refund sweep), fired here because wrangler dev does not. */
const SWEEP_CRON = "*/15 * * * *";
const SWEEP_EVERY_MS = 15 * 60_000;
const offline = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "1", NO_COLOR: "1" };
const children: ChildProcess[] = [];
const supervisors: Supervisor[] = [];
// Run wrangler with this same Node (22+), whatever `node` on PATH is.
const wrangler = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, name: string): ChildProcess {
  const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d: Buffer) => process.stdout.write(logLines(d.toString(), name)));
  child.stderr!.on("data", (d: Buffer) => process.stderr.write(logLines(d.toString(), name)));
  children.push(child);
  return child;
}

async function exec(cmd: string, args: string[], name: string): Promise<void> {
  const child = run(cmd, args, offline, name);
  const code = await new Promise<number | null>((r) => child.on("exit", r));
  if (code !== 0) throw new Error(`${name} failed (exit ${code})`);
}

async function waitFor(url: string, what: string, child: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs / 1000} s`);
}

function shutdown(code: number): never {
  for (const supervisor of supervisors) supervisor.stop();
  for (const child of children) child.kill("SIGTERM");
  // Synchronously: process.exit would not wait for an async rm, leaving a stale file behind.
  rmSync(stackFile(), { force: true });
  process.exit(code);
}

let ready = false;
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

// One stack per state directory: a second would fight the first over its files and ports.
const running = await readLocalStack().catch(() => undefined);
if (running && isRunning(running.pid)) {
  console.error(`Obscura already runs at ${running.workerUrl} (pid ${running.pid}) with the state in ${stateDir()}. Stop it first: ${stateDirPrefix()}npm stop`);
  process.exit(1);
}

try {
  // Compute decodes video with Debian's ffmpeg: installed here on a fresh machine, as npm test does.
  await exec(process.execPath, [fileURLToPath(new URL("./ensure-ffmpeg.ts", import.meta.url))], "ffmpeg");
  await exec(process.execPath, [wrangler, "d1", "migrations", "apply", "obscura", "--local", "--persist-to", stateDir()], "migrate");

  await mkdir(dirname(stackFile()), { recursive: true });
  const computes = computeUrls.map((_, i) => {
    const name = computeInstances === 1 ? "compute" : `compute-${i}`;
    const env = { ...process.env, SIGNING_SECRET: stack.secret, COMPUTE_PORT: String(computePort + i), COMPUTE_HOST: host };
    const supervisor = new Supervisor(name, () => {
      const child = run(process.execPath, ["compute/server.ts"], env, name);
      // The stack file names the live pids (tests and operators kill or inspect an instance).
      stack.computePids[i] = child.pid ?? 0;
      if (ready) void writeFile(stackFile(), JSON.stringify(stack), { mode: 0o600 });
      return child;
    }, undefined, { url: `${computeUrls[i]}/healthz` });
    supervisors.push(supervisor);
    return supervisor.run();
  });
  // The secret reaches wrangler through a .dev.vars-style env file, not the command line.
  const varsFile = `${stateDir()}/obscura.dev.vars`;
  await writeFile(varsFile, `SIGNING_SECRET=${stack.secret}\nCOMPUTE_URLS=${computeUrls.join(",")}\n`, { mode: 0o600 });
  const worker = run(
    process.execPath,
    [wrangler, "dev", "--local", "--ip", host, "--port", String(workerPort), "--persist-to", stateDir(), "--env-file", varsFile, "--show-interactive-dev-session=false", "--log-level", "warn", "--test-scheduled"],
    offline,
    "worker",
  );
  await Promise.all(computeUrls.map((url, i) => waitFor(`${url}/healthz`, `compute instance ${i}`, computes[i]!)));
  await waitFor(`${stack.workerUrl}/api/v2/openapi.json`, "worker", worker);
  ready = true;
  await writeFile(stackFile(), JSON.stringify(stack), { mode: 0o600 });
  // --test-scheduled serves /__scheduled on the local port only; production runs the cron itself.
  setInterval(() => {
    fetch(`${stack.workerUrl}/__scheduled?cron=${encodeURIComponent(SWEEP_CRON)}`).catch((err: Error) => console.error(`[sweep] ${err.message}`));
  }, SWEEP_EVERY_MS).unref();

  console.log(`
Obscura is running.
  API base URL:   ${stack.workerUrl}/api/v2
  API reference:  ${stack.workerUrl}/api/v2/docs
  Dashboard:      ${stack.workerUrl}/dashboard
  Compute:        ${computeUrls.map((u) => `${u}/healthz`).join("  ")}
Create an API key (printed once, last line):
  ${stateDirPrefix()}npm run --silent keys:create -- --email you@example.com --credits 100
Then: curl -H "Authorization: Bearer <KEY>" ${stack.workerUrl}/api/v2/me
Stop: Ctrl-C here, or ${stateDirPrefix()}npm stop from another terminal. State (accounts, keys, jobs) stays in ${stateDir()} for the next start.
OBSCURA_READY ${stack.workerUrl}/api/v2
`);
  // The Worker is the stack: if it goes, everything goes. Compute instances are restarted instead.
  worker.on("exit", (code) => shutdown(code ?? 1));
} catch (err) {
  console.error((err as Error).message);
  shutdown(1);
}
