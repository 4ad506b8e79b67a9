import { eq } from "drizzle-orm";
import { accounts } from "../../schema/tables.ts";
import { randomId } from "../../schema/signing.ts";
import type { Tier } from "../../schema/tiers.ts";
import type { Db } from "./db.ts";

export type Account = typeof accounts.$inferSelect;

export interface AccountInput {
  email: string;
  name?: string | null;
  tier?: Tier;
  dailyLimit?: number | null;
}

/** Returns the account with this e-mail, creating it first when it does not exist. */
export async function ensureAccount(db: Db, input: AccountInput): Promise<Account> {
  const email = input.email.trim().toLowerCase();
  await db
    .insert(accounts)
    .values({ id: `acct_${randomId(12)}`, email, name: input.name ?? null, tier: input.tier ?? "free", dailyLimit: input.dailyLimit ?? null })
    .onConflictDoNothing({ target: accounts.email });
  const updates: Partial<Account> = {};
  if (input.tier) updates.tier = input.tier;
  if (input.dailyLimit !== undefined) updates.dailyLimit = input.dailyLimit;
  if (input.name) updates.name = input.name;
  if (Object.keys(updates).length) await db.update(accounts).set(updates).where(eq(accounts.email, email));
  return (await db.query.accounts.findFirst({ where: eq(accounts.email, email) }))!;
}
