// Image decode and encode: bytes <-> Frame.
//
// Decode: sniff the format from the bytes (never the name or Content-Type), read the dimensions
// from the header and refuse decompression bombs BEFORE allocating pixels, then decode to raw
// 8-bit sRGB with EXIF orientation applied. PNG/JPEG/WEBP go through sharp (libvips); HEIC through
// heic-decode (libheif compiled to wasm, shipped in the npm package), because sharp's prebuilt
// libvips has no HEVC decoder. libheif applies HEIF's own rotation/mirror properties (irot/imir);
// the HEIF spec says those, not the EXIF Orientation tag, define a HEIC's orientation. A HEIC's
// ICC profile (an iPhone's Display P3) is applied by libvips after libheif's decode.
//
// Encode: the input's format is kept; HEIC comes back as JPEG (no HEVC encoder ships in a
// registry package, and every client displays JPEG); an image with real transparency whose
// format cannot carry it (JPEG/HEIC input, e.g. a background removal) comes back as PNG.
// Quality: JPEG q90 4:2:0 (q92 when replacing HEIC), WEBP q90 (alpha lossless), PNG zlib 6.
// Output carries NO metadata at all: we encode from raw pixels, so no EXIF (GPS, camera serial,
// timestamps), XMP, IPTC or ICC profile can be copied over; pixels are sRGB.

import { crc32, deflateSync } from "node:zlib";
import sharp, { type Metadata } from "sharp";
import decodeHeic from "heic-decode";
import type { Frame } from "../types.ts";
import { ApiError } from "../../schema/errors.ts";
import { requireMediaFormat } from "../../schema/media-format.ts";
import type { ImageFormat } from "../../schema/media-format.ts";
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE } from "../../schema/limits.ts";

export interface DecodedImage {
  frame: Frame;
  format: ImageFormat;
}

export interface EncodedImage {
  bytes: Buffer;
  contentType: string;
  format: "png" | "jpeg" | "webp";
}

/** Encoder settings, documented in the README. */
export const ENCODE_SETTINGS = {
  jpeg: { quality: 90, chromaSubsampling: "4:2:0", mozjpeg: false },
  jpegFromHeic: { quality: 92, chromaSubsampling: "4:2:0", mozjpeg: false },
  webp: { quality: 90, alphaQuality: 100, effort: 4 },
  png: { compressionLevel: 6 },
} as const;

function checkDimensions(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new ApiError("corrupt_media", "The image header has no valid dimensions.");
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new ApiError(
      "media_too_large",
      `The image is ${width}x${height} (${(width * height / 1e6).toFixed(1)} MP); the limit is ${MAX_IMAGE_PIXELS / 1e6} MP and ${MAX_IMAGE_SIDE} px per side.`,
    );
  }
}

/** Format and header dimensions (before orientation), as read without decoding the pixels. */
export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Format and header dimensions (before orientation), without decoding the pixels. */
export async function readImageHeader(bytes: Uint8Array): Promise<ImageHeader> {
  const { format } = requireMediaFormat(bytes, "image");
  if (format === "heic") {
    const images = await openHeic(bytes);
    try {
      return { format, width: images[0].width, height: images[0].height };
    } finally {
      images.dispose();
    }
  }
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (e) {
    throw new ApiError("corrupt_media", `The ${format.toUpperCase()} image cannot be read: ${(e as Error).message}`);
  }
  // An animation would come back as its first frame, the rest dropped unsaid: refused instead.
  const pages = meta.pages ?? 1;
  if (pages > 1 || (format === "png" && isAnimatedPng(bytes))) {
    const frames = pages > 1 ? ` (${pages} frames)` : "";
    throw new ApiError("unsupported_media_format", `The ${format.toUpperCase()} image is animated${frames}; animated images are not supported: send the animation as an MP4 video.`);
  }
  return { format, width: meta.width ?? 0, height: meta.height ?? 0 };
}

