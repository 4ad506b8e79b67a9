// API keys: high-entropy, prefixed, stored only as SHA-256 hashes, shown once.
import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "../../schema/tables.ts";
import { constantTimeEqual, randomId, sha256Hex } from "../../schema/signing.ts";
import { nowIso, type Db } from "./db.ts";

export const KEY_PREFIX = "obs_live_";
/** 32 random bytes: far beyond guessing, so a fast hash (not a slow KDF) is the right store. */
const KEY_BYTES = 32;
const KEY_PATTERN = /^obs_live_[A-Za-z0-9_-]{43}$/;

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
  name: string | null;
  createdAt: string;
}

export async function createApiKey(db: Db, accountId: string, name: string | null): Promise<CreatedKey> {
  const key = KEY_PREFIX + randomId(KEY_BYTES);
  const row = { id: `key_${randomId(12)}`, accountId, name, prefix: key.slice(0, KEY_PREFIX.length + 6), hash: await sha256Hex(key), createdAt: nowIso() };
  await db.insert(apiKeys).values(row);
  return { id: row.id, key, prefix: row.prefix, name, createdAt: row.createdAt };
}

/** Finds the active key for a presented secret; null when malformed, unknown or revoked. */
export async function findActiveKey(db: Db, presented: string) {
  if (!KEY_PATTERN.test(presented)) return null;
  const hash = await sha256Hex(presented);
  const row = await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.hash, hash), isNull(apiKeys.revokedAt)) });
  // The lookup is by hash; the explicit comparison keeps the check constant-time.
  return row && constantTimeEqual(row.hash, hash) ? row : null;
}

export async function revokeApiKey(db: Db, accountId: string, keyId: string): Promise<boolean> {
  const result = await db
    .update(apiKeys)
    .set({ revokedAt: nowIso() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return result.length === 1;
}
