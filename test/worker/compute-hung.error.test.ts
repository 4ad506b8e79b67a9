// A hung instance does not hold a synchronous request for two minutes: an instance that takes the
// task but then answers neither it nor /healthz (frozen, SIGSTOP) is given up on after
// COMPUTE_HUNG_AFTER_S (1 s in these tests, 30 s by default): 503 compute_unavailable with
// Retry-After, nothing charged. One that is slow but answers /healthz keeps the request.
// Its own file: the Worker caches the pool's state per isolate.
import { afterEach, expect, it, vi } from "vitest";
import { balance, createUser, postJson } from "./helpers.ts";
import { installFakeCompute } from "./fake-compute.ts";

afterEach(() => vi.restoreAllMocks());

/** A task that never answers, until the Worker gives up on it (its fetch is aborted). */
const never = (signal: AbortSignal | null | undefined) =>
  new Promise<Response>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));

it("a frozen instance (no answer to the task nor /healthz): 503 compute_unavailable with Retry-After, refunded", async () => {
  installFakeCompute();
  const answer = vi.mocked(globalThis.fetch).getMockImplementation()!;
  let aborted = 0;
  vi.mocked(globalThis.fetch).mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url).pathname;
    if (path === "/healthz") throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    if (path === "/v1/tasks") {
      init?.signal?.addEventListener("abort", () => {
        aborted++;
      });
      return never(init?.signal);
    }
    return answer(input, init);
  });
  const u = await createUser({ credits: 10 });
  const res = await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png" });
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("5");
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("compute_unavailable");
  expect(aborted).toBe(1);
  expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
});

it("a slow instance that answers /healthz keeps the request: 200 after 2 s, charged once", async () => {
  const fake = installFakeCompute();
  const png = fake.onTask;
  fake.onTask = async (task) => {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return png(task);
  };
  const u = await createUser({ credits: 10 });
  const res = await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png" });
  expect(res.status).toBe(200);
  expect(await balance(u.account.id)).toEqual({ available: 9, purchased: 10, spent: 1, reserved: 0 });
});
