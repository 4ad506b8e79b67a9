/** @jsxImportSource hono/jsx */
// The developer dashboard under /dashboard: sign-up and sign-in with a password, API keys,
// credits and usage, jobs, and a "try it" panel. Server-rendered; sessions in a __Host- cookie.
//
// Defences: every POST must come from this origin (Origin, or Sec-Fetch-Site for browsers that
// omit Origin) and, once signed in, carry the session's CSRF token (form field `_csrf`, or the
// X-CSRF-Token header for the try-it fetch). The cookie is HttpOnly, Secure, SameSite=Lax.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { ApiError } from "../../schema/errors.ts";
import { featureById, priceOf } from "../../schema/features.ts";
import { constantTimeEqual } from "../../schema/signing.ts";
import type { AppEnv, Env, Vars } from "../env.ts";
import { errorResponse, onError } from "../errors.ts";
import { rateLimit } from "../middleware/rate-limit.ts";
import { handleFeature } from "../routes/features.ts";
import { createDb } from "../services/db.ts";
import { createApiKey, revokeApiKey } from "../services/keys.ts";
import { creditSummary } from "../services/ledger.ts";
import { DASHBOARD_CSS, DASHBOARD_JS } from "./assets.ts";
import {
  EMAIL_PATTERN, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, SESSION_TTL_MS, createSession, endSession, findSession, normalizeEmail, signIn, signUp,
  type DashboardSession,
} from "./auth.ts";
import { LEDGER_PAGE, RECENT_JOBS, activeKeyCount, keysOf, ledgerOf, overviewOf, recentJobs } from "./data.ts";
import { AuthPage, CreditsPage, JobsPage, KeysPage, MessagePage, OverviewPage, TryPage, when } from "./views.tsx";

type DashEnv = { Bindings: Env; Variables: Vars & { session: DashboardSession } };
type DashContext = Context<DashEnv>;

/** Cookie name without its prefix; hono adds `__Host-` (Secure, Path=/, no Domain). */
export const SESSION_COOKIE = "obscura_session";
export const SESSION_COOKIE_NAME = `__Host-${SESSION_COOKIE}`;
export const MAX_ACTIVE_KEYS = 25;
const TRY_FEATURE = featureById("image.face-blur")!;

const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Frame-Options": "DENY",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "Cache-Control": "no-store",
};

/**
 * Secure cookies are only kept by browsers on https and on loopback (http://localhost,
 * http://127.0.0.1 count as secure contexts), so sign-in is refused elsewhere rather than
 * falling back to a cookie that travels in clear text.
 */
function isSecureContext(c: DashContext): boolean {
  const url = new URL(c.req.url);
  return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

function html(c: DashContext, node: unknown, status = 200): Response | Promise<Response> {
  return c.html("<!doctype html>" + String(node), status as 200);
}

function startSession(c: DashContext, token: string, expires: Date): void {
  setCookie(c, SESSION_COOKIE, token, { prefix: "host", httpOnly: true, secure: true, sameSite: "Lax", path: "/", expires, maxAge: Math.floor(SESSION_TTL_MS / 1000) });
}

/** POSTs from another origin are refused before anything else runs. */
const sameOrigin: MiddlewareHandler<DashEnv> = async (c, next) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD") {
    const origin = c.req.header("origin");
    const site = c.req.header("sec-fetch-site");
    const ok = origin ? origin === new URL(c.req.url).origin : site === "same-origin";
    if (!ok) return refuse(c, "This request did not come from the dashboard's own pages (cross-site request refused).");
  }
  await next();
};

function refuse(c: DashContext, message: string): Response | Promise<Response> {
  if (c.req.path.startsWith("/dashboard/api/")) return errorResponse("forbidden", message);
  return html(c, <MessagePage title="Request refused" message={message} status={403} />, 403);
}

/** Loads the session; pages send anonymous visitors to sign in, the JSON endpoint answers 401. */
const requireSession: MiddlewareHandler<DashEnv> = async (c, next) => {
  const db = createDb(c.env.DB);
  c.set("db", db);
  const session = await findSession(db, getCookie(c, SESSION_COOKIE, "host"));
  if (!session) {
    if (c.req.path.startsWith("/dashboard/api/")) throw new ApiError("unauthorized", "Sign in to the dashboard first (the session is missing or expired).");
    if (c.req.method === "GET") return c.redirect("/dashboard/sign-in", 303);
    return html(c, <MessagePage title="Signed out" message="Your session has expired or you signed out. Sign in again and retry." status={401} />, 401);
  }
  c.set("session", session);
  c.set("account", session.account);
  await next();
};

