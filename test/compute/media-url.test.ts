// The SSRF guard: the static media-URL policy (schema/media-url.ts, shared with the Worker) and
// the compute fetcher (compute/media/fetch.ts) against real local HTTP servers. A localhost
// server is itself refused by the guard, so the happy paths inject a resolver that maps a
// made-up public-looking name to 127.0.0.1 and an address check that allows exactly that.
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkMediaUrl, isPublicAddress, parseIPv6 } from "../../schema/media-url.ts";
import { ApiError } from "../../schema/errors.ts";
import { fetchMedia, fetchMediaToFile } from "../../compute/media/fetch.ts";
import type { FetchPolicy } from "../../compute/media/fetch.ts";
import { codeOf as codeOfAsync } from "./error-code.ts";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    throw e;
  }
  return "ok";
}

describe("checkMediaUrl: refused", () => {
  const notAllowed = [
    // localhost names
    "http://localhost/a.jpg", "http://LOCALHOST./a.jpg", "http://a.localhost/a.jpg", "http://printer.local/a.jpg",
    "http://metadata.google.internal/computeMetadata/v1/", "http://nas.home.arpa/a.jpg", "http://intranet/a.jpg",
    // IPv4 loopback/private/link-local/CGNAT/multicast/reserved/this-network/broadcast/benchmark/documentation
    "http://127.0.0.1/", "http://127.255.0.9/", "http://10.1.2.3/", "http://172.16.0.1/", "http://172.31.255.255/",
    "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://100.127.255.254/",
    "http://224.0.0.1/", "http://239.255.255.250/", "http://240.0.0.1/", "http://0.0.0.0/", "http://0.1.2.3/",
    "http://255.255.255.255/", "http://198.18.0.1/", "http://198.19.255.1/", "http://192.0.2.1/", "http://198.51.100.7/",
    "http://203.0.113.9/", "http://192.0.0.8/", "http://192.88.99.1/",
    // numeric encodings of 127.0.0.1 / 10.0.0.1 (WHATWG URL normalises them, then they are refused)
    "http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/", "http://0177.0000.0000.0001/", "http://127.1/",
    "http://127.0.1/", "http://0x7f.1/", "http://0x7f.0x0.0x0.0x1/", "http://%31%32%37.0.0.1/", "http://１２７.0.0.1/",
    "http://167772161/", "http://0/", "http://017700000001/",
    // IPv6
    "http://[::1]/", "http://[::]/", "http://[0:0:0:0:0:0:0:1]/", "http://[fc00::1]/", "http://[fd12:3456::1]/",
    "http://[fe80::1]/", "http://[febf::1]/", "http://[fec0::1]/", "http://[ff02::1]/", "http://[2001:db8::1]/",
    "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::ffff:10.0.0.1]/", "http://[::ffff:169.254.169.254]/",
    "http://[0:0:0:0:0:ffff:192.168.0.1]/", "http://[::127.0.0.1]/", "http://[::8.8.8.8]/", "http://[64:ff9b::10.0.0.1]/",
    "http://[64:ff9b::7f00:1]/", "http://[64:ff9b:1::1]/", "http://[2002:7f00:1::1]/", "http://[2002:a00:1::]/",
    "http://[2001::1]/", "http://[100::1]/", "http://[3fff::1]/",
    // signed URLs
    "https://bucket.s3.amazonaws.com/a.jpg?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AK%2F20260101&X-Amz-Signature=abc",
    "https://bucket.s3.amazonaws.com/a.jpg?x-amz-signature=abc",
    "https://bucket.s3.amazonaws.com/a.jpg?AWSAccessKeyId=AK&Expires=1&Signature=abc",
    "https://bucket.s3.amazonaws.com/a.jpg?X-Amz-Security-Token=t",
    "https://storage.googleapis.com/b/a.jpg?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=x&X-Goog-Signature=y",
    "https://storage.googleapis.com/b/a.jpg?GoogleAccessId=sa%40p.iam&Expires=1&Signature=x",
    "https://acct.blob.core.windows.net/c/a.jpg?sv=2022-11-02&se=2026-01-01&sr=b&sp=r&sig=abc",
    "https://d111.cloudfront.net/a.jpg?Expires=1&Signature=abc&Key-Pair-Id=K2",
    "https://d111.cloudfront.net/a.jpg?Policy=eyJ&Signature=abc&Key-Pair-Id=K2",
    "https://b.oss-cn-hangzhou.aliyuncs.com/a.jpg?OSSAccessKeyId=x&Expires=1&Signature=y",
    "https://b.cos.ap-beijing.myqcloud.com/a.jpg?q-sign-algorithm=sha1&q-signature=x",
    "https://f000.backblazeb2.com/file/b/a.jpg?Authorization=tok",
    "https://cdn.akamaized.net/a.jpg?__token__=exp=1~hmac=x",
    "https://z.b-cdn.net/a.jpg?token=x&expires=1",
  ];
  it.each(notAllowed)("%s -> media_url_not_allowed", (url) => {
    expect(codeOf(() => checkMediaUrl(url))).toBe("media_url_not_allowed");
  });

  const invalid = [
    "", "   ", "not a url", "/relative/a.jpg", "ftp://example.com/a.jpg", "file:///etc/passwd", "gopher://x.com/",
    "data:image/png;base64,AAAA", "javascript:alert(1)", "ws://example.com/a", "http://user:pass@example.com/a.jpg",
    "http://user@example.com/a.jpg", "https://example.com:@evil.com/a.jpg", "http://[::1/", "http://4294967296/",
    `https://example.com/${"a".repeat(5000)}`,
  ];
  it.each(invalid)("%j -> invalid_media_url", (url) => {
    expect(codeOf(() => checkMediaUrl(url))).toBe("invalid_media_url");
  });

  it("messages name the problem", () => {
    expect(() => checkMediaUrl("http://2130706433/")).toThrow(/127\.0\.0\.1 is a loopback, private/);
    expect(() => checkMediaUrl("https://x.s3.amazonaws.com/a?X-Amz-Signature=1")).toThrow(/Signed media URLs.*X-Amz-Signature/);
    expect(() => checkMediaUrl("http://u:p@x.com/")).toThrow(/credentials/);
    expect(() => checkMediaUrl("ftp://x.com/")).toThrow(/scheme "ftp"/);
  });
});

