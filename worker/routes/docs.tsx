/** @jsxImportSource hono/jsx */
// GET /api/v2/openapi.json (OpenAPI 3.1 from the zod schemas) and GET /api/v2/docs, a page
// rendered on the server from that same document: no scripts, fonts or styles from elsewhere,
// so it works on an air-gapped network.
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { raw } from "hono/html";
import { ErrorBody } from "../../schema/api/resources.ts";
import { ERROR_CODES } from "../../schema/errors.ts";
import { LIMITS_TABLE } from "../../schema/limits.ts";
import { exampleOf, type Schema } from "../docs/examples.ts";
import { inlineMarkdown } from "../docs/markdown.ts";
import { tasks, type SampleLanguage } from "../docs/samples.ts";
import type { AppEnv } from "../env.ts";
import { HEADER_COMPONENTS, PUBLIC, errorResponses, success } from "./openapi-helpers.ts";

export const API_INFO = {
  title: "Obscura API",
  version: "2.0.0",
  description: [
    "Blur faces, licence plates, backgrounds and prompted objects in images and videos; remove objects; anonymize faces; remove backgrounds; enhance portraits; detect NSFW media.",
    "",
    "Authenticate with `Authorization: Bearer <API_KEY>`. Errors are `{\"error\":{\"code\",\"message\",\"status\"}}`; the codes are:",
    "",
    "| code | status | meaning |",
    "|---|---|---|",
    ...Object.entries(ERROR_CODES).map(([code, e]) => `| ${code} | ${e.status} | ${e.description} |`),
  ].join("\n"),
};

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const css = `body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{margin-bottom:0}code{background:#f2f2f2;padding:0 .25em;border-radius:3px}
section{border-top:1px solid #ddd;padding:.5rem 0}table{border-collapse:collapse;width:100%;margin:.5rem 0}
td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#fafafa}
.m{font-weight:700;color:#fff;background:#2d6a4f;border-radius:3px;padding:0 .4em;margin-right:.4em}.m.get{background:#1d4e89}.m.put{background:#7b4b00}
pre{background:#f6f6f6;border:1px solid #e2e2e2;border-radius:4px;padding:.5rem .75rem;overflow-x:auto;font-size:13px}pre code{background:none;padding:0}
h4{margin:.75rem 0 .25rem}.run{color:#555;font-size:13px;margin:0}`;

/** Inline Markdown of the document's descriptions, rendered (escaped first: see markdown.ts). */
const md = (text: string | undefined) => raw(inlineMarkdown(text ?? ""));

const LANGUAGE_LABEL: Record<SampleLanguage, string> = { curl: "curl", sdk: "TypeScript SDK", fetch: "fetch" };

/** The request of an operation as a curl command, its JSON body the schema's example. */
function curlExample(origin: string, method: string, path: string, op: Operation, components: Doc["components"]): string {
  const lines = [`curl -X ${method.toUpperCase()} "${origin}${path}"`];
  if (op.security?.length !== 0) lines.push(`-H "Authorization: Bearer $OBSCURA_API_KEY"`);
  const content = op.requestBody?.content ?? {};
  const json = content["application/json"]?.schema;
  if (json) lines.push(`-H "Content-Type: application/json"`, `-d '${JSON.stringify(exampleOf(json, components, false), null, 2)}'`);
  else if (content["application/octet-stream"]) lines.push(`-H "Content-Type: application/octet-stream"`, "--data-binary @photo.jpg");
  return lines.join(" \\\n  ");
}

/** The success answer of an operation: its status and an example of its body. */
function responseExample(op: Operation, components: Doc["components"]): { status: string; body: string } | undefined {
  const [status, response] = Object.entries(op.responses).find(([code]) => code.startsWith("2")) ?? [];
  if (!status || !response) return undefined;
  const [type, content] = Object.entries(response.content ?? {})[0] ?? [];
  if (!type || !content) return { status, body: "(no body)" };
  if (type !== "application/json") return { status, body: `(${type} bytes)` };
  return { status, body: JSON.stringify(exampleOf(content.schema, components, true), null, 2) };
}

