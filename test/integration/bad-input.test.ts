/**
 * Bad input (docs/behaviour.md "Errors"): property-based, for every route of the route
 * table. fast-check generates malformed requests (see test/support/arbitraries.ts) and sends
 * them over a plain socket to the loopback gateway (the sandbox checkout's routes to its own
 * origin, a local function URL). Every answer must be a 4xx the contract
 * allows, in the error envelope with the request id of its X-Request-Id header, without any
 * internal detail, within 5 s; and afterwards the stored data of both tenants is exactly what it
 * was before. The seed is fixed (FC_SEED overrides it) and printed; runs per route and a time
 * budget keep the file within about a minute. The figures (requests per route, statuses, the
 * comparison) go to test-results/figures/bad-input.json; `npm run stress` sets FC_RUNS and
 * FC_TIME_MS for 10,000 or more requests and checks the total there.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Route, routes, sandboxRoutes, servedByApi } from '../../definitions/routes';
import { DEFAULT_SUPPORTED_CURRENCIES } from '../../definitions/service-defaults';
import { MAX_STAY_NIGHTS, nightsBetween } from '../../shared/schemas/common';
import { paymentOrderRequest } from '../../shared/schemas/payments';
import { availabilityQuery, putBookingsBody, putCategoriesBody, putCheckinsBody, putRoomsBody } from '../../shared/schemas/property-sync';
import {
  type BadCase,
  badIdempotencyKeyCases,
  credentialCases,
  genericCases,
  jsonBodyCases,
  MIB,
  nastyStrings,
  oversizedHeaderCases,
  pathParamCases,
  pathParams,
  queryCases,
  type RouteFixture,
  wellFormed,
} from '../support/arbitraries';
import { type RawResponse, rawRequest } from '../support/raw-http';
import { type Snapshot, snapshotDiff, tenantSnapshot } from '../support/snapshot';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';
import { withEnv } from '../support/env';
import { recordFigures } from '../support/figures';

const SEED = Number(process.env.FC_SEED ?? 20_261_122);
const RUNS_PER_ROUTE = Number(process.env.FC_RUNS ?? 250);
const TIME_PER_ROUTE_MS = Number(process.env.FC_TIME_MS ?? 4_500);
/** A route's test outlasts its time budget by the slowest answers still in flight. */
const ROUTE_TEST_TIMEOUT_MS = Math.max(60_000, TIME_PER_ROUTE_MS + 60_000);
const REQUEST_TIMEOUT_MS = 5_000;
const SOURCE = 'pms';

/** Every code docs/behaviour.md "Errors" names; an answer with any other code is a bug. */
const CONTRACT_CODES = new Set([
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'INSUFFICIENT_SCOPE',
  'ORIGIN_NOT_ALLOWED',
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'TOO_MANY_ITEMS',
  'UNKNOWN_REFERENCE',
  'ROOM_NUMBER_CONFLICT',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_REQUEST_IN_PROGRESS',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  'CUSTOMER_EMAIL_REQUIRED',
  'INVALID_AMOUNT',
  'UNSUPPORTED_CURRENCY',
  'RETURN_URL_NOT_ALLOWED',
  'EXTERNAL_REFERENCE_CONFLICT',
  'PAYMENT_ORDER_NOT_FOUND',
  // The Stripe webhook's refusal of a missing or wrong Stripe-Signature.
  'INVALID_SIGNATURE',
]);

let stack: TestStack;
let a: Tenant;
let b: Tenant;
let before: Snapshot;
let order: { order_reference: string; provider_reference: string; external_reference: string };
let roomId: string;

interface RouteFigures {
  route: string;
  runs: number;
  skipped: number;
  requests: number;
  kinds: Record<string, number>;
  statuses: Record<string, number>;
  slowestMs: number;
  /** The time budget ended the route's runs before RUNS_PER_ROUTE. */
  interrupted: boolean;
}
const figures: RouteFigures[] = [];
let dataCheck: { items_compared: number; differences: number } | undefined;
let requestCounter = 0;

