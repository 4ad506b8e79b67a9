// Getting a task's media: the Worker's own signed URLs are trusted (the task itself is signed),
// everything else goes through the SSRF-guarded fetcher.
import type { TaskRequest } from "../../schema/compute-protocol.ts";
import { fetchMedia, fetchMediaToFile, fetchOptionsFor, type FetchMediaOptions } from "../media/fetch.ts";

function optionsFor(media: TaskRequest["media"], kind: "image" | "video", signal: AbortSignal): FetchMediaOptions {
  const base = { ...fetchOptionsFor(kind), signal };
  // The Worker is usually on a private or loopback address; its URL came in a signed task.
  return media.internal ? { ...base, policy: { checkUrl: (u: string) => new URL(u), isAllowedAddress: () => true } } : base;
}

export async function loadMediaBytes(media: TaskRequest["media"], kind: "image" | "video", signal: AbortSignal): Promise<Buffer> {
  return (await fetchMedia(media.url, optionsFor(media, kind, signal))).bytes;
}

export async function loadMediaFile(media: TaskRequest["media"], path: string, signal: AbortSignal): Promise<string> {
  await fetchMediaToFile(media.url, path, optionsFor(media, "video", signal));
  return path;
}
