// Where a benchmark's time goes: totals per stage (compute/timing.ts), with every model call timed
// by wrapping the Models object's public methods, so it works whatever runs underneath (TF.js,
// ONNX Runtime). Used by bench/video.ts and bench/images.ts.
import type { Models } from "../compute/models/index.ts";
import { enterStage, setStageListener } from "../compute/timing.ts";

export interface StageTotal {
  calls: number;
  /** null for stages with no wall time of their own (processes running beside Node, Node's time between stages). */
  wallMs: number | null;
  cpuMs: number;
}
export type StageTotals = Record<string, StageTotal>;

export function addStage(totals: StageTotals, stage: string, wallMs: number | null, cpuMs: number): void {
  const t = (totals[stage] ??= { calls: 0, wallMs: wallMs === null ? null : 0, cpuMs: 0 });
  t.calls++;
  if (t.wallMs !== null && wallMs !== null) t.wallMs += wallMs;
  t.cpuMs += cpuMs;
}

/** Starts collecting every timed stage into a fresh totals object (replacing any earlier one). */
export function recordStages(): StageTotals {
  const totals: StageTotals = {};
  setStageListener((stage, wallMs, cpuMs) => addStage(totals, stage, wallMs, cpuMs));
  return totals;
}

/**
 * Times each model role's methods as the pipelines call them ("model faces.detect"). A Proxy per
 * role: calls from outside go through the timer, the model's calls to its own methods do not
 * (they run on the unwrapped object), so only the public API is reported.
 */
export function timeModels(models: Models): Models {
  const timed = { ...models };
  for (const role of Object.keys(models) as (keyof Models)[]) {
    if (role === "registry") continue;
    (timed as Record<string, unknown>)[role] = new Proxy(models[role], {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== "function" || typeof name !== "string" || name === "constructor") return value;
        return (...args: unknown[]) => {
          const exit = enterStage(`model ${role}.${name}`);
          try {
            const result = value.apply(target, args);
            if (result instanceof Promise) return result.finally(exit);
            exit();
            return result;
          } catch (error) {
            exit();
            throw error;
          }
        };
      },
    });
  }
  return timed;
}

/**
 * "stage  CPU ms/unit  wall ms/unit  calls/unit" lines, largest CPU first, then the total. Stages
 * with no wall of their own show "-" for wall and calls.
 */
export function stageLines(totals: StageTotals, units: number, unit: string): string[] {
  const rows = Object.entries(totals).sort((a, b) => b[1].cpuMs - a[1].cpuMs);
  const total = rows.reduce((sum, [, t]) => sum + t.cpuMs, 0);
  const width = Math.max(8, ...rows.map(([s]) => s.length));
  const cell = (v: number | null, digits: number, w: number) => (v === null ? "-" : v.toFixed(digits)).padStart(w);
  const heads = [`CPU ms/${unit}`, `wall ms/${unit}`, `calls/${unit}`];
  return [
    `${"stage".padEnd(width)}  ${heads.join("  ")}`,
    ...rows.map(([stage, t]) => [
      stage.padEnd(width), cell(t.cpuMs / units, 1, heads[0].length), cell(t.wallMs === null ? null : t.wallMs / units, 1, heads[1].length),
      cell(t.wallMs === null ? null : t.calls / units, 2, heads[2].length),
    ].join("  ")),
    `${"total".padEnd(width)}  ${cell(total / units, 1, heads[0].length)}`,
  ];
}
