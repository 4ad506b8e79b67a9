// Untrusted images are decoded in decoder processes under a memory limit and with no network
// (compute/media/image-decoders.ts): the pixels are those an in-process decode gives, errors keep
// their codes, and a decoder that dies, runs out of memory or time fails its one request with
// 422 corrupt_media while the next request is served by a new process.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../schema/errors.ts";
import { decodeImage } from "../../compute/media/image.ts";
import { ImageDecoders, imageDecoderOptions, type ImageDecoderOptions } from "../../compute/media/image-decoders.ts";
import { networkIsolationArgs } from "../../compute/video/sandbox.ts";
import { codeOf } from "./error-code.ts";
import { descendantProcesses } from "./processes.ts";
import { PHOTOS } from "./photos.ts";

const MEDIA = path.join(import.meta.dirname, "../fixtures/media");
const pools: ImageDecoders[] = [];

function pool(options: Partial<ImageDecoderOptions> = {}): ImageDecoders {
  const p = new ImageDecoders({ ...imageDecoderOptions(), ...options });
  pools.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** The decoder processes this test process started (prlimit and unshare exec them in place). */
function decoderPids(): number[] {
  return descendantProcesses()
    .map((line) => Number(line.split(" ")[0]))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("decoder-process.ts");
      } catch {
        return false; // ended since it was listed
      }
    });
}

/** A 48 MP PNG of one colour: a few KB to send, 144 MB and about a second to decode. */
const hugePng = () => sharp({ create: { width: 8000, height: 6000, channels: 3, background: { r: 40, g: 90, b: 160 } } }).png().toBuffer();

describe("image decoder processes", () => {
  it("give the pixels, format and header an in-process decode gives (JPEG with EXIF orientation, PNG, HEIC with alpha)", async () => {
    const decoders = pool();
    const rotated = await sharp(readFileSync(path.join(PHOTOS, "group1.jpg"))).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    for (const bytes of [rotated, readFileSync(path.join(PHOTOS, "astronaut.png")), readFileSync(path.join(MEDIA, "alpha.heic"))]) {
      const local = await decodeImage(bytes);
      const header = await decoders.readHeader(bytes);
      const remote = await decoders.decode(bytes, header);
      expect(remote.format).toBe(local.format);
      expect(header.format).toBe(local.format);
      expect({ w: remote.frame.width, h: remote.frame.height, c: remote.frame.channels }).toEqual({ w: local.frame.width, h: local.frame.height, c: local.frame.channels });
      expect(Buffer.compare(remote.frame.data, local.frame.data)).toBe(0);
    }
    // Orientation 6 turned the 1920x1280 photo upright.
    expect((await decoders.decode(rotated)).frame).toMatchObject({ width: 1280, height: 1920 });
  });

  it("answer bad files with the in-process error codes, and keep serving", async () => {
    const decoders = pool({ processes: 1 });
    const jpeg = readFileSync(path.join(PHOTOS, "group1.jpg"));
    expect(await codeOf(decoders.decode(Buffer.from("hello")))).toBe("unsupported_media_format");
    expect(await codeOf(decoders.decode(jpeg.subarray(0, jpeg.length >> 1)))).toBe("corrupt_media");
    const bomb = await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: "black" } }).png().toBuffer();
    expect(await codeOf(decoders.decode(bomb))).toBe("media_too_large");
    expect((await decoders.decode(jpeg)).frame.width).toBe(1920);
  });

  it("fail only the request whose decoder dies (SIGKILL mid-decode); the next one gets a new process", async () => {
    const decoders = pool({ processes: 1 });
    decoders.warm();
    await decoders.readHeader(readFileSync(path.join(PHOTOS, "astronaut.png")));
    const [pid] = decoderPids();
    expect(pid).toBeGreaterThan(0);
    const pending = decoders.decode(await hugePng());
    setTimeout(() => process.kill(pid!, "SIGKILL"), 150);
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("corrupt_media");
    expect((err as ApiError).message).toMatch(/decoder process was killed \(SIGKILL/);
    expect((await decoders.decode(readFileSync(path.join(PHOTOS, "astronaut.png")))).frame.width).toBe(512);
    expect(decoderPids()).not.toContain(pid);
    // The scratch files the pixels come back through were unlinked when opened.
    expect(readdirSync("/dev/shm").filter((f) => f.startsWith("obscura-pixels-"))).toEqual([]);
  });

  it("stop a decode past the memory limit or the time limit with 422 corrupt_media naming it", async () => {
    const png = await hugePng();
    const small = pool({ processes: 1, memoryMb: 160 });
    const memory = (await small.decode(png).catch((e: unknown) => e)) as ApiError;
    expect(memory.code).toBe("corrupt_media");
    expect(memory.message).toMatch(/memory limit \(160 MiB\)|out of memory|allocate/i);
    expect((await small.decode(readFileSync(path.join(PHOTOS, "astronaut.png")))).frame.width).toBe(512);

    const slow = pool({ processes: 1, timeoutSeconds: 0.2 });
    const timeout = (await slow.decode(png).catch((e: unknown) => e)) as ApiError;
    expect(timeout.code).toBe("corrupt_media");
    expect(timeout.message).toMatch(/took longer than 0.2 s/);
  });

  it("run without a network when the kernel allows a network namespace", async (ctx) => {
    if (!networkIsolationArgs()) ctx.skip();
    const decoders = pool({ processes: 1 });
    decoders.warm();
    await decoders.readHeader(readFileSync(path.join(PHOTOS, "astronaut.png")));
    const [pid] = decoderPids();
    expect(readlinkSync(`/proc/${pid}/ns/net`)).not.toBe(readlinkSync("/proc/self/ns/net"));
    expect(readFileSync(`/proc/${pid}/limits`, "utf8")).toMatch(/Max data size\s+1073741824\s+1073741824/);
  });

  it("serve requests beyond the pool's size in turn, and replace a process after its share of requests", async () => {
    const decoders = pool({ processes: 2, requestsPerProcess: 3 });
    const bytes = readFileSync(path.join(PHOTOS, "astronaut.png"));
    const frames = await Promise.all(Array.from({ length: 9 }, () => decoders.decode(bytes)));
    expect(frames.every((f) => f.frame.width === 512)).toBe(true);
    expect(decoderPids().length).toBeLessThanOrEqual(2);
  });

  it("never decode into pixels still in use: a frame keeps its pixels until released; a released buffer is reused", async () => {
    const decoders = pool({ processes: 1 });
    const solid = (r: number) => sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g: 0, b: 0 } } }).png().toBuffer();
    const a = await decoders.decode(await solid(200));
    const b = await decoders.decode(await solid(100));
    expect([a.frame.data[0], b.frame.data[0]]).toEqual([200, 100]);
    expect(a.frame.data.every((v, i) => v === (i % 3 === 0 ? 200 : 0))).toBe(true);
    a.release();
    const c = await decoders.decode(await solid(50));
    expect(c.frame.data.buffer).toBe(a.frame.data.buffer); // a's buffer, given back, took c's pixels
    expect(b.frame.data.every((v, i) => v === (i % 3 === 0 ? 100 : 0))).toBe(true);
  });

  it("give up a request on abort, with the abort's reason", async () => {
    const decoders = pool({ processes: 1 });
    const controller = new AbortController();
    const pending = decoders.decode(await hugePng(), undefined, controller.signal);
    setTimeout(() => controller.abort(new Error("client went away")), 100);
    await expect(pending).rejects.toThrow("client went away");
    expect((await decoders.decode(readFileSync(path.join(PHOTOS, "astronaut.png")))).frame.width).toBe(512);
  });
});
