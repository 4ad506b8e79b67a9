import { ApiError } from "../../schema/errors.ts";

/** The ApiError code a promise rejects with, or "ok" when it resolves. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return "ok";
}
