// Keeps a child process running: when it exits without being asked to, it is started again after a
// backoff (1 s, doubling up to 30 s; back to 1 s once a run has lasted a minute), and every exit and
// restart is logged. `npm start` runs each compute instance under one, so a crashed or killed
// instance comes back while the Worker and the other instances keep serving.
//
// With a liveness URL it also restarts a child that is alive but answers nothing (a wedged event
// loop, a stopped process): the Worker routes around such an instance, but only a restart brings
// it back. Any HTTP answer counts as alive; a child that has answered nothing for `deadAfterMs`
// (before its first answer: `startupMs`, for the models to load) is killed with SIGKILL, and the
// exit restarts it. In production the container engine's liveness probe does this.
import type { ChildProcess } from "node:child_process";

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A run this long counts as healthy: the next crash restarts after the first delay again. */
const HEALTHY_RUN_MS = 60_000;

export interface Liveness {
  url: string;
  /** How often it is asked (default 10 s); each ask waits at most this long for an answer. */
  everyMs?: number;
  /** Silent this long after an answer: wedged (default 60 s; its event loop is never held for a second). */
  deadAfterMs?: number;
  /** Silent this long after a start with no answer yet: wedged (default 180 s). */
  startupMs?: number;
}

export class Supervisor {
  private child: ChildProcess | undefined;
  private stopped = false;
  private delayMs = FIRST_DELAY_MS;
  private restartTimer: NodeJS.Timeout | undefined;
  private livenessTimer: NodeJS.Timeout | undefined;
  /** Exits of this child that were not asked for. */
  restarts = 0;

  private readonly name: string;
  private readonly start: () => ChildProcess;
  private readonly log: (line: string) => void;
  private readonly liveness: Liveness | undefined;

  constructor(name: string, start: () => ChildProcess, log: (line: string) => void = (line) => console.error(line), liveness?: Liveness) {
    this.name = name;
    this.start = start;
    this.log = log;
    this.liveness = liveness;
  }

  /** Starts the child and keeps it running until stop(). Returns the first process. */
  run(): ChildProcess {
    const child = this.start();
    const startedAt = Date.now();
    this.child = child;
    child.on("exit", (code, signal) => {
      clearInterval(this.livenessTimer);
      if (this.stopped) return;
      if (Date.now() - startedAt >= HEALTHY_RUN_MS) this.delayMs = FIRST_DELAY_MS;
      const delay = this.delayMs;
      this.delayMs = Math.min(MAX_DELAY_MS, this.delayMs * 2);
      this.restarts += 1;
      this.log(`[supervisor] ${this.name} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`);
      this.restartTimer = setTimeout(() => this.run(), delay);
    });
    if (this.liveness) this.watch(child, this.liveness);
    return child;
  }

  private watch(child: ChildProcess, { url, everyMs = 10_000, deadAfterMs = 60_000, startupMs = 180_000 }: Liveness): void {
    const startedAt = Date.now();
    let answeredAt: number | undefined;
    let asking = false;
    this.livenessTimer = setInterval(() => {
      const silentFor = Date.now() - (answeredAt ?? startedAt);
      if (silentFor > (answeredAt === undefined ? startupMs : deadAfterMs)) {
        clearInterval(this.livenessTimer);
        this.log(`[supervisor] ${this.name} (pid ${child.pid}) answered nothing at ${url} for ${Math.round(silentFor / 1000)} s; killing it`);
        child.kill("SIGKILL");
        return;
      }
      if (asking) return;
      asking = true;
      fetch(url, { signal: AbortSignal.timeout(everyMs) })
        .then(async (res) => {
          await res.body?.cancel();
          answeredAt = Date.now();
        })
        .catch(() => {}) // refused, reset or timed out: not an answer
        .finally(() => (asking = false));
    }, everyMs);
    this.livenessTimer.unref();
  }

  /** The process running now (undefined between an exit and its restart). */
  get current(): ChildProcess | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child : undefined;
  }

  stop(signal: NodeJS.Signals = "SIGTERM"): void {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    clearInterval(this.livenessTimer);
    this.child?.kill(signal);
  }
}
