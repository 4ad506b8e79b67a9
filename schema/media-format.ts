// Media format from magic bytes. File names and Content-Type headers are never trusted: a
// ".jpg" that is really an SVG or an HTML page must not reach a decoder. Pure TypeScript (no
// Node or Worker APIs): the Worker sniffs uploads with it, compute sniffs fetched media.

import { ApiError } from "./errors.ts";

export type ImageFormat = "png" | "jpeg" | "webp" | "heic";
export type VideoFormat = "mp4" | "mov";
export type MediaFormat = ImageFormat | VideoFormat;
export type MediaKind = "image" | "video";

export interface SniffedFormat {
  format: MediaFormat;
  kind: MediaKind;
  /** The canonical Content-Type to store and serve the bytes with. */
  contentType: string;
  /** A file extension (no dot) for stored objects. */
  extension: string;
}

export const MEDIA_FORMATS: Record<MediaFormat, Omit<SniffedFormat, "format">> = {
  png: { kind: "image", contentType: "image/png", extension: "png" },
  jpeg: { kind: "image", contentType: "image/jpeg", extension: "jpg" },
  webp: { kind: "image", contentType: "image/webp", extension: "webp" },
  heic: { kind: "image", contentType: "image/heic", extension: "heic" },
  mp4: { kind: "video", contentType: "video/mp4", extension: "mp4" },
  mov: { kind: "video", contentType: "video/quicktime", extension: "mov" },
};

/** How many leading bytes sniffing needs at most (the ftyp box's brand list). */
export const SNIFF_BYTES = 64;

// ISO-BMFF (ftyp) brands. HEIF still images: Apple writes major "heic" with "mif1"; "heix" is
// 10-bit/4:2:2; "hevc"/"hevx" are HEVC image sequences (bursts), "mif1"/"msf1"/"mif2"/"miaf"
// are the generic HEIF structural brands (decoded as HEIC when no AVIF brand says otherwise).
const HEIC_BRANDS = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]);
const HEIF_GENERIC_BRANDS = new Set(["mif1", "msf1", "mif2", "miaf"]);
const AVIF_BRANDS = new Set(["avif", "avis", "avio"]);
// MP4 family: ISO base media, MPEG-4 v1/v2, AVC/HEVC, DASH, Apple's M4V, Sony XAVC, etc.
const MP4_BRANDS = new Set([
  "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41", "mp42", "mp71",
  "avc1", "hvc1", "hev1", "av01", "dash", "cmfc", "cmf2", "M4V ", "M4VH", "M4VP", "mmp4", "MSNV",
  "NDAS", "NDSC", "NDSH", "NDSM", "NDSP", "NDSS", "NDXC", "NDXH", "NDXM", "NDXP", "NDXS", "XAVC",
  "f4v ", "MP4 ",
]);
const QT_BRANDS = new Set(["qt  "]);
// Audio-only or phone-legacy members of the family that are not the video formats we serve.
const OTHER_BMFF = new Set(["M4A ", "M4B ", "M4P ", "3gp4", "3gp5", "3gp6", "3g2a", "crx ", "jp2 "]);
// QuickTime files from before ftyp existed start straight with one of these atoms.
const LEGACY_QT_ATOMS = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);

function ascii(b: Uint8Array, start: number, end: number): string {
  let s = "";
  for (let i = start; i < end && i < b.length; i++) s += String.fromCharCode(b[i]);
  return s;
}

function startsWith(b: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (b.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (b[at + i] !== sig[i]) return false;
  return true;
}

function known(format: MediaFormat): SniffedFormat {
  return { format, ...MEDIA_FORMATS[format] };
}

/**
 * The format of `bytes` from its magic numbers, or `null` when it is none of the supported
 * formats. Needs the first {@link SNIFF_BYTES} bytes; more are ignored.
 */
export function sniffMediaFormat(bytes: Uint8Array): SniffedFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return known("png");
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return known("jpeg");
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return known("webp");
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === "ftyp") {
    const size = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
    const end = Math.min(bytes.length, size >= 16 ? size : 16);
    const major = ascii(bytes, 8, 12);
    const brands = [major];
    for (let i = 16; i + 4 <= end; i += 4) brands.push(ascii(bytes, i, i + 4));
    return fromBrands(major, brands);
  }
  if (bytes.length >= 8 && LEGACY_QT_ATOMS.has(ascii(bytes, 4, 8))) return known("mov");
  return null;
}