describe("checkMediaUrl: allowed", () => {
  const ok = [
    "https://images.example.org/photo.jpg", "http://cdn.obscura.app:8080/v.mp4?w=100", "https://8.8.8.8/a.png",
    "https://[2606:4700:4700::1111]/a.png", "https://[64:ff9b::8.8.8.8]/a.png", "https://[::ffff:8.8.8.8]/a.png",
    "https://bucket.s3.amazonaws.com/public/a.jpg", "https://storage.googleapis.com/bucket/a.jpg",
    "https://images.unsplash.com/photo-1?w=800&q=80&sig=3", "https://example.com./a.jpg",
    "https://172.32.0.1/a.jpg", "https://100.128.0.1/a.jpg", "https://xn--bcher-kva.de/a.jpg", "https://bücher.de/a.jpg",
  ];
  it.each(ok)("%s", (url) => {
    expect(checkMediaUrl(url)).toBeInstanceOf(URL);
  });
});

describe("isPublicAddress (for DNS answers)", () => {
  it("classifies addresses", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]) {
      expect(isPublicAddress(ip), ip).toBe(true);
    }
    for (const ip of ["127.0.0.1", "10.0.0.1", "192.168.0.1", "169.254.1.1", "100.64.0.1", "0.0.0.0", "255.255.255.255", "224.0.0.251",
      "::1", "::", "fe80::1", "fe80::1%eth0", "fd00::1", "ff02::fb", "::ffff:127.0.0.1", "::ffff:7f00:1", "::7f00:1", "64:ff9b::a00:1",
      "2001:db8::1", "2001:0:4136:e378::1", "not-an-ip", "", "1.2.3", "01.2.3.4", "256.1.1.1", "1::2::3"]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });
  it("parses IPv6 forms", () => {
    expect([...parseIPv6("::ffff:1.2.3.4")!]).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    expect(parseIPv6("1:2:3:4:5:6:7:8:9")).toBeNull();
    expect(parseIPv6("1:2:3:4:5:6:7::8")).toBeNull();
    expect(parseIPv6("12345::")).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

describe("fetchMedia against local servers", () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];
  const hosts: string[] = [];
  const body = Buffer.alloc(5000, 7);

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      hosts.push(req.headers.host ?? "");
      const u = new URL(req.url ?? "/", "http://x");
      const p = u.pathname;
      if (p === "/img") return res.writeHead(200, { "content-type": "image/png", "content-length": body.length }).end(body);
      if (p.startsWith("/r/")) {
        const n = Number(p.slice(3));
        return res.writeHead(302, { location: n > 0 ? `/r/${n - 1}` : "/img" }).end();
      }
      if (p === "/to-loopback") return res.writeHead(301, { location: `http://127.0.0.1:${port}/img` }).end();
      if (p === "/to-metadata") return res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      if (p === "/to-signed") return res.writeHead(302, { location: "https://x.s3.amazonaws.com/a.jpg?X-Amz-Signature=1" }).end();
      if (p === "/to-other-name") return res.writeHead(302, { location: `http://evil.obscura-test.net:${port}/img` }).end();
      if (p === "/declared-big") return res.writeHead(200, { "content-length": 10_000_000 }).end();
      if (p === "/stream-big") {
        res.writeHead(200, { "content-type": "image/png" }); // chunked, no length
        let sent = 0;
        const tick = () => {
          if (sent > 5_000_000 || res.destroyed) return res.end();
          sent += 64 * 1024;
          res.write(Buffer.alloc(64 * 1024), () => setImmediate(tick));
        };
        return tick();
      }
      if (p === "/slow") return void setTimeout(() => res.writeHead(200).end("late"), 5000);
      if (p === "/404") return res.writeHead(404).end("nope");
      if (p === "/500") return res.writeHead(500).end();
      res.writeHead(400).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const NAME = "media.obscura-test.net";
  const url = (path: string) => `http://${NAME}:${port}${path}`;
  const resolveCalls: string[] = [];
  // Test policy: the made-up names resolve to the local server; only 127.0.0.1 counts as
  // "public" here. The static URL check stays the real one.
  const testPolicy: Partial<FetchPolicy> = {
    resolve: async (h) => {
      resolveCalls.push(h);
      if (h.endsWith(".obscura-test.net")) return [{ address: "127.0.0.1", family: 4 }];
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    },
    isAllowedAddress: (ip) => ip === "127.0.0.1",
  };
  const opts = { maxBytes: 1_000_000, timeoutMs: 3000, policy: testPolicy };


  it("refuses the local server with the default guard, before connecting", async () => {
    const before = hits.length;
    expect(await codeOfAsync(fetchMedia(`http://127.0.0.1:${port}/img`, { maxBytes: 1e6, timeoutMs: 2000 }))).toBe("media_url_not_allowed");
    expect(await codeOfAsync(fetchMedia(`http://localhost:${port}/img`, { maxBytes: 1e6, timeoutMs: 2000 }))).toBe("media_url_not_allowed");
    expect(await codeOfAsync(fetchMedia(`http://2130706433:${port}/img`, { maxBytes: 1e6, timeoutMs: 2000 }))).toBe("media_url_not_allowed");
    // A public-looking name whose DNS answer is private (default address check).
    const dnsPrivate = { ...opts, policy: { resolve: testPolicy.resolve } };
    expect(await codeOfAsync(fetchMedia(url("/img"), dnsPrivate))).toBe("media_url_not_allowed");
    // ANY private answer refuses, even next to a public one.
    const mixed = { ...opts, policy: { resolve: async () => [{ address: "8.8.8.8", family: 4 as const }, { address: "10.0.0.7", family: 4 as const }] } };
    await expect(fetchMedia(url("/img"), mixed)).rejects.toThrow(/resolves to 10\.0\.0\.7/);
    expect(hits.length).toBe(before);
  });

  it("fetches through the pinned, vetted address with the name as Host", async () => {
    resolveCalls.length = 0;
    const r = await fetchMedia(url("/img"), opts);
    expect(r.bytes.equals(body)).toBe(true);
    expect(r.contentType).toBe("image/png");
    expect(r.redirects).toBe(0);
    expect(hosts.at(-1)).toBe(`${NAME}:${port}`);
    // Resolved once, by our resolver: the name does not exist in real DNS, so the connection
    // can only have used the pinned address.
    expect(resolveCalls).toEqual([NAME]);
  });

  it("follows up to 3 redirects, re-checking each; refuses the 4th", async () => {
    const r = await fetchMedia(url("/r/2"), opts); // /r/2 -> /r/1 -> /r/0 -> /img
    expect(r.redirects).toBe(3);
    expect(r.url).toBe(url("/img"));
    expect(await codeOfAsync(fetchMedia(url("/r/3"), opts))).toBe("media_unreachable");
    await expect(fetchMedia(url("/r/3"), opts)).rejects.toThrow(/more than 3/);
  });

  it("refuses redirects to loopback, metadata and signed URLs; re-resolves a new name", async () => {
    expect(await codeOfAsync(fetchMedia(url("/to-loopback"), opts))).toBe("media_url_not_allowed");
    expect(await codeOfAsync(fetchMedia(url("/to-metadata"), opts))).toBe("media_url_not_allowed");
    expect(await codeOfAsync(fetchMedia(url("/to-signed"), opts))).toBe("media_url_not_allowed");
    resolveCalls.length = 0;
    await fetchMedia(url("/to-other-name"), opts);
    expect(resolveCalls).toEqual([NAME, "evil.obscura-test.net"]);
    // With the default address check, the redirect's new name resolving privately is refused.
    const strict = { ...opts, policy: { resolve: async (h: string) => (h === NAME ? [{ address: "127.0.0.1", family: 4 as const }] : [{ address: "192.168.1.5", family: 4 as const }]), isAllowedAddress: (ip: string) => ip === "127.0.0.1" } };
    await expect(fetchMedia(url("/to-other-name"), strict)).rejects.toThrow(/192\.168\.1\.5/);
  });

  it("a fetch cancelled between hops (the caller hung up during a redirect) ends as media_unreachable, nothing thrown out of the process", async () => {
    const hang = new AbortController();
    const redirected = fetchMedia(url("/r/0"), { ...opts, signal: hang.signal });
    const before = hits.length;
    // The first hop's answer is a redirect; cancel as soon as it is asked for.
    while (hits.length === before) await new Promise((r) => setImmediate(r));
    hang.abort();
    await expect(redirected).rejects.toThrow(/cancelled/);
    await expect(fetchMedia(url("/img"), { ...opts, signal: AbortSignal.abort() })).rejects.toThrow(/cancelled/);
  });

  it("refuses bodies over the limit: early on Content-Length, and while streaming", async () => {
    const t0 = Date.now();
    expect(await codeOfAsync(fetchMedia(url("/declared-big"), opts))).toBe("media_too_large");
    expect(await codeOfAsync(fetchMedia(url("/stream-big"), opts))).toBe("media_too_large");
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it("maps failures to media_unreachable: HTTP errors, DNS failure, refused connection, timeout", async () => {
    expect(await codeOfAsync(fetchMedia(url("/404"), opts))).toBe("media_unreachable");
    await expect(fetchMedia(url("/500"), opts)).rejects.toThrow(/HTTP 500/);
    expect(await codeOfAsync(fetchMedia(`http://nowhere.example.com:${port}/img`, opts))).toBe("media_unreachable");
    // A closed port: allocate one and close it.
    const tmp = http.createServer();
    await new Promise<void>((r) => tmp.listen(0, "127.0.0.1", r));
    const closedPort = (tmp.address() as AddressInfo).port;
    await new Promise((r) => tmp.close(r));
    expect(await codeOfAsync(fetchMedia(`http://${NAME}:${closedPort}/img`, opts))).toBe("media_unreachable");
    const t0 = Date.now();
    await expect(fetchMedia(url("/slow"), { ...opts, timeoutMs: 300 })).rejects.toThrow(/longer than/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it("fetchMediaToFile streams to disk and removes the file on failure", async () => {
    const path = join(tmpdir(), `obscura-fetch-${process.pid}.bin`);
    const r = await fetchMediaToFile(url("/img"), path, opts);
    expect(r.size).toBe(body.length);
    expect(existsSync(path)).toBe(true);
    expect(await codeOfAsync(fetchMediaToFile(url("/stream-big"), path, opts))).toBe("media_too_large");
    expect(existsSync(path)).toBe(false);
  });
});