/** An APNG: an animation control chunk (acTL) before the image data, which libvips does not report. */
function isAnimatedPng(bytes: Uint8Array): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8; at + 8 <= view.length; ) {
    const type = view.toString("latin1", at + 4, at + 8);
    if (type === "acTL") return true;
    if (type === "IDAT") return false;
    at += 12 + view.readUInt32BE(at);
  }
  return false;
}

/**
 * Decodes image bytes into an RGB (or RGBA, if the image has transparency) frame. Throws ApiError.
 * `header`: these bytes' readImageHeader, when the caller already read it (not read again).
 */
export async function decodeImage(bytes: Uint8Array, header?: ImageHeader): Promise<DecodedImage> {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new ApiError("media_too_large", `The image is ${(bytes.length / 2 ** 20).toFixed(1)} MiB; the limit is ${MAX_IMAGE_BYTES / 2 ** 20} MiB.`);
  }
  const { format } = requireMediaFormat(bytes, "image");
  const frame = format === "heic" ? await decodeHeicFrame(bytes) : await decodeWithSharp(bytes, format, header);
  return { frame, format };
}

async function decodeWithSharp(bytes: Uint8Array, format: ImageFormat, known?: ImageHeader): Promise<Frame> {
  // Header first: the pixel limit must hold before libvips allocates anything.
  const header = known ?? (await readImageHeader(bytes));
  checkDimensions(header.width, header.height);
  let hasAlpha = false;
  try {
    hasAlpha = (await sharp(bytes).metadata()).hasAlpha === true;
    const img = sharp(bytes, {
      limitInputPixels: MAX_IMAGE_PIXELS, // second line of defence inside libvips
      failOn: "error", // truncated or broken data is corrupt, not a half-grey photo
      autoOrient: true, // EXIF Orientation applied to the pixels
    }).toColourspace("srgb");
    const { data, info } = await (hasAlpha ? img.ensureAlpha() : img.removeAlpha())
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels === 4 ? 4 : 3 };
  } catch (e) {
    const msg = (e as Error).message;
    if (/pixel limit/i.test(msg)) throw new ApiError("media_too_large", `The image exceeds ${MAX_IMAGE_PIXELS / 1e6} MP.`);
    throw new ApiError("corrupt_media", `The ${format.toUpperCase()} image cannot be decoded: ${msg}`);
  }
}

type HeicImages = Awaited<ReturnType<typeof decodeHeic.all>>;

/** The major brands heic-decode's own check lets through; libheif reads the file's structure, not its brand. */
const HEIC_DECODE_MAJORS = new Set(["mif1", "msf1", "heic", "heix", "hevc", "hevx"]);

async function openHeic(bytes: Uint8Array): Promise<HeicImages> {
  try {
    const images = await decodeHeic.all({ buffer: withDecodableBrand(bytes) });
    if (images.length === 0) throw new Error("no image in the file");
    return images;
  } catch (e) {
    throw new ApiError("corrupt_media", `The HEIC image cannot be read: ${(e as Error).message ?? e}`);
  }
}

/**
 * The file as heic-decode takes it. Its check reads the major brand only, and refuses HEIF files
 * the sniffer accepts by their brands (majors "miaf", "mif2", "heim", "heis": MIAF and multi-layer
 * HEVC writers): those are handed over as a copy whose major brand is "mif1", the generic HEIF
 * still image brand, which every such file also is.
 */
function withDecodableBrand(bytes: Uint8Array): Uint8Array {
  const major = Buffer.from(bytes.buffer, bytes.byteOffset + 8, 4).toString("latin1");
  if (HEIC_DECODE_MAJORS.has(major)) return bytes;
  const copy = Uint8Array.from(bytes);
  copy.set(Buffer.from("mif1", "latin1"), 8);
  return copy;
}

