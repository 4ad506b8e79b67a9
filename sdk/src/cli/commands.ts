// The commands: `features`, `credits`, and running a feature on a file, URL or folder. Each
// returns its exit code; thrown errors are classed by main.ts.
import { mkdir, stat } from "node:fs/promises";
import type { Obscura } from "../node.ts";
import { coerceParams, type Command } from "./args.ts";
import { batchExitCode, batchInputs, runBatch, summaryLine } from "./batch.ts";
import { EXIT, UsageError, describeError, errorCodeOf, exitCodeOf } from "./exit-codes.ts";
import type { Progress } from "./output.ts";
import { isDirectory, isUrl, processOne, resultLine, type FeatureInfo } from "./run.ts";

export interface Io {
  stdout: { write(s: string): unknown };
  progress: Progress;
}

/** A line on stdout, with any progress bars moved out of its way. */
const print = (io: Io, line: string) => io.progress.outside(() => io.stdout.write(`${line}\n`));
const printJson = (io: Io, value: unknown) => print(io, JSON.stringify(value));

export async function featuresCommand(client: Obscura, io: Io, json: boolean): Promise<number> {
  const features = (await client.features()) as unknown as FeatureInfo[];
  if (json) {
    printJson(io, { features });
    return EXIT.ok;
  }
  const width = Math.max(...features.map((f) => f.id.length));
  for (const f of features) {
    const params = Object.keys(f.parameters.properties ?? {}).filter((k) => !/^(image|video|media)_url$/.test(k));
    const price = `${f.credits} credit${f.credits === 1 ? "" : "s"}/${f.unit}`;
    io.stdout.write(`${f.id.padEnd(width)}  ${price.padEnd(20)} ${f.available ? "" : "(unavailable) "}${params.map((p) => `--${p}`).join(" ")}\n`);
  }
  return EXIT.ok;
}

export async function creditsCommand(client: Obscura, io: Io, json: boolean): Promise<number> {
  const c = await client.credits();
  if (json) printJson(io, c);
  else io.stdout.write(`${c.available_credits} credits available (purchased ${c.total_purchased}, spent ${c.total_spent}, reserved ${c.reserved_credits})\n`);
  return EXIT.ok;
}

/** The catalog entry of `id`, or a usage error listing the ids there are. */
async function featureOf(client: Obscura, id: string): Promise<FeatureInfo> {
  const features = (await client.features()) as unknown as FeatureInfo[];
  const feature = features.find((f) => f.id === id);
  if (!feature) throw new UsageError(`unknown feature id "${id}"; known: ${features.map((f) => f.id).join(", ")}`);
  return feature;
}

export async function runCommand(client: Obscura, io: Io, cmd: Extract<Command, { name: "run" }>): Promise<number> {
  // Nothing is sent (no upload, no charge) before the id, the parameters and the input check out.
  const feature = await featureOf(client, cmd.feature);
  const params = coerceParams(feature.id, feature.parameters, cmd.params);
  const ctx = { client, feature, params, progress: io.progress };

  if (!isUrl(cmd.input) && (await isDirectory(cmd.input))) {
    const inputs = await batchInputs(cmd.input, feature.id, feature.media);
    if (!inputs.length) throw new UsageError(`no ${feature.media} files in ${cmd.input}`);
    if (cmd.output !== undefined) await mkdir(cmd.output, { recursive: true });
    const outcome = await runBatch(ctx, inputs, cmd.output, cmd.concurrency, ({ result, input, error, exitCode }) => {
      if (result) return cmd.json ? printJson(io, { ok: true, ...result }) : print(io, resultLine(result));
      if (cmd.json) printJson(io, { ok: false, input, feature: feature.id, exit_code: exitCode, error: errorJson(error) });
    });
    // Items not started after a key or credits failure are results too, for a script that counts.
    if (cmd.json) for (const input of outcome.skipped) printJson(io, { ok: false, input, feature: feature.id, skipped: true });
    io.progress.note(summaryLine(outcome, inputs.length));
    return batchExitCode(outcome);
  }

  if (!isUrl(cmd.input)) await assertReadableFile(cmd.input);
  // -o naming an existing folder (or ending in a slash) puts the default name inside it.
  const outputIsDir = cmd.output !== undefined && (/[/\\]$/.test(cmd.output) || (await isDirectory(cmd.output)));
  if (outputIsDir) await mkdir(cmd.output!, { recursive: true });
  try {
    const result = await processOne(ctx, cmd.input, cmd.output, outputIsDir);
    io.progress.finish(cmd.input);
    if (cmd.json) printJson(io, { ok: true, ...result });
    else print(io, resultLine(result));
    return EXIT.ok;
  } catch (error) {
    io.progress.finish(cmd.input);
    // A script reading --json gets the failure as its one object too; the stderr line comes from main.
    if (cmd.json) printJson(io, { ok: false, input: cmd.input, feature: feature.id, exit_code: exitCodeOf(error), error: errorJson(error) });
    throw error;
  }
}

async function assertReadableFile(p: string): Promise<void> {
  try {
    if (!(await stat(p)).isFile()) throw new UsageError(`${p} is not a file, folder or http(s) URL`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${p}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** An error as data for --json: the API's code, status and message when it has them. */
export function errorJson(error: unknown): { code: string; status?: number; message: string; job_id?: string } {
  const e = error as { code?: unknown; status?: unknown; message?: unknown; jobId?: unknown; name?: string };
  // A failed job answered 200 to every poll: its error has a code and the job, no HTTP status.
  if (typeof e?.code === "string" && typeof e.jobId === "string") return { code: e.code, message: String(e.message), job_id: e.jobId };
  if (typeof e?.code === "string" && typeof e.status === "number") return { code: e.code, status: e.status, message: String(e.message) };
  return { code: errorCodeOf(error), message: describeError(error) };
}
