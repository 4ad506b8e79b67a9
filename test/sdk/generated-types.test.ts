// The SDK's types cannot drift from the service: sdk/openapi.json is the served document
// (test/worker/sdk.test.ts) and sdk/src/openapi.d.ts is what openapi-typescript makes of it.
import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";
import { typesOf } from "../../sdk/scripts/openapi-types.ts";

const read = (path: string) => readFile(new URL(`../../sdk/${path}`, import.meta.url), "utf8");

it("sdk/src/openapi.d.ts is generated from sdk/openapi.json (regenerate: npm run sdk:generate)", async () => {
  const expected = await typesOf(JSON.parse(await read("openapi.json")) as object);
  // Equality of the whole text, not toEqual's diff of 270 kB: name the first line that differs.
  const committed = await read("src/openapi.d.ts");
  const lines = [committed.split("\n"), expected.split("\n")];
  const first = lines[1]!.findIndex((line, i) => line !== lines[0]![i]);
  expect(committed === expected, `stale from line ${first + 1}: committed ${JSON.stringify(lines[0]![first])}, generated ${JSON.stringify(lines[1]![first])}`).toBe(true);
});
