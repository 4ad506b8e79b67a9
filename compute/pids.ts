// Whether a process runs, by its pid: compute's start-up sweep of what killed instances left
// (work-dirs.ts) and the local stack's scripts (a stack file outlives a stack killed with SIGKILL).
export function isRunning(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
