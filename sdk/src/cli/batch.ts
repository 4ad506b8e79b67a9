// A folder of inputs through one feature with at most `concurrency` items in flight. Each item
// ends as a result or a failure (the batch goes on); errors that every later item would hit too
// (the key, credits, the daily limit) stop new items from starting.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { EXIT, describeError, exitCodeOf } from "./exit-codes.ts";
import { featureSlug, processOne, type ItemResult, type RunContext } from "./run.ts";

const EXTENSIONS = {
  image: /\.(jpe?g|png|webp|heic|heif)$/i,
  video: /\.(mp4|mov|m4v|qt)$/i,
};

/** The files of `dir` the feature takes (by extension, not recursive, no dotfiles), sorted. */
export async function batchInputs(dir: string, featureId: string, media: "image" | "video"): Promise<string[]> {
  const accepts = featureId === "image.nsfw-detection" ? [EXTENSIONS.image, EXTENSIONS.video] : [EXTENSIONS[media]];
  // Results written beside their inputs (photo.face-blur.jpg) are not inputs of a second run.
  const ownOutput = new RegExp(`\\.${featureSlug(featureId).replace(/[-.]/g, "\\$&")}\\.[^.]+$`, "i");
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith(".") && accepts.some((re) => re.test(e.name)) && !ownOutput.test(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

export interface BatchOutcome {
  results: ItemResult[];
  failures: Array<{ input: string; error: unknown; exitCode: number }>;
  skipped: string[];
}

/** Codes after which starting another item is pointless: it would fail the same way. */
const STOPS_THE_BATCH: number[] = [EXIT.auth, EXIT.credits];

export async function runBatch(
  ctx: RunContext,
  inputs: string[],
  outDir: string | undefined,
  concurrency: number,
  onItem: (outcome: { result?: ItemResult; input: string; error?: unknown; exitCode: number }) => void,
): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { results: [], failures: [], skipped: [] };
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (next < inputs.length) {
      const input = inputs[next++]!;
      if (stopped) {
        outcome.skipped.push(input);
        continue;
      }
      const label = path.basename(input);
      try {
        const result = await processOne(ctx, input, outDir, true, label);
        outcome.results.push(result);
        ctx.progress.finish(label);
        onItem({ result, input, exitCode: EXIT.ok });
      } catch (error) {
        const exitCode = exitCodeOf(error);
        outcome.failures.push({ input, error, exitCode });
        ctx.progress.finish(label, `${input}: ${describeError(error)}`);
        onItem({ input, error, exitCode });
        if (STOPS_THE_BATCH.includes(exitCode)) stopped = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, inputs.length) }, worker));
  return outcome;
}

/** The batch's exit code: 0 when all succeeded; the failures' code when they share one; else 1. */
export function batchExitCode(outcome: BatchOutcome): number {
  if (!outcome.failures.length) return EXIT.ok;
  const codes = new Set(outcome.failures.map((f) => f.exitCode));
  return codes.size === 1 ? [...codes][0]! : EXIT.other;
}

export function summaryLine(outcome: BatchOutcome, total: number): string {
  const spent = outcome.results.reduce((n, r) => n + r.credits_used, 0);
  const parts = [`${outcome.results.length} of ${total} done`, `${outcome.failures.length} failed`];
  if (outcome.skipped.length) parts.push(`${outcome.skipped.length} skipped`);
  return `${parts.join(", ")}; ${spent} credit${spent === 1 ? "" : "s"} used`;
}
