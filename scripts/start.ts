// npm start: the whole service on its embedded local stack. Applies the D1 migrations, starts
// the compute service and the Worker (wrangler dev: real workerd with local D1, R2, Durable
// Objects and Queues), waits until both answer, then prints where to go.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { stackFile, stateDir, type LocalStack } from "./local-stack.ts";

const host = process.env.HOST ?? "127.0.0.1";
const workerPort = Number(process.env.WORKER_PORT ?? 8787);
const computePort = Number(process.env.COMPUTE_PORT ?? 8788);
const stack: LocalStack = {
  workerUrl: `http://${host}:${workerPort}`,
  computeUrl: `http://${host}:${computePort}`,
  secret: randomBytes(32).toString("hex"),
};
const offline = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "1", NO_COLOR: "1" };
const children: ChildProcess[] = [];
// Run wrangler with this same Node (22+), whatever `node` on PATH is.
const wrangler = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, name: string): ChildProcess {
  const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const prefix = (line: string) => (line.trim() ? `[${name}] ${line}\n` : "");
  child.stdout!.on("data", (d: Buffer) => process.stdout.write(d.toString().split("\n").map(prefix).join("")));
  child.stderr!.on("data", (d: Buffer) => process.stderr.write(d.toString().split("\n").map(prefix).join("")));
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
  for (const child of children) child.kill("SIGTERM");
  void rm(stackFile(), { force: true });
  process.exit(code);
}

process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

try {
  await exec(process.execPath, [wrangler, "d1", "migrations", "apply", "obscura", "--local", "--persist-to", stateDir()], "migrate");

  const compute = run(process.execPath, ["compute/server.ts"], { ...process.env, SIGNING_SECRET: stack.secret, COMPUTE_PORT: String(computePort), COMPUTE_HOST: host }, "compute");
  // The secret reaches wrangler through a .dev.vars-style env file, not the command line.
  const varsFile = `${stateDir()}/obscura.dev.vars`;
  await mkdir(dirname(varsFile), { recursive: true });
  await writeFile(varsFile, `SIGNING_SECRET=${stack.secret}\nCOMPUTE_URLS=${stack.computeUrl}\n`, { mode: 0o600 });
  const worker = run(
    process.execPath,
    [wrangler, "dev", "--local", "--ip", host, "--port", String(workerPort), "--persist-to", stateDir(), "--env-file", varsFile, "--show-interactive-dev-session=false", "--log-level", "warn"],
    offline,
    "worker",
  );
  await waitFor(`${stack.computeUrl}/healthz`, "compute", compute);
  await waitFor(`${stack.workerUrl}/api/v2/openapi.json`, "worker", worker);
  await mkdir(dirname(stackFile()), { recursive: true });
  await writeFile(stackFile(), JSON.stringify(stack), { mode: 0o600 });

  console.log(`
Obscura is running.
  API base URL:   ${stack.workerUrl}/api/v2
  API reference:  ${stack.workerUrl}/api/v2/docs
  Dashboard:      ${stack.workerUrl}/dashboard
  Compute:        ${stack.computeUrl}/healthz
Create an API key (printed once, last line):
  npm run --silent keys:create -- --email you@example.com --credits 100
Then: curl -H "Authorization: Bearer <KEY>" ${stack.workerUrl}/api/v2/me
OBSCURA_READY ${stack.workerUrl}/api/v2
`);
  for (const child of children) child.on("exit", (code) => shutdown(code ?? 1));
} catch (err) {
  console.error((err as Error).message);
  shutdown(1);
}
