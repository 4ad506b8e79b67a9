// The process spawner (compute/video/spawner.ts starts it once, while compute is still small):
// starts the media tools compute asks for and reports their pid, stderr and exit over the IPC
// channel. Node forks to spawn, and a fork copies the parent's page tables with the event loop
// stopped: ~100 ms for compute at 1.2 GB during a video job on this project's VMs (~90 ms per GB),
// which was the /healthz stall of 100-150 ms at the start of every job. This process stays at
// ~50 MB, so its forks take ~8 ms and stop nobody else. The tool's one data stream is a socket
// compute passes with the request; its other end stays in compute, so frames never pass through
// here. When compute goes away (the IPC channel closes), every tool started here is killed,
// however compute ended.
import { spawn } from "node:child_process";
import type { ChildProcess, StdioOptions } from "node:child_process";
import type { Socket } from "node:net";
import { lowerPriority } from "../priority.ts";

export type SpawnerRequest =
  | { type: "spawn"; id: number; command: string; args: string[]; stream: "stdin" | "stdout" | null; nice: number }
  | { type: "kill"; id: number };

export type SpawnerEvent =
  | { type: "spawned"; id: number; pid: number }
  | { type: "stderr"; id: number; text: string }
  | { type: "exit"; id: number; code: number | null; signal: NodeJS.Signals | null; error?: string };

function send(event: SpawnerEvent): void {
  if (process.connected) process.send!(event);
}

function start(request: Extract<SpawnerRequest, { type: "spawn" }>, socket: Socket | undefined, children: Map<number, ChildProcess>): void {
  const stdio: StdioOptions = [request.stream === "stdin" ? socket! : "ignore", request.stream === "stdout" ? socket! : "ignore", "pipe"];
  const child = spawn(request.command, request.args, { stdio });
  // The tool holds the socket now; our copy would keep its end open after the tool exits.
  socket?.destroy();
  children.set(request.id, child);
  if (child.pid !== undefined) {
    // Below compute's main thread (compute/priority.ts), set before prlimit and unshare have exec'd
    // the tool, so the threads it starts inherit it.
    lowerPriority(child.pid, request.nice);
    send({ type: "spawned", id: request.id, pid: child.pid });
  }
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (text: string) => send({ type: "stderr", id: request.id, text }));
  let reported = false;
  const exit = (code: number | null, signal: NodeJS.Signals | null, error?: string) => {
    if (reported) return;
    reported = true;
    children.delete(request.id);
    send({ type: "exit", id: request.id, code, signal, ...(error ? { error } : {}) });
  };
  child.once("error", (err) => exit(-1, null, err.message));
  child.once("close", (code, signal) => exit(code, signal));
}

if (import.meta.main) {
  const children = new Map<number, ChildProcess>();
  process.on("message", (request: SpawnerRequest, socket?: Socket) => {
    if (request.type === "kill") children.get(request.id)?.kill("SIGKILL");
    else start(request, socket, children);
  });
  process.on("disconnect", () => {
    for (const child of children.values()) child.kill("SIGKILL");
    process.exit(0);
  });
}
