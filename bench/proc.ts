// What the benchmarks read from Linux's /proc about processes: CPU time and children. Clock ticks
// are USER_HZ, 100 on Linux.
import { readdirSync, readFileSync } from "node:fs";

/** The fields of /proc/<pid>/stat after the command name (field 3, the state, is at index 0). */
function statFields(pid: number | "self"): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * CPU seconds of a process: its own (utime + stime, fields 14-15) and/or those of the children it
 * has reaped (cutime + cstime, fields 16-17).
 */
export function cpuSeconds(pid: number | "self", which: { own?: boolean; reaped?: boolean }): number {
  const f = statFields(pid);
  const ticks = (which.own ? Number(f[11]) + Number(f[12]) : 0) + (which.reaped ? Number(f[13]) + Number(f[14]) : 0);
  return ticks / 100;
}

/** The live children of `pid` (of all its threads). */
export function childPids(pid: number | "self"): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
}

/**
 * CPU seconds of this process's live children whose command line contains `match` (compute's
 * image decoders, its process spawner), with the children they have reaped. A child that ends
 * between the reads is left out.
 */
export function liveChildrenCpuSeconds(match: string): number {
  let seconds = 0;
  for (const pid of childPids("self")) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(match)) seconds += cpuSeconds(pid, { own: true, reaped: true });
    } catch {
      // Ended between listing and reading.
    }
  }
  return seconds;
}
