// Node-only helpers: local files in and out, and a client configured from the environment
// (OBSCURA_API_KEY, OBSCURA_BASE_URL), as the CLI will use it.
import { readFile, writeFile } from "node:fs/promises";
import { createObscura, mediaKindOf, type Obscura, type MediaKind, type Uploaded } from "./index.ts";

export * from "./index.ts";

export function obscuraFromEnv(env: Record<string, string | undefined> = process.env): Obscura {
  return createObscura({ apiKey: env.OBSCURA_API_KEY ?? "", baseUrl: env.OBSCURA_BASE_URL });
}

/** Uploads a local file (upload ticket + PUT) and returns the media URL to pass to a feature. */
export async function uploadFile(client: Obscura, path: string, opts: { kind?: MediaKind; signal?: AbortSignal } = {}): Promise<Uploaded> {
  const bytes = new Uint8Array(await readFile(path));
  return client.uploadBytes(opts.kind ?? mediaKindOf(path, bytes.subarray(0, 16)), bytes, { signal: opts.signal });
}

/** Downloads a result_url to a local file. */
export async function downloadTo(client: Obscura, url: string, path: string): Promise<void> {
  const { bytes } = await client.download(url);
  await writeFile(path, bytes);
}
