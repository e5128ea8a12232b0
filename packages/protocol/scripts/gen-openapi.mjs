// Writes docs/openapi.json (OpenAPI 3.1) from the protocol's schemas and examples, so the
// document cannot drift from the code. `--check` exits non-zero when the committed file
// differs (`npm run lint` runs it). The server serves the same document at /v1/openapi.json.
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { buildOpenApiDocument } from '../dist/openapi/document.js';
import { writeOrCheck } from './generated-file.mjs';

const target = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
// Formatted as `prettier --check .` wants it (the repository's .prettierrc.json).
const text = await prettier.format(JSON.stringify(buildOpenApiDocument()), {
  ...(await prettier.resolveConfig(target)),
  filepath: target,
});

writeOrCheck(target, text, 'npm run docs:openapi -w @parley/protocol');
