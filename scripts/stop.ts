// npm stop: stops the stack `npm start` runs with this state directory (OBSCURA_STATE_DIR) by
// sending its process SIGTERM, as Ctrl-C does: the Worker and compute stop, the stack file goes.
//   npm stop
import { rmSync } from "node:fs";
import { readLocalStack, stackFile } from "./local-stack.ts";
import { isRunning } from "../compute/pids.ts";

/** How long the stack has to shut down (it stops its children and exits at once). */
const STOP_TIMEOUT_MS = 15_000;

try {
  const stack = await readLocalStack();
  if (isRunning(stack.pid)) {
    process.kill(stack.pid, "SIGTERM");
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (isRunning(stack.pid)) {
      if (Date.now() > deadline) throw new Error(`the stack (pid ${stack.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`stopped the stack at ${stack.workerUrl} (pid ${stack.pid})`);
  } else {
    console.log(`the stack at ${stack.workerUrl} had already stopped; removed its stale ${stackFile()}`);
  }
  rmSync(stackFile(), { force: true });
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
}
