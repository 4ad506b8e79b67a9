// Media in and out: format sniffing from bytes, decoding (PNG/JPEG/WEBP via sharp, HEIC via
// heic-decode's wasm libheif), EXIF orientation, decompression-bomb refusal, corrupt input, and
// encoding without any metadata (a privacy service never leaks a photo's GPS position).
// HEIC fixtures (test/fixtures/media/) were made with Debian's libheif-examples `heif-enc`
// (see test/fixtures/media/README.md); astronaut-gps.heic carries GPS EXIF on purpose.
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { sniffMediaFormat, describeUnsupported, requireMediaFormat } from "../../schema/media-format.ts";
import { decodeImage, encodeImage, readImageHeader } from "../../compute/media/image.ts";
import { ApiError } from "../../schema/errors.ts";
import { MAX_IMAGE_PIXELS } from "../../schema/limits.ts";
import { ffmpegPath } from "../../compute/video/ffmpeg.ts";
import { codeOf } from "./error-code.ts";
import { bufferPsnr } from "../fixtures/psnr.ts";

const MEDIA = new URL("../fixtures/media/", import.meta.url);
const PHOTOS = new URL("../fixtures/photos/", import.meta.url);
const heicGps = readFileSync(new URL("astronaut-gps.heic", MEDIA));
const heicAlpha = readFileSync(new URL("alpha.heic", MEDIA));
const astronautPng = readFileSync(new URL("astronaut.png", PHOTOS));


function ftyp(major: string, compat: string[]): Uint8Array {
  const size = 16 + 4 * compat.length;
  const b = Buffer.alloc(size + 8);
  b.writeUInt32BE(size, 0);
  b.write("ftyp", 4, "latin1");
  b.write(major, 8, "latin1");
  compat.forEach((c, i) => b.write(c, 16 + 4 * i, "latin1"));
  b.write("mdat", size + 4, "latin1");
  return b;
}

