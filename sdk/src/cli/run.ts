// One input through one feature: upload (a local file) or pass (a URL), run, wait for the job
// (video), download the result. Every step goes through the SDK; this file adds the CLI's
// decisions: where the result is written, and retrying what the service says to retry.
import { randomUUID } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { mediaKindOf, ObscuraError, type FeatureAnswer, type FeatureEntry, type MediaKind, type Obscura } from "../node.ts";
import { MEDIA_FIELDS, type RequestSchema } from "./args.ts";
import { UsageError } from "./exit-codes.ts";
import { formatBytes, type Progress } from "./output.ts";

/** A catalog entry as GET /features lists it, its `parameters` read as the JSON Schema they are. */
export type FeatureInfo = Omit<FeatureEntry, "parameters"> & { parameters: RequestSchema & { required?: string[] } };

export interface RunContext {
  client: Obscura;
  feature: FeatureInfo;
  /** The typed feature parameters (without the media field). */
  params: Record<string, unknown>;
  progress: Progress;
}

/** What one input produced; printed as a line, or as one JSON object with --json. */
export interface ItemResult {
  input: string;
  feature: string;
  output?: string;
  result_url?: string;
  job_id?: string;
  is_nsfw?: boolean;
  score?: number | null;
  credits_used: number;
  remaining_credits: number;
}

export const isUrl = (input: string) => /^https?:\/\//i.test(input);

/** The part after the dot: image.face-blur -> face-blur (names outputs: photo.face-blur.jpg). */
export const featureSlug = (featureId: string) => featureId.slice(featureId.indexOf(".") + 1);

/** The field the feature takes its media in (image_url, video_url or media_url). */
export function mediaFieldOf(feature: FeatureInfo): string {
  const field = MEDIA_FIELDS.find((f) => f in (feature.parameters.properties ?? {}));
  if (!field) throw new Error(`${feature.id} takes no media field the CLI knows (${MEDIA_FIELDS.join(", ")})`);
  return field;
}

/**
 * `<input-stem>.<feature>.<ext>` beside the input (a URL's in the current folder), or inside
 * `dir` when given; ext follows the result (remove-background answers PNG for a JPEG).
 */
export function defaultOutput(input: string, featureId: string, resultUrl: string, dir?: string): string {
  const ext = path.extname(new URL(resultUrl).pathname) || ".bin";
  const name = isUrl(input) ? decodeURIComponent(path.basename(new URL(input).pathname)) : path.basename(input);
  const stem = name.replace(/\.[^.]*$/, "") || "result";
  const folder = dir ?? (isUrl(input) ? "." : path.dirname(input));
  return path.join(folder, `${stem}.${featureSlug(featureId)}${ext}`);
}

/** A result must never replace what it was made from. */
export function assertNotInput(input: string, output: string): void {
  if (!isUrl(input) && path.resolve(input) === path.resolve(output)) throw new UsageError(`the output ${output} is the input; choose another -o`);
}

/** How many times a request the service asks to repeat (429/503 with a short Retry-After) is sent. */
const ATTEMPTS = 3;
/** Longer Retry-After waits (a used-up daily limit says hours) are reported, not slept through. */
const MAX_RETRY_AFTER_S = 60;

async function runWithRetry(ctx: RunContext, label: string, body: Record<string, unknown>): Promise<FeatureAnswer> {
  // One key for every attempt: the service charges a retried request once.
  const idempotencyKey = randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      return (await ctx.client.run(ctx.feature.id, body, { idempotencyKey })).data;
    } catch (err) {
      const wait = err instanceof ObscuraError && err.retryable ? (err.retryAfter ?? 2) : undefined;
      if (wait === undefined || wait > MAX_RETRY_AFTER_S || attempt >= ATTEMPTS) throw err;
      ctx.progress.update(label, "processing", undefined, `${(err as ObscuraError).code}, retrying in ${wait} s`);
      await new Promise((r) => setTimeout(r, wait * 1000));
    }
  }
}

/** The media URL for a local file (uploaded, with progress) or a URL (passed as is). */
async function mediaUrlOf(ctx: RunContext, input: string, label: string): Promise<{ url: string; kind: MediaKind }> {
  if (isUrl(input)) return { url: input, kind: mediaKindOf(new URL(input).pathname, new Uint8Array(0)) };
  const bytes = new Uint8Array(await readFile(input));
  const detected = mediaKindOf(input, bytes.subarray(0, 16));
  // NSFW detection takes both kinds; every other feature takes its own (the service checks the bytes).
  const kind = ctx.feature.id === "image.nsfw-detection" ? detected : ctx.feature.media;
  const size = formatBytes(bytes.byteLength);
  const uploaded = await ctx.client.uploadBytes(kind, bytes, {
    onProgress: (sent, total) => ctx.progress.update(label, "uploading", total ? sent / total : 1, size),
  });
  return { url: uploaded.media_url, kind };
}

/**
 * Runs the feature on one input and writes its result. `output` is a file path, or a folder to put
 * the default name in (`outputIsDir`); absent, the result goes beside the input.
 */
export async function processOne(ctx: RunContext, input: string, output: string | undefined, outputIsDir: boolean, label = input): Promise<ItemResult> {
  if (output && !outputIsDir) assertNotInput(input, output);
  const media = await mediaUrlOf(ctx, input, label);
  const body: Record<string, unknown> = { ...ctx.params, [mediaFieldOf(ctx.feature)]: media.url };
  if (ctx.feature.id === "image.nsfw-detection" && body.media_type === undefined) body.media_type = media.kind;

  ctx.progress.update(label, "processing");
  const answer = await runWithRetry(ctx, label, body);
  const base = { input, feature: ctx.feature.id, credits_used: answer.credits_used, remaining_credits: answer.remaining_credits };
  if ("is_nsfw" in answer) return { ...base, is_nsfw: answer.is_nsfw, score: answer.score };

  let resultUrl: string;
  let jobId: string | undefined;
  let creditsUsed = answer.credits_used;
  if ("job_id" in answer) {
    jobId = answer.job_id;
    const job = await ctx.client.waitForJob(answer.job_id, {
      onProgress: (j) => ctx.progress.update(label, j.status === "queued" ? "queued" : "processing", j.progress / 100, `job ${j.job_id}`),
    });
    resultUrl = job.result_url!;
    // The accepted answer holds the reservation; the finished job says what was charged.
    creditsUsed = job.credits_used ?? creditsUsed;
  } else {
    resultUrl = answer.result_url;
  }

  const target = output && !outputIsDir ? output : defaultOutput(input, ctx.feature.id, resultUrl, output);
  assertNotInput(input, target);
  ctx.progress.update(label, "downloading");
  const { bytes } = await ctx.client.download(resultUrl);
  await writeFile(target, bytes);
  return { ...base, credits_used: creditsUsed, output: target, result_url: resultUrl, ...(jobId ? { job_id: jobId } : {}) };
}

/** The human line for a result (stdout). */
export function resultLine(r: ItemResult): string {
  const credits = `${r.credits_used} credit${r.credits_used === 1 ? "" : "s"}, ${r.remaining_credits} left`;
  if (r.is_nsfw !== undefined) return `${r.input}: ${r.is_nsfw ? "NSFW" : "not NSFW"} (score ${r.score ?? "n/a"}; ${credits})`;
  return `${r.input} -> ${r.output} (${credits})`;
}

/** Whether `p` is an existing folder (false when it does not exist). */
export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}
