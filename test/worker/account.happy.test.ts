// GET /me, GET /me/credits, GET /features: exact bodies for a real account.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FEATURES } from "../../schema/features.ts";
import { createApiKey, revokeApiKey } from "../../worker/services/keys.ts";
import { captureReservation, refundReservation, reserveCredits } from "../../worker/services/ledger.ts";
import { api, createUser, db } from "./helpers.ts";

describe("GET /api/v2/me", () => {
  it("returns the account record with the balance", async () => {
    const u = await createUser({ credits: 42, name: "Ada", tier: "pro" });
    const res = await api("/me", { key: u.key });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ success: true, id: u.account.id, name: "Ada", email: u.account.email, is_developer: true, available_credits: 42, tier: "pro" });
  });

  it("a new account without credits has 0 available and a null name", async () => {
    const u = await createUser();
    expect(await (await api("/me", { key: u.key })).json()).toMatchObject({ name: null, available_credits: 0, tier: "free" });
  });
});

describe("GET /api/v2/me/credits", () => {
  const credits = async (key: string) => (await (await api("/me/credits", { key })).json()) as Record<string, unknown>;

  it("stays consistent through grant, reserve, capture and refund", async () => {
    const u = await createUser({ credits: 10 });
    expect(await credits(u.key)).toEqual({ success: true, available_credits: 10, total_purchased: 10, total_spent: 0, reserved_credits: 0, active_api_keys: 1 });

    const r1 = await reserveCredits(env.DB, u.account.id, 4, "video.face-blur");
    expect(r1.remaining).toBe(6);
    expect(await credits(u.key)).toMatchObject({ available_credits: 6, total_purchased: 10, total_spent: 0, reserved_credits: 4 });

    await captureReservation(env.DB, r1);
    expect(await credits(u.key)).toMatchObject({ available_credits: 6, total_purchased: 10, total_spent: 4, reserved_credits: 0 });

    const r2 = await reserveCredits(env.DB, u.account.id, 3, "image.portrait-enhance");
    expect(await credits(u.key)).toMatchObject({ available_credits: 3, total_spent: 4, reserved_credits: 3 });
    await refundReservation(env.DB, r2.id);
    expect(await credits(u.key)).toMatchObject({ available_credits: 6, total_purchased: 10, total_spent: 4, reserved_credits: 0 });
  });

  it("counts active keys only", async () => {
    const u = await createUser();
    const second = await createApiKey(db(), u.account.id, "second");
    await createApiKey(db(), u.account.id, "third");
    expect((await credits(u.key)).active_api_keys).toBe(3);
    await revokeApiKey(db(), u.account.id, second.id);
    expect((await credits(u.key)).active_api_keys).toBe(2);
  });
});

describe("GET /api/v2/features", () => {
  it("lists every feature with its dotted id, name, path, price and parameters", async () => {
    const u = await createUser();
    const res = await api("/features", { key: u.key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; features: Array<Record<string, unknown>> };
    expect(body.success).toBe(true);
    expect(body.features.map((f) => f.id)).toEqual([
      "video.background-blur", "video.face-blur", "video.license-plate-blur", "video.object-removal", "video.blur-anything", "video.face-anonymization",
      "image.blur-background", "image.remove-background", "image.portrait-enhance", "image.face-blur", "image.license-plate-blur", "image.blur-anything",
      "image.nsfw-detection",
    ]);
    for (const f of body.features) {
      const def = FEATURES.find((x) => x.id === f.id)!;
      expect(f).toMatchObject({ name: def.name, method: "POST", path: `/api/v2${def.path}`, credits: def.credits, unit: def.unit === "request" ? "request" : "video_10s", media: def.media });
      expect(f.id).toMatch(/^(image|video)\.[a-z-]+$/);
      // Compute is down in these tests, so nothing is available right now.
      expect(f.available).toBe(false);
      expect((f.parameters as { type: string }).type).toBe("object");
    }
    const objectRemoval = body.features.find((f) => f.id === "video.object-removal")!.parameters as { properties: Record<string, { maxLength?: number }>; required: string[] };
    expect(objectRemoval.properties.object_text!.maxLength).toBe(40);
    expect(objectRemoval.required).toEqual(expect.arrayContaining(["video_url", "object_text"]));
  });
});