beforeAll(async () => {
  // The Stripe webhook route checks signatures only when Stripe is configured; configure it.
  process.env.STRIPE_WEBHOOK_SECRET ??= 'whsec_bad_input_suite_only';
  stack = await startTestStack();
  [a, b] = await Promise.all([stack.createTenant(), stack.createTenant()]);
  for (const tenant of [a, b]) {
    const put = (what: string, body: unknown) => stack.request('PUT', `/api/v1/property-sync/${what}`, { key: tenant.syncKey, body });
    expect((await put('room-categories', { external_source: SOURCE, categories: [{ external_category_id: 'STD', name: 'Standard', base_price: 100 }, { external_category_id: 'DLX', name: 'Deluxe' }] })).status).toBe(200);
    const rooms = await put('rooms', {
      external_source: SOURCE,
      rooms: [
        { external_room_id: 'R101', external_category_id: 'STD', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R102', room_number: '102', room_type: 'single', price: 80, max_occupancy: 1 },
      ],
    });
    expect(rooms.status).toBe(200);
    if (tenant === a) roomId = rooms.body.items[0].id;
    expect(
      (await put('bookings', { external_source: SOURCE, bookings: [{ external_booking_id: 'B1', external_room_id: 'R101', guest_name: 'Ada', guests: 2, check_in_date: '2027-05-10', check_out_date: '2027-05-12', status: 'confirmed' }] })).status,
    ).toBe(200);
    expect(
      (await put('checkins', { external_source: SOURCE, checkins: [{ external_checkin_id: 'C1', external_booking_id: 'B1', event: 'check_in', occurred_at: '2027-05-10T15:00:00Z' }] })).status,
    ).toBe(200);
  }
  const created = await stack.request('POST', '/api/v1/payments/payment-orders', {
    key: a.paymentKey,
    body: { reference: 'INV-A-1', amount_minor: 5000, currency: 'USD', customer: { email: 'ada@example.com' }, success_url: 'https://partner.example/ok', cancel_url: 'https://partner.example/no' },
  });
  expect(created.status).toBe(201);
  order = created.body;
  before = await tenantSnapshot([a.clientId, b.clientId]);
  console.log(`bad-input: fast-check seed ${SEED}, ${RUNS_PER_ROUTE} runs per route, ${TIME_PER_ROUTE_MS} ms per route`);
});

afterAll(async () => {
  if (figures.length) {
    const statuses: Record<string, number> = {};
    for (const f of figures) for (const [status, n] of Object.entries(f.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    recordFigures('bad-input', {
      seed: SEED,
      runs_per_route: RUNS_PER_ROUTE,
      time_per_route_ms: TIME_PER_ROUTE_MS,
      routes: figures.length,
      total_requests: figures.reduce((sum, f) => sum + f.requests, 0),
      server_errors: Object.entries(statuses).reduce((sum, [status, n]) => sum + (Number(status) >= 500 ? n : 0), 0),
      routes_interrupted: figures.filter((f) => f.interrupted).map((f) => f.route),
      slowest_ms: Math.max(...figures.map((f) => f.slowestMs)),
      statuses,
      stored_data_unchanged: dataCheck ?? 'not checked',
      per_route: figures,
    });
  }
  await stack?.stop();
});

// ---- fixtures: a valid request per route, and what the route accepts

const bearer = (key: string): [string, string][] => [['Authorization', `Bearer ${key}`]];
const known = {
  categories: new Set(['STD', 'DLX']),
  rooms: new Set(['R101', 'R102']),
  bookings: new Set(['B1']),
};

function duplicates(values: unknown[]): boolean {
  return new Set(values).size !== values.length;
}

/** Sync bodies refused after validation: duplicate ids (400) or references not synced for the source (422). */
function syncRefusal(kind: 'categories' | 'rooms' | 'bookings' | 'checkins') {
  return (body: any): number[] | undefined => {
    const items: any[] = body[kind];
    const idField = { categories: 'external_category_id', rooms: 'external_room_id', bookings: 'external_booking_id', checkins: 'external_checkin_id' }[kind];
    if (duplicates(items.map((i) => i[idField]))) return [400];
    const ours = body.external_source === SOURCE;
    const unknown = (set: Set<string>, value: unknown) => value !== undefined && !(ours && set.has(value as string));
    if (kind === 'rooms' && items.some((i) => unknown(known.categories, i.external_category_id))) return [422];
    if (kind === 'bookings' && items.some((i) => unknown(known.rooms, i.external_room_id))) return [422];
    if (kind === 'checkins' && items.some((i) => unknown(known.bookings, i.external_booking_id) || unknown(known.rooms, i.external_room_id))) return [422];
    return undefined;
  };
}

function paymentRefusal(body: any): number[] | undefined {
  const supported = process.env.SUPPORTED_CURRENCIES?.split(',') ?? DEFAULT_SUPPORTED_CURRENCIES;
  if (!supported.includes(body.currency)) return [400];
  const { check_in_date: checkIn, check_out_date: checkOut } = body.context ?? {};
  if (checkIn && checkOut) {
    const nights = nightsBetween(checkIn, checkOut);
    if (nights < 1 || nights > MAX_STAY_NIGHTS) return [400];
  }
  // Everything else would create an order: never sent.
  return undefined;
}

const accepts = (schema: { safeParse(v: unknown): { success: boolean } }) => (value: unknown) => schema.safeParse(value).success;

function fixtureFor(route: Route): RouteFixture {
  const auth = route.auth.kind === 'sync' ? bearer(a.syncKey) : route.auth.kind === 'payment' ? bearer(a.paymentKey) : [];
  const withParam = (raw: string) => route.path.replace(/\{[^}]+\}/, raw);
  const base = { route, auth, path: route.path };
  switch (route.id) {
    case 'PutRoomCategories':
      return {
        ...base,
        body: {
          external_source: SOURCE,
          categories: [
            {
              external_category_id: 'NEWCAT',
              name: 'Suite',
              base_price: 250.5,
              max_occupancy: 3,
              description: 'Sea view',
              amenities: ['wifi', 'minibar'],
              images: ['https://img.example/1.jpg', { url: 'https://img.example/2.jpg', caption: 'Bath' }],
              is_active: true,
            },
          ],
        },
        schemaAccepts: accepts(putCategoriesBody),
        domainRefuses: syncRefusal('categories'),
        syncArrays: [['categories']],
      };
    case 'PutRooms':
      return {
        ...base,
        body: {
          external_source: SOURCE,
          rooms: [{ external_room_id: 'RNEW', external_category_id: 'STD', room_number: '201', room_type: 'double', price: 120.5, max_occupancy: 2, images: ['https://img.example/r.jpg'], is_active: true }],
        },
        schemaAccepts: accepts(putRoomsBody),
        domainRefuses: syncRefusal('rooms'),
        references: [['rooms', 0, 'external_category_id']],
        syncArrays: [['rooms']],
      };
    case 'PutBookings':
      return {
        ...base,
        body: {
          external_source: SOURCE,
          bookings: [
            {
              external_booking_id: 'BNEW',
              external_room_id: 'R101',
              guest_name: 'Grace Hopper',
              guest_email: 'grace@example.com',
              guest_phone: '+14155550123',
              guests: 2,
              check_in_date: '2027-06-01',
              check_out_date: '2027-06-03',
              total_amount: 240,
              status: 'confirmed',
              payment_status: 'paid',
            },
          ],
        },
        schemaAccepts: accepts(putBookingsBody),
        domainRefuses: syncRefusal('bookings'),
        references: [['bookings', 0, 'external_room_id']],
        syncArrays: [['bookings']],
        datePairs: [[['bookings', 0, 'check_in_date'], ['bookings', 0, 'check_out_date']]],
      };
    case 'PutCheckins':
      return {
        ...base,
        body: {
          external_source: SOURCE,
          checkins: [{ external_checkin_id: 'CNEW', external_booking_id: 'B1', event: 'check_out', occurred_at: '2027-05-12T10:00:00Z', external_room_id: 'R101', notes: 'late' }],
        },
        schemaAccepts: accepts(putCheckinsBody),
        domainRefuses: syncRefusal('checkins'),
        references: [['checkins', 0, 'external_booking_id'], ['checkins', 0, 'external_room_id']],
        syncArrays: [['checkins']],
      };
    case 'CreatePaymentOrder':
      return {
        ...base,
        body: {
          reference: 'NEW-REF-1',
          amount_minor: 12500,
          currency: 'USD',
          customer: { name: 'Ada', email: 'ada@example.com', phone: '+442071234567' },
          context: { type: 'room_booking', booking_id: 'W1', department: 'rooms', check_in_date: '2027-07-01', check_out_date: '2027-07-03', guests: 2, service_room_id: roomId },
          success_url: 'https://partner.example/ok',
          cancel_url: 'https://partner.example/cancel',
        },
        schemaAccepts: accepts(paymentOrderRequest),
        domainRefuses: paymentRefusal,
        datePairs: [[['context', 'check_in_date'], ['context', 'check_out_date']]],
      };
    case 'GetAvailability':
      return {
        ...base,
        query: { check_in_date: '2027-05-01', check_out_date: '2027-05-04', guests: '2', external_source: SOURCE, external_category_id: 'STD', room_type: 'double' },
        queryAccepts: accepts(availabilityQuery),
      };
    default:
      return { ...base, path: withParam('PO-AAAAAAAAAAAA'), ...(route.path.includes('{') ? { pathWith: withParam } : {}) };
  }
}

// ---- per-route generators

function verifyCases(f: RouteFixture): fc.Arbitrary<BadCase> {
  const missing = fc.constantFrom('', '?', '?reference=', '?ref=PO-X', `?reference=${'r'.repeat(129)}`, '?reference');
  const unknown = fc.oneof(nastyStrings, pathParams.map((p) => p.raw), fc.uuid());
  return fc.oneof(
    missing.map((q) => ({ kind: 'missing-param', method: 'GET', target: f.path + q, headers: [], expect: [400], codes: ['VALIDATION_ERROR'] })),
    unknown.map((ref) => {
      const value = wellFormed(ref);
      const decoded = new URLSearchParams(`reference=${encodeURIComponent(value)}`).get('reference')!;
      const tooLong = decoded.length > 128 || decoded.length === 0;
      return {
        kind: 'unknown-reference',
        method: 'GET',
        target: `${f.path}?reference=${encodeURIComponent(value)}`,
        headers: [],
        expect: tooLong ? [400] : [404],
        codes: tooLong ? ['VALIDATION_ERROR'] : ['PAYMENT_ORDER_NOT_FOUND'],
      };
    }),
  );
}

/** The real checkout session with a wrong content type, a wrong outcome or a body over 1 MiB: nothing completes. */
function sandboxSubmitCases(f: RouteFixture): fc.Arbitrary<BadCase> {
  const target = f.pathWith!(order.provider_reference);
  const form: [string, string] = ['Content-Type', 'application/x-www-form-urlencoded'];
  return fc.oneof(
    fc.constantFrom(undefined, 'application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form').map((contentType) => ({
      kind: 'wrong-content-type',
      method: 'POST',
      target,
      headers: contentType ? ([['Content-Type', contentType]] as [string, string][]) : [],
      body: Buffer.from(contentType === 'application/json' ? '{"outcome":"paid"}' : 'outcome=paid'),
      expect: [415],
      codes: ['UNSUPPORTED_MEDIA_TYPE'],
    })),
    fc.oneof(nastyStrings, fc.constantFrom('PAID', 'paid ', ' paid', 'pa%00id', 'succeeded', '', 'paid&outcome', 'paid\u0000')).map((outcome) => {
      const body = `outcome=${encodeURIComponent(wellFormed(outcome))}`;
      const valid = ['paid', 'cancelled', 'failed'].includes(new URLSearchParams(body).get('outcome') ?? '');
      return { kind: 'bad-outcome', method: 'POST', target, headers: [form], body: Buffer.from(valid ? 'outcome=refunded' : body), expect: [400], codes: ['VALIDATION_ERROR'] };
    }),
    fc.constantFrom('', 'outcome', 'outcome=', 'x=paid', '%%%', 'outcome=paid&outcome=failed'.replace('paid&', 'nope&').replace('failed', 'maybe')).map((body) => ({
      kind: 'bad-outcome',
      method: 'POST',
      target,
      headers: [form],
      body: Buffer.from(body),
      expect: [400],
      codes: ['VALIDATION_ERROR'],
    })),
    fc.integer({ min: 1, max: 4096 }).map((extra) => ({
      kind: 'body-over-1mib',
      method: 'POST',
      target,
      headers: [form],
      body: Buffer.from(`outcome=paid&pad=${'x'.repeat(MIB + extra)}`),
      expect: [413],
      codes: ['PAYLOAD_TOO_LARGE'],
    })),
  );
}

function casesFor(f: RouteFixture): fc.Arbitrary<BadCase> {
  const w = (weight: number, arbitrary: fc.Arbitrary<BadCase>) => ({ weight, arbitrary });
  // Oversized headers are refused by API Gateway in the envelope (infra/local/gateway.ts); a
  // function URL refuses them itself, before the function.
  const oversized = servedByApi(f.route) ? [w(1, oversizedHeaderCases(f))] : [];
  const credentials =
    f.route.auth.kind === 'sync' ? [w(1, credentialCases(f, a.syncKey, a.paymentKey))] : f.route.auth.kind === 'payment' ? [w(1, credentialCases(f, a.paymentKey, a.syncKey))] : [];
  switch (f.route.id) {
    case 'PutRoomCategories':
    case 'PutRooms':
    case 'PutBookings':
    case 'PutCheckins':
    case 'CreatePaymentOrder':
      return fc.oneof(w(12, jsonBodyCases(f)), w(1, badIdempotencyKeyCases(f)), ...credentials, ...oversized);
    case 'GetAvailability':
      return fc.oneof(w(10, queryCases(f)), ...credentials, ...oversized);
    case 'GetPaymentOrder':
      return fc.oneof(w(10, pathParamCases(f, [404], ['PAYMENT_ORDER_NOT_FOUND'])), ...credentials, ...oversized);
    case 'VerifyPaymentOrder':
      return fc.oneof(w(10, verifyCases(f)), ...oversized);
    case 'SandboxCheckoutPage':
      return fc.oneof(w(10, pathParamCases(f, [404], ['NOT_FOUND'])), ...oversized);
    case 'SandboxCheckoutSubmit':
      return fc.oneof(w(5, pathParamCases(f, [404], ['NOT_FOUND'])), w(5, sandboxSubmitCases(f)), ...oversized);
    default:
      // A route added after this suite: junk of every kind, any refusal.
      return fc.oneof(w(10, genericCases(f)), ...credentials, ...oversized);
  }
}

// ---- sending and judging

const LEAKS = /\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|ValidationException|TypeError|ReferenceError|RangeError|SyntaxError|stack/;

function describeCase(c: BadCase, r?: RawResponse): string {
  const body = c.body ? `${c.body.length} bytes: ${c.body.subarray(0, 200).toString('utf8')}` : 'no body';
  return `${c.kind}: ${c.method} ${c.target.slice(0, 200)} [${c.headers.map(([k, v]) => `${k}: ${v.slice(0, 60)}`).join(' | ')}] ${body}${
    r ? `\n  -> ${r.status} ${r.text.slice(0, 400)}` : ''
  }`;
}

function judge(c: BadCase, r: RawResponse): void {
  const what = describeCase(c, r);
  expect(r.status, what).toBeGreaterThanOrEqual(400);
  expect(r.status, what).toBeLessThan(500);
  expect(c.expect, what).toContain(r.status);
  expect(r.headers['content-type'], what).toMatch(/^application\/json/);
  const error = r.json?.error;
  expect(error, what).toBeTypeOf('object');
  expect(CONTRACT_CODES.has(error.code), what).toBe(true);
  if (c.codes) expect(c.codes, what).toContain(error.code);
  expect(error.message, what).toBeTypeOf('string');
  expect(error.request_id, what).toMatch(/\S/);
  expect(r.headers['x-request-id'], what).toBe(error.request_id);
  expect(LEAKS.test(r.text), what).toBe(false);
}

async function send(c: BadCase, origin = stack.url): Promise<RawResponse> {
  const headers = c.headers.map(([k, v]): [string, string] =>
    // A fresh Idempotency-Key per request, so no answer is a replay of an earlier case.
    k === 'Idempotency-Key' && c.kind !== 'bad-idempotency-key' ? [k, `${v.slice(0, 200)}.${++requestCounter}`] : [k, v],
  );
  return rawRequest(origin, { method: c.method, target: c.target, headers, body: c.body }, REQUEST_TIMEOUT_MS);
}

describe('malformed requests to every route of the route table', () => {
  it.each([...routes, ...sandboxRoutes].map((route) => ({ route, name: `${route.method} ${route.path}` })))(
    '$name: every malformed request gets a 4xx in the error envelope, never a 5xx or a hang',
    async ({ route }) => {
      const f = fixtureFor(route);
      const seen: RouteFigures = { route: `${route.method} ${route.path}`, runs: 0, skipped: 0, requests: 0, kinds: {}, statuses: {}, slowestMs: 0, interrupted: false };
      const property = fc.asyncProperty(casesFor(f), async (c) => {
        const response = await send(c, servedByApi(route) ? stack.url : stack.sandboxUrl);
        seen.requests++;
        seen.kinds[c.kind] = (seen.kinds[c.kind] ?? 0) + 1;
        seen.statuses[response.status] = (seen.statuses[response.status] ?? 0) + 1;
        seen.slowestMs = Math.max(seen.slowestMs, response.ms);
        judge(c, response);
      });
      const details = await fc.check(property, { seed: SEED, numRuns: RUNS_PER_ROUTE, interruptAfterTimeLimit: TIME_PER_ROUTE_MS, endOnFailure: true });
      seen.runs = details.numRuns;
      seen.skipped = details.numSkips;
      seen.interrupted = details.interrupted;
      figures.push(seen);
      if (details.failed) {
        const [c] = details.counterexample ?? [];
        const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        throw new Error(`failed after ${details.numRuns} runs (seed ${SEED}, path ${details.counterexamplePath}): ${c ? describeCase(c) : ''}\n${cause.slice(0, 1500)}`);
      }
      expect(details.numRuns).toBeGreaterThan(0);
    },
    ROUTE_TEST_TIMEOUT_MS,
  );
});

describe('requests the HTTP layer itself refuses', () => {
  const keyed = () => bearer(a.syncKey);

  it('a body over the gateway limit (10 MiB) answers 413 PAYLOAD_TOO_LARGE, not a reset connection', async () => {
    const c: BadCase = {
      kind: 'body-over-10mib',
      method: 'PUT',
      target: '/api/v1/property-sync/rooms',
      headers: [...keyed(), ['Content-Type', 'application/json']],
      body: Buffer.alloc(10 * MIB + 1, 'x'),
      expect: [413],
      codes: ['PAYLOAD_TOO_LARGE'],
    };
    judge(c, await send(c));
  });

  it.each([
    ['a control character in a header value', { target: '/api/v1/property-sync/rooms', headers: [['X-Bad', 'a\u0001b']] }],
    ['a NUL in the Content-Type', { target: '/api/v1/property-sync/rooms', headers: [['Content-Type', 'application/json\u0000']] }],
    ['a header without a colon', { target: '/api/v1/property-sync/rooms', headers: [['X-No-Colon', '']] }],
    ['a space in the request target', { target: '/api/v1/property-sync/availability?check_in_date=2027 05 01' }],
    ['a raw control character in the request target', { target: '/api/v1/payments/payment-orders/PO-\u0001' }],
    ['a header larger than the server takes', { target: '/api/v1/property-sync/availability', headers: [['X-Huge', 'h'.repeat(80 * 1024)]] }],
  ] as [string, { target: string; headers?: [string, string][] }][])('%s answers 400 in the error envelope', async (_name, request) => {
    const headers = (request.headers ?? []).map(([k, v]): [string, string] => (k === 'X-No-Colon' ? ['X-No-Colon\r\nbroken-line', v] : [k, v]));
    const c: BadCase = { kind: 'malformed-http', method: 'PUT', target: request.target, headers: [...keyed(), ...headers], body: Buffer.from('{}'), expect: [400, 431] };
    judge(c, await send(c));
  });
});

describe('valid but unusual or extreme input: a 2xx or a 4xx, never a 5xx', () => {
  // Its own tenant: these requests may write.
  let c: Tenant;
  const sync = (what: string, body: unknown) =>
    rawRequest(stack.url, { method: 'PUT', target: `/api/v1/property-sync/${what}`, headers: [...bearer(c.syncKey), ['Content-Type', 'application/json']], body: JSON.stringify(body) }, 20_000);
  const room = (id: string, extra: Record<string, unknown> = {}) => ({ external_room_id: id, room_number: id, room_type: 't', price: 1, max_occupancy: 1, ...extra });
  const deep = (depth: number) => {
    let value: unknown = 'x';
    for (let i = 0; i < depth; i++) value = { d: value };
    return value;
  };
  const notServerError = (r: RawResponse) => {
    expect(r.status, r.text.slice(0, 300)).toBeLessThan(500);
    if (r.status >= 400) expect(CONTRACT_CODES.has(r.json?.error?.code), r.text.slice(0, 300)).toBe(true);
  };

  beforeAll(async () => {
    c = await stack.createTenant();
  });

  it('a category at every field limit (about 800 KB stored)', async () => {
    const euro = '€'.repeat(2000);
    const body = {
      external_source: SOURCE,
      categories: [{ external_category_id: 'BIG', name: euro, description: euro, amenities: Array.from({ length: 100 }, () => euro), images: Array.from({ length: 50 }, () => ({ url: 'u'.repeat(2000), caption: 'c'.repeat(2000) })) }],
    };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(MIB);
    notServerError(await sync('room-categories', body));
  });

  it('image objects with unknown fields nested 40 deep', async () => {
    notServerError(await sync('rooms', { external_source: SOURCE, rooms: [room('D1', { images: [{ url: 'https://img.example/x.jpg', meta: deep(40) }] })] }));
  });

  it('image objects with unknown fields holding numbers DynamoDB cannot store', async () => {
    for (const [i, n] of [1e21, 1e300, 5e-324, Number.MAX_SAFE_INTEGER + 2].entries()) {
      notServerError(await sync('rooms', { external_source: SOURCE, rooms: [room(`N${i}`, { images: [{ url: 'https://img.example/x.jpg', n }] })] }));
    }
  });

  it('image objects with empty or odd keys', async () => {
    notServerError(await sync('rooms', { external_source: SOURCE, rooms: [room('K1', { images: [JSON.parse('{"url":"u","":"empty","__proto__":{"x":1}}')] })] }));
  });

  it('every text field full of lone surrogates, NULs and bidi controls', async () => {
    const odd = '\ud800\u0000\u202e\udfff'.repeat(10);
    notServerError(await sync('room-categories', { external_source: odd, categories: [{ external_category_id: odd, name: odd, description: odd, amenities: [odd], images: [odd] }] }));
    notServerError(await sync('rooms', { external_source: odd, rooms: [room(odd, { room_type: odd, room_number: `${odd}#` })] }));
    notServerError(await sync('bookings', { external_source: odd, bookings: [{ external_booking_id: odd, external_room_id: odd, guest_name: odd, guests: 1, check_in_date: '2027-01-01', check_out_date: '2027-01-02', status: 'confirmed' }] }));
  });

  it('500 items of the largest size that fits in 1 MiB', async () => {
    const categories = Array.from({ length: 500 }, (_, i) => ({ external_category_id: `M${i}`, name: 'n', description: 'd'.repeat(1900) }));
    expect(Buffer.byteLength(JSON.stringify({ external_source: SOURCE, categories }))).toBeLessThan(MIB);
    notServerError(await sync('room-categories', { external_source: SOURCE, categories }));
  });

  it('a media type in capitals is still JSON', async () => {
    const r = await rawRequest(stack.url, {
      method: 'PUT',
      target: '/api/v1/property-sync/room-categories',
      headers: [...bearer(c.syncKey), ['Content-Type', 'Application/JSON; charset=UTF-8']],
      body: JSON.stringify({ external_source: SOURCE, categories: [{ external_category_id: 'CAPS', name: 'Caps' }] }),
    });
    expect(r.status, r.text).toBe(200);
  });

  it('random bodies of valid shape (any unicode text, any numbers in range, image objects with junk fields): 200 when the schema accepts them, else 400', async () => {
    let n = 0;
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 60 });
    const image = fc.oneof(text, fc.record({ url: text, caption: fc.option(text, { nil: undefined }), junk: fc.jsonValue({ maxDepth: 4 }) }));
    const category = fc.record({
      name: text,
      description: fc.option(text, { nil: undefined }),
      base_price: fc.option(fc.double({ min: 0, max: 1e9, noNaN: true }), { nil: undefined }),
      max_occupancy: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
      amenities: fc.option(fc.array(text, { maxLength: 5 }), { nil: undefined }),
      images: fc.option(fc.array(image, { maxLength: 5 }), { nil: undefined }),
      is_active: fc.option(fc.boolean(), { nil: undefined }),
    });
    const property = fc.asyncProperty(fc.array(category, { minLength: 1, maxLength: 5 }), text, async (categories, source) => {
      const body = { external_source: source, categories: categories.map((cat) => ({ ...cat, external_category_id: `V${++n}` })) };
      const r = await sync('room-categories', body);
      // Whatever the schema accepts is stored; the rest (a price too small to store) is a 400.
      const valid = putCategoriesBody.safeParse(JSON.parse(JSON.stringify(body))).success;
      expect(r.status, `${JSON.stringify(body).slice(0, 400)}\n-> ${r.text.slice(0, 300)}`).toBe(valid ? 200 : 400);
      if (valid) expect(r.json.created).toBe(categories.length);
    });
    await fc.assert(property, { seed: SEED, numRuns: 60, interruptAfterTimeLimit: 5_000 });
  });

  it('random rooms and bookings of valid shape: 200 when the schema accepts them, else 400', async () => {
    let n = 0;
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 });
    const money = fc.oneof(fc.double({ min: 0, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 100_000 }));
    const day = fc.integer({ min: 0, max: 3000 }).map((d) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString().slice(0, 10));
    const roomArb = fc.record({
      room_number: text,
      room_type: text,
      price: money,
      max_occupancy: fc.integer({ min: 1, max: 10_000 }),
      images: fc.option(fc.array(fc.oneof(text, fc.record({ url: text, extra: fc.jsonValue({ maxDepth: 3 }) })), { maxLength: 3 }), { nil: undefined }),
      is_active: fc.option(fc.boolean(), { nil: undefined }),
    });
    const bookingArb = fc.record({
      guest_name: text,
      guest_email: fc.option(fc.emailAddress(), { nil: undefined }),
      guests: fc.integer({ min: 1, max: 10_000 }),
      check_in_date: day,
      nights: fc.integer({ min: 1, max: 365 }),
      total_amount: fc.option(money, { nil: undefined }),
      status: fc.constantFrom('pending', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'no_show'),
      payment_status: fc.option(fc.constantFrom('unpaid', 'partially_paid', 'paid', 'refunded'), { nil: undefined }),
    });
    const property = fc.asyncProperty(roomArb, fc.array(bookingArb, { minLength: 1, maxLength: 3 }), async (r, bookings) => {
      const id = `VR${++n}`;
      const rooms = { external_source: SOURCE, rooms: [{ ...r, external_room_id: id, room_number: `${n}-${r.room_number}`.slice(0, 128) }] };
      const roomsValid = putRoomsBody.safeParse(JSON.parse(JSON.stringify(rooms))).success;
      const roomAnswer = await sync('rooms', rooms);
      expect(roomAnswer.status, `${JSON.stringify(rooms).slice(0, 300)}\n-> ${roomAnswer.text.slice(0, 300)}`).toBe(roomsValid ? 200 : 400);
      if (!roomsValid) return;
      const body = {
        external_source: SOURCE,
        bookings: bookings.map(({ nights, ...b }, i) => ({
          ...b,
          external_booking_id: `${id}-B${i}`,
          external_room_id: id,
          check_out_date: new Date(Date.parse(`${b.check_in_date}T00:00:00Z`) + nights * 86_400_000).toISOString().slice(0, 10),
        })),
      };
      const valid = putBookingsBody.safeParse(JSON.parse(JSON.stringify(body))).success;
      const answer = await sync('bookings', body);
      expect(answer.status, `${JSON.stringify(body).slice(0, 300)}\n-> ${answer.text.slice(0, 300)}`).toBe(valid ? 200 : 400);
    });
    await fc.assert(property, { seed: SEED, numRuns: 40, interruptAfterTimeLimit: 6_000 });
  });

  it('the largest item the field limits allow is refused whole, naming the item', async () => {
    const euro = '€'.repeat(2000);
    const r = await sync('rooms', { external_source: SOURCE, rooms: [room('BIG', { images: Array.from({ length: 50 }, () => ({ url: euro, caption: euro })) })] });
    expect(r.status).toBe(400);
    expect(r.json.error.details).toContainEqual({ path: 'rooms[0]', message: expect.stringContaining('KiB') });
  });
});

