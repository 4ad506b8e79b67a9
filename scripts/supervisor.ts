// Keeps a child process running: when it exits without being asked to, it is started again after a
// backoff (1 s, doubling up to 30 s; back to 1 s once a run has lasted a minute), and every exit and
// restart is logged. `npm start` runs each compute instance under one, so a crashed or killed
// instance comes back while the Worker and the other instances keep serving.
import type { ChildProcess } from "node:child_process";

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A run this long counts as healthy: the next crash restarts after the first delay again. */
const HEALTHY_RUN_MS = 60_000;

export class Supervisor {
  private child: ChildProcess | undefined;
  private stopped = false;
  private delayMs = FIRST_DELAY_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Exits of this child that were not asked for. */
  restarts = 0;

  private readonly name: string;
  private readonly start: () => ChildProcess;
  private readonly log: (line: string) => void;

  constructor(name: string, start: () => ChildProcess, log: (line: string) => void = (line) => console.error(line)) {
    this.name = name;
    this.start = start;
    this.log = log;
  }

  /** Starts the child and keeps it running until stop(). Returns the first process. */
  run(): ChildProcess {
    const child = this.start();
    const startedAt = Date.now();
    this.child = child;
    child.on("exit", (code, signal) => {
      if (this.stopped) return;
      if (Date.now() - startedAt >= HEALTHY_RUN_MS) this.delayMs = FIRST_DELAY_MS;
      const delay = this.delayMs;
      this.delayMs = Math.min(MAX_DELAY_MS, this.delayMs * 2);
      this.restarts += 1;
      this.log(`[supervisor] ${this.name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`);
      this.restartTimer = setTimeout(() => this.run(), delay);
    });
    return child;
  }

  /** The process running now (undefined between an exit and its restart). */
  get current(): ChildProcess | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child : undefined;
  }

  stop(signal: NodeJS.Signals = "SIGTERM"): void {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    this.child?.kill(signal);
  }
}
