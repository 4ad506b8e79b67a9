/** @jsxImportSource hono/jsx */
// The dashboard's pages, rendered on the server. Every form works without JavaScript except the
// "try it" panel; the page script only adds the copy button and that panel.
import type { Child } from "hono/jsx";
import type { Account } from "../services/accounts.ts";
import { PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, SIGN_UP_CREDITS } from "./auth.ts";
import { balanceEffect, type JobRow, type Overview, type Usage } from "./data.ts";

export const ASSET_VERSION = "1";
type Nav = "overview" | "keys" | "credits" | "jobs" | "try";
const NAV: [Nav, string, string][] = [
  ["overview", "Overview", "/dashboard"],
  ["keys", "API keys", "/dashboard/keys"],
  ["credits", "Credits", "/dashboard/credits"],
  ["jobs", "Jobs", "/dashboard/jobs"],
  ["try", "Try it", "/dashboard/try"],
];

/** "2026-11-20 14:03 UTC": unambiguous, and the same for every reader. */
export function when(iso: string | null | undefined): string {
  if (!iso) return "never";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function Doc(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Obscura dashboard`}</title>
        <link rel="stylesheet" href={`/dashboard/assets/dashboard.css?v=${ASSET_VERSION}`} />
        <script src={`/dashboard/assets/dashboard.js?v=${ASSET_VERSION}`} defer></script>
      </head>
      <body>{props.children}</body>
    </html>
  );
}

export function Page(props: { title: string; nav: Nav; account: Account; csrf: string; children: Child }) {
  return (
    <Doc title={props.title}>
      <a class="skip" href="#main">Skip to content</a>
      <header class="top">
        <a class="brand" href="/dashboard">Obscura</a>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.map(([id, label, href]) => (
              <li><a href={href} aria-current={id === props.nav ? "page" : undefined}>{label}</a></li>
            ))}
            <li><a href="/api/v2/docs">API reference</a></li>
          </ul>
        </nav>
        <form method="post" action="/dashboard/sign-out" class="signout">
          <input type="hidden" name="_csrf" value={props.csrf} />
          <span class="who" data-testid="account-email">{props.account.email}</span>
          <button type="submit" class="link">Sign out</button>
        </form>
      </header>
      <main id="main" data-csrf={props.csrf}>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </Doc>
  );
}

function Alert(props: { error?: string; notice?: string }) {
  return (
    <>
      {props.error ? <p class="alert error" role="alert" id="form-error">{props.error}</p> : null}
      {props.notice ? <p class="alert notice" role="status">{props.notice}</p> : null}
    </>
  );
}

export function AuthPage(props: { mode: "sign-in" | "sign-up"; email?: string; error?: string; notice?: string }) {
  const signIn = props.mode === "sign-in";
  const title = signIn ? "Sign in" : "Create an account";
  return (
    <Doc title={title}>
      <main id="main" class="auth">
        <p class="brand">Obscura</p>
        <h1>{title}</h1>
        <Alert error={props.error} notice={props.notice} />
        <form method="post" action={`/dashboard/${props.mode}`} class="stack" aria-describedby={props.error ? "form-error" : undefined}>
          <label for="email">E-mail</label>
          <input id="email" name="email" type="email" autocomplete="email" required value={props.email ?? ""} autofocus={!props.email} />
          <label for="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete={signIn ? "current-password" : "new-password"}
            required
            minlength={signIn ? undefined : PASSWORD_MIN_LENGTH}
            maxlength={PASSWORD_MAX_LENGTH}
            aria-describedby={signIn ? undefined : "password-help"}
            autofocus={!!props.email}
          />
          {signIn ? null : <p class="help" id="password-help">At least {PASSWORD_MIN_LENGTH} characters. New accounts are on the free plan with {SIGN_UP_CREDITS} free credits.</p>}
          <button type="submit">{signIn ? "Sign in" : "Create account"}</button>
        </form>
        <p>{signIn ? <>No account yet? <a href="/dashboard/sign-up">Create one</a>.</> : <>Already have an account? <a href="/dashboard/sign-in">Sign in</a>.</>}</p>
      </main>
    </Doc>
  );
}

function UsageMeter(props: { usage: Usage }) {
  const u = props.usage;
  return (
    <section class="card" aria-labelledby="usage-h">
      <h2 id="usage-h">Requests today</h2>
      <p class="big"><span data-testid="usage-used">{u.used}</span> <span class="muted">of <span data-testid="usage-limit">{u.limit}</span></span></p>
      <meter min={0} max={u.limit} value={u.used} aria-label="Requests used today">{u.used} of {u.limit}</meter>
      <p class="muted">{u.remaining} left. The count resets at <time datetime={new Date(u.reset * 1000).toISOString()} data-testid="usage-reset">{when(new Date(u.reset * 1000).toISOString())}</time>. Every authenticated API request counts, job polling included.</p>
    </section>
  );
}

function Balance(props: { overview: Overview }) {
  const c = props.overview.credits;
  return (
    <section class="card" aria-labelledby="balance-h">
      <h2 id="balance-h">Credits</h2>
      <p class="big"><span data-testid="balance">{c.available}</span> <span class="muted">available</span></p>
      <dl class="facts">
        <dt>Total granted or purchased</dt><dd data-testid="total-purchased">{c.purchased}</dd>
        <dt>Total spent</dt><dd data-testid="total-spent">{c.spent}</dd>
        <dt>Reserved by running jobs</dt><dd data-testid="reserved">{c.reserved}</dd>
      </dl>
    </section>
  );
}

export function OverviewPage(props: { account: Account; csrf: string; overview: Overview }) {
  const o = props.overview;
  return (
    <Page title="Overview" nav="overview" account={props.account} csrf={props.csrf}>
      <div class="grid">
        <Balance overview={o} />
        <UsageMeter usage={o.usage} />
        <section class="card" aria-labelledby="keys-h">
          <h2 id="keys-h">API keys</h2>
          <p class="big"><span data-testid="active-keys">{o.activeKeys}</span> <span class="muted">active</span></p>
          <p><a href="/dashboard/keys">Manage keys</a></p>
        </section>
        <section class="card" aria-labelledby="plan-h">
          <h2 id="plan-h">Plan</h2>
          <p class="big" data-testid="tier">{props.account.tier}</p>
          <p class="muted">Base URL: <code>/api/v2</code>. Send <code>Authorization: Bearer &lt;API_KEY&gt;</code>.</p>
        </section>
      </div>
    </Page>
  );
}

export interface KeyRow {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function KeysPage(props: { account: Account; csrf: string; keys: KeyRow[]; created?: { key: string; name: string | null }; error?: string; notice?: string; name?: string }) {
  const active = props.keys.filter((k) => !k.revokedAt).length;
  return (
    <Page title="API keys" nav="keys" account={props.account} csrf={props.csrf}>
      <Alert error={props.error} notice={props.notice} />
      {props.created ? (
        <section class="card created" aria-labelledby="created-h" role="status">
          <h2 id="created-h">Key {props.created.name ? `"${props.created.name}"` : ""} created</h2>
          <p><strong>Copy it now: it is shown only this once.</strong> The service stores only a hash of it.</p>
          <div class="secret">
            <code id="new-key" data-testid="new-key">{props.created.key}</code>
            <button type="button" data-copy="new-key">Copy</button>
            <span class="copied" aria-live="polite"></span>
          </div>
        </section>
      ) : null}
      <section class="card" aria-labelledby="create-h">
        <h2 id="create-h">Create a key</h2>
        <form method="post" action="/dashboard/keys" class="inline">
          <input type="hidden" name="_csrf" value={props.csrf} />
          <label for="key-name">Name</label>
          <input id="key-name" name="name" type="text" required maxlength={64} placeholder="e.g. production server" value={props.name ?? ""} />
          <button type="submit">Create key</button>
        </form>
      </section>
      <section aria-labelledby="list-h">
        <h2 id="list-h">Your keys <span class="muted">(<span data-testid="active-key-count">{active}</span> active)</span></h2>
        {props.keys.length === 0 ? (
          <p class="muted">No keys yet.</p>
        ) : (
          <table data-testid="keys-table">
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="sr">Actions</span></th></tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr data-key-id={k.id}>
                  <td>{k.name ?? <span class="muted">(unnamed)</span>}</td>
                  <td><code>{k.prefix}…</code></td>
                  <td>{when(k.createdAt)}</td>
                  <td>{when(k.lastUsedAt)}</td>
                  <td>{k.revokedAt ? <span class="badge failed">revoked {when(k.revokedAt)}</span> : <span class="badge completed">active</span>}</td>
                  <td>
                    {k.revokedAt ? null : (
                      <form method="post" action={`/dashboard/keys/${k.id}/revoke`} data-confirm={`Revoke the key ${k.name ?? k.prefix}? Requests using it will be refused at once.`}>
                        <input type="hidden" name="_csrf" value={props.csrf} />
                        <button type="submit" class="danger" aria-label={`Revoke key ${k.name ?? k.prefix}`}>Revoke</button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Page>
  );
}

export interface LedgerRow {
  id: string;
  kind: string;
  credits: number;
  memo: string | null;
  reservationId: string | null;
  createdAt: string;
}

const KIND_LABEL: Record<string, string> = { grant: "Grant", reserve: "Reserve", capture: "Charge (capture)", refund: "Refund" };

export function CreditsPage(props: { account: Account; csrf: string; overview: Overview; ledger: LedgerRow[]; ledgerLimit: number }) {
  return (
    <Page title="Credits and usage" nav="credits" account={props.account} csrf={props.csrf}>
      <div class="grid">
        <Balance overview={props.overview} />
        <UsageMeter usage={props.overview.usage} />
      </div>
      <section aria-labelledby="ledger-h">
        <h2 id="ledger-h">Ledger</h2>
        <p class="muted">
          Every credit movement, newest first. A request first <em>reserves</em> its price; on success the reservation is <em>captured</em> (spent), on failure it is <em>refunded</em>.
          The balance is grants + refunds − reservations, the same sum <code>GET /api/v2/me/credits</code> reports.
          {props.ledger.length >= props.ledgerLimit ? ` Showing the latest ${props.ledgerLimit} entries.` : ""}
        </p>
        {props.ledger.length === 0 ? <p class="muted">No entries yet.</p> : (
          <table data-testid="ledger-table">
            <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">What</th><th scope="col" class="num">Credits</th><th scope="col" class="num">Balance effect</th></tr></thead>
            <tbody>
              {props.ledger.map((e) => {
                const effect = balanceEffect(e.kind, e.credits);
                return (
                  <tr data-kind={e.kind}>
                    <td>{when(e.createdAt)}</td>
                    <td><span class={`badge ${e.kind}`}>{KIND_LABEL[e.kind] ?? e.kind}</span></td>
                    <td>{e.memo ?? ""}</td>
                    <td class="num">{e.credits}</td>
                    <td class="num">{effect > 0 ? `+${effect}` : effect < 0 ? `−${-effect}` : "0"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
    </Page>
  );
}

export function JobsPage(props: { account: Account; csrf: string; jobs: JobRow[]; limit: number }) {
  return (
    <Page title="Jobs" nav="jobs" account={props.account} csrf={props.csrf}>
      <p class="muted">The latest {props.limit} jobs (video requests, and image requests sent with <code>Prefer: respond-async</code>). Reload to refresh.</p>
      {props.jobs.length === 0 ? <p class="muted" data-testid="no-jobs">No jobs yet.</p> : (
        <table data-testid="jobs-table">
          <thead><tr><th scope="col">Job</th><th scope="col">Feature</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col" class="num">Credits</th><th scope="col">Created</th><th scope="col">Result</th></tr></thead>
          <tbody>
            {props.jobs.map((j) => (
              <tr data-job-id={j.job_id}>
                <td><code>{j.job_id}</code></td>
                <td class="nowrap"><code>{j.feature_id}</code></td>
                <td><span class={`badge ${j.status}`}>{j.status}</span></td>
                <td class="nowrap"><progress max={100} value={j.progress} aria-label={`Progress of ${j.job_id}`}>{j.progress}%</progress> {j.progress}%</td>
                <td class="num">{j.credits_used ?? ""}</td>
                <td class="nowrap">{when(j.created_at)}</td>
                <td>
                  {j.result_url ? <a href={j.result_url}>Download result</a> : j.error ? <span class="error-text">{j.error.code}: {j.error.message}</span> : <span class="muted">pending</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

export function TryPage(props: { account: Account; csrf: string; price: number; balance: number }) {
  return (
    <Page title="Try face blur" nav="try" account={props.account} csrf={props.csrf}>
      <p>
        Upload a photo and blur every face in it. This runs <code>POST /api/v2/images/face-blur</code> for your account through the same code as the API and is charged like it:
        {" "}{props.price} credit per image, only on success. Balance: <strong data-testid="try-balance">{props.balance}</strong> credits.
      </p>
      <form id="try-form" class="stack narrow" action="/dashboard/api/face-blur" method="post" enctype="multipart/form-data">
        <label for="try-image">Image (PNG, JPEG, WEBP or HEIC)</label>
        <input id="try-image" name="image" type="file" accept="image/png,image/jpeg,image/webp,image/heic,.heic" required />
        <label for="try-strength">Blur strength: <output id="try-strength-value" for="try-strength">0.7</output></label>
        <input id="try-strength" name="blur_strength" type="range" min="0" max="1" step="0.05" value="0.7" />
        <label class="check"><input id="try-pixelated" name="pixelated" type="checkbox" value="true" /> Pixelate instead of blurring</label>
        <button type="submit" id="try-submit">Blur faces</button>
      </form>
      <p id="try-status" class="alert" role="status" aria-live="polite" hidden></p>
      <div class="compare">
        <figure>
          <figcaption>Before</figcaption>
          <p class="placeholder">Choose an image to see it here.</p>
          <img id="try-before" alt="The uploaded image" hidden />
        </figure>
        <figure>
          <figcaption>After</figcaption>
          <p class="placeholder">The blurred result appears here.</p>
          <img id="try-after" alt="The image with faces blurred" hidden />
          <p><a id="try-result-link" hidden>Open the result</a></p>
        </figure>
      </div>
    </Page>
  );
}

export function MessagePage(props: { title: string; message: string; status: number }) {
  return (
    <Doc title={props.title}>
      <main id="main" class="auth">
        <p class="brand">Obscura</p>
        <h1>{props.title}</h1>
        <p class="alert error" role="alert">{props.message}</p>
        <p><a href="/dashboard">Back to the dashboard</a></p>
      </main>
    </Doc>
  );
}
