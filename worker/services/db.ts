import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as tables from "../../schema/tables.ts";

export type Db = DrizzleD1Database<typeof tables>;

export function createDb(d1: D1Database): Db {
  return drizzle(d1, { schema: tables });
}

export function nowIso(now = Date.now()): string {
  return new Date(now).toISOString();
}