function rule(s: Schema): string {
  const parts: string[] = [];
  if (s.enum) parts.push(`one of ${s.enum.join(", ")}`);
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? "-∞"} to ${s.maximum ?? "∞"}`);
  if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  return parts.join("; ");
}

function Fields(props: { schema: Schema }) {
  const props_ = props.schema.properties ?? {};
  return (
    <table>
      <tr><th>field</th><th>type</th><th>required</th><th>rules</th><th>meaning</th></tr>
      {Object.entries(props_).map(([name, s]) => (
        <tr>
          <td><code>{name}</code></td>
          <td>{Array.isArray(s.type) ? s.type.join(" | ") : s.type ?? ""}{s.format ? ` (${s.format})` : ""}</td>
          <td>{props.schema.required?.includes(name) ? "yes" : "no"}</td>
          <td>{rule(s)}</td>
          <td>{md(s.description)}</td>
        </tr>
      ))}
    </table>
  );
}

export function registerDocsRoutes(app: OpenAPIHono<AppEnv>): void {
  const document = () => app.getOpenAPI31Document({ openapi: "3.1.0", info: API_INFO, servers: [{ url: "/" }] });
  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "API key, shown once at creation." });
  // The envelope of every error; each operation's responses narrow `code` to what it can answer.
  app.openAPIRegistry.register("Error", ErrorBody);
  for (const [name, header] of Object.entries(HEADER_COMPONENTS)) app.openAPIRegistry.registerComponent("headers", name, header);

  const reference = (path: string, operationId: string, summary: string, content: Record<string, { schema: z.ZodType }>) =>
    app.openAPIRegistry.registerPath({
      method: "get",
      path,
      operationId,
      tags: ["Reference"],
      summary,
      description: "Public: no key, not counted against any limit, no rate-limit headers.",
      security: [],
      responses: { ...success(200, summary, content, PUBLIC), ...errorResponses(PUBLIC, "internal_error") },
    });
  reference("/api/v2/openapi.json", "getOpenApiDocument", "This OpenAPI 3.1 document", { "application/json": { schema: z.record(z.string(), z.unknown()) } });
  reference("/api/v2/docs", "getDocsPage", "The API reference as an HTML page (works offline)", { "text/html": { schema: z.string() } });

  app.get("/api/v2/openapi.json", (c) => c.json(document()));

  app.get("/api/v2/docs", (c) => {
    const doc = document() as unknown as Doc;
    // Samples name the deployment that serves this page, so they run as shown.
    const origin = new URL(c.req.url).origin;
    return c.html(
      "<!doctype html>" +
        (
          <html lang="en">
            <head>
              <meta charset="utf-8" />
              <meta name="viewport" content="width=device-width, initial-scale=1" />
              <title>Obscura API reference</title>
              <style>{css}</style>
            </head>
            <body>
              <h1>Obscura API reference</h1>
              <p>Version 2. Base URL: <code>/api/v2</code>. Machine-readable: <a href="/api/v2/openapi.json">openapi.json</a> (OpenAPI 3.1).</p>
              <p>Every request carries <code>Authorization: Bearer &lt;API_KEY&gt;</code>. Bodies are JSON or <code>multipart/form-data</code> (a file part <code>image</code>, <code>video</code> or <code>media</code> may replace the URL field).</p>
              <h2 id="quick-start">Quick start</h2>
              <p>Each sample runs as shown, from a folder holding a <code>photo.jpg</code>, with the key in <code>OBSCURA_API_KEY</code> (<code>export OBSCURA_API_KEY=obs_live_...</code>).</p>
              {tasks(`${origin}/api/v2`).map((task) => (
                <section id={`task-${task.id}`}>
                  <h3>{task.title}</h3>
                  <p>{md(task.intro)}</p>
                  {task.samples.map((sample) => (
                    <>
                      <h4>{LANGUAGE_LABEL[sample.language]}</h4>
                      <p class="run">Run with {sample.runWith}.</p>
                      <pre data-sample={`${task.id}/${sample.language}`}><code>{sample.code}</code></pre>
                    </>
                  ))}
                </section>
              ))}
              <h2 id="endpoints">Endpoints</h2>
              {Object.entries(doc.paths).flatMap(([path, ops]) =>
                Object.entries(ops).map(([method, op]) => {
                  const body = op.requestBody?.content["application/json"]?.schema;
                  const answer = responseExample(op, doc.components);
                  return (
                    <section id={`${method}-${path}`}>
                      <h3><span class={`m ${method}`}>{method.toUpperCase()}</span><code>{path}</code> {op.summary}</h3>
                      {op.description ? op.description.split("\n\n").map((p) => <p>{md(p)}</p>) : null}
                      {body?.properties ? <Fields schema={body} /> : null}
                      <h4>Request example</h4>
                      <pre data-example="request"><code>{curlExample(origin, method, path, op, doc.components)}</code></pre>
                      {answer ? (
                        <>
                          <h4>Response example ({answer.status})</h4>
                          <pre data-example="response"><code>{answer.body}</code></pre>
                        </>
                      ) : null}
                      <p>Responses: {Object.keys(op.responses).join(", ")}</p>
                    </section>
                  );
                }),
              )}
              <h2 id="errors">Error codes</h2>
              <table>
                <tr><th>code</th><th>status</th><th>meaning</th></tr>
                {Object.entries(ERROR_CODES).map(([code, e]) => <tr><td><code>{code}</code></td><td>{e.status}</td><td>{md(e.description)}</td></tr>)}
              </table>
              <h2 id="limits">Limits</h2>
              <table>
                <tr><th>limit</th><th>value</th></tr>
                {LIMITS_TABLE.map((l) => <tr><td>{md(l.limit)}</td><td>{md(l.value)}</td></tr>)}
              </table>
            </body>
          </html>
        ).toString(),
    );
  });
}
