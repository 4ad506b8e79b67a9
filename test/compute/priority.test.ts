// The heavy work runs below compute's main thread (compute/priority.ts), so the main thread, which
// answers /healthz and drives every job, gets a core at once when all of them are busy: each
// inference thread, and every thread of an ffmpeg process, at OBSCURA_WORK_NICE (default 10) or
// lower, while the main thread keeps its own. Linux keeps niceness per thread; read from /proc.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { convertedModelFile } from "../../compute/models/convert/index.ts";
import { InferencePool } from "../../compute/models/runtime/inference-pool.ts";
import { workNice } from "../../compute/priority.ts";
import { ffmpegPath, startMediaProcess } from "../../compute/video/ffmpeg.ts";

/** Niceness of each thread of a process (field 19 of /proc/<pid>/task/<tid>/stat, after the name). */
function threadNices(pid: number | "self"): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

describe.skipIf(!existsSync("/proc/thread-self"))("work priority", () => {
  it("is nice 10 unless configured", () => {
    expect(workNice()).toBe(Number(process.env.OBSCURA_WORK_NICE || 10));
  });

  it("runs the inference threads below the main thread", async () => {
    const main = threadNices("self").get(process.pid)!;
    const before = [...threadNices("self").values()].filter((n) => n >= workNice()).length;
    const pool = new InferencePool(2);
    const session = await pool.open(await convertedModelFile("human/blazeface-back"), ["cpu"], 1);
    const niced = [...threadNices("self").values()].filter((n) => n >= workNice()).length;
    expect(niced - before).toBeGreaterThanOrEqual(2);
    expect(threadNices("self").get(process.pid)).toBe(main); // the main thread keeps its own
    await session.release();
  });

  it("runs every thread of an ffmpeg process below the main thread", async () => {
    // A decode without end, stopped once its threads are read.
    const proc = await startMediaProcess(ffmpegPath(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360", "-c:v", "libx264", "-f", "null", "-"], {
      limits: { cpuSeconds: 30, memoryBytes: 6144 * 1024 ** 2, fileBytes: 0 },
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const nices = threadNices(proc.pid);
      expect(nices.size).toBeGreaterThan(1); // x264's threads too
      for (const nice of nices.values()) expect(nice).toBeGreaterThanOrEqual(workNice());
    } finally {
      proc.kill();
      await proc.exited;
    }
  });
});
