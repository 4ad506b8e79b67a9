// Media tools are started by the process spawner (compute/video/spawner.ts), not forked from
// compute: a fork copies the forking process's page tables with its event loop stopped. The tool's
// data stream reaches compute intact, and a spawner that dies fails only the tools it ran.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ffmpegPath, startMediaProcess } from "../../compute/video/ffmpeg.ts";
import { ProcessSpawner, processSpawner } from "../../compute/video/spawner.ts";

const ppidOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
const rssMbOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

describe("the process spawner", () => {
  const spawners: ProcessSpawner[] = [];
  afterAll(() => spawners.forEach((s) => s.stop()));

  it("is the parent of every ffmpeg, and a small process: compute never forks for one", async () => {
    const proc = await startMediaProcess(ffmpegPath(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240", "-f", "null", "-"], {
      limits: { cpuSeconds: 30, memoryBytes: 6144 * 1024 ** 2, fileBytes: 0 },
    });
    try {
      const parent = ppidOf(proc.pid);
      expect(parent).not.toBe(process.pid);
      expect(ppidOf(parent)).toBe(process.pid); // the spawner, forked by this process
      expect(readFileSync(`/proc/${parent}/cmdline`, "utf8")).toContain("spawner-process.ts");
      expect(rssMbOf(parent)).toBeLessThan(150);
    } finally {
      proc.kill();
      await proc.exited;
    }
  });

  it("hands over every byte a tool writes, and its exit code, in that order", async () => {
    // 60 frames of 320x240 RGB: 13.8 MB through the socket.
    const proc = await startMediaProcess(ffmpegPath(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-frames:v", "60", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"], { stdout: true });
    let bytes = 0;
    proc.stdout!.on("data", (chunk: Buffer) => (bytes += chunk.length));
    expect(await proc.exited).toBe(0);
    expect(bytes).toBe(60 * 320 * 240 * 3);
  });

  it("reports a tool's exit once its output is closed, also when the tool ended before anyone listened", async () => {
    // A decoder refused by its memory limit fails as the loader maps it: its output can close
    // before its pid is reported. processVideo once waited forever for such a decoder.
    const tool = await processSpawner().spawn("/bin/true", [], { stream: "stdout", nice: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(tool.stream!.closed).toBe(true);
    const exit = await Promise.race([tool.exited, new Promise((r) => setTimeout(() => r("still waiting"), 5000))]);
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it("adds nothing that stays per tool: 30 tools with a stream, one after another, add no listener to the spawner", async () => {
    // Sending a socket that a net.Server accepted made Node track it in a list per server, with
    // an 'exit' listener on the spawner that stayed: one more for every ffmpeg compute ran.
    const spawner = new ProcessSpawner();
    spawners.push(spawner);
    const warnings: string[] = [];
    const onWarning = (w: Error) => w.name === "MaxListenersExceededWarning" && warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      for (let i = 0; i < 30; i++) {
        const tool = await spawner.spawn("/bin/echo", [String(i)], { stream: "stdout", nice: 0 });
        tool.stream!.resume();
        expect((await tool.exited).code).toBe(0);
      }
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings).toEqual([]);
  });

  it("fails the tools of a spawner that dies, and starts a new spawner for the next tool", async () => {
    const spawner = new ProcessSpawner();
    spawners.push(spawner);
    const tool = await spawner.spawn(ffmpegPath(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2", "-f", "null", "-"], { stream: null, nice: 0 });
    spawner.stop();
    const exit = await tool.exited;
    expect(exit.error).toMatch(/the process spawner stopped/);
    // Its tool did not outlive it.
    for (let i = 0; i < 50 && existsSync(`/proc/${tool.pid}`); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(`/proc/${tool.pid}`)).toBe(false);
    const next = await spawner.spawn("/bin/true", [], { stream: null, nice: 0 });
    expect((await next.exited).code).toBe(0);
  });

  it("kills its tools when the process that started them dies (SIGKILL), and leaves no socket folder behind", async () => {
    const temp = await mkdtemp(path.join(tmpdir(), "obscura-spawner-test-"));
    try {
      const owner = spawn(process.execPath, [path.join(import.meta.dirname, "../fixtures/spawn-and-wait.ts")], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, TMPDIR: temp } });
      const [line] = (await once(owner.stdout!, "data")) as [Buffer];
      const tool = Number(line.toString().trim());
      expect(existsSync(`/proc/${tool}`)).toBe(true);
      // Its stdout is on a socket pair, and the folder the pair was made through is gone already:
      // nothing is left for a killed owner to leave.
      expect(await readdir(temp)).toEqual([]);
      owner.kill("SIGKILL"); // no 'exit' listener of the owner runs
      await once(owner, "exit");
      for (let i = 0; i < 50 && existsSync(`/proc/${tool}`); i++) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(`/proc/${tool}`)).toBe(false);
      expect(await readdir(temp)).toEqual([]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });

  it("reports a tool that cannot be started, without a pid", async () => {
    const tool = await processSpawner().spawn("/nonexistent/ffmpeg", [], { stream: null, nice: 0 });
    expect(tool.pid).toBe(-1);
    expect((await tool.exited).error).toMatch(/ENOENT/);
  });
});
