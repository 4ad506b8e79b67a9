// The SDK's types from the OpenAPI document, by openapi-typescript (a devDependency of this
// package, pinned with its own TypeScript 5: openapi-typescript needs the TypeScript 5 compiler
// API, which the repository's TypeScript 7 no longer has). Shared by `npm run sdk:generate` and
// the test that fails when the committed types are stale, so both produce the same text.
import openapiTS, { astToString } from "openapi-typescript";

export const TYPES_HEADER = `// Generated from sdk/openapi.json by openapi-typescript: do not edit. Regenerate with
// \`npm run sdk:generate\`; test/sdk/generated-types.test.ts fails when this file is stale.
`;

export async function typesOf(document: object): Promise<string> {
  return TYPES_HEADER + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
}
