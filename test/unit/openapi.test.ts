/**
 * The OpenAPI document (shared/openapi/document.ts, committed as openapi.json): up to date,
 * complete (every route, every error code of the code base with its status), structurally a
 * valid OpenAPI 3.1 document whose schemas ajv compiles, whose references resolve and whose
 * examples match their schemas; and the generator stays out of the Lambda bundles.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { gatewayResponses, methodNotAllowedTemplate } from '../../definitions/gateway-responses';
import { apiRoutes, type Route, routes, sandboxRoutes, servedByApi } from '../../definitions/routes';
import type { getPaymentOrderStatus, orderCreatedView } from '../../shared/domain/payments/order-views';
import type { findAvailableRooms } from '../../shared/domain/property-sync/availability';
import type { syncBookings } from '../../shared/domain/property-sync/sync-bookings';
import type { syncCategories } from '../../shared/domain/property-sync/sync-categories';
import type { syncCheckins } from '../../shared/domain/property-sync/sync-checkins';
import type { syncRooms } from '../../shared/domain/property-sync/sync-rooms';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../../shared/openapi/document';
import { errorsOf } from '../../shared/openapi/route-errors';
import { ERROR_STATUS } from '../../shared/errors';
import { ERROR_CODES, type ErrorCode } from '../../shared/openapi/error-codes';
import { OPERATIONS } from '../../shared/openapi/operations';
import { docsOfRoute } from '../../shared/openapi/route-docs';
import { formatErrors, OpenApiValidator, resolvePointer } from '../../shared/openapi/validator';
import {
  type availabilityResult,
  type bookingSyncResult,
  type categorySyncResult,
  type checkinSyncResult,
  type paymentOrderCreated,
  type paymentOrderStatus,
  type roomSyncResult,
} from '../../shared/schemas/responses';
import type { BookingSync, OrderStatus } from '../../shared/store/payment-store';
import { BOOKING_SYNC_STATUSES, ORDER_STATUSES, ROOM_ASSIGNMENTS } from '../../shared/schemas/responses';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

// ---- compile-time: the response schemas have exactly the fields the functions return

/** The field structure of a type: nested keys, optionality and leaf types ignored. */
type Shape<T> = T extends readonly (infer E)[] ? Shape<E>[] : T extends object ? { [K in keyof T]-?: Shape<NonNullable<T[K]>> } : 'leaf';
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
const sameFields: [
  Same<Shape<z.infer<typeof categorySyncResult>>, Shape<Returned<typeof syncCategories>>>,
  Same<Shape<z.infer<typeof roomSyncResult>>, Shape<Returned<typeof syncRooms>>>,
  Same<Shape<z.infer<typeof bookingSyncResult>>, Shape<Returned<typeof syncBookings>>>,
  Same<Shape<z.infer<typeof checkinSyncResult>>, Shape<Returned<typeof syncCheckins>>>,
  Same<Shape<z.infer<typeof availabilityResult>>, Shape<Returned<typeof findAvailableRooms>>>,
  Same<Shape<z.infer<typeof paymentOrderCreated>>, Shape<ReturnType<typeof orderCreatedView>>>,
  Same<Shape<z.infer<typeof paymentOrderStatus>>, Shape<Returned<typeof getPaymentOrderStatus>>>,
  // The enums of the response schemas are the store's types.
  Same<(typeof ORDER_STATUSES)[number], OrderStatus>,
  Same<(typeof BOOKING_SYNC_STATUSES)[number], BookingSync['status']>,
  Same<(typeof ROOM_ASSIGNMENTS)[number] | null, BookingSync['room_assignment']>,
] = [true, true, true, true, true, true, true, true, true, true];

// ---- helpers

/** The document as JSON (parsed from its serialization, as clients see it). */
interface Doc {
  paths: Record<string, Record<string, any>>;
  webhooks?: Record<string, Record<string, any>>;
  components?: Record<string, Record<string, any>>;
  tags: { name: string }[];
  [field: string]: unknown;
}
let document: Doc;
let validator: OpenApiValidator;

