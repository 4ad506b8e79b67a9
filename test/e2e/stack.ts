// Global setup of the end-to-end suite: starts the real local stack with `scripts/start.ts`
// (the same path as `npm start`) on its own ports and state directory, and stops it afterwards.
import { spawn } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import type { TestProject } from "vitest/node";

const WORKER_PORT = Number(process.env.E2E_WORKER_PORT ?? 8797);
const COMPUTE_PORT = Number(process.env.E2E_COMPUTE_PORT ?? 8798);
// One state directory per port pair, so two suites started on different ports never share (or
// delete) each other's D1/R2 state.
const STATE_DIR = WORKER_PORT === 8797 ? ".wrangler/e2e-state" : `.wrangler/e2e-state-${WORKER_PORT}`;

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    workerUrl: string;
    signingSecret: string;
    /** scripts/start.ts's stack file: every compute instance's URL and live pid. */
    stackFile: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.E2E_ATTACH) {
    // Development aid: attach to a stack already started with
    // `WORKER_PORT=.. COMPUTE_PORT=.. OBSCURA_STATE_DIR=<E2E_ATTACH> node scripts/start.ts`.
    const stack = JSON.parse(await readFile(`${process.env.E2E_ATTACH}/obscura-stack.json`, "utf8")) as { workerUrl: string; secret: string };
    project.provide("baseUrl", `${stack.workerUrl}/api/v2`);
    project.provide("workerUrl", stack.workerUrl);
    project.provide("signingSecret", stack.secret);
    project.provide("stackFile", `${process.env.E2E_ATTACH}/obscura-stack.json`);
    return async () => {};
  }
  await rm(STATE_DIR, { recursive: true, force: true });
  const child = spawn(process.execPath, ["scripts/start.ts"], {
    env: { ...process.env, WORKER_PORT: String(WORKER_PORT), COMPUTE_PORT: String(COMPUTE_PORT), OBSCURA_STATE_DIR: STATE_DIR },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (d: Buffer) => (log += d.toString()));
  const ready = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack did not start in time:\n${log}`)), 240_000);
    child.stdout!.on("data", (d: Buffer) => {
      log += d.toString();
      const m = /OBSCURA_READY (\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`stack exited with ${code}:\n${log}`)));
  });
  if (process.env.E2E_VERBOSE) child.stdout!.pipe(process.stdout);
  const stack = JSON.parse(await readFile(`${STATE_DIR}/obscura-stack.json`, "utf8")) as { workerUrl: string; secret: string };
  project.provide("baseUrl", ready);
  project.provide("workerUrl", stack.workerUrl);
  project.provide("signingSecret", stack.secret);
  project.provide("stackFile", `${STATE_DIR}/obscura-stack.json`);

  return async () => {
    child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1000));
    if (child.exitCode === null) child.kill("SIGKILL");
  };
}
