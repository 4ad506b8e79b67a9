// Helpers for the dashboard tests: a cookie-carrying browser stand-in over SELF.fetch.
import { env as rawEnv, SELF } from "cloudflare:test";
import { expect } from "vitest";
import { randomId } from "../../schema/signing.ts";
import type { Env } from "../../worker/env.ts";
import { createDb } from "../../worker/services/db.ts";

export const env = rawEnv as unknown as Env;
export const ORIGIN = "http://localhost";
export const PASSWORD = "correct horse battery staple";
export const db = () => createDb(env.DB);
export const uniqueEmail = (tag = "dev") => `${tag}-${randomId(8).toLowerCase()}@example.org`;

/** A 1x1 PNG. */
export const TINY_PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);

/** One browser: keeps the session cookie and sends same-origin POSTs like a page would. */
export class Browser {
  cookie: string | null = null;
  lastSetCookie: string | null = null;

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookie && !headers.has("cookie")) headers.set("cookie", this.cookie);
    const res = await SELF.fetch(`${ORIGIN}${path}`, { ...init, headers, redirect: "manual" });
    const set = res.headers.get("set-cookie");
    if (set) {
      this.lastSetCookie = set;
      const [pair] = set.split(";");
      this.cookie = /=$/.test(pair!) || /Max-Age=0/i.test(set) ? null : pair!;
    }
    return res;
  }

  get(path: string): Promise<Response> {
    return this.fetch(path);
  }

  /** A form POST from the dashboard's own page (Origin set, as browsers do). */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(path, { method: "POST", body: new URLSearchParams(fields), headers: { origin: ORIGIN, ...headers } });
  }

  async csrf(path = "/dashboard"): Promise<string> {
    const html = await (await this.get(path)).text();
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    expect(token, `no CSRF token on ${path}`).toBeTruthy();
    return token!;
  }

  async signUp(email = uniqueEmail(), password = PASSWORD): Promise<{ email: string; res: Response }> {
    const res = await this.post("/dashboard/sign-up", { email, password });
    return { email, res };
  }

  async signIn(email: string, password = PASSWORD): Promise<Response> {
    return this.post("/dashboard/sign-in", { email, password });
  }

  /** Creates a key through the form; returns the plaintext shown on the page. */
  async createKey(name: string): Promise<string> {
    const res = await this.post("/dashboard/keys", { name, _csrf: await this.csrf("/dashboard/keys") });
    expect(res.status).toBe(201);
    const key = /data-testid="new-key">([^<]+)</.exec(await res.text())?.[1];
    expect(key).toMatch(/^obs_live_/);
    return key!;
  }
}

/** A signed-up browser. */
export async function newDeveloper(): Promise<{ browser: Browser; email: string }> {
  const browser = new Browser();
  const { email, res } = await browser.signUp();
  expect(res.status).toBe(303);
  return { browser, email };
}

export function apiGet(path: string, key: string): Promise<Response> {
  return SELF.fetch(`${ORIGIN}/api/v2${path}`, { headers: { authorization: `Bearer ${key}` } });
}
