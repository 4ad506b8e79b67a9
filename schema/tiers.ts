// Plans: the daily request limit of each tier and what it allows.
export const TIERS = {
  free: { dailyLimit: 100, watermarkFree: false },
  pro: { dailyLimit: 1000, watermarkFree: true },
  /** Enterprise limits are set per account (accounts.daily_limit); this is the fallback. */
  enterprise: { dailyLimit: 10000, watermarkFree: true },
} as const;

export type Tier = keyof typeof TIERS;

export function dailyLimitFor(tier: Tier, accountLimit: number | null): number {
  return tier === "enterprise" && accountLimit != null ? accountLimit : TIERS[tier].dailyLimit;
}
