// A fake compute service at the fetch level. The main Worker runs in the test's isolate, so a
// global fetch mock answers for COMPUTE_URLS (a dead port in these tests): /healthz, /v1/tasks
// and /v1/probe. Call installFakeCompute() in beforeEach; restore with vi.restoreAllMocks().
import { env } from "cloudflare:test";
import { vi } from "vitest";
import type { ComputeHealth, TaskRequest } from "../../schema/compute-protocol.ts";
import { FEATURES } from "../../schema/features.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from "../../schema/signing.ts";
import { makePng } from "./helpers.ts";

const COMPUTE = "http://127.0.0.1:9";

export interface FakeCompute {
  /** What compute answers to a task; the default is a processed PNG. */
  onTask: (task: TaskRequest) => Response | Promise<Response>;
  /** Feature ids /healthz reports (cached by the Worker for 15 s per isolate). */
  served: string[];
  /** What compute answers to a media probe; the default is a 21 s MP4. */
  onProbe: () => Response;
  /** Every task received, and whether it carried the signature headers. */
  tasks: Array<{ task: TaskRequest; signed: boolean }>;
}

export function installFakeCompute(): FakeCompute {
  const fake: FakeCompute = {
    served: FEATURES.map((f) => f.id as string).concat("video.nsfw-detection"),
    tasks: [],
    onTask: async () => new Response(await makePng(), { headers: { "content-type": "image/png" } }),
    onProbe: () => Response.json({ kind: "video", format: "mp4", duration_seconds: 21 }),
  };
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(COMPUTE)) return realFetch(input, init);
    const path = new URL(url).pathname;
    if (path === "/healthz") {
      const health: ComputeHealth = { ok: true, features: fake.served, models: {}, busy: 0, capacity: 4, jobs: [], completed: 0 };
      return Response.json(health);
    }
    if (path === "/v1/tasks") {
      const headers = new Headers(init?.headers);
      const task = JSON.parse(String(init?.body)) as TaskRequest;
      fake.tasks.push({ task, signed: !!headers.get(SIGNATURE_HEADER) && !!headers.get(TIMESTAMP_HEADER) });
      return fake.onTask(task);
    }
    if (path === "/v1/probe") return fake.onProbe();
    return new Response("not found", { status: 404 });
  });
  // Jobs are not dispatched for real: no background consumer races the tests.
  vi.spyOn(env.JOB_QUEUE, "send").mockResolvedValue(undefined as never);
  return fake;
}
