// Daily request counter of one account. A Durable Object, not KV: KV is eventually consistent
// (a write can take up to a minute to be seen elsewhere, and it has no atomic increment), so two
// concurrent requests could both read 99 and both pass a limit of 100. A Durable Object handles
// one request at a time, which makes the count exact. One object per account.
import { DurableObject } from "cloudflare:workers";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets (next 00:00 UTC). */
  reset: number;
}

const DAY_MS = 86_400_000;

export class RateLimiter extends DurableObject {
  /** Counts one request against `limit` in the current UTC day; refused requests do not count. */
  async hit(limit: number, now = Date.now()): Promise<RateDecision> {
    const day = Math.floor(now / DAY_MS);
    const reset = ((day + 1) * DAY_MS) / 1000;
    const stored = await this.ctx.storage.get<{ day: number; count: number }>("window");
    const count = stored && stored.day === day ? stored.count : 0;
    if (count >= limit) return { allowed: false, limit, remaining: 0, reset };
    await this.ctx.storage.put("window", { day, count: count + 1 });
    return { allowed: true, limit, remaining: limit - count - 1, reset };
  }

  /** Today's usage without counting (dashboard). */
  async peek(limit: number, now = Date.now()): Promise<RateDecision> {
    const day = Math.floor(now / DAY_MS);
    const stored = await this.ctx.storage.get<{ day: number; count: number }>("window");
    const count = stored && stored.day === day ? stored.count : 0;
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), reset: ((day + 1) * DAY_MS) / 1000 };
  }
}
