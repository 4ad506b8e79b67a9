// ONNX Runtime 1.30's Linux build records and uploads usage telemetry unless told not to
// (compute/models/runtime/no-telemetry.ts). Compute, with nothing set by the operator, opens a
// model on its inference threads and runs it: nothing of the telemetry's is written, neither its
// cache and device id under the home folder nor its session files in the temp folder.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/** Every file and folder under `dir`, as paths relative to it. */
async function tree(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).sort();
}

it("compute sends and caches no ONNX Runtime telemetry", async () => {
  const temp = await mkdtemp(join(tmpdir(), "obscura-telemetry-test-"));
  try {
    const home = join(temp, "home");
    const tmp = join(temp, "tmp");
    await Promise.all([mkdir(home), mkdir(tmp)]);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TMPDIR: tmp };
    delete env.ORT_DISABLE_TELEMETRY; // as an operator starts it (vitest's config sets it for the suites)
    delete env.XDG_CACHE_HOME;
    const child = spawn(process.execPath, [join(ROOT, "test/fixtures/run-a-model.ts")], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(0);
    expect(output.trim()).toBe("ran");
    expect(await tree(home)).toEqual([]);
    expect(await tree(tmp)).toEqual([]);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}, 120_000);
