// Compute's side of the process spawner (spawner-process.ts: why it exists). Each media tool gets
// at most one data stream, a Unix socket pair made here: one end goes with the request to the
// spawner, which gives it to the tool as stdin or stdout; compute reads or writes the other end
// as it would a pipe. The spawner is forked once (`start()`, at compute's start-up, while compute
// is small) and again if it ever dies; a tool it was running then ends as failed.
import { fork } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SpawnerEvent, SpawnerRequest } from "./spawner-process.ts";

const CHILD = fileURLToPath(new URL("./spawner-process.ts", import.meta.url));

export interface ToolExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why it could not be started or followed (binary missing, spawner gone). */
  error?: string;
}

export interface SpawnedTool {
  /** Its pid (prlimit and unshare exec it in place), or -1 when it never started. */
  pid: number;
  /** Compute's end of the tool's stdin or stdout, when one was asked for. */
  stream: Socket | undefined;
  /**
   * Its exit, like a child's 'close': with a stdout, once that stream has closed too (read to its
   * end, or destroyed), as the exit is reported over the spawner's channel and can overtake the
   * last bytes on the socket.
   */
  exited: Promise<ToolExit>;
  onStderr(listener: (text: string) => void): void;
  /** SIGKILL, if it still runs. */
  kill(): void;
}

interface Tracked {
  /** Known once spawned (-1 before). */
  pid: number;
  spawned(pid: number): void;
  stderr(text: string): void;
  exit(exit: ToolExit): void;
}

export class ProcessSpawner {
  #child: ChildProcess | undefined;
  #nextId = 1;
  readonly #tools = new Map<number, Tracked>();

  /** Forks the spawner now (cheap while compute is small), unless it runs. */
  start(): void {
    if (this.#child) return;
    const child = fork(CHILD, [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.#child = child;
    child.on("message", (event: SpawnerEvent) => {
      const tool = this.#tools.get(event.id);
      if (!tool) return;
      if (event.type === "spawned") tool.spawned(event.pid);
      else if (event.type === "stderr") tool.stderr(event.text);
      else tool.exit({ code: event.code, signal: event.signal, ...(event.error ? { error: event.error } : {}) });
    });
    child.once("exit", (code, signal) => {
      if (this.#child === child) this.#child = undefined;
      for (const tool of this.#tools.values()) {
        // Its tools outlive it (they are its children, not ours): nobody could stop them any more.
        killPid(tool.pid);
        tool.exit({ code: -1, signal: null, error: `the process spawner stopped (${signal ?? `exit ${code}`})` });
      }
    });
    this.#idle();
  }

  /** Starts `command args` with its stdin or stdout (or neither) on a socket whose other end is returned. */
  async spawn(command: string, args: string[], options: { stream: "stdin" | "stdout" | null; nice: number }): Promise<SpawnedTool> {
    const [mine, theirs] = options.stream ? await socketPair() : [undefined, undefined];
    // Listened for before the tool exists: a tool that fails at once (a loader refused by its
    // memory limit) can close the stream before its pid is reported, and a 'close' listener
    // added after that would wait forever (processVideo hung on such a decoder).
    const outputClosed = options.stream === "stdout" ? new Promise((resolve) => mine!.once("close", resolve)) : Promise.resolve();
    this.start();
    const child = this.#child!;
    const id = this.#nextId++;
    // Stderr that arrives before the caller listens is kept for it.
    let early = "";
    let stderr: (text: string) => void = (text) => (early += text);
    let alive = true;
    let started!: (pid: number) => void;
    const pid = new Promise<number>((resolve) => (started = resolve));
    const reported = new Promise<ToolExit>((resolve) => {
      const tracked: Tracked = {
        pid: -1,
        spawned: (pid) => {
          tracked.pid = pid;
          started(pid);
        },
        stderr: (text) => stderr(text),
        exit: (exit) => {
          alive = false;
          this.#tools.delete(id);
          this.#idle();
          started(-1);
          resolve(exit);
        },
      };
      this.#tools.set(id, tracked);
    });
    const exited = Promise.all([reported, outputClosed]).then(([exit]) => exit);
    child.channel?.ref(); // replies are awaited: keep the process alive for them
    const request: SpawnerRequest = { type: "spawn", id, command, args, stream: options.stream, nice: options.nice };
    child.send(request, theirs); // sending the handle closes compute's copy of it
    mine?.on("error", () => {}); // EPIPE / ECONNRESET when the tool dies: its exit code tells the story
    return {
      pid: await pid,
      stream: mine,
      exited,
      onStderr: (listener) => {
        stderr = listener;
        if (early) listener(early);
        early = "";
      },
      kill: () => {
        if (alive && child.connected) child.send({ type: "kill", id } satisfies SpawnerRequest);
      },
    };
  }

  /** Stops the spawner and the tools it runs (tests). */
  stop(): void {
    this.#child?.kill("SIGKILL"); // its exit kills the tools
  }

  /** With no tool running, the spawner and its socket do not keep compute's event loop alive. */
  #idle(): void {
    if (this.#tools.size > 0) return;
    this.#child?.unref();
    this.#child?.channel?.unref();
  }
}

/**
 * Two connected Unix sockets (Node has no socketpair(2)): a listening socket in a private folder
 * of its own (0700: only this user can connect), which lives only until the pair is connected.
 * A folder kept for compute's life was left in the temp folder whenever compute and the spawner
 * were killed together (vitest ending its workers, a stack's teardown).
 * Returns [the end compute keeps (accepted), the end sent to the spawner (the client)]: a socket
 * a net.Server accepted is tracked when sent, in a list per server with an 'exit' listener on the
 * spawner's ChildProcess (and one on the spawner's process) that stays for the spawner's life, so
 * sending those leaked a listener per tool.
 */
async function socketPair(): Promise<[Socket, Socket]> {
  const dir = mkdtempSync(join(tmpdir(), "obscura-pair-"));
  const server = createServer();
  try {
    const path = join(dir, "pair.sock");
    server.listen(path);
    await once(server, "listening");
    const accepted = once(server, "connection") as Promise<[Socket]>;
    const client = connect(path);
    await once(client, "connect");
    const [peer] = await accepted;
    return [peer, client];
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function killPid(pid: number): void {
  try {
    if (pid > 0) process.kill(pid, "SIGKILL");
  } catch {
    // Gone already.
  }
}

let shared: ProcessSpawner | undefined;

/** The instance's spawner. */
export function processSpawner(): ProcessSpawner {
  return (shared ??= new ProcessSpawner());
}
