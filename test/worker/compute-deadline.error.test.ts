// A sync request to the compute pool waits its timeout in all, not per instance: an instance that
// took the request and is alive but slow ends it when the time is up (another would be as slow
// again), while a dead instance costs nothing and the next one gets the time left. A job's hand-over
// is an acceptance, not work: an instance that does not accept in time is passed over.
import { env } from "cloudflare:test";
import { afterEach, expect, it, vi } from "vitest";
import { ApiError } from "../../schema/errors.ts";
import type { TaskRequest } from "../../schema/compute-protocol.ts";
import { dispatchTask } from "../../worker/services/compute.ts";

afterEach(() => vi.restoreAllMocks());

const SLOW = "http://10.0.0.1:9";
const DEAD = "http://10.0.0.2:9";
const OTHER_SLOW = "http://10.0.0.3:9";
const task: TaskRequest = { task_id: "t-1", feature: "image.face-blur", params: {}, media: { url: "https://media.example.com/a.png", internal: false } };

/** Instances by base URL: slow ones answer after `slowMs` (or when the Worker gives up), dead ones refuse the connection. */
function pool(slowMs: number) {
  const contacted: string[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    contacted.push(url.origin);
    if (url.origin === DEAD) throw new TypeError("connection refused");
    const signal = init?.signal;
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => resolve(new Response("done")), slowMs);
      signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        reject(signal.reason);
      }, { once: true });
    });
  });
  return contacted;
}

const withInstances = (...urls: string[]) => ({ ...env, COMPUTE_URLS: urls.join(",") });

it("two slow instances: the first holds the whole timeout, the second is not tried, compute_unavailable names the wait", async () => {
  const contacted = pool(10_000);
  const error = await dispatchTask(withInstances(SLOW, OTHER_SLOW), task, 1_000).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("compute_unavailable");
  expect((error as ApiError).message).toContain("within 1 s");
  expect(contacted).toHaveLength(1);
});

it("a dead instance first: the next one gets the time left and its answer is returned", async () => {
  const contacted = pool(300);
  const { response, instance } = await dispatchTask(withInstances(DEAD, SLOW), task, 1_000, { avoid: SLOW });
  expect(await response.text()).toBe("done");
  expect(instance).toBe(SLOW);
  expect(contacted).toEqual([DEAD, SLOW]);
});

it("a dead instance first and a slow one after it: one timeout in all, not one each", async () => {
  const contacted = pool(10_000);
  const error = await dispatchTask(withInstances(DEAD, SLOW), task, 1_000, { avoid: SLOW }).catch((e: unknown) => e);
  expect((error as ApiError).code).toBe("compute_unavailable");
  expect(contacted).toEqual([DEAD, SLOW]);
});

it("a job's hand-over: an instance that does not accept in time is passed over, the next gets a whole timeout", async () => {
  const contacted = pool(10_000);
  const job = { ...task, callback_url: "https://obscura.example.com/internal/jobs/t-1" };
  const error = await dispatchTask(withInstances(SLOW, OTHER_SLOW), job, 500).catch((e: unknown) => e);
  expect((error as ApiError).code).toBe("compute_unavailable");
  expect((error as ApiError).message).toContain("No compute instance could take");
  expect(contacted.sort()).toEqual([SLOW, OTHER_SLOW]);
});
