// Shared shapes of the compute service's three layers (models, effects, pipelines).
// Pixels travel as raw 8-bit interleaved buffers, top-left origin, EXIF orientation
// already applied, so no layer ever has to think about file formats.

/** A decoded image or video frame. */
export interface Frame {
  data: Buffer;
  width: number;
  height: number;
  /** 3 = RGB, 4 = RGBA. */
  channels: 3 | 4;
}

/** An axis-aligned box in pixel coordinates of the frame it was found in. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Something a model found: a box, how sure it is, and what it is ("face", "car", "text", ...). */
export interface Detection extends Box {
  score: number;
  label: string;
  /** Optional soft mask (same size as the frame) when a segmenter gives one. */
  mask?: Mask;
}

/** A soft single-channel mask the size of its frame: 0 = untouched, 255 = fully covered. */
export interface Mask {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Result of an NSFW classification. */
export interface NsfwVerdict {
  is_nsfw: boolean;
  /** Probability-like score in 0..1 that the media is NSFW. */
  score: number;
}
