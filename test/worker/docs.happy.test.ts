// The published interface: OpenAPI 3.1 with every endpoint of the spec and the error catalog,
// and a docs page that needs nothing from the internet. Both are public (no key, no rate limit).
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../schema/errors.ts";
import { inlineMarkdown } from "../../worker/docs/markdown.ts";
import { Contract, type OpenApiDoc } from "./contract.ts";
import { API } from "./helpers.ts";

const SPEC_ENDPOINTS: Array<[string, string]> = [
  ["post", "/api/v2/videos/background-blur"],
  ["post", "/api/v2/videos/face-blur"],
  ["post", "/api/v2/videos/license-plate-blur"],
  ["post", "/api/v2/videos/object-removal"],
  ["post", "/api/v2/videos/blur-anything"],
  ["post", "/api/v2/videos/face-anonymization"],
  ["get", "/api/v2/jobs/{job_id}"],
  ["post", "/api/v2/images/blur-background"],
  ["post", "/api/v2/images/remove-background"],
  ["post", "/api/v2/images/portrait-enhance"],
  ["post", "/api/v2/images/face-blur"],
  ["post", "/api/v2/images/license-plate-blur"],
  ["post", "/api/v2/images/blur-anything"],
  ["post", "/api/v2/detect/nsfw"],
  ["post", "/api/v2/uploads/image"],
  ["post", "/api/v2/uploads/video"],
  ["get", "/api/v2/me"],
  ["get", "/api/v2/me/credits"],
  ["get", "/api/v2/features"],
];

type Doc = {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, { security?: unknown[]; requestBody?: { content: Record<string, { schema: { $ref?: string; properties?: Record<string, { maxLength?: number; minimum?: number; maximum?: number; default?: unknown }>; required?: string[] } }> }; responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, { properties?: Record<string, { properties?: Record<string, { enum?: string[] }> }> }>; securitySchemes: Record<string, unknown> };
};