beforeAll(() => {
  document = JSON.parse(serializeOpenApiDocument()) as Doc;
  validator = new OpenApiValidator(document);
});

function* walk(node: unknown, path: string[] = []): Generator<[string[], Record<string, unknown>]> {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) yield* walk(child, [...path, String(i)]);
  } else if (node && typeof node === 'object') {
    yield [path, node as Record<string, unknown>];
    for (const [key, child] of Object.entries(node)) yield* walk(child, [...path, key]);
  }
}

/** Every operation: paths and webhooks. */
function operations(): { where: string; operation: Record<string, any> }[] {
  const result: { where: string; operation: Record<string, any> }[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    for (const [path, item] of Object.entries(document[section] ?? {})) {
      for (const [method, operation] of Object.entries(item as object)) result.push({ where: `${section} ${method.toUpperCase()} ${path}`, operation });
    }
  }
  return result;
}

/** Media type objects with a schema, with where they are. */
function mediaTypes(): { where: string; media: { schema: object; example?: unknown } }[] {
  const result: { where: string; media: { schema: object; example?: unknown } }[] = [];
  for (const { where, operation } of operations()) {
    for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) result.push({ where: `${where} request ${type}`, media: media as never });
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      for (const [type, media] of Object.entries((response as { content?: object }).content ?? {})) result.push({ where: `${where} ${status} ${type}`, media: media as never });
    }
  }
  return result;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

// ---- tests

describe('openapi.json', () => {
  it('is the committed output of buildOpenApiDocument() (run `npm run openapi` after changing routes, schemas or the document)', () => {
    const committed = readFileSync(join(ROOT, 'openapi.json'), 'utf8');
    expect(committed === serializeOpenApiDocument(), 'openapi.json is stale: run `npm run openapi` and commit the result').toBe(true);
  });

  it('is built deterministically', () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument())).toBe(serializeOpenApiDocument(buildOpenApiDocument()));
  });
});

