// What the CLI shows while it works. Results go to stdout (a line each, or one JSON object each
// with --json); progress and errors go to stderr so `--json > results.ndjson` stays clean.
// On a terminal, one redrawn bar per item in flight; otherwise (a pipe, a log, CI) plain lines
// at each step, so logs stay readable and nothing is drawn with escape codes.

export type Phase = "uploading" | "processing" | "queued" | "downloading";

export interface Progress {
  /** An item entered a phase; `fraction` (0-1) when the phase has a measurable end. */
  update(item: string, phase: Phase, fraction?: number, detail?: string): void;
  /** An item is finished: its line is printed (stderr) and its bar removed. */
  finish(item: string, line?: string): void;
  /** A line on stderr that stays, between bars. */
  note(line: string): void;
  /** Runs `write` (a result line on stdout) with the bars out of the way: both may share a terminal. */
  outside(write: () => void): void;
}

interface Stream {
  write(s: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

const BAR_WIDTH = 24;

export function bar(fraction: number): string {
  const f = Math.min(1, Math.max(0, fraction));
  const full = Math.round(f * BAR_WIDTH);
  return `[${"#".repeat(full)}${"-".repeat(BAR_WIDTH - full)}] ${String(Math.round(f * 100)).padStart(3)}%`;
}

/** A terminal: the bars of the items in flight are redrawn in place below the lines that stay. */
class TtyProgress implements Progress {
  private readonly rows = new Map<string, string>();
  private drawn = 0;
  private lastDraw = 0;

  private readonly out: Stream;

  constructor(out: Stream) {
    this.out = out;
  }

  update(item: string, phase: Phase, fraction?: number, detail?: string): void {
    // columns is 0 or absent when the size is unknown (a pty without a window): assume 80.
    const width = Math.max(60, (this.out.columns || 80) - 1);
    const label = item.length > 24 ? `…${item.slice(-23)}` : item.padEnd(24);
    const row = `${label} ${phase.padEnd(11)} ${fraction === undefined ? "" : bar(fraction)}${detail ? ` ${detail}` : ""}`;
    this.rows.set(item, row.slice(0, width));
    // Upload chunks arrive fast; a redraw every 50 ms is smooth and keeps the terminal cheap.
    const now = Date.now();
    if (fraction === undefined || fraction >= 1 || now - this.lastDraw >= 50) this.redraw();
  }

  finish(item: string, line?: string): void {
    this.rows.delete(item);
    if (line) this.note(line);
    else this.redraw();
  }

  note(line: string): void {
    this.outside(() => this.out.write(`${line}\n`));
  }

  outside(write: () => void): void {
    this.clear();
    write();
    this.draw();
  }

  private clear(): void {
    // Cursor up over the drawn bars, erasing each (ANSI: ESC[1A up, ESC[2K erase line).
    if (this.drawn) this.out.write("\x1b[1A\x1b[2K".repeat(this.drawn) + "\r");
    this.drawn = 0;
  }

  private draw(): void {
    for (const row of this.rows.values()) this.out.write(`${row}\n`);
    this.drawn = this.rows.size;
    this.lastDraw = Date.now();
  }

  private redraw(): void {
    this.clear();
    this.draw();
  }
}

/** Not a terminal: a line per step; a measurable phase is reported at its start and at 100 %. */
class LineProgress implements Progress {
  private readonly last = new Map<string, string>();

  private readonly out: Stream;

  constructor(out: Stream) {
    this.out = out;
  }

  update(item: string, phase: Phase, fraction?: number, detail?: string): void {
    // Uploads report every chunk; a log wants the start and the end, and each job progress change.
    if (phase === "uploading" && fraction !== undefined && fraction > 0 && fraction < 1) return;
    const line = `${item}: ${phase}${fraction === undefined ? "" : ` ${Math.round(fraction * 100)}%`}${detail ? ` ${detail}` : ""}`;
    if (this.last.get(item) === line) return;
    this.last.set(item, line);
    this.out.write(`${line}\n`);
  }

  finish(item: string, line?: string): void {
    this.last.delete(item);
    if (line) this.out.write(`${line}\n`);
  }

  note(line: string): void {
    this.out.write(`${line}\n`);
  }

  outside(write: () => void): void {
    write();
  }
}

/** Shows nothing but the lines that stay (--json on a pipe: the caller reads stdout). */
class QuietProgress implements Progress {
  private readonly out: Stream;

  constructor(out: Stream) {
    this.out = out;
  }
  update(): void {}
  finish(_item: string, line?: string): void {
    if (line) this.out.write(`${line}\n`);
  }
  note(line: string): void {
    this.out.write(`${line}\n`);
  }

  outside(write: () => void): void {
    write();
  }
}

/** Bars on a terminal; plain step lines otherwise, or only the lasting lines with --json. */
export function createProgress(
  stderr: Stream,
  opts: { json: boolean; env: Record<string, string | undefined> },
): Progress {
  if (stderr.isTTY && !opts.env.CI) return new TtyProgress(stderr);
  return opts.json ? new QuietProgress(stderr) : new LineProgress(stderr);
}