describe("GET /api/v2/openapi.json", () => {
  it("is OpenAPI 3.1 with every endpoint of the spec, without a key", async () => {
    const res = await SELF.fetch(`${API}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Obscura API", version: "2.0.0" });
    for (const [method, path] of SPEC_ENDPOINTS) {
      expect(doc.paths[path]?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(doc.paths[path]![method]!.security).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("documents the success status of each kind of endpoint and the 401", async () => {
    const doc = (await (await SELF.fetch(`${API}/openapi.json`)).json()) as Doc;
    expect(Object.keys(doc.paths["/api/v2/videos/face-blur"]!.post!.responses)).toEqual(expect.arrayContaining(["202", "400", "401", "402", "429", "503"]));
    expect(Object.keys(doc.paths["/api/v2/images/face-blur"]!.post!.responses)).toEqual(expect.arrayContaining(["200", "202", "400", "401", "402", "503"]));
    expect(Object.keys(doc.paths["/api/v2/jobs/{job_id}"]!.get!.responses)).toEqual(expect.arrayContaining(["200", "401", "404"]));
    expect(Object.keys(doc.paths["/api/v2/uploads/image"]!.post!.responses)).toEqual(expect.arrayContaining(["201", "401"]));
  });

  it("lists every error code with its status, in the description and in the Error schema", async () => {
    const doc = (await (await SELF.fetch(`${API}/openapi.json`)).json()) as Doc;
    for (const [code, { status }] of Object.entries(ERROR_CODES)) expect(doc.info.description).toContain(`| ${code} | ${status} |`);
    const codeEnum = doc.components.schemas.Error!.properties!.error!.properties!.code!.enum;
    expect(codeEnum?.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it("carries the request rules of the spec (object_text <= 40, blur_strength 0..1 default 0.7)", async () => {
    const doc = (await (await SELF.fetch(`${API}/openapi.json`)).json()) as Doc;
    const body = doc.paths["/api/v2/videos/object-removal"]!.post!.requestBody!.content["application/json"]!.schema;
    expect(body.properties!.object_text!.maxLength).toBe(40);
    expect(body.required).toEqual(expect.arrayContaining(["video_url", "object_text"]));
    const blur = doc.paths["/api/v2/images/face-blur"]!.post!.requestBody!.content["application/json"]!.schema.properties!.blur_strength!;
    expect(blur).toMatchObject({ minimum: 0, maximum: 1, default: 0.7 });
    expect(doc.paths["/api/v2/images/face-blur"]!.post!.requestBody!.content["multipart/form-data"]).toBeDefined();
  });
});

describe("GET /api/v2/docs", () => {
  it("is an HTML page, without a key, that lists the endpoints and the error codes", async () => {
    const res = await SELF.fetch(`${API}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html.startsWith("<!doctype html>")).toBe(true);
    for (const [, path] of SPEC_ENDPOINTS) expect(html).toContain(path);
    for (const code of Object.keys(ERROR_CODES)) expect(html).toContain(`<code>${code}</code>`);
  });

  it("references no external resource (works offline)", async () => {
    const html = await (await SELF.fetch(`${API}/docs`)).text();
    expect(html).not.toMatch(/\b(?:src|href|action|poster|srcset)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/<script\b[^>]*\bsrc=/i);
    expect(html).not.toMatch(/<link\b[^>]*\bhref=["']?(?:https?:)?\/\//i);
  });

  it("renders the descriptions' inline Markdown: no backtick is left outside the code samples", async () => {
    const html = await (await SELF.fetch(`${API}/docs`)).text();
    expect(html).toContain("<code>Prefer: respond-async</code>");
    expect(html.replace(/<pre[\s\S]*?<\/pre>/g, "")).not.toContain("`");
    expect(inlineMarkdown("`a<b>` and **c** [d](/api/v2/docs) [e](javascript:alert(1))")).toBe('<code>a&lt;b&gt;</code> and <strong>c</strong> <a href="/api/v2/docs">d</a> [e](javascript:alert(1))');
    expect(inlineMarkdown("`**not bold**`")).toBe("<code>**not bold**</code>");
  });

  it("shows a request example and a response example for every operation, each valid against its schema", async () => {
    const doc = (await (await SELF.fetch(`${API}/openapi.json`)).json()) as OpenApiDoc;
    const contract = new Contract(doc);
    const html = await (await SELF.fetch(`${API}/docs`)).text();
    const text = (code: string) => code.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    let operations = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        operations++;
        const section = new RegExp(`<section id="${method}-${path.replace(/[{}]/g, "\\$&")}">([\\s\\S]*?)</section>`).exec(html)?.[1];
        expect(section, `${method} ${path}`).toBeDefined();
        const example = (kind: string) => text(new RegExp(`<pre data-example="${kind}"><code>([\\s\\S]*?)</code></pre>`).exec(section!)?.[1] ?? "");
        // The request, as curl: a JSON body is the schema's example and the schema accepts it.
        const request = example("request");
        expect(request).toMatch(new RegExp(`^curl -X ${method.toUpperCase()} "http://localhost${path.replace(/[{}]/g, "\\$&")}"`));
        const json = /-d '([\s\S]*)'$/.exec(request)?.[1];
        if (op.requestBody?.content["application/json"]) expect(contract.validate(contract.requestSchema(method, path), JSON.parse(json!), { closed: true }), `${method} ${path} request`).toEqual([]);
        // The success answer: a JSON one is valid against its schema, closed (no field the document lacks).
        const [status, response] = Object.entries(op.responses).find(([code]) => code.startsWith("2"))!;
        expect(section).toContain(`Response example (${status})`);
        // The page shows the first content type (a result is image or video bytes before it is a detections document).
        const [type, content] = Object.entries(response.content ?? {})[0] ?? [];
        const schema = type === "application/json" ? content?.schema : undefined;
        if (schema) expect(contract.validate(schema, JSON.parse(example("response")), { closed: true }), `${method} ${path} ${status}`).toEqual([]);
      }
    }
    expect(html.match(/data-example="request"/g)).toHaveLength(operations);
  });

  it("has the quick-start samples in curl, the SDK and fetch, addressed to the serving origin", async () => {
    const html = await (await SELF.fetch(`${API}/docs`)).text();
    const samples = [...html.matchAll(/<pre data-sample="([^"]+)"><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => m[1]);
    expect(samples).toEqual(["account", "blur-a-photo", "wait-for-a-job"].flatMap((task) => ["curl", "sdk", "fetch"].map((language) => `${task}/${language}`)));
    expect(html).toContain("http://localhost/api/v2/me");
  });

  it("/ redirects to the docs", async () => {
    const res = await SELF.fetch("http://localhost/", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/api/v2/docs");
  });
});
