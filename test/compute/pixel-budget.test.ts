// The instance's budget of decoded pixels (compute/pixel-budget.ts): images that together would
// exceed it wait their turn, first come first served; one larger than the whole budget runs alone;
// a waiter that gives up leaves the line without holding anything.
import { describe, expect, it } from "vitest";
import { BYTES_PER_PIXEL, PixelBudget } from "../../compute/pixel-budget.ts";

const MP = 1_000_000;
const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  await new Promise((r) => setTimeout(r, 5));
  return done;
};

describe("PixelBudget", () => {
  it("lets images in side by side while they fit, and the next one when one is done", async () => {
    const budget = new PixelBudget(30 * MP * BYTES_PER_PIXEL);
    const a = await budget.reserve(12 * MP);
    const b = await budget.reserve(12 * MP);
    const c = budget.reserve(12 * MP);
    expect(await settled(c)).toBe(false);
    expect(budget.used).toBe(24 * MP * BYTES_PER_PIXEL);
    a();
    a(); // a second release changes nothing
    const release = await c;
    expect(budget.used).toBe(24 * MP * BYTES_PER_PIXEL);
    b();
    release();
    expect(budget.used).toBe(0);
  });

  it("runs an image larger than the whole budget alone, and keeps its turn ahead of smaller ones", async () => {
    const budget = new PixelBudget(20 * MP * BYTES_PER_PIXEL);
    const small = await budget.reserve(2 * MP);
    const huge = budget.reserve(50 * MP);
    const later = budget.reserve(1 * MP); // would fit now, but waits behind the huge one
    expect(await settled(huge)).toBe(false);
    expect(await settled(later)).toBe(false);
    small();
    const releaseHuge = await huge;
    expect(budget.used).toBe(budget.bytes);
    expect(await settled(later)).toBe(false);
    releaseHuge();
    (await later)();
    expect(budget.used).toBe(0);
  });

  it("an aborted wait rejects with the reason, holds nothing, and lets the ones behind it in", async () => {
    const budget = new PixelBudget(10 * MP * BYTES_PER_PIXEL);
    const first = await budget.reserve(8 * MP);
    const abort = new AbortController();
    const big = budget.reserve(9 * MP, abort.signal);
    const small = budget.reserve(2 * MP);
    abort.abort(new Error("client went away"));
    await expect(big).rejects.toThrow("client went away");
    (await small)();
    first();
    expect(budget.used).toBe(0);
    await expect(budget.reserve(1, abort.signal)).rejects.toThrow("client went away");
  });
});
