import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

it("answers unknown routes with the error envelope", async () => {
  const res = await SELF.fetch("http://localhost/nope");
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ error: { code: "not_found", message: expect.any(String), status: 404 } });
});
