// What the CLI shows while it works. Results go to stdout (a line each, or one JSON object each
// with --json); progress and errors go to stderr so `--json > results.ndjson` stays clean.
// On a terminal, one bar per item in flight, drawn by cli-progress; otherwise (a pipe, a log, CI)
// plain lines at each step, so logs stay readable and nothing is drawn with escape codes.
import { clearScreenDown } from "node:readline";
import cliProgress, { type MultiBar, type Options, type Params, type SingleBar } from "cli-progress";

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

/** The payload of one bar: what `update` last said about its item. */
interface Row {
  item: string;
  phase: Phase;
  fraction?: number;
  detail?: string;
}

/** One bar's line: name, phase, and a bar with its percentage only when the phase has a measurable end. */
function formatRow(options: Options, params: Params, row: Row): string {
  const label = row.item.length > 24 ? `…${row.item.slice(-23)}` : row.item.padEnd(24);
  const measured =
    row.fraction === undefined ? "" : `[${cliProgress.Format.BarFormat(params.progress, options)}] ${String(Math.round(params.progress * 100)).padStart(3)}%`;
  // One column short of the width: a full-width line leaves some terminals' cursors past the edge.
  return `${label} ${row.phase.padEnd(11)} ${measured}${row.detail ? ` ${row.detail}` : ""}`.slice(0, params.maxWidth - 1);
}

/** A terminal: cli-progress keeps one bar per item in flight below the lines that stay. */
class TtyProgress implements Progress {
  private readonly bars: MultiBar;
  private readonly rows = new Map<string, { bar: SingleBar; phase: Phase }>();
  private readonly out: Stream;
  /** A stdout write waiting for the next redraw, which runs it with the bars cleared. */
  private pending?: () => void;

  constructor(out: Stream) {
    this.out = out;
    this.bars = new cliProgress.MultiBar({
      // The stream is stderr (or a test's recorder): cli-progress needs only write, isTTY and columns.
      stream: out as unknown as NodeJS.WritableStream,
      format: formatRow,
      barsize: 24,
      barCompleteChar: "#",
      barIncompleteChar: "-",
      fps: 20,
      // Every frame redraws every bar: a bar that did not change still has to move below a new line.
      forceRedraw: true,
      clearOnComplete: true,
      // Wrapping stays on and the cursor visible: nothing for a killed CLI to leave behind in the terminal.
      linewrap: true,
      hideCursor: false,
      // Ctrl-C ends the CLI as it always did, instead of stopping the bars and running on.
      gracefulExit: false,
    });
    // A redraw starts with the cursor on the first bar: a pending stdout line goes there, bars below it.
    this.bars.on("redraw-pre", () => {
      if (!this.pending) return;
      clearScreenDown(this.out as unknown as NodeJS.WritableStream);
      this.pending();
      this.pending = undefined;
    });
  }

  update(item: string, phase: Phase, fraction?: number, detail?: string): void {
    const row: Row = { item, phase, fraction, detail };
    const known = this.rows.get(item);
    if (!known) {
      this.rows.set(item, { bar: this.bars.create(1, fraction ?? 0, row), phase });
      this.bars.update();
      return;
    }
    known.bar.update(fraction ?? 0, row);
    // Upload chunks wait for the next frame; a new phase shows at once.
    if (known.phase !== phase) {
      known.phase = phase;
      this.bars.update();
    }
  }

  finish(item: string, line?: string): void {
    const known = this.rows.get(item);
    if (!known) {
      if (line) this.note(line);
      return;
    }
    this.rows.delete(item);
    // remove() redraws: the line lands above the bars that are left, in the finished bar's place.
    if (line) this.bars.log(`${line}\n`);
    this.bars.remove(known.bar);
    // No bar left: stop the redraw timer, which would otherwise keep the CLI from exiting.
    if (!this.rows.size) this.bars.stop();
  }

  note(line: string): void {
    if (!this.rows.size) {
      this.out.write(`${line}\n`);
      return;
    }
    this.bars.log(`${line}\n`);
    this.bars.update();
  }

  outside(write: () => void): void {
    if (!this.rows.size) {
      write();
      return;
    }
    this.pending = write;
    this.bars.update();
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
