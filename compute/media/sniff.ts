// The format sniffer lives in schema/media-format.ts (pure TypeScript, shared with the Worker's
// upload checks): one place for the fact. Re-exported here for the compute side.
export { sniffMediaFormat, requireMediaFormat, describeUnsupported, MEDIA_FORMATS, SNIFF_BYTES } from "../../schema/media-format.ts";
export type { SniffedFormat, MediaFormat, ImageFormat, VideoFormat, MediaKind } from "../../schema/media-format.ts";
