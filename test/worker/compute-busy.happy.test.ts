// Busy is not dead: an instance that takes the connection but does not answer /healthz in time
// (its cores are all working) still gets the request, which waits for it. Its own file: the
// Worker caches the pool's state per isolate, and this state must be the first one seen.
import { afterEach, expect, it, vi } from "vitest";
import { balance, createUser, postJson } from "./helpers.ts";
import { installFakeCompute } from "./fake-compute.ts";

afterEach(() => vi.restoreAllMocks());

it("an instance too busy to answer /healthz in 3 s still takes the image request: 200, charged once", async () => {
  const fake = installFakeCompute();
  const answer = vi.mocked(globalThis.fetch).getMockImplementation()!;
  vi.mocked(globalThis.fetch).mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname === "/healthz") throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
    return answer(input, init);
  });
  const u = await createUser({ credits: 10 });
  const res = await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png" });
  expect(res.status).toBe(200);
  expect(fake.tasks).toHaveLength(1);
  expect(await balance(u.account.id)).toEqual({ available: 9, purchased: 10, spent: 1, reserved: 0 });
});