/** A PNG whose header declares width x height but whose data is tiny: a decompression bomb. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.alloc(1000))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const GPS_EXIF = {
  IFD0: { Make: "TestCam", Model: "Leaky 1" },
  IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2964/100", GPSLongitudeRef: "E", GPSLongitude: "2/1 17/1 4020/100" },
};

describe("sniffMediaFormat", () => {
  it("recognises the supported formats from bytes", async () => {
    const png = await sharp(astronautPng).resize(32).png().toBuffer();
    const jpeg = await sharp(astronautPng).resize(32).jpeg().toBuffer();
    const webp = await sharp(astronautPng).resize(32).webp().toBuffer();
    expect(sniffMediaFormat(png)?.format).toBe("png");
    expect(sniffMediaFormat(jpeg)?.format).toBe("jpeg");
    expect(sniffMediaFormat(webp)?.format).toBe("webp");
    expect(sniffMediaFormat(heicGps)).toMatchObject({ format: "heic", kind: "image", contentType: "image/heic" });
    expect(sniffMediaFormat(ftyp("mif1", ["heic"]))?.format).toBe("heic");
    expect(sniffMediaFormat(ftyp("heix", ["mif1"]))?.format).toBe("heic");
    expect(sniffMediaFormat(ftyp("msf1", ["hevc"]))?.format).toBe("heic");
    expect(sniffMediaFormat(ftyp("isom", ["isom", "iso2", "avc1", "mp41"]))).toMatchObject({ format: "mp4", kind: "video", contentType: "video/mp4" });
    expect(sniffMediaFormat(ftyp("mp42", ["mp42", "isom"]))?.format).toBe("mp4");
    expect(sniffMediaFormat(ftyp("qt  ", ["qt  "]))).toMatchObject({ format: "mov", contentType: "video/quicktime" });
    const legacyMov = Buffer.alloc(16);
    legacyMov.write("moov", 4, "latin1");
    expect(sniffMediaFormat(legacyMov)?.format).toBe("mov");
  });

  it("refuses everything else, whatever its name would say", async () => {
    const gif = await sharp(astronautPng).resize(16).gif().toBuffer();
    expect(sniffMediaFormat(gif)).toBeNull();
    expect(describeUnsupported(gif)).toBe("GIF");
    expect(sniffMediaFormat(ftyp("avif", ["mif1", "avif"]))).toBeNull();
    expect(sniffMediaFormat(ftyp("mif1", ["avif", "miaf"]))).toBeNull();
    expect(describeUnsupported(ftyp("avif", ["mif1"]))).toBe("AVIF");
    expect(sniffMediaFormat(ftyp("M4A ", ["isom"]))).toBeNull();
    expect(sniffMediaFormat(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(describeUnsupported(Buffer.from("<!DOCTYPE html><html>"))).toBe("HTML");
    expect(sniffMediaFormat(new Uint8Array(0))).toBeNull();
    expect(sniffMediaFormat(Buffer.from([0xff, 0xd8]))).toBeNull();
    expect(() => requireMediaFormat(gif, "image")).toThrow(/Unsupported image format \(GIF\); supported: PNG, JPEG, WEBP, HEIC/);
    expect(() => requireMediaFormat(heicGps, "video")).toThrow(/Expected a video but got an image/);
  });
});

describe("decodeImage", () => {
  it("decodes PNG, JPEG and WEBP to RGB frames of the right size", async () => {
    for (const fmt of ["png", "jpeg", "webp"] as const) {
      const bytes = await sharp(astronautPng).resize(120, 80, { fit: "fill" }).toFormat(fmt).toBuffer();
      const { frame, format } = await decodeImage(bytes);
      expect(format).toBe(fmt);
      expect([frame.width, frame.height, frame.channels]).toEqual([120, 80, 3]);
      expect(frame.data.length).toBe(120 * 80 * 3);
    }
  });

  it("keeps real transparency as RGBA, and turns greyscale into RGB", async () => {
    const rgba = await sharp(astronautPng).resize(40).ensureAlpha(0.5).png().toBuffer();
    const a = await decodeImage(rgba);
    expect(a.frame.channels).toBe(4);
    expect(Math.abs(a.frame.data[3] - 128)).toBeLessThanOrEqual(1);
    const grey = await sharp(astronautPng).resize(40).greyscale().png().toBuffer();
    expect((await decodeImage(grey)).frame.channels).toBe(3);
  });

  it("applies EXIF orientation (6 = rotate 90 degrees clockwise)", async () => {
    // 96x64 stored: left half red, right half blue, top 8 rows white.
    const w = 96;
    const h = 64;
    const px = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      px.set(y < 8 ? [250, 250, 250] : x < w / 2 ? [220, 30, 30] : [30, 30, 220], i);
    }
    const jpeg = await sharp(px, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    const { frame } = await decodeImage(jpeg);
    expect([frame.width, frame.height]).toEqual([64, 96]);
    const at = (x: number, y: number) => [...frame.data.subarray((y * frame.width + x) * 3, (y * frame.width + x) * 3 + 3)];
    const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]) < 30);
    expect(near(at(10, 10), [220, 30, 30])).toBe(true); // old left (red) is now the top
    expect(near(at(10, 85), [30, 30, 220])).toBe(true); // old right (blue) is now the bottom
    expect(near(at(62, 48), [250, 250, 250])).toBe(true); // old top row (white) is now the right edge
  });

  it("decodes HEIC with the wasm libheif decoder", async () => {
    const { frame, format } = await decodeImage(heicGps);
    expect(format).toBe("heic");
    expect([frame.width, frame.height, frame.channels]).toEqual([256, 256, 3]);
    // It is the astronaut photo: compare with the PNG original at the same size.
    const ref = await sharp(astronautPng).resize(256, 256).removeAlpha().raw().toBuffer();
    expect(bufferPsnr(ref, frame.data)).toBeGreaterThan(25);
    const alpha = await decodeImage(heicAlpha);
    expect([alpha.frame.width, alpha.frame.height, alpha.frame.channels]).toEqual([160, 96, 4]);
    expect(Math.abs(alpha.frame.data[3] - 153)).toBeLessThan(8); // alpha 0.6
  });

  it.each(["miaf", "mif2", "heim", "heis"])("decodes a HEIF whose major brand is %s (MIAF and multi-layer writers), as the sniffer accepts it", async (major) => {
    const branded = Buffer.from(heicGps);
    branded.write(major, 8, "latin1");
    const { frame, format } = await decodeImage(branded);
    expect(format).toBe("heic");
    expect(frame.data.equals((await decodeImage(heicGps)).frame.data)).toBe(true);
    expect(branded.toString("latin1", 8, 12)).toBe(major); // the caller's bytes are left as they were
  });

  it("converts a HEIC's Display P3 (an iPhone's ICC profile) to sRGB, as JPEG and PNG are", async () => {
    // coffee-p3.heic: the coffee photo at 192x128 converted to Display P3 and tagged so. Taken as
    // sRGB its colours would shift (the red cup: mean red 158 -> 149, blue 51 -> 60).
    const { frame } = await decodeImage(readFileSync(new URL("coffee-p3.heic", MEDIA)));
    const ref = await sharp(readFileSync(new URL("coffee.png", PHOTOS))).resize(192, 128).removeAlpha().raw().toBuffer();
    const means = (data: Buffer) => [0, 1, 2].map((c) => {
      let sum = 0;
      for (let i = c; i < data.length; i += 3) sum += data[i]!;
      return sum / (data.length / 3);
    });
    const [got, want] = [means(frame.data), means(ref)];
    for (const c of [0, 1, 2]) expect(Math.abs(got[c]! - want[c]!), `channel ${c}`).toBeLessThan(1.5);
  });

  it("refuses decompression bombs from the header, before decoding", async () => {
    const bomb = pngHeaderOnly(100_000, 100_000);
    expect(bomb.length).toBeLessThan(2000);
    expect(await readImageHeader(bomb)).toMatchObject({ width: 100_000, height: 100_000 });
    const t0 = Date.now();
    expect(await codeOf(decodeImage(bomb))).toBe("media_too_large");
    expect(await codeOf(decodeImage(pngHeaderOnly(10_000, 6_000)))).toBe("media_too_large"); // 60 MP
    expect(await codeOf(decodeImage(pngHeaderOnly(16_385, 100)))).toBe("media_too_large"); // side limit
    expect(Date.now() - t0).toBeLessThan(1000);
    await expect(decodeImage(bomb)).rejects.toThrow(new RegExp(`limit is ${MAX_IMAGE_PIXELS / 1e6} MP`));
  });

  it("refuses an animated WebP or PNG (APNG) as unsupported, rather than return its first frame alone", async () => {
    for (const [format, args] of [["WEBP", ["-loop", "0", "-f", "webp"]], ["PNG", ["-plays", "0", "-f", "apng"]]] as const) {
      const animation = execFileSync(ffmpegPath(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=5:duration=1", ...args, "pipe:1"]);
      const error = (await decodeImage(animation).catch((e: unknown) => e)) as ApiError;
      expect(error).toMatchObject({ code: "unsupported_media_format" });
      expect(error.message).toMatch(new RegExp(`The ${format} image is animated.*send the animation as an MP4 video`));
    }
    // A still PNG and WebP are not taken for animations.
    expect((await decodeImage(astronautPng)).frame.width).toBe(512);
    expect((await decodeImage(await sharp(astronautPng).webp().toBuffer())).frame.width).toBe(512);
  });

  it("refuses corrupt and unsupported media with clear codes", async () => {
    const jpeg = await sharp(astronautPng).jpeg().toBuffer();
    expect(await codeOf(decodeImage(jpeg.subarray(0, jpeg.length >> 1)))).toBe("corrupt_media");
    expect(await codeOf(decodeImage(heicGps.subarray(0, 3000)))).toBe("corrupt_media");
    expect(await codeOf(decodeImage(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)])))).toBe("corrupt_media");
    const webp = await sharp(astronautPng).webp().toBuffer();
    expect(await codeOf(decodeImage(webp.subarray(0, 200)))).toBe("corrupt_media");
    expect(await codeOf(decodeImage(await sharp(astronautPng).gif().toBuffer()))).toBe("unsupported_media_format");
    expect(await codeOf(decodeImage(ftyp("isom", ["mp41"])))).toBe("unsupported_media_format");
    expect(await codeOf(decodeImage(Buffer.from("hello")))).toBe("unsupported_media_format");
  });
});

describe("encodeImage", () => {
  it("keeps the input format; HEIC comes back as JPEG; transparency forces PNG", async () => {
    const { frame } = await decodeImage(astronautPng);
    for (const fmt of ["png", "jpeg", "webp"] as const) {
      const out = await encodeImage(frame, fmt);
      expect(out.format).toBe(fmt);
      expect(out.contentType).toBe(`image/${fmt}`);
      expect(sniffMediaFormat(out.bytes)?.format).toBe(fmt);
      const meta = await sharp(out.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([frame.width, frame.height]);
    }
    expect((await encodeImage(frame, "heic")).format).toBe("jpeg");
    const transparent = { ...frame, channels: 4 as const, data: Buffer.alloc(frame.width * frame.height * 4, 100) };
    expect((await encodeImage(transparent, "jpeg")).format).toBe("png");
    expect((await encodeImage(transparent, "heic")).format).toBe("png");
    const opaqueRgba = { ...transparent, data: Buffer.alloc(frame.width * frame.height * 4, 255) };
    expect((await encodeImage(opaqueRgba, "jpeg")).format).toBe("jpeg");
  });

  it("strips EXIF/GPS, XMP and ICC: a JPEG with GPS EXIF comes back with none", async () => {
    const withGps = await sharp(astronautPng).jpeg().withExif(GPS_EXIF as never).withIccProfile("p3").toBuffer();
    const inMeta = await sharp(withGps).metadata();
    expect(inMeta.exif?.includes(Buffer.from("GPS")) || inMeta.exif?.length).toBeTruthy();
    expect(inMeta.icc).toBeDefined();
    expect(withGps.includes(Buffer.from("TestCam"))).toBe(true);
    const { frame, format } = await decodeImage(withGps);
    for (const fmt of [format, "png", "webp"] as const) {
      const out = await encodeImage(frame, fmt);
      const meta = await sharp(out.bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(out.bytes.includes(Buffer.from("Exif"))).toBe(false);
      expect(out.bytes.includes(Buffer.from("TestCam"))).toBe(false);
    }
  });

  it("strips the GPS EXIF of a HEIC (which comes back as a clean JPEG)", async () => {
    expect(heicGps.includes(Buffer.from("TestCam"))).toBe(true); // the fixture does carry EXIF
    const { frame, format } = await decodeImage(heicGps);
    const out = await encodeImage(frame, format);
    expect(out.contentType).toBe("image/jpeg");
    const meta = await sharp(out.bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(out.bytes.includes(Buffer.from("TestCam"))).toBe(false);
  });
});
