// Test helper: the processes this test process started, directly or through compute's process
// spawner (compute/video/spawner.ts), as "pid comm" lines.
import { execFileSync } from "node:child_process";

export function descendantProcesses(): string[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid=,comm="], { encoding: "utf8" })
    .split("\n").map((l) => l.trim().split(/\s+/)).filter((r) => r.length >= 3);
  const mine = new Set([process.pid]);
  const out: string[] = [];
  // Parents come before their children in pid order almost always; repeat until nothing is added.
  for (let added = true; added; ) {
    added = false;
    for (const [pid, ppid, comm] of rows) {
      if (!mine.has(Number(pid)) && mine.has(Number(ppid))) {
        mine.add(Number(pid));
        out.push(`${pid} ${comm}`);
        added = true;
      }
    }
  }
  return out;
}