/** Every signed-in POST carries the session's CSRF token. */
const requireCsrfToken: MiddlewareHandler<DashEnv> = async (c, next) => {
  if (c.req.method === "POST") {
    let presented = c.req.header("x-csrf-token");
    if (presented === undefined && !c.req.path.startsWith("/dashboard/api/")) {
      const body = await c.req.parseBody();
      presented = typeof body._csrf === "string" ? body._csrf : undefined;
    }
    if (!presented || !constantTimeEqual(presented, c.get("session").csrfToken)) {
      return refuse(c, "The form's security token is missing or out of date. Reload the page and try again.");
    }
  }
  await next();
};

async function formField(c: DashContext, name: string): Promise<string> {
  const body = await c.req.parseBody();
  const value = body[name];
  return typeof value === "string" ? value : "";
}

export function registerDashboardRoutes(app: OpenAPIHono<AppEnv>): void {
  const dash = new Hono<DashEnv>();

  dash.onError((err, c) => {
    if (c.req.path.startsWith("/dashboard/api/")) return onError(err, c);
    console.error("dashboard error:", err.stack ?? err.message);
    return html(c, <MessagePage title="Something went wrong" message="The dashboard could not complete this request. Nothing was changed; please retry." status={500} />, 500);
  });
  dash.use("*", async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  });
  dash.use("*", sameOrigin);

  dash.get("/assets/dashboard.css", (c) => c.body(DASHBOARD_CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=3600" }));
  dash.get("/assets/dashboard.js", (c) => c.body(DASHBOARD_JS, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=3600" }));

  // ---- signing up, in and out -------------------------------------------------------------
  dash.get("/sign-in", async (c) => {
    if (await findSession(createDb(c.env.DB), getCookie(c, SESSION_COOKIE, "host"))) return c.redirect("/dashboard", 303);
    return html(c, <AuthPage mode="sign-in" notice={c.req.query("signed-out") !== undefined ? "You are signed out." : undefined} />);
  });
  dash.get("/sign-up", (c) => html(c, <AuthPage mode="sign-up" />));

  dash.post("/sign-up", async (c) => {
    const email = normalizeEmail(await formField(c, "email"));
    const password = await formField(c, "password");
    const again = (error: string, status: number) => html(c, <AuthPage mode="sign-up" email={email} error={error} />, status);
    if (!isSecureContext(c)) return again("Accounts need a secure connection: open the dashboard over https (or on localhost).", 400);
    if (!EMAIL_PATTERN.test(email) || email.length > 254) return again("Enter a valid e-mail address, for example name@example.com.", 400);
    if (password.length < PASSWORD_MIN_LENGTH) return again(`The password is too short: use at least ${PASSWORD_MIN_LENGTH} characters.`, 400);
    if (password.length > PASSWORD_MAX_LENGTH) return again(`The password is too long: use at most ${PASSWORD_MAX_LENGTH} characters.`, 400);
    const db = createDb(c.env.DB);
    const result = await signUp(db, c.env.DB, email, password, c.req.header("cf-connecting-ip") ?? null);
    if (!result.ok) {
      if (result.reason === "exists") return again("An account with this e-mail already exists. Sign in instead.", 409);
      if (result.reason === "operator_account") {
        return again("This e-mail belongs to an account an operator created for you. It cannot be claimed here: ask your operator for access.", 409);
      }
      return again("Too many accounts were created from your network in the last hour. Try again later.", 429);
    }
    const { token, expires } = await createSession(db, result.account.id);
    startSession(c, token, expires);
    return c.redirect("/dashboard", 303);
  });

  dash.post("/sign-in", async (c) => {
    const email = normalizeEmail(await formField(c, "email"));
    const password = await formField(c, "password");
    const again = (error: string, status: number) => html(c, <AuthPage mode="sign-in" email={email} error={error} />, status);
    if (!isSecureContext(c)) return again("Signing in needs a secure connection: open the dashboard over https (or on localhost).", 400);
    if (!email || !password) return again("Enter your e-mail and password.", 400);
    const db = createDb(c.env.DB);
    const result = await signIn(db, email, password.slice(0, PASSWORD_MAX_LENGTH + 1));
    if (!result.ok) {
      if (result.reason === "locked") {
        c.header("Retry-After", String(Math.max(1, Math.ceil((result.until - Date.now()) / 1000))));
        return again(`Too many failed sign-ins for this e-mail. It is locked until ${when(new Date(result.until).toISOString())}; try again then.`, 429);
      }
      return again("The e-mail or password is incorrect.", 401);
    }
    const { token, expires } = await createSession(db, result.account.id);
    startSession(c, token, expires);
    return c.redirect("/dashboard", 303);
  });

  // ---- signed-in pages ------------------------------------------------------------------------
  // Listed on each route (not as a wildcard) so no public route can fall under it by accident.
  const signedIn = [requireSession, requireCsrfToken] as const;

  dash.post("/sign-out", ...signedIn, async (c) => {
    await endSession(c.get("db"), c.get("session").tokenHash);
    deleteCookie(c, SESSION_COOKIE, { prefix: "host", path: "/", secure: true });
    return c.redirect("/dashboard/sign-in?signed-out", 303);
  });

  dash.get("/", ...signedIn, async (c) => {
    const account = c.get("account");
    return html(c, <OverviewPage account={account} csrf={c.get("session").csrfToken} overview={await overviewOf(c.env, c.get("db"), account)} />);
  });

  const keysPage = async (c: DashContext, extra: { created?: { key: string; name: string | null }; error?: string; notice?: string; name?: string } = {}, status = 200) => {
    const keys = await keysOf(c.get("db"), c.get("account").id);
    return html(c, <KeysPage account={c.get("account")} csrf={c.get("session").csrfToken} keys={keys} {...extra} />, status);
  };
  dash.get("/keys", ...signedIn, (c) => keysPage(c, c.req.query("revoked") !== undefined ? { notice: "The key was revoked. Requests with it are now refused." } : {}));

  dash.post("/keys", ...signedIn, async (c) => {
    const name = (await formField(c, "name")).trim();
    if (!name) return keysPage(c, { error: "Give the key a name, so you can tell your keys apart later." }, 400);
    if (name.length > 64) return keysPage(c, { error: "The key name is too long: at most 64 characters.", name }, 400);
    const db = c.get("db");
    const account = c.get("account");
    if ((await activeKeyCount(db, account.id)) >= MAX_ACTIVE_KEYS) {
      return keysPage(c, { error: `You have ${MAX_ACTIVE_KEYS} active keys, the most an account can have. Revoke one first.` }, 409);
    }
    const created = await createApiKey(db, account.id, name);
    // Rendered directly, never redirected to: the plaintext exists only in this one response.
    return keysPage(c, { created: { key: created.key, name: created.name } }, 201);
  });

  dash.post("/keys/:id/revoke", ...signedIn, async (c) => {
    const ok = await revokeApiKey(c.get("db"), c.get("account").id, c.req.param("id"));
    if (!ok) return keysPage(c, { error: "No active key with this id belongs to your account; it may already be revoked." }, 404);
    return c.redirect("/dashboard/keys?revoked", 303);
  });

  dash.get("/credits", ...signedIn, async (c) => {
    const account = c.get("account");
    const [overview, ledger] = await Promise.all([overviewOf(c.env, c.get("db"), account), ledgerOf(c.get("db"), account.id)]);
    return html(c, <CreditsPage account={account} csrf={c.get("session").csrfToken} overview={overview} ledger={ledger} ledgerLimit={LEDGER_PAGE} />);
  });

  dash.get("/jobs", ...signedIn, async (c) => {
    const account = c.get("account");
    return html(c, <JobsPage account={account} csrf={c.get("session").csrfToken} jobs={await recentJobs(c.env, c.get("db"), account.id)} limit={RECENT_JOBS} />);
  });

  dash.get("/try", ...signedIn, async (c) => {
    const account = c.get("account");
    const { available } = await creditSummary(c.env.DB, account.id);
    return html(c, <TryPage account={account} csrf={c.get("session").csrfToken} price={priceOf(TRY_FEATURE)} balance={available} />);
  });

  // The try-it panel's request: image face blur for the signed-in account through the API's own
  // handler (same validation, storage, pricing, ledger and daily limit), so no key lives in JS.
  dash.post("/api/face-blur", ...signedIn, rateLimit as unknown as MiddlewareHandler<DashEnv>, (c) => handleFeature(c as unknown as Context<AppEnv>, TRY_FEATURE));

  app.route("/dashboard", dash);
}
