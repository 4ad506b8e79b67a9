// What a newcomer meets around `npm start` without a running stack: the key commands and
// `npm stop` say what is wrong (no stack, a stack file left by a killed run, a Worker that does
// not answer) instead of "fetch failed", and the stack's log honours NO_COLOR.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LocalStack } from "../../scripts/local-stack.ts";
import { logLines } from "../../scripts/log-lines.ts";

let stateDir: string;
beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "obscura-state-"));
});
afterEach(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

/**
 * Runs a script with OBSCURA_STATE_DIR set (by default), in the temporary folder so that the
 * default state directory is never a developer's; never throws (exit code in `code`).
 */
async function script(file: string, args: string[], env: Record<string, string> = { OBSCURA_STATE_DIR: stateDir }) {
  const clean = { ...process.env, OBSCURA_URL: "", SIGNING_SECRET: "", OBSCURA_STATE_DIR: "", ...env };
  const path = fileURLToPath(new URL(`../../scripts/${file}`, import.meta.url));
  return promisify(execFile)(process.execPath, [path, ...args], { env: clean, cwd: stateDir }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

const writeStack = (stack: Partial<LocalStack>) =>
  writeFile(join(stateDir, "obscura-stack.json"), JSON.stringify({ workerUrl: "http://127.0.0.1:9", computeUrl: "", computeUrls: [], computePids: [], secret: "s", ...stack }));

/** The id of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.on("exit", r));
  return child.pid!;
}

describe("keys:create without a running stack", () => {
  it("no stack file: names the file it looked for and the state directory it used", async () => {
    const out = await script("keys.ts", ["create", "--email", "a@example.com"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe(`error: The local service is not running: no ${join(stateDir, "obscura-stack.json")}. Start it with: npm start\n`);
    // Without OBSCURA_STATE_DIR it reminds that a stack started with one is looked for there.
    const plain = await script("keys.ts", ["create", "--email", "a@example.com"], {});
    expect(plain.stderr).toContain("no .wrangler/state/obscura-stack.json (if it runs with OBSCURA_STATE_DIR, set the same here). Start it with: npm start");
  });

  it("a stack file left by a run that was killed: says so, not 'fetch failed'", async () => {
    await writeStack({ pid: await deadPid() });
    const out = await script("keys.ts", ["create", "--email", "a@example.com"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain("is left from a run that stopped");
    expect(out.stderr).not.toContain("fetch failed");
  });

  it("a running stack whose Worker does not answer: names the URL", async () => {
    await writeStack({ pid: process.pid, workerUrl: "http://127.0.0.1:9" });
    const out = await script("keys.ts", ["create", "--email", "a@example.com"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^error: The service does not answer at http:\/\/127\.0\.0\.1:9 \(.+\)\. Is it running\? Start it with: npm start\n$/);
  });
});

describe("npm stop", () => {
  it("stops the stack's process with SIGTERM and removes the stack file", async () => {
    const stack = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000)"]);
    const exited = new Promise<NodeJS.Signals | number | null>((r) => stack.on("exit", (code, signal) => r(signal ?? code)));
    await writeStack({ pid: stack.pid!, workerUrl: "http://127.0.0.1:8787" });
    const out = await script("stop.ts", []);
    expect(out).toMatchObject({ code: 0, stdout: `stopped the stack at http://127.0.0.1:8787 (pid ${stack.pid})\n` });
    expect(await exited).toBe(0);
    expect(existsSync(join(stateDir, "obscura-stack.json"))).toBe(false);
  });

  it("a stale stack file is removed; no stack at all is an error that says so", async () => {
    await writeStack({ pid: await deadPid() });
    expect((await script("stop.ts", [])).stdout).toContain("had already stopped; removed its stale");
    expect(existsSync(join(stateDir, "obscura-stack.json"))).toBe(false);
    const none = await script("stop.ts", []);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("not running");
  });
});

describe("npm start's log", () => {
  const coloured = "\u001b[1;31m2026-11-26 [E:onnxruntime] provider missing\u001b[m\n\u001b[33mwarn\u001b[39m line\n\n";

  it("prefixes each line with the child's name and drops empty ones", () => {
    expect(logLines("a\n\nb\n", "compute", false)).toBe("[compute] a\n[compute] b\n");
  });

  it("removes colour codes when NO_COLOR is set, keeps them otherwise", () => {
    expect(logLines(coloured, "compute", true)).toBe("[compute] 2026-11-26 [E:onnxruntime] provider missing\n[compute] warn line\n");
    expect(logLines(coloured, "compute", false)).toContain("\u001b[1;31m");
  });
});
