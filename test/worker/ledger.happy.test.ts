// The credit ledger, called directly inside workerd: exact under concurrency, settlements are
// idempotent, and the derived totals always agree.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../schema/errors.ts";
import { captureReservation, creditSummary, grantCredits, refundReservation, refundStaleReservations, reserveCredits, settleReservation, STALE_RESERVATION_MS } from "../../worker/services/ledger.ts";
import worker from "../../worker/index.ts";
import { createScheduledController } from "cloudflare:test";
import { createTestJob, createUser, ledgerKinds } from "./helpers.ts";

describe("reserveCredits", () => {
  it("50 concurrent reservations with credits for 20: exactly 20 succeed, balance exactly 0", async () => {
    const u = await createUser({ credits: 20 });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => reserveCredits(env.DB, u.account.id, 1, "image.face-blur")));
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ApiError);
      expect((r.reason as ApiError).code).toBe("insufficient_credits");
    }
    expect(await creditSummary(env.DB, u.account.id)).toEqual({ available: 0, purchased: 20, spent: 0, reserved: 20 });
  });

  it("concurrent reservations of different sizes never take the balance below zero", async () => {
    const u = await createUser({ credits: 10 });
    const results = await Promise.allSettled([3, 3, 3, 3, 2, 2, 5, 1].map((n) => reserveCredits(env.DB, u.account.id, n, "mixed")));
    const reserved = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.credits] : []));
    const sum = reserved.reduce((a, b) => a + b, 0);
    expect(sum).toBeLessThanOrEqual(10);
    expect((await creditSummary(env.DB, u.account.id)).available).toBe(10 - sum);
  });

  it("reports the balance left after the reservation", async () => {
    const u = await createUser({ credits: 9 });
    const r = await reserveCredits(env.DB, u.account.id, 4, "video.face-blur");
    expect(r).toMatchObject({ credits: 4, remaining: 5 });
    expect(r.id).toMatch(/^res_/);
  });

  it("refuses with the price and the balance in the message", async () => {
    const u = await createUser({ credits: 2 });
    await expect(reserveCredits(env.DB, u.account.id, 3, "x")).rejects.toThrow("This request costs 3 credits and the account has 2.");
    expect(await ledgerKinds(u.account.id)).toEqual(["grant"]);
  });
});

describe("settleReservation", () => {
  it("is idempotent: settling twice, or refunding after capture, changes nothing", async () => {
    const u = await createUser({ credits: 10 });
    const r = await reserveCredits(env.DB, u.account.id, 4, "video.face-blur");
    await captureReservation(env.DB, r);
    const after = await creditSummary(env.DB, u.account.id);
    expect(after).toEqual({ available: 6, purchased: 10, spent: 4, reserved: 0 });
    await captureReservation(env.DB, r);
    await settleReservation(env.DB, r.id, 4);
    await refundReservation(env.DB, r.id);
    expect(await creditSummary(env.DB, u.account.id)).toEqual(after);
    expect((await ledgerKinds(u.account.id)).sort()).toEqual(["capture", "grant", "reserve"]);
  });

  it("a refund after a refund, or a capture after a refund, changes nothing", async () => {
    const u = await createUser({ credits: 10 });
    const r = await reserveCredits(env.DB, u.account.id, 4, "video.face-blur");
    await refundReservation(env.DB, r.id);
    await refundReservation(env.DB, r.id);
    await captureReservation(env.DB, r);
    expect(await creditSummary(env.DB, u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
  });

  it("a partial settlement captures what was used and refunds the rest, once", async () => {
    const u = await createUser({ credits: 10 });
    const r = await reserveCredits(env.DB, u.account.id, 6, "video.face-blur");
    await settleReservation(env.DB, r.id, 4);
    expect(await creditSummary(env.DB, u.account.id)).toEqual({ available: 6, purchased: 10, spent: 4, reserved: 0 });
    await settleReservation(env.DB, r.id, 2);
    await settleReservation(env.DB, r.id, 6);
    await refundReservation(env.DB, r.id);
    expect(await creditSummary(env.DB, u.account.id)).toEqual({ available: 6, purchased: 10, spent: 4, reserved: 0 });
  });

  it("never captures more than was reserved", async () => {
    const u = await createUser({ credits: 10 });
    const r = await reserveCredits(env.DB, u.account.id, 3, "video.face-blur");
    await settleReservation(env.DB, r.id, 50);
    expect(await creditSummary(env.DB, u.account.id)).toEqual({ available: 7, purchased: 10, spent: 3, reserved: 0 });
  });

  it("20 concurrent settlements of one reservation settle it exactly once", async () => {
    const u = await createUser({ credits: 10 });
    const r = await reserveCredits(env.DB, u.account.id, 5, "video.face-blur");
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? refundReservation(env.DB, r.id) : settleReservation(env.DB, r.id, 3))));
    const s = await creditSummary(env.DB, u.account.id);
    expect(s.reserved).toBe(0);
    expect(s.available + s.spent).toBe(10);
    expect([0, 3]).toContain(s.spent);
  });

  it("settling an unknown reservation does nothing", async () => {
    const u = await createUser({ credits: 3 });
    await settleReservation(env.DB, "res_unknown", 3);
    expect(await ledgerKinds(u.account.id)).toEqual(["grant"]);
  });
});

describe("grantCredits", () => {
  it("accepts only positive whole numbers", async () => {
    const u = await createUser();
    for (const bad of [0, -5, 1.5, Number.NaN]) await expect(grantCredits(env.DB, u.account.id, bad, "bad")).rejects.toThrow("a grant must be a positive whole number of credits");
    await grantCredits(env.DB, u.account.id, 5, "ok");
    await grantCredits(env.DB, u.account.id, 7, "ok");
    expect(await creditSummary(env.DB, u.account.id)).toEqual({ available: 12, purchased: 12, spent: 0, reserved: 0 });
  });
});

describe("stale reservations (the scheduled sweep)", () => {
  it("refunds a sync reservation left unsettled past the limit, once; leaves young ones, settled ones and jobs alone", async () => {
    const u = await createUser({ credits: 20 });
    const dead = await reserveCredits(env.DB, u.account.id, 3, "image.face-blur"); // its request died
    const settled = await reserveCredits(env.DB, u.account.id, 2, "image.face-blur");
    await captureReservation(env.DB, settled);
    const { reservation: ofJob } = await createTestJob(u, { credits: 4 });
    const young = await reserveCredits(env.DB, u.account.id, 1, "image.face-blur");
    // Age every entry but the young reservation past the limit.
    const old = new Date(Date.now() - STALE_RESERVATION_MS - 60_000).toISOString();
    await env.DB.prepare("UPDATE ledger_entries SET created_at = ?1 WHERE account_id = ?2 AND id != ?3").bind(old, u.account.id, young.id).run();
    expect(await creditSummary(env.DB, u.account.id)).toMatchObject({ available: 10, reserved: 8, spent: 2 });

    // Through the Worker's own scheduled handler, as the cron runs it.
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/15 * * * *" }), env);
    expect(await creditSummary(env.DB, u.account.id)).toMatchObject({ available: 13, reserved: 5, spent: 2 });
    // A second sweep and a late capture by the dead request change nothing.
    expect(await refundStaleReservations(env.DB)).toBe(0);
    await captureReservation(env.DB, dead);
    expect(await creditSummary(env.DB, u.account.id)).toMatchObject({ available: 13, reserved: 5, spent: 2 });
    expect(ofJob.credits).toBe(4);
  });
});
