// How `npm start` shows its children's output: one line each, prefixed with the child's name.
import { stripVTControlCharacters } from "node:util";

/**
 * With NO_COLOR set (https://no-color.org: present and not empty) colour codes are removed, since
 * not every child honours it (ONNX Runtime's native logger colours its warnings regardless).
 */
export function logLines(chunk: string, name: string, noColor = Boolean(process.env.NO_COLOR)): string {
  const text = noColor ? stripVTControlCharacters(chunk) : chunk;
  return text.split("\n").map((line) => (line.trim() ? `[${name}] ${line}\n` : "")).join("");
}
