// Optional per-stage timing, for the benchmarks only (bench/video.ts, bench/images.ts say where a
// frame's time goes: decode, each model, tracking, effects, encode). Production never sets a
// listener, so a timed stage costs one check. Each report is the stage's own time: stages nested
// inside it (a model called from an effect) report themselves and are subtracted from it.

/** wallMs and cpuMs (this process, all threads) spent in `stage`, stages nested in it excluded. */
export type StageListener = (stage: string, wallMs: number, cpuMs: number) => void;

let listener: StageListener | undefined;
// Stages running now, innermost last. The pipelines await stages one after another, so a stage's
// children are the stages entered while it is the innermost one.
const open: { childWallMs: number; childCpuMs: number }[] = [];

/** Sets (or with no argument, removes) the one listener. */
export function setStageListener(next?: StageListener): void {
  listener = next;
}

/** Starts timing `stage`; call the returned function once when it ends. */
export function enterStage(stage: string): () => void {
  if (!listener) return () => {};
  const entry = { childWallMs: 0, childCpuMs: 0 };
  open.push(entry);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  return () => {
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const at = open.lastIndexOf(entry);
    if (at < 0) return; // ended twice
    open.splice(at, 1);
    const parent = open[at - 1];
    if (parent) {
      parent.childWallMs += wallMs;
      parent.childCpuMs += cpuMs;
    }
    listener?.(stage, wallMs - entry.childWallMs, cpuMs - entry.childCpuMs);
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
