// Types for heic-decode 2.1.0 (the package ships none): libheif (wasm) behind a small API.
declare module "heic-decode" {
  interface HeicImageData {
    width: number;
    height: number;
    /** RGBA, 8 bits per channel. */
    data: Uint8ClampedArray;
  }
  interface HeicImageHandle {
    width: number;
    height: number;
    decode(): Promise<HeicImageData>;
  }
  type HeicImageList = HeicImageHandle[] & { dispose(): void };
  interface HeicDecode {
    (input: { buffer: ArrayBufferLike | Uint8Array }): Promise<HeicImageData>;
    all(input: { buffer: ArrayBufferLike | Uint8Array }): Promise<HeicImageList>;
  }
  const decode: HeicDecode;
  export default decode;
}
