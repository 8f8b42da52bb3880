/**
 * Overhead of the stack: the same operation through HTTP, the local gateway, the authorizer,
 * the middleware (logging, tracing, metrics, scope check, body parsing, zod validation, error
 * envelope) and the handler, against a bare handler that makes the same DynamoDB calls (the use
 * case called directly with the parsed input, its result serialized). To say where the added
 * time goes, the parts are also timed on their own: an HTTP round trip through the gateway with
 * no function behind it, the authorizer invoked directly, and the route's handler invoked
 * directly with the event the gateway would build. All variants are interleaved request by
 * request, in a rotating order.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { lambdaContext, loadHandler } from '../../infra/local/lambda-runtime';
import { findRoute, type Route } from '../../definitions/routes';
import { findAvailableRooms } from '../../shared/domain/property-sync/availability';
import { syncRooms } from '../../shared/domain/property-sync/sync-rooms';
import { formatCommands } from './lib/capacity';
import { categories, rooms, SOURCE, WEEK } from './lib/fixtures';
import { expectStatus } from './lib/http';
import { type BenchStack, PING_PATH } from './lib/stack';
import { median, ms, percentile, ratio, round, x } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const MAX_RATIO = 1.3;
const VARIANTS = ['stack', 'bare', 'ping', 'authorizer', 'handler'] as const;
type Variant = (typeof VARIANTS)[number];

interface Measured {
  ms: number;
  calls: number;
  commands: Record<string, number>;
}

function authorizerEvent(route: Route, key: string, query: Record<string, string> | null) {
  const methodArn = `arn:aws:execute-api:us-east-1:000000000000:local/local/${route.method}${route.path}`;
  return {
    type: 'REQUEST',
    methodArn,
    resource: route.path,
    path: route.path,
    httpMethod: route.method,
    headers: { Authorization: `Bearer ${key}`, Host: '127.0.0.1' },
    multiValueHeaders: { Authorization: [`Bearer ${key}`], Host: ['127.0.0.1'] },
    queryStringParameters: query,
    multiValueQueryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: null,
    stageVariables: null,
    requestContext: { requestId: 'bench', stage: 'local', httpMethod: route.method, resourcePath: route.path, path: `/local${route.path}` },
  };
}

function proxyEvent(route: Route, key: string, authorizer: Record<string, unknown>, query: Record<string, string> | null, body: string | null): APIGatewayProxyEvent {
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Host: '127.0.0.1', ...(body ? { 'Content-Type': 'application/json' } : {}) };
  return {
    resource: route.path,
    path: route.path,
    httpMethod: route.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
    queryStringParameters: query,
    multiValueQueryStringParameters: query ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])) : null,
    pathParameters: null,
    stageVariables: null,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      resourceId: route.id,
      stage: 'local',
      requestId: `bench-${Math.random().toString(36).slice(2)}`,
      httpMethod: route.method,
      resourcePath: route.path,
      path: `/local${route.path}`,
      authorizer,
    } as unknown as APIGatewayProxyEvent['requestContext'],
    body,
    isBase64Encoded: false,
  };
}

export async function overhead(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { http, meter } = stack;
  const samples = config.quick ? 15 : 50;
  const warmup = 5;

  // Availability: a hotel of 200 rooms in 4 categories. Sync: a hotel of 10 rooms, re-synced unchanged.
  const hotel = await stack.createTenant('Overhead availability');
  expectStatus(await http.send('PUT', '/api/v1/property-sync/room-categories', { key: hotel.syncKey, body: { external_source: SOURCE, categories: categories() } }), 200);
  expectStatus(await http.send('PUT', '/api/v1/property-sync/rooms', { key: hotel.syncKey, body: { external_source: SOURCE, rooms: rooms(200, { withCategories: true }) } }), 200);
  const small = await stack.createTenant('Overhead sync');
  const smallBody = { external_source: SOURCE, rooms: rooms(10) };
  expectStatus(await http.send('PUT', '/api/v1/property-sync/rooms', { key: small.syncKey, body: smallBody }), 200);
  const smallJson = JSON.stringify(smallBody);

  const authorizer = await loadHandler('authorizer');
  const availabilityRoute = findRoute('GetAvailability');
  const roomsRoute = findRoute('PutRooms');
  const availabilityQuery = { ...WEEK, guests: '2' };
  const availabilityPath = `${availabilityRoute.path}?${new URLSearchParams(availabilityQuery)}`;
  const availabilityHandler = await loadHandler(availabilityRoute.handler);
  const roomsHandler = await loadHandler(roomsRoute.handler);
  const authorize = async (route: Route, key: string, query: Record<string, string> | null) => {
    const result = await authorizer(authorizerEvent(route, key, query), lambdaContext('authorizer', 10_000));
    if (result.policyDocument.Statement[0].Effect !== 'Allow' || result.context.auth_error) throw new Error(`authorizer denied: ${JSON.stringify(result)}`);
    return result as { principalId: string; context: Record<string, unknown> };
  };
  const availabilityAuth = await authorize(availabilityRoute, hotel.syncKey, availabilityQuery);
  const roomsAuth = await authorize(roomsRoute, small.syncKey, null);
  const invoke = async (handler: typeof roomsHandler, event: APIGatewayProxyEvent, id: string) => {
    const result = await handler(event, lambdaContext(id, 10_000));
    if (result.statusCode !== 200) throw new Error(`${id} answered ${result.statusCode}: ${String(result.body).slice(0, 200)}`);
  };
  const ping = async () => expectStatus(await http.send('GET', PING_PATH), 200);

  const cases: { name: string; run: Record<Variant, () => Promise<unknown>> }[] = [
    {
      name: 'GET availability (200 rooms)',
      run: {
        stack: async () => expectStatus(await http.send('GET', availabilityPath, { key: hotel.syncKey }), 200),
        bare: async () => ({ statusCode: 200, body: JSON.stringify(await findAvailableRooms(hotel.clientId, { ...WEEK, guests: 2 })) }),
        ping,
        authorizer: () => authorize(availabilityRoute, hotel.syncKey, availabilityQuery),
        handler: () =>
          invoke(availabilityHandler, proxyEvent(availabilityRoute, hotel.syncKey, { ...availabilityAuth.context, principalId: availabilityAuth.principalId }, availabilityQuery, null), availabilityRoute.id),
      },
    },
    {
      name: 'PUT 10 rooms, unchanged',
      run: {
        stack: async () => {
          const r = await http.send('PUT', roomsRoute.path, { key: small.syncKey, body: smallBody });
          expectStatus(r, 200);
          if (r.body.unchanged !== 10) throw new Error(`expected 10 unchanged rooms: ${r.text.slice(0, 200)}`);
        },
        bare: async () => ({ statusCode: 200, body: JSON.stringify(await syncRooms(small.clientId, JSON.parse(smallJson))) }),
        ping,
        authorizer: () => authorize(roomsRoute, small.syncKey, null),
        handler: () => invoke(roomsHandler, proxyEvent(roomsRoute, small.syncKey, { ...roomsAuth.context, principalId: roomsAuth.principalId }, null, smallJson), roomsRoute.id),
      },
    },
  ];

  const measure = async (fn: () => Promise<unknown>): Promise<Measured> => {
    const before = meter.snapshot();
    const t = performance.now();
    await fn();
    const elapsed = performance.now() - t;
    const used = meter.since(before);
    return { ms: elapsed, calls: used.calls, commands: used.byCommand };
  };

  const rows: Row[] = [];
  const data: Record<string, unknown>[] = [];
  for (const c of cases) {
    for (let i = 0; i < warmup; i++) for (const v of VARIANTS) await c.run[v]();
    const results = Object.fromEntries(VARIANTS.map((v) => [v, [] as Measured[]])) as Record<Variant, Measured[]>;
    for (let i = 0; i < samples; i++) {
      const order = VARIANTS.map((_, k) => VARIANTS[(i + k) % VARIANTS.length]!);
      for (const v of order) results[v].push(await measure(c.run[v]));
    }
    const med = (v: Variant) => median(results[v].map((m) => m.ms));
    const p90 = (v: Variant) => percentile(results[v].map((m) => m.ms), 90);
    const typical = (v: Variant) => results[v][Math.floor(samples / 2)]!.commands;
    const s = med('stack');
    const b = med('bare');
    const r = ratio(s, b);
    rows.push({
      figure: `${c.name}: per request (median of ${samples})`,
      value: `${ms(s)} (p90 ${ms(p90('stack'))})`,
      baseline: `${ms(b)} (p90 ${ms(p90('bare'))})`,
      ratio: x(r),
      target: `< ${MAX_RATIO}x`,
      met: r < MAX_RATIO,
    });
    rows.push({
      figure: `${c.name}: added per request; DynamoDB calls`,
      value: `+${ms(s - b)}; ${formatCommands(typical('stack'))}`,
      baseline: formatCommands(typical('bare')),
    });
    rows.push({
      figure: `${c.name}: parts on their own (median)`,
      value:
        `HTTP + gateway, no function ${ms(med('ping'))}; authorizer ${ms(med('authorizer'))}; ` +
        `handler with middleware and validation ${ms(med('handler'))} (of which use case ${ms(b)}, so +${ms(med('handler') - b)})`,
      baseline: `sum ${ms(med('ping') + med('authorizer') + med('handler'))} vs ${ms(s)}`,
    });
    data.push({
      case: c.name,
      samples,
      ratio: round(r, 3),
      ...Object.fromEntries(VARIANTS.map((v) => [`${v}_ms`, { median: round(med(v)), p90: round(p90(v)) }])),
      stack_calls_median: median(results.stack.map((m) => m.calls)),
      bare_calls_median: median(results.bare.map((m) => m.calls)),
      stack_commands: typical('stack'),
      bare_commands: typical('bare'),
    });
  }
  return {
    id: 'overhead',
    title: 'Overhead of the stack',
    method:
      'Per-request time through HTTP (keep-alive client in the same process), the local gateway, the authorizer (key cached, as in a warm ' +
      'Lambda), the middleware, validation and the handler, against a bare handler: the use case called directly with the parsed input ' +
      `and its result serialized, making the same DynamoDB calls. ${samples} requests each after ${warmup} warm-ups, interleaved with ` +
      'the parts timed on their own (gateway round trip to a route with no function, authorizer and handler invoked directly).',
    rows,
    notes: [],
    data: { cases: data },
    seconds: (performance.now() - started) / 1000,
  };
}
