// npm start's supervisor on real child processes: a child that exits is started again, and one
// that is alive but answers nothing (stopped with SIGSTOP: its socket still accepts connections,
// as a wedged event loop's does) is killed and started again; a child that answers is left alone.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, expect, it } from "vitest";
import { Supervisor } from "../../scripts/supervisor.ts";

const supervisors: Supervisor[] = [];
afterEach(() => {
  for (const s of supervisors.splice(0)) s.stop("SIGKILL");
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** A child that serves HTTP on `port` (a compute instance's /healthz, in small). */
const server = (port: number) => () =>
  spawn(process.execPath, ["-e", `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`], { stdio: "ignore" });

async function until(what: string, ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Until `port` answers HTTP. */
async function answering(port: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const answers = () => fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(500) }).then(() => true, () => false);
  while (!(await answers())) {
    if (Date.now() > deadline) throw new Error(`port ${port} never answered`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("starts a child that exits again, and logs why", async () => {
  const lines: string[] = [];
  const supervisor = new Supervisor("child", () => spawn(process.execPath, ["-e", "setTimeout(() => process.exit(3), 100)"]), (l) => lines.push(l));
  supervisors.push(supervisor);
  const first = supervisor.run();
  await until("a restart", () => supervisor.restarts >= 1 && supervisor.current !== undefined && supervisor.current !== first);
  expect(lines[0]).toMatch(/child \(pid \d+\) exited \(code 3\); restarting in 1 s/);
});

it("kills and restarts a child that stops answering, and leaves one that answers alone", async () => {
  const [wedged, healthy] = [await freePort(), await freePort()];
  const lines: string[] = [];
  const liveness = (port: number) => ({ url: `http://127.0.0.1:${port}/healthz`, everyMs: 200, deadAfterMs: 1_000, startupMs: 5_000 });
  const a = new Supervisor("wedged", server(wedged), (l) => lines.push(l), liveness(wedged));
  const b = new Supervisor("healthy", server(healthy), (l) => lines.push(l), liveness(healthy));
  supervisors.push(a, b);
  const first: ChildProcess = a.run();
  b.run();
  await Promise.all([answering(wedged), answering(healthy)]);
  await new Promise((r) => setTimeout(r, 500)); // each supervisor has had an answer
  first.kill("SIGSTOP");
  await until("the stopped child's restart", () => a.restarts === 1 && a.current !== undefined && a.current !== first);
  expect(first.signalCode).toBe("SIGKILL");
  expect(lines.find((l) => l.includes("wedged"))).toMatch(/wedged \(pid \d+\) answered nothing at http:\S+\/healthz for \d+ s; killing it/);
  await answering(wedged);
  expect(b.restarts).toBe(0);
});
