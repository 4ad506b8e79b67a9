// Each task's work directory (its input, ffmpeg's files) lives in the temp folder, named after the
// compute process that made it. A task ends by removing it, and a stopped compute waits for that;
// but a compute that is killed (SIGKILL, the OOM killer) runs nothing more, and its running tasks'
// folders, whole input videos, stayed for good. The next compute started on the machine removes
// them: those of processes that are gone, and those of a predecessor that had its pid.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isRunning } from "./pids.ts";

const PREFIX = "obscura-task-";
/** A work directory's name: the prefix, its compute's pid and mkdtemp's six characters. */
const NAME = new RegExp(`^${PREFIX}(\\d+)-[A-Za-z0-9]{6}$`);

export function makeWorkDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), `${PREFIX}${process.pid}-`));
}

/**
 * At start-up, before this process has made a work directory of its own: removes the work
 * directories that no running process owns. Instances sharing one temp folder must share a pid
 * namespace (another container's pids look gone from here). Returns the names removed.
 */
export async function removeLeftWorkDirs(): Promise<string[]> {
  const folder = tmpdir();
  const left = (await readdir(folder)).filter((name) => {
    const pid = Number(NAME.exec(name)?.[1]);
    return pid > 0 && (pid === process.pid || !isRunning(pid));
  });
  await Promise.all(left.map((name) => rm(join(folder, name), { recursive: true, force: true })));
  return left;
}
