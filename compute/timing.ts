// Optional per-stage timing, for the benchmarks only (bench/video.ts, bench/images.ts say where a
// frame's time goes: decode, each model, tracking, effects, encode). Production never sets a
// listener, so a timed stage costs one check. Each report is the stage's own time: stages nested
// inside it (a model called from an effect) report themselves and are not counted in it.

/** wallMs and cpuMs (this process, all threads) spent in `stage`, stages nested in it excluded. */
export type StageListener = (stage: string, wallMs: number, cpuMs: number) => void;

let listener: StageListener | undefined;

interface OpenStage {
  stage: string;
  parent: OpenStage | undefined;
  /** Stages opened inside this one and still open: while there are any, the time is theirs. */
  children: number;
  wallMs: number;
  cpuMs: number;
}

// Stages running now. A stage's parent is the innermost open stage when it starts. Stages can
// overlap (two video frames' detection in flight at once), so time is attributed as it passes:
// between two stage events, the process's CPU and wall time are shared equally by the open stages
// that have no open children. The stages' times then add up to the time spent in stages, never
// more, whatever overlaps.
const open: OpenStage[] = [];
let lastCpuMs = 0;
let lastWallMs = 0;

function advance(): void {
  const cpu = process.cpuUsage();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const wallMs = performance.now();
  const leaves = open.filter((s) => s.children === 0);
  for (const s of leaves) {
    s.cpuMs += (cpuMs - lastCpuMs) / leaves.length;
    s.wallMs += (wallMs - lastWallMs) / leaves.length;
  }
  lastCpuMs = cpuMs;
  lastWallMs = wallMs;
}

/** Sets (or with no argument, removes) the one listener. */
export function setStageListener(next?: StageListener): void {
  listener = next;
}

/** Starts timing `stage`; call the returned function once when it ends. */
export function enterStage(stage: string): () => void {
  if (!listener) return () => {};
  advance();
  const entry: OpenStage = { stage, parent: open[open.length - 1], children: 0, wallMs: 0, cpuMs: 0 };
  if (entry.parent) entry.parent.children++;
  open.push(entry);
  return () => {
    const at = open.indexOf(entry);
    if (at < 0) return; // ended twice
    advance();
    open.splice(at, 1);
    if (entry.parent) entry.parent.children--;
    // A stage that overlapped this one and started inside it (the other frame's detection) goes on
    // inside this one's parent.
    for (const s of open) {
      if (s.parent !== entry) continue;
      s.parent = entry.parent;
      if (s.parent) s.parent.children++;
    }
    listener?.(stage, entry.wallMs, entry.cpuMs);
  };
}

export async function timeStage<T>(stage: string, run: () => Promise<T>): Promise<T> {
  if (!listener) return run();
  const exit = enterStage(stage);
  try {
    return await run();
  } finally {
    exit();
  }
}