async function decodeHeicFrame(bytes: Uint8Array): Promise<Frame> {
  const images = await openHeic(bytes);
  try {
    // The first top-level image is the primary one in camera files (thumbnails, depth and
    // gain maps are not top-level images).
    const first = images[0];
    checkDimensions(first.width, first.height);
    let decoded: { width: number; height: number; data: Uint8ClampedArray };
    try {
      decoded = await first.decode();
    } catch (e) {
      throw new ApiError("corrupt_media", `The HEIC image cannot be decoded: ${(e as Error).message ?? e}`);
    }
    const { width, height, data } = decoded;
    const rgba = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let opaque = true;
    for (let i = 3; i < rgba.length; i += 4) {
      if (rgba[i] !== 255) {
        opaque = false;
        break;
      }
    }
    let frame: Frame;
    if (!opaque) frame = { data: Buffer.from(rgba), width, height, channels: 4 };
    else {
      const rgb = Buffer.allocUnsafe(width * height * 3);
      for (let p = 0, i = 0, j = 0; p < width * height; p++, i += 4, j += 3) {
        rgb[j] = rgba[i];
        rgb[j + 1] = rgba[i + 1];
        rgb[j + 2] = rgba[i + 2];
      }
      frame = { data: rgb, width, height, channels: 3 };
    }
    const icc = await heicIccProfile(bytes);
    return icc ? await profiledToSrgb(frame, icc) : frame;
  } finally {
    images.dispose();
  }
}

/**
 * The HEIC's ICC profile (an iPhone's Display P3), read by libvips from the file's colour box
 * without decoding; libheif hands over the pixels in that space, unconverted. None when the file
 * has none or libvips cannot parse it: the pixels are then taken as sRGB, as before.
 */
async function heicIccProfile(bytes: Uint8Array): Promise<Buffer | undefined> {
  try {
    return (await sharp(bytes).metadata()).icc;
  } catch {
    return undefined;
  }
}

/**
 * Pixels in the colour space `icc` describes, converted to sRGB by libvips (lcms2), as a JPEG's or
 * PNG's are on decode. libvips takes a profile only with an image file, so the pixels go through
 * an uncompressed PNG carrying the profile. A profile lcms cannot use leaves the pixels as they are.
 */
async function profiledToSrgb(frame: Frame, icc: Buffer): Promise<Frame> {
  const { width, height, channels } = frame;
  const png = await sharp(frame.data, { raw: { width, height, channels } }).png({ compressionLevel: 0, adaptiveFiltering: false }).toBuffer();
  try {
    const { data, info } = await sharp(withIccChunk(png, icc), { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height || info.channels !== channels) return frame;
    return { data, width, height, channels };
  } catch {
    return frame;
  }
}

/** The PNG with an iCCP chunk (named "icc", deflated) right after its IHDR, where the PNG spec puts it. */
function withIccChunk(png: Buffer, icc: Buffer): Buffer {
  const afterHeader = 8 + 12 + png.readUInt32BE(8); // signature, then IHDR: length, type, data, CRC
  const data = Buffer.concat([Buffer.from("icc\0\0", "latin1"), deflateSync(icc)]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write("iCCP", 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return Buffer.concat([png.subarray(0, afterHeader), chunk, png.subarray(afterHeader)]);
}

function hasTransparency(frame: Frame): boolean {
  if (frame.channels !== 4) return false;
  for (let i = 3; i < frame.data.length; i += 4) if (frame.data[i] !== 255) return true;
  return false;
}

/**
 * Encodes a frame in the format of the input it came from (see the header comment for the
 * HEIC and transparency rules). The output has no metadata.
 */
export async function encodeImage(frame: Frame, format: ImageFormat): Promise<EncodedImage> {
  const transparent = hasTransparency(frame);
  let out: EncodedImage["format"];
  if (format === "png" || format === "webp") out = format;
  else out = transparent ? "png" : "jpeg";
  let img = sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } });
  // No .withMetadata()/.keepExif()/.keepMetadata(): sharp writes no EXIF, XMP, IPTC or ICC.
  if (out === "jpeg") {
    if (frame.channels === 4) img = img.removeAlpha();
    img = img.jpeg(format === "heic" ? ENCODE_SETTINGS.jpegFromHeic : ENCODE_SETTINGS.jpeg);
  } else if (out === "webp") {
    img = img.webp(ENCODE_SETTINGS.webp);
  } else {
    img = img.png(ENCODE_SETTINGS.png);
  }
  const bytes = await img.toBuffer();
  return { bytes, contentType: `image/${out}`, format: out };
}