function fromBrands(major: string, brands: string[]): SniffedFormat | null {
  // The major brand decides when it is specific; compatible brands settle generic majors.
  if (QT_BRANDS.has(major)) return known("mov");
  if (AVIF_BRANDS.has(major) || OTHER_BMFF.has(major)) return null;
  if (HEIC_BRANDS.has(major)) return known("heic");
  if (MP4_BRANDS.has(major)) return known("mp4");
  if (HEIF_GENERIC_BRANDS.has(major)) {
    if (brands.some((b) => AVIF_BRANDS.has(b))) return null; // AVIF in a HEIF wrapper
    return known("heic");
  }
  if (brands.some((b) => QT_BRANDS.has(b))) return known("mov");
  if (brands.some((b) => HEIC_BRANDS.has(b))) return known("heic");
  if (brands.some((b) => MP4_BRANDS.has(b))) return known("mp4");
  return null;
}

/**
 * A human name for bytes that are NOT a supported format, for error messages
 * ("unsupported format: GIF; supported: ..."). Best effort; "unknown" otherwise.
 */
export function describeUnsupported(bytes: Uint8Array): string {
  const a = ascii(bytes, 0, 12);
  if (a.startsWith("GIF8")) return "GIF";
  if (a.startsWith("BM")) return "BMP";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "TIFF";
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return "WebM/Matroska";
  if (a.startsWith("RIFF") && ascii(bytes, 8, 12) === "AVI ") return "AVI";
  if (ascii(bytes, 4, 8) === "ftyp") {
    const major = ascii(bytes, 8, 12);
    if (AVIF_BRANDS.has(major) || /avi[fs]/.test(ascii(bytes, 16, 64))) return "AVIF";
    return `ISO media with brand "${major.trim()}"`;
  }
  if (a.startsWith("%PDF")) return "PDF";
  const head = ascii(bytes, 0, 64).trimStart().toLowerCase();
  if (head.startsWith("<svg") || head.startsWith("<?xml")) return "SVG/XML";
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return "HTML";
  if (bytes.length === 0) return "empty file";
  return "unknown";
}

export const SUPPORTED_IMAGE_FORMATS_TEXT = "PNG, JPEG, WEBP, HEIC";
export const SUPPORTED_VIDEO_FORMATS_TEXT = "MP4, MOV";

/**
 * The sniffed format of `bytes`, which must be of `kind` (image or video); otherwise throws
 * ApiError `unsupported_media_format` naming what was found and what is supported.
 */
export function requireMediaFormat(bytes: Uint8Array, kind: "image"): SniffedFormat & { format: ImageFormat };
export function requireMediaFormat(bytes: Uint8Array, kind: "video"): SniffedFormat & { format: VideoFormat };
export function requireMediaFormat(bytes: Uint8Array, kind: MediaKind): SniffedFormat;
export function requireMediaFormat(bytes: Uint8Array, kind: MediaKind): SniffedFormat {
  const found = sniffMediaFormat(bytes);
  const supported = kind === "image" ? SUPPORTED_IMAGE_FORMATS_TEXT : SUPPORTED_VIDEO_FORMATS_TEXT;
  if (!found) {
    throw new ApiError("unsupported_media_format", `Unsupported ${kind} format (${describeUnsupported(bytes)}); supported: ${supported}.`);
  }
  if (found.kind !== kind) {
    throw new ApiError("unsupported_media_format", `Expected ${kind === "image" ? "an image" : "a video"} but got ${found.kind === "image" ? "an image" : "a video"} (${found.format.toUpperCase()}); supported: ${supported}.`);
  }
  return found;
}