describe.runIf(routes.some((r) => r.id === 'StripeWebhook'))('the Stripe webhook on a stack without Stripe', () => {
  it('answers 404 NOT_FOUND, not a 500, whatever is sent', async () => {
    await withEnv({ STRIPE_WEBHOOK_SECRET: undefined }, async () => {
      const route = routes.find((r) => r.id === 'StripeWebhook')!;
      const c: BadCase = { kind: 'generic', method: route.method, target: route.path, headers: [['Content-Type', 'text/plain']], body: Buffer.from('junk'), expect: [404] };
      const response = await send(c);
      judge(c, response);
      expect(response.json.error.code).toBe('NOT_FOUND');
    });
  });
});

describe('after all of it', () => {
  it('the stored data of both tenants is exactly what it was', async () => {
    const after = await tenantSnapshot([a.clientId, b.clientId]);
    // Profiles, keys, categories, rooms, guards, bookings, check-ins, the order and its session.
    expect(before.size).toBeGreaterThan(25);
    dataCheck = { items_compared: after.size, differences: snapshotDiff(before, after).length };
    expect(snapshotDiff(before, after)).toEqual([]);
    expect(after.size).toBe(before.size);
    // The real checkout session is still open and the order still processing.
    const lookup = await stack.request('GET', `/api/v1/payments/payment-orders/${order.order_reference}`, { key: a.paymentKey });
    expect(lookup.body.status).toBe('processing');
  });
});
