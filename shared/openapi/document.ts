/**
 * The OpenAPI 3.1 document of the API, for every API route of definitions/routes.ts (pages for people
 * are HTML, outside it: `page: true`). The modules beside this one give each route its operation:
 *
 * - schemas.ts: component names and field descriptions of the handlers' zod schemas (zod/mini;
 *   the generator gets their classic zod equivalents, classic.ts);
 * - route-docs.ts: per route, its summary and description;
 * - operations.ts: per route, its tag, request and response schemas and its own errors;
 * - paths.ts and route-errors.ts: a route-table entry as an operation, with its error responses;
 * - examples.ts, headers.ts, security.ts, webhooks.ts, error-codes.ts (the error catalogue).
 *
 * Only these modules (and the scripts and tests around them) import the generator; no function
 * does, so it never reaches a Lambda bundle.
 *
 * `npm run openapi` writes it to openapi.json; the local stack serves it at /api/v1/openapi.json.
 */
import { readFileSync } from 'node:fs';
import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { apiRoutes, routes, sandboxRoutes, SYNC_SCOPES } from '../../definitions/routes';
import { MAX_BODY_BYTES, MAX_SYNC_ITEMS } from '../config';
import { MAX_STAY_NIGHTS } from '../schemas/common';
import { describedErrorEnvelope } from '../schemas/responses';
import { errorCatalogue, type ErrorCode, HTTP_ERROR_CODES } from './error-codes';
import { HEADERS } from './headers';
import { OPERATIONS, TAGS } from './operations';
import { routeConfig } from './paths';
import { component, nameSchemas } from './schemas';
import { registerSecuritySchemes } from './security';
import { registerWebhooks } from './webhooks';

/** The path the local stack serves the document at. */
export const OPENAPI_PATH = '/api/v1/openapi.json';

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const DESCRIPTION = () =>
  [
    'Serverless hotel integration API beside a property management system (PMS).',
    '',
    '- **Property sync (Area A)**: a PMS server holding a scoped *sync key* pushes room categories, rooms, bookings and check-in/check-out activity, and reads availability. The service can POST a signed `booking.confirmed` callback to the PMS (see `webhooks`).',
    '- **Payment orders (Area B)**: a partner website\'s server holding a *payment key* creates payment orders paid on a hosted checkout; paid room bookings become confirmed hotel bookings. A signed `payment_order.paid` webhook is sent when configured.',
    '',
    '## Conventions',
    '',
    'JSON field names are snake_case. Timestamps are ISO 8601 UTC with `Z`; ids the service mints are UUIDs; dates are real calendar dates `YYYY-MM-DD`. Validation is strict: no type coercion, `null` is never accepted where a value is expected (omit optional fields), ids and references 1 to 128 characters, other strings at most 2,000. Unknown fields are ignored. Area A money is a decimal in the client\'s currency; Area B money is `amount_minor` in ISO 4217 minor units.',
    '',
    `Limits: request bodies up to ${MAX_BODY_BYTES / 1024 / 1024} MiB; at most ${MAX_SYNC_ITEMS} items per sync array; stays of 1 to ${MAX_STAY_NIGHTS} nights. The API is versioned in the path (\`/api/v1/\`).`,
    '',
    '## Credentials',
    '',
    `Two kinds, kept apart: sync keys (\`svc_sync_…\`, scopes ${SYNC_SCOPES.map((s) => `\`${s}\``).join(', ')}) for Area A only, payment keys (\`svc_pay_…\`) for payment orders only. Use them from your server, never in browser code. Every key belongs to one client, the only tenant a request can touch. No key: 401 \`MISSING_API_KEY\`; unknown, malformed or revoked: 401 \`INVALID_API_KEY\`; missing scope or the other kind of key: 403 \`INSUFFICIENT_SCOPE\`.`,
    '',
    '## Errors',
    '',
    'Every error, including those API Gateway produces itself (authorizer denials, unknown routes, throttling, oversized bodies), has the body `{"error": {"code", "message", "request_id"}}`, plus `details: [{path, message}]` for validation errors; the `X-Request-Id` header carries the same request id. An unknown path answers 404 `NOT_FOUND`, a known path with another method 405 `METHOD_NOT_ALLOWED`. Each operation lists the codes it can answer. All codes:',
    '',
    errorCatalogue(),
  ].join('\n');

/** Builds the document (deterministic: the same code gives the same document). */
export function buildOpenApiDocument() {
  nameSchemas();
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  for (const [name, header] of Object.entries(HEADERS)) registry.registerComponent('headers', name, header as never);
  // Components no operation refers to directly (the full code list and the generic envelope).
  const errorCode = component('ErrorCode', z.enum(HTTP_ERROR_CODES as [ErrorCode, ...ErrorCode[]]), {
    description: 'Every code an HTTP response of this API can carry; the table in the API description gives each status. Stable and machine-readable.',
  });
  const standalone = [{ type: 'schema' as const, schema: component('ErrorEnvelope', describedErrorEnvelope(errorCode)) }];
  const byId = new Set([...routes, ...sandboxRoutes].map((r) => r.id));
  const unknown = Object.keys(OPERATIONS).filter((id) => !byId.has(id));
  if (unknown.length) throw new Error(`shared/openapi/operations.ts describes routes that definitions/routes.ts does not have: ${unknown.join(', ')}`);
  for (const route of apiRoutes()) registry.registerPath(routeConfig(route));
  registerWebhooks(registry);

  const generator = new OpenApiGeneratorV31([...registry.definitions, ...standalone], { sortComponents: 'alphabetically' });
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Hotel integration API',
      version: packageVersion(),
      description: DESCRIPTION(),
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'Local stack (`npm start`; `PORT` overrides 3000)' },
      {
        url: 'https://{api_id}.execute-api.{region}.amazonaws.com/{stage}',
        description: 'Deployed stack (`npx cdk deploy -c stage=NAME`; the `ApiUrl` output)',
        variables: {
          api_id: { default: 'abcdef1234', description: 'The REST API id.' },
          region: { default: 'eu-west-1', description: 'The AWS region of the stack.' },
          stage: { default: 'dev', description: 'The stage name (`-c stage=NAME`).' },
        },
      },
    ],
    tags: TAGS,
  });
  return sortComponentSections(document);
}

/** Components sections and their entries in alphabetical order, whatever order they were registered in. */
function sortComponentSections<T extends { components?: object }>(document: T): T {
  if (!document.components) return document;
  const sections = document.components as Record<string, Record<string, unknown> | undefined>;
  const sorted: Record<string, unknown> = {};
  for (const section of Object.keys(sections).sort()) {
    const entries = sections[section];
    if (!entries || Object.keys(entries).length === 0) continue;
    sorted[section] = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return { ...document, components: sorted };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** The document as committed in openapi.json and served by the local stack. */
export function serializeOpenApiDocument(document: object = buildOpenApiDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