describe('coverage of the route table', () => {
  it('has every API route with its method, operation id, tag, security and idempotency header', () => {
    for (const route of apiRoutes()) {
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Record<string, any> | undefined;
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation!.operationId).toBe(route.id);
      expect(operation!.tags).toHaveLength(1);
      expect(operation!.summary && operation!.description).toBeTruthy();
      const security = operation!.security as Record<string, string[]>[];
      if (route.auth.kind === 'sync') expect(security).toEqual([{ syncKey: [route.auth.scope] }]);
      if (route.auth.kind === 'payment') expect(security).toEqual([{ paymentKey: [] }, { paymentApiKey: [] }]);
      if (route.auth.kind === 'public') expect(security).toEqual([]);
      // The deliveries API: either kind of key, with its scope.
      if (route.auth.kind === 'key') expect(security).toEqual([{ syncKey: [route.auth.scope] }, { paymentKey: [route.auth.scope] }, { paymentApiKey: [route.auth.scope] }]);
      const headers = ((operation!.parameters ?? []) as { in: string; name: string }[]).filter((p) => p.in === 'header').map((p) => p.name);
      expect(headers.includes('Idempotency-Key'), `${route.id} Idempotency-Key`).toBe(!!route.idempotent);
      expect(headers.includes('Origin'), `${route.id} Origin`).toBe(route.auth.kind === 'payment' || route.auth.kind === 'key');
      const success = Object.keys(operation!.responses).filter((s) => /^[23]/.test(s));
      expect(success.length, `${route.id} has a success response`).toBeGreaterThan(0);
    }
  });

  it('has no operation that is not in the route table', () => {
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(apiRoutes().map((r) => `${r.method} ${r.path}`).sort());
  });

  // A new route cannot ship undocumented: its text is in shared/openapi/route-docs.ts, its schemas
  // in shared/openapi/operations.ts. A page for people (`page: true`) has neither.
  it('has, for every route-table entry, the text and operation the document needs', () => {
    for (const route of routes) {
      if (route.page) {
        expect(docsOfRoute(route), `${route.id} is a page: no API docs`).toBeUndefined();
        expect(OPERATIONS[route.id], `${route.id} is a page: no operation`).toBeUndefined();
        continue;
      }
      const docs = docsOfRoute(route);
      expect(docs, `${route.id} has docs in shared/openapi/route-docs.ts`).toBeDefined();
      const { summary, description } = docs!;
      expect(summary.trim(), `${route.id} summary`).not.toBe('');
      expect(summary.length <= 80 && !summary.includes('\n'), `${route.id} summary is one short line`).toBe(true);
      expect(description.trim().length, `${route.id} description`).toBeGreaterThan(summary.length);
      expect(OPERATIONS[route.id], `${route.id} has an operation in shared/openapi/operations.ts`).toBeDefined();
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Record<string, any>;
      expect(operation.summary).toBe(summary);
      expect(operation.description.startsWith(description), `${route.id} description is the route's`).toBe(true);
    }
  });

  it('leaves pages for people (dashboard, guest booking) out of the API document', () => {
    const page: Route = {
      id: 'DashboardOverview',
      method: 'GET',
      path: '/dashboard',
      handler: 'dashboard-overview',
      auth: { kind: 'public' },
      access: { dynamodb: { actions: ['Query'] } },
      description: 'Dashboard overview page',
      page: true,
    };
    expect(apiRoutes([...routes, ...sandboxRoutes, page])).toEqual(apiRoutes());
  });

  it('has the booking.confirmed and payment_order.paid events as webhooks, with their signed-delivery headers', () => {
    for (const event of ['booking.confirmed', 'payment_order.paid']) {
      const post = document.webhooks?.[event]?.post as Record<string, any>;
      expect(post, event).toBeDefined();
      const headers = (post.parameters as { in: string; name: string; required: boolean }[]).filter((p) => p.in === 'header');
      expect(headers.map((h) => h.name).sort()).toEqual(['X-Service-Client', 'X-Service-Delivery', 'X-Service-Event', 'X-Service-Signature', 'webhook-id', 'webhook-signature', 'webhook-timestamp']);
      expect(headers.every((h) => h.required)).toBe(true);
      expect(Object.keys(post.responses).sort()).toEqual(['2XX', '400', '401', '403', '409', '422', '429', '5XX', 'default'].sort());
      expect(post.requestBody.content['application/json'].schema.$ref).toMatch(/Event$/);
      // Secured by the signature, not a credential: declared (Redocly's security-defined) as none, the signature described.
      expect(post.security, event).toEqual([]);
      expect(post.description).toContain('`X-Service-Signature` is the HMAC-SHA256 of the exact raw body');
    }
  });

  it('has both kinds of credentials as security schemes', () => {
    expect(document.components?.securitySchemes).toMatchObject({
      syncKey: { type: 'http', scheme: 'bearer' },
      paymentKey: { type: 'http', scheme: 'bearer' },
      paymentApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
  });

  it('fails loudly for a route without an operation', () => {
    expect(() => errorsOf({ ...routes[0]!, id: 'NoSuchRoute' })).toThrow(/NoSuchRoute .* has no operation/);
  });
});

describe('error codes', () => {
  /**
   * Every code the service answers with, with its status where it is fixed: the error catalogue's
   * (every AppError is built there: test/unit/error-catalogue.test.ts), and the codes of what is not
   * an AppError: the authorizer's decisions, hand-written envelopes and the gateway responses.
   */
  function scanCodes(): Map<string, Set<number | undefined>> {
    const found = new Map<string, Set<number | undefined>>();
    const add = (code: string, status?: number) => {
      const statuses = found.get(code) ?? new Set();
      statuses.add(status);
      found.set(code, statuses);
    };
    for (const [code, status] of Object.entries(ERROR_STATUS)) add(code, status);
    const files = ['shared', 'functions', 'infra', 'bin']
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .filter((file) => !relative(ROOT, file).startsWith(join('shared', 'openapi')));
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      // Authorizer decisions and hand-written envelopes.
      for (const m of source.matchAll(/\bcode: '([A-Z][A-Z0-9_]+)'/g)) add(m[1]!);
      for (const m of source.matchAll(/"code":"([A-Z][A-Z0-9_]+)"/g)) add(m[1]!);
    }
    for (const response of gatewayResponses) {
      const code = /"code":"([A-Z][A-Z0-9_]+)"/.exec(response.template)?.[1];
      // DEFAULT_4XX / DEFAULT_5XX keep API Gateway's own status.
      if (code) add(code, response.statusCode ? Number(response.statusCode) : undefined);
    }
    // ACCESS_DENIED renders the authorizer's deny code: the deny decisions are 403.
    for (const m of readFileSync(join(ROOT, 'shared/auth/authorize.ts'), 'utf8').matchAll(/effect: 'deny', code: '([A-Z_]+)'/g)) add(m[1]!, 403);
    add(/"code":"([A-Z_]+)"/.exec(methodNotAllowedTemplate)![1]!, 405);
    return found;
  }

  it('catalogues exactly the codes of the code base, each with the status the code answers it with', () => {
    const scanned = scanCodes();
    expect([...scanned.keys()].sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const [code, statuses] of scanned) {
      for (const status of statuses) if (status !== undefined) expect(`${code} ${status}`).toBe(`${code} ${ERROR_CODES[code as ErrorCode].status}`);
    }
  });

  it('names every code of the code base in the document', () => {
    const text = serializeOpenApiDocument();
    for (const code of scanCodes().keys()) expect(text.includes(`\`${code}\``) || text.includes(`"${code}"`), code).toBe(true);
  });

  it('answers every code of the API from some operation, under its own status, in the error envelope', () => {
    const answered = new Set<string>();
    for (const { where, operation } of operations().filter((o) => o.where.startsWith('paths'))) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
        if (Number(status) < 400) continue;
        const schema = response.content['application/json'].schema;
        const codes = schema.properties.error.properties.code.enum as string[];
        expect(schema.required, where).toEqual(['error']);
        expect(schema.properties.error.required, where).toEqual(['code', 'message', 'request_id']);
        expect(Object.keys(schema.properties.error.properties).sort()).toEqual(['code', 'details', 'message', 'request_id']);
        for (const code of codes) {
          expect(`${where} ${status} ${code}`).toBe(`${where} ${ERROR_CODES[code as ErrorCode].status} ${code}`);
          expect(response.description, `${where} ${status} describes ${code}`).toContain(`\`${code}\``);
          answered.add(code);
        }
        expect(response.headers['X-Request-Id'], `${where} ${status}`).toBeDefined();
      }
    }
    const api = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => ERROR_CODES[c].surface === 'api' && c !== 'METHOD_NOT_ALLOWED');
    expect(api.filter((c) => !answered.has(c))).toEqual([]);
    expect(document.components?.schemas?.ErrorCode).toMatchObject({ enum: expect.arrayContaining([...answered, 'METHOD_NOT_ALLOWED']) });
  });

  it('lists 401/403 on keyed routes only, and ORIGIN_NOT_ALLOWED on payment routes only', () => {
    for (const route of apiRoutes()) {
      const responses = document.paths[route.path]![route.method.toLowerCase()]!.responses as Record<string, any>;
      const codesOf = (status: number) => (responses[status]?.content['application/json'].schema.properties.error.properties.code.enum ?? []) as string[];
      expect(codesOf(401), route.id).toEqual(route.auth.kind === 'public' ? [] : ['MISSING_API_KEY', 'INVALID_API_KEY']);
      expect(codesOf(403), route.id).toEqual(
        route.auth.kind === 'public' ? [] : route.auth.kind === 'payment' || route.auth.kind === 'key' ? ['INSUFFICIENT_SCOPE', 'ORIGIN_NOT_ALLOWED'] : ['INSUFFICIENT_SCOPE'],
      );
      if (route.idempotent) {
        expect(codesOf(409), route.id).toContain('IDEMPOTENCY_REQUEST_IN_PROGRESS');
        expect(codesOf(422), route.id).toContain('IDEMPOTENCY_KEY_REUSED');
      }
      // 429 is API Gateway's (usage plans, throttling): the sandbox's own origin has none.
      for (const status of [413, 500, 503]) expect(codesOf(status).length, `${route.id} ${status}`).toBe(1);
      expect(codesOf(429).length, `${route.id} 429`).toBe(servedByApi(route) ? 1 : 0);
    }
  });

  it('documents the sandbox checkout with its own origin, never the API\'s servers', () => {
    const servers = (route: Route) => document.paths[route.path]![route.method.toLowerCase()]!.servers as { url: string }[] | undefined;
    expect(sandboxRoutes.map((r) => r.id)).toEqual(['SandboxCheckoutPage', 'SandboxCheckoutSubmit']);
    for (const route of sandboxRoutes) {
      expect(route.path.startsWith('/api/'), route.id).toBe(false);
      expect(servers(route)?.map((s) => s.url), route.id).toEqual(['http://127.0.0.1:3001', 'https://{url_id}.lambda-url.{region}.on.aws']);
    }
    for (const route of routes) expect(servers(route), route.id).toBeUndefined();
    expect((document.servers as { url: string }[]).map((s) => s.url)).not.toContain('http://127.0.0.1:3001');
  });
});

