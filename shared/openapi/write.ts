/** `npm run openapi`: (re)writes openapi.json at the repository root from buildOpenApiDocument(). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializeOpenApiDocument } from './document';

export const OPENAPI_FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));

writeFileSync(OPENAPI_FILE, serializeOpenApiDocument());
console.log(`wrote ${OPENAPI_FILE}`);
