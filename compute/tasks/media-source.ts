// Getting a task's media: the Worker's own signed URLs are trusted (the task itself is signed),
// everything else goes through the SSRF-guarded fetcher.
import type { TaskRequest } from "../../schema/compute-protocol.ts";
import { ApiError } from "../../schema/errors.ts";
import { PROBE_FETCH_TIMEOUT_MS } from "../../schema/limits.ts";
import { fetchMedia, fetchMediaRange, fetchMediaToFile, fetchOptionsFor, type FetchMediaOptions } from "../media/fetch.ts";
import { copyContainerIndex } from "../video/container-index.ts";

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

/**
 * What probing needs of the media at `path`: its container index alone, fetched by range
 * (container-index.ts), or where the server does not serve ranges or the file needs more, all of it;
 * within PROBE_FETCH_TIMEOUT_MS in all, which answers before the Worker stops waiting for the probe.
 */
export async function loadMediaIndex(media: TaskRequest["media"], path: string, signal: AbortSignal): Promise<string> {
  const deadline = Date.now() + PROBE_FETCH_TIMEOUT_MS;
  const opts = () => ({ ...optionsFor(media, "video", signal), timeoutMs: Math.max(1, deadline - Date.now()) });
  // A server that refuses a range request outright gets the plain request too, whose answer stands.
  const indexed = await copyContainerIndex((start, end) => fetchMediaRange(media.url, start, end, opts()), path).catch((e) => {
    if (e instanceof ApiError && e.code === "media_unreachable") return false;
    throw e;
  });
  if (indexed) return path;
  signal.throwIfAborted();
  try {
    await fetchMediaToFile(media.url, path, opts());
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== "media_unreachable") throw e;
    throw new ApiError("media_unreachable", `${e.message} A video is priced from its container index, read by HTTP range requests; for this URL that was not enough (the server ignores ranges, or the file is a fragmented MP4), so the whole file had to be fetched first. Upload the video (POST /api/v2/uploads/video), or serve it with range requests.`);
  }
  return path;
}
