// The benches' `--size WxH` flag (a frame size to draw the evaluation scenes at).

/** "3840x2160" -> { width: 3840, height: 2160 }; undefined when the flag was not given. */
export function frameSizeFlag(flag: string | undefined): { width: number; height: number } | undefined {
  if (flag === undefined) return undefined;
  const [width, height] = flag.split("x").map(Number);
  return { width: width!, height: height! };
}