describe('structure (OpenAPI 3.1)', () => {
  it('has the document fields of OpenAPI 3.1', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    // A subset of the OpenAPI 3.1 schema: the parts this document uses.
    const validate = validator.ajv.compile({
        type: 'object',
        required: ['openapi', 'info', 'paths', 'components', 'webhooks'],
        properties: {
          openapi: { const: '3.1.0' },
          info: { type: 'object', required: ['title', 'version'], properties: { title: { type: 'string' }, version: { const: pkg.version }, description: { type: 'string' } } },
          servers: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['url'],
              properties: {
                url: { type: 'string' },
                variables: { type: 'object', additionalProperties: { type: 'object', required: ['default'], properties: { default: { type: 'string' } } } },
              },
            },
          },
          tags: { type: 'array', items: { type: 'object', required: ['name'] } },
          paths: { type: 'object', propertyNames: { pattern: '^/' }, additionalProperties: { $ref: '#/$defs/pathItem' } },
          webhooks: { type: 'object', additionalProperties: { $ref: '#/$defs/pathItem' } },
          components: {
            type: 'object',
            propertyNames: { enum: ['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks', 'pathItems'] },
            properties: {
              securitySchemes: {
                type: 'object',
                additionalProperties: {
                  type: 'object',
                  required: ['type'],
                  properties: { type: { enum: ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'] } },
                  allOf: [
                    { if: { properties: { type: { const: 'http' } } }, then: { required: ['scheme'] } },
                    { if: { properties: { type: { const: 'apiKey' } } }, then: { required: ['name', 'in'], properties: { in: { enum: ['query', 'header', 'cookie'] } } } },
                  ],
                },
              },
              headers: { type: 'object', additionalProperties: { type: 'object', required: ['schema'] } },
            },
          },
        },
        $defs: {
          pathItem: {
            type: 'object',
            propertyNames: { enum: [...METHODS, 'summary', 'description', 'parameters', 'servers'] },
            additionalProperties: {
              type: 'object',
              required: ['responses'],
              properties: {
                operationId: { type: 'string' },
                tags: { type: 'array', items: { type: 'string' } },
                security: { type: 'array', items: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
                parameters: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['name', 'in', 'schema'],
                    properties: { in: { enum: ['query', 'header', 'path', 'cookie'] }, required: { type: 'boolean' } },
                    if: { properties: { in: { const: 'path' } } },
                    then: { required: ['required'], properties: { required: { const: true } } },
                  },
                },
                requestBody: { type: 'object', required: ['content'], properties: { content: { $ref: '#/$defs/content' } } },
                responses: {
                  type: 'object',
                  minProperties: 1,
                  propertyNames: { pattern: '^([1-5](\\d\\d|XX)|default)$' },
                  additionalProperties: {
                    type: 'object',
                    required: ['description'],
                    properties: { description: { type: 'string' }, headers: { type: 'object' }, content: { $ref: '#/$defs/content' } },
                  },
                },
              },
            },
          },
          content: { type: 'object', minProperties: 1, additionalProperties: { type: 'object', required: ['schema'] } },
        },
    });
    expect(validate(document) ? [] : formatErrors(validate.errors)).toEqual([]);
  });

  it('has unique operation ids, known tags, and declares every path parameter', () => {
    const ids = operations().map((o) => o.operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set((document.tags as { name: string }[]).map((t) => t.name));
    for (const { where, operation } of operations()) for (const tag of operation.tags) expect(tags.has(tag), `${where} ${tag}`).toBe(true);
    for (const [path, item] of Object.entries(document.paths)) {
      const wanted = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      for (const operation of Object.values(item as Record<string, any>)) {
        const declared = ((operation.parameters ?? []) as { in: string; name: string }[]).filter((p) => p.in === 'path').map((p) => p.name).sort();
        expect(declared, path).toEqual(wanted);
      }
    }
  });

  it('resolves every $ref', () => {
    for (const [path, node] of walk(document)) {
      if (typeof node.$ref === 'string') expect(resolvePointer(document, node.$ref), `${path.join('/')}: ${node.$ref}`).toBeDefined();
    }
  });

  it('has schemas ajv compiles: every component, parameter, header and request/response body', () => {
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) expect(() => validator.compile(schema as object), name).not.toThrow();
    for (const [path, node] of walk({ paths: document.paths, webhooks: document.webhooks, headers: document.components?.headers })) {
      if (node.schema && typeof node.schema === 'object') expect(() => validator.compile(node.schema as object), path.join('/')).not.toThrow();
    }
  });

  it('has examples on every request and response body, each valid against its schema', () => {
    for (const { where, media } of mediaTypes()) {
      expect(media.example, `${where} has an example`).toBeDefined();
      if (typeof media.example === 'string' && !where.includes('json')) continue;
      expect(validator.check(media.schema, media.example), where).toEqual([]);
    }
  });

  it('has valid examples on parameters and schemas', () => {
    for (const [path, node] of walk(document)) {
      if (path.at(-2) === 'properties') continue; // a property named `example` or `schema`
      const schema = node.schema as object | undefined;
      const example = (schema as { example?: unknown } | undefined)?.example;
      if (schema && example !== undefined) expect(validator.check(schema, example), path.join('/')).toEqual([]);
    }
  });
});

describe('the generator and the functions', () => {
  it('keeps zod-to-openapi and shared/openapi out of every Lambda bundle', async () => {
    const entryPoints = readdirSync(join(ROOT, 'functions')).filter((f) => f.endsWith('.ts')).map((f) => join(ROOT, 'functions', f));
    const result = await build({
      entryPoints,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      outdir: join(ROOT, '.openapi-bundle-check'),
      external: ['@aws-sdk/*'],
      logLevel: 'silent',
    });
    const leaks = Object.values(result.metafile!.outputs).flatMap((output) =>
      Object.keys(output.inputs)
        .filter((input) => input.includes('zod-to-openapi') || input.includes('shared/openapi/') || input.includes('node_modules/ajv'))
        .map((input) => `${output.entryPoint}: ${input}`),
    );
    expect(leaks).toEqual([]);
  }, 60_000);

  it('describes exactly the fields the functions return', () => {
    expect(sameFields.every(Boolean)).toBe(true);
  });
});
