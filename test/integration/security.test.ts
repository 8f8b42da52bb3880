/**
 * Security (docs/behaviour.md "Credentials", "Conventions"): the scope matrix of every route in the
 * route table against every kind of credential, cross-tenant reads and writes through every id a
 * request can carry (path, query, body, Idempotency-Key, a paid order's room, a reception
 * booking's room), keys and secrets kept out of logs and stored only as digests, callback secrets
 * never shown again, and secrets compared in constant time. auth.test.ts covers the basic
 * codes; this file covers the full product of routes and credentials.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_SCOPES, type Route, routes, SYNC_SCOPES } from '../../definitions/routes';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { snapshotDiff, tenantSnapshot } from '../support/snapshot';
import { type ApiResponse, startTestStack, type Tenant, type TestStack } from '../support/stack';
import { captureOutput, type OutputCapture } from '../support/output-capture';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = 'pms';
const STAY = { check_in_date: '2027-04-10', check_out_date: '2027-04-12' };

let stack: TestStack;
let output: OutputCapture;
let a: Tenant;
let b: Tenant;
let receiver: Receiver;
let aRoomId: string;
let aOrder: { order_reference: string; provider_reference: string; payment_order_id: string };
let callbackSecret: string;

/** Every key issued and every key-like string presented in this file: none may be logged or stored. */
const presented: string[] = [];
/** Every response body seen, to look for secrets. */
const answers: string[] = [];

type Domain = {
  clients: typeof import('../../shared/domain/clients');
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
};
let domain: Domain;

async function call(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}): Promise<ApiResponse> {
  const response = await stack.request(method, path, options);
  answers.push(response.text);
  return response;
}

// ---- the data each tenant has: A's ids exist only in A

const aCategory = { external_category_id: 'CAT-A', name: 'Category A' };
const aRefCategory = { external_category_id: 'CAT-A-REF', name: 'Referenced by A' };
const aRoom = { external_room_id: 'ROOM-A', external_category_id: 'CAT-A-REF', room_number: 'A1', room_type: 'suite-a', price: 300, max_occupancy: 4 };
const aBooking = { external_booking_id: 'BOOK-A', external_room_id: 'ROOM-A', guest_name: 'Guest A', guests: 2, ...STAY, status: 'confirmed' };
const aCheckin = { external_checkin_id: 'CHK-A', external_booking_id: 'BOOK-A', event: 'check_in', occurred_at: '2027-04-10T14:00:00Z' };
const aOrderBody = {
  reference: 'INV-A-1',
  amount_minor: 5000,
  currency: 'USD',
  customer: { email: 'a@example.com' },
  success_url: 'https://a.example/ok',
  cancel_url: 'https://a.example/cancel',
};
const availabilityPath = `/api/v1/property-sync/availability?check_in_date=2027-05-01&check_out_date=2027-05-02&guests=1`;
const aPlan = { external_rate_plan_id: 'PLAN-A', external_category_id: 'CAT-A-REF', name: 'Plan A' };
/** A night a month ahead: rates are set from the hotel's today on. */
const rateDate = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
const aRate = { external_rate_plan_id: 'PLAN-A', date: rateDate, price: 333 };
const ratesPath = `/api/v1/property-sync/rates?external_source=${SOURCE}&external_rate_plan_id=PLAN-A&date_from=${rateDate}&date_to=${rateDate}`;
/** Every scope a sync key can carry: the full keys below hold them all (a key made without --scopes has only the spec's five). */
const ALL_SYNC_SCOPES = [...SYNC_SCOPES, ...RATE_SCOPES];

beforeAll(async () => {
  output = captureOutput();
  process.env.LOG_LEVEL = 'DEBUG';
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  process.env.STRIPE_WEBHOOK_SECRET ??= 'whsec_security_suite_only';
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    clients: await import('../../shared/domain/clients'),
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
  };
  [a, b] = await Promise.all([stack.createTenant(), stack.createTenant()]);
  presented.push(a.syncKey, b.syncKey);
  a.syncKey = (await stack.issueKey(a.clientId, 'sync', { scopes: ALL_SYNC_SCOPES })).key;
  b.syncKey = (await stack.issueKey(b.clientId, 'sync', { scopes: ALL_SYNC_SCOPES })).key;
  presented.push(a.syncKey, a.paymentKey, b.syncKey, b.paymentKey);

  const put = (tenant: Tenant, what: string, body: unknown) => call('PUT', `/api/v1/property-sync/${what}`, { headers: { Authorization: `Bearer ${tenant.syncKey}` }, body });
  expect((await put(a, 'room-categories', { external_source: SOURCE, categories: [aCategory, aRefCategory] })).status).toBe(200);
  const rooms = await put(a, 'rooms', { external_source: SOURCE, rooms: [aRoom] });
  expect(rooms.status).toBe(200);
  aRoomId = rooms.body.items[0].id;
  expect((await put(a, 'bookings', { external_source: SOURCE, bookings: [aBooking] })).status).toBe(200);
  expect((await put(a, 'checkins', { external_source: SOURCE, checkins: [aCheckin] })).status).toBe(200);
  expect((await put(a, 'rate-plans', { external_source: SOURCE, rate_plans: [aPlan] })).status).toBe(200);
  expect((await put(a, 'rates', { external_source: SOURCE, updates: [aRate] })).status).toBe(200);
  const order = await call('POST', '/api/v1/payments/payment-orders', { headers: { Authorization: `Bearer ${a.paymentKey}` }, body: aOrderBody });
  expect(order.status).toBe(201);
  aOrder = order.body;
  // B has its own data under other external ids.
  expect((await put(b, 'rooms', { external_source: SOURCE, rooms: [{ external_room_id: 'ROOM-B', room_number: 'B1', room_type: 'double', price: 100, max_occupancy: 2 }] })).status).toBe(200);
  expect(
    (await put(b, 'bookings', { external_source: SOURCE, bookings: [{ external_booking_id: 'BOOK-B', external_room_id: 'ROOM-B', guest_name: 'Guest B', guests: 1, ...STAY, status: 'confirmed' }] })).status,
  ).toBe(200);
  callbackSecret = (await domain.callbacks.configureEndpoint(a.clientId, 'callback', { url: receiver.url })).secret;
});

afterAll(async () => {
  output?.restore();
  await receiver?.close();
  await stack?.stop();
});

// ---- the scope matrix

interface Credential {
  name: string;
  headers: () => Record<string, string>;
  /** What it is, for the expectations. */
  kind: 'none' | 'invalid' | 'sync' | 'payment';
  tenant?: 'a' | 'b';
  /** Sync keys: the scopes it lacks ('route' = exactly the route's own scope). */
  lacksRouteScope?: boolean;
  /** Holds only deliveries:read and deliveries:write (the deliveries API's scopes), beside its kind's own rights. */
  deliveries?: boolean;
}

const issued: Record<string, string> = {};

async function issueCredentials() {
  const { issueApiKey, revokeKey } = domain.clients;
  for (const kind of ['sync', 'payment'] as const) {
    const key = await issueApiKey({ clientId: a.clientId, kind });
    await revokeKey(key.key_id);
    issued[`revoked-${kind}`] = key.key;
  }
  for (const scope of ALL_SYNC_SCOPES) {
    issued[`without-${scope}`] = (await issueApiKey({ clientId: a.clientId, kind: 'sync', scopes: ALL_SYNC_SCOPES.filter((s) => s !== scope) })).key;
  }
  for (const kind of ['sync', 'payment'] as const) {
    issued[`deliveries-${kind}`] = (await issueApiKey({ clientId: a.clientId, kind, scopes: ['deliveries:read', 'deliveries:write'] })).key;
  }
  issued.unknownSync = `svc_sync_${'Q'.repeat(43)}`;
  issued.unknownPay = `svc_pay_${'Z'.repeat(43)}`;
  presented.push(...Object.values(issued));
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

const credentials: Credential[] = [
  { name: 'no key', kind: 'none', headers: () => ({}) },
  { name: 'a malformed key', kind: 'invalid', headers: () => bearer('svc_sync_too-short') },
  { name: 'a key of neither prefix', kind: 'invalid', headers: () => bearer(`sk_live_${'x'.repeat(43)}`) },
  { name: 'an unknown well-formed sync key', kind: 'invalid', headers: () => bearer(issued.unknownSync!) },
  { name: 'an unknown well-formed payment key', kind: 'invalid', headers: () => ({ 'x-api-key': issued.unknownPay! }) },
  { name: 'a non-Bearer scheme', kind: 'invalid', headers: () => ({ Authorization: `Token ${a.syncKey}` }) },
  { name: 'a sync key in x-api-key', kind: 'invalid', headers: () => ({ 'x-api-key': a.syncKey }) },
  { name: 'a revoked sync key', kind: 'invalid', headers: () => bearer(issued['revoked-sync']!) },
  { name: 'a revoked payment key', kind: 'invalid', headers: () => bearer(issued['revoked-payment']!) },
  { name: 'the full sync key', kind: 'sync', tenant: 'a', headers: () => bearer(a.syncKey) },
  { name: "a sync key missing the route's scope", kind: 'sync', tenant: 'a', lacksRouteScope: true, headers: () => ({}) },
  { name: 'the payment key (Bearer)', kind: 'payment', tenant: 'a', headers: () => bearer(a.paymentKey) },
  { name: 'the payment key (x-api-key)', kind: 'payment', tenant: 'a', headers: () => ({ 'x-api-key': a.paymentKey }) },
  { name: "another client's sync key", kind: 'sync', tenant: 'b', headers: () => bearer(b.syncKey) },
  { name: "another client's payment key", kind: 'payment', tenant: 'b', headers: () => bearer(b.paymentKey) },
  { name: 'a sync key with only the deliveries scopes', kind: 'sync', tenant: 'a', deliveries: true, headers: () => bearer(issued['deliveries-sync']!) },
  { name: 'a payment key with the deliveries scopes', kind: 'payment', tenant: 'a', deliveries: true, headers: () => ({ 'x-api-key': issued['deliveries-payment']! }) },
];

function headersFor(credential: Credential, route: Route): Record<string, string> {
  if (!credential.lacksRouteScope) return credential.headers();
  // For a payment or public route any sync key lacks the scope; use the one without availability:read.
  const scope = route.auth.kind === 'sync' ? route.auth.scope : 'availability:read';
  return bearer(issued[`without-${scope}`]!);
}

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One request per route that names A's data; for A it changes nothing (a no-op sync, a reused order, a read). */
function probeFor(route: Route): Probe {
  const sync = (what: string, body: unknown): Probe => ({ method: 'PUT', path: route.path, body: { external_source: SOURCE, [what]: [body] } });
  switch (route.id) {
    case 'PutRoomCategories':
      return sync('categories', aCategory);
    case 'PutRooms':
      return sync('rooms', aRoom);
    case 'PutBookings':
      return sync('bookings', aBooking);
    case 'PutCheckins':
      return sync('checkins', aCheckin);
    case 'GetAvailability':
      return { method: 'GET', path: availabilityPath };
    case 'PutRatePlans':
      return sync('rate_plans', aPlan);
    case 'PutRates':
      return sync('updates', aRate);
    case 'GetRates':
      return { method: 'GET', path: ratesPath };
    case 'CreatePaymentOrder':
      return { method: 'POST', path: route.path, body: aOrderBody };
    case 'GetPaymentOrder':
      return { method: 'GET', path: route.path.replace('{order_reference}', aOrder.order_reference) };
    case 'RefundPaymentOrder':
      // A's order is not paid: its own key is refused without a refund; another client's finds no such order.
      return { method: 'POST', path: route.path.replace('{order_reference}', aOrder.order_reference), body: {} };
    case 'VerifyPaymentOrder':
      return { method: 'GET', path: `${route.path}?reference=${aOrder.order_reference}` };
    default:
      if (route.method === 'GET') return { method: 'GET', path: route.path.replace(/\{[^}]+\}/g, 'X') };
      return { method: route.method, path: route.path.replace(/\{[^}]+\}/g, 'X'), rawBody: '{}', headers: { 'Content-Type': 'application/json' } };
  }
}

/** The answer when the route runs as the key's own client. */
function ranAs(route: Route, tenant: 'a' | 'b', response: ApiResponse): void {
  const own = tenant === 'a';
  const text = `${response.status} ${response.text.slice(0, 300)}`;
  switch (route.id) {
    case 'PutRoomCategories':
      // B gets its own CAT-A; A's is unchanged.
      expect(response.status, text).toBe(200);
      if (own) expect(response.body.items[0].action, text).toBe('unchanged');
      return;
    case 'PutRooms':
    case 'PutBookings':
    case 'PutCheckins':
    case 'PutRatePlans':
      if (own) {
        expect(response.status, text).toBe(200);
        expect(response.body.items[0].action, text).toBe('unchanged');
      } else {
        expect(response.status, text).toBe(422);
        expect(response.body.error.code, text).toBe('UNKNOWN_REFERENCE');
      }
      return;
    case 'GetAvailability': {
      expect(response.status, text).toBe(200);
      const ids = response.body.available_rooms.map((r: { id: string }) => r.id);
      if (own) expect(ids, text).toContain(aRoomId);
      else expect(ids, text).not.toContain(aRoomId);
      expect(JSON.stringify(response.body).includes('CAT-A'), text).toBe(own);
      return;
    }
    case 'PutRates':
    case 'GetRates':
      // B has no PLAN-A: its key never reaches A's.
      if (own) {
        expect(response.status, text).toBe(200);
        if (route.id === 'PutRates') expect(response.body, text).toMatchObject({ days_changed: 0, days_unchanged: 1 });
        else expect(response.body.rate_plans['PLAN-A'][rateDate].price, text).toBe(333);
      } else {
        expect(response.status, text).toBe(422);
        expect(response.body.error.code, text).toBe('UNKNOWN_REFERENCE');
      }
      return;
    case 'CreatePaymentOrder':
      if (own) {
        expect(response.status, text).toBe(200);
        expect(response.body).toMatchObject({ reused: true, order_reference: aOrder.order_reference });
      } else {
        // The same partner reference in another client is another order.
        expect([200, 201], text).toContain(response.status);
        expect(response.body.order_reference, text).not.toBe(aOrder.order_reference);
      }
      return;
    case 'GetPaymentOrder':
      if (own) {
        expect(response.status, text).toBe(200);
        expect(response.body.order_reference).toBe(aOrder.order_reference);
      } else {
        expect(response.status, text).toBe(404);
        expect(response.body.error.code, text).toBe('PAYMENT_ORDER_NOT_FOUND');
        expect(response.text, text).not.toContain(aOrder.provider_reference);
      }
      return;
    case 'RefundPaymentOrder':
      if (own) {
        expect(response.status, text).toBe(409);
        expect(response.body.error.code, text).toBe('ORDER_NOT_PAID');
      } else {
        expect(response.status, text).toBe(404);
        expect(response.body.error.code, text).toBe('PAYMENT_ORDER_NOT_FOUND');
      }
      return;
    default:
      // A keyed route added after this suite: it ran, whatever it answered.
      expect([401, 403], text).not.toContain(response.status);
      expect(response.status, text).toBeLessThan(500);
  }
}

function expectError(response: ApiResponse, status: number, code: string) {
  const text = `${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, text).toBe(status);
  expect(response.body?.error?.code, text).toBe(code);
  expect(response.headers.get('x-request-id'), text).toBe(response.body.error.request_id);
}

/** Public routes ignore credentials: every credential gets the answer no credential gets. */
const publicAnswers = new Map<string, { status: number; code?: string }>();

describe('the scope matrix: every route x every kind of credential', () => {
  let before: Awaited<ReturnType<typeof tenantSnapshot>>;
  let cells = 0;

  beforeAll(async () => {
    await issueCredentials();
    before = await tenantSnapshot([a.clientId]);
  });

  afterAll(() => {
    console.log(`security: scope matrix of ${routes.length} routes x ${credentials.length} credentials = ${cells} requests`);
  });

  describe.each(routes.map((route) => ({ route, name: `${route.method} ${route.path}`, auth: route.auth.kind === 'sync' ? `sync ${route.auth.scope}` : route.auth.kind })))(
    '$name ($auth)',
    ({ route }) => {
      it.each(credentials.map((credential) => ({ credential, name: credential.name })))('$name', async ({ credential }) => {
        const probe = probeFor(route);
        const sent = headersFor(credential, route);
        const response = await call(probe.method, probe.path, { headers: { ...probe.headers, ...sent }, body: probe.body, rawBody: probe.rawBody });
        cells++;
        expect(response.status, response.text.slice(0, 300)).toBeLessThan(500);
        if (route.auth.kind === 'public') {
          const seen = { status: response.status, code: response.body?.error?.code };
          const first = publicAnswers.get(route.id);
          if (!first) publicAnswers.set(route.id, seen);
          else expect(seen).toEqual(first);
          if (route.id === 'VerifyPaymentOrder') expect(response.status).toBe(303);
          return;
        }
        if (credential.kind === 'none') return expectError(response, 401, 'MISSING_API_KEY');
        // Sync routes read the key from Authorization only: without that header API Gateway refuses
        // the request before their cached authorizer runs (definitions/authorizers.ts), whatever x-api-key holds.
        if (route.auth.kind === 'sync' && !Object.keys(sent).some((name) => name.toLowerCase() === 'authorization')) return expectError(response, 401, 'MISSING_API_KEY');
        if (credential.kind === 'invalid') return expectError(response, 401, 'INVALID_API_KEY');
        // The deliveries API takes either kind of key, with its scope; nothing else does.
        if (route.auth.kind === 'key') {
          if (!credential.deliveries) return expectError(response, 403, 'INSUFFICIENT_SCOPE');
          return ranAs(route, credential.tenant!, response);
        }
        if (credential.kind !== route.auth.kind || credential.lacksRouteScope) return expectError(response, 403, 'INSUFFICIENT_SCOPE');
        if (route.auth.kind === 'sync' && credential.deliveries) return expectError(response, 403, 'INSUFFICIENT_SCOPE');
        ranAs(route, credential.tenant!, response);
      });
    },
  );

  it("after the whole matrix, A's stored data is exactly what it was", async () => {
    expect(snapshotDiff(before, await tenantSnapshot([a.clientId]))).toEqual([]);
  });
});

// ---- cross-tenant: ids of A in every place B can put them

describe("another client's ids in paths, queries and bodies", () => {
  let before: Awaited<ReturnType<typeof tenantSnapshot>>;

  beforeAll(async () => {
    before = await tenantSnapshot([a.clientId]);
  });

  it("availability filters naming A's source, category and room type show B none of A's rooms", async () => {
    for (const query of [
      `&external_source=${SOURCE}&external_category_id=CAT-A-REF`,
      '&room_type=suite-a',
      `&external_category_id=CAT-A-REF&room_type=suite-a&client_id=${a.clientId}&hotel_id=${a.clientId}`,
    ]) {
      const asA = await call('GET', availabilityPath + query, { headers: bearer(a.syncKey) });
      expect(asA.body.available_rooms.map((r: { id: string }) => r.id)).toEqual([aRoomId]);
      const response = await call('GET', availabilityPath + query, { headers: bearer(b.syncKey) });
      expect(response.status).toBe(200);
      expect(response.body.available_rooms).toEqual([]);
      expect(response.body.categories).toEqual([]);
    }
  });

  it("a payment order of A cannot be read by B by its order reference, provider reference or id, however written", async () => {
    for (const id of [aOrder.order_reference, aOrder.order_reference.toLowerCase(), ` ${aOrder.order_reference}`, aOrder.provider_reference, aOrder.payment_order_id, encodeURIComponent(`../${aOrder.order_reference}`)]) {
      for (const headers of [bearer(b.paymentKey), { 'x-api-key': b.paymentKey }]) {
        const response = await call('GET', `/api/v1/payments/payment-orders/${encodeURIComponent(id).replace(/%25/g, '%')}`, { headers });
        expectError(response, 404, 'PAYMENT_ORDER_NOT_FOUND');
      }
    }
  });

  it("syncs from B naming A's categories, rooms and bookings are refused whole (422) and write nothing", async () => {
    const put = (what: string, body: unknown) => call('PUT', `/api/v1/property-sync/${what}`, { headers: bearer(b.syncKey), body: { external_source: SOURCE, [what]: [body] } });
    expectError(await put('rooms', { ...aRoom, external_room_id: 'ROOM-B2', room_number: 'B2' }), 422, 'UNKNOWN_REFERENCE');
    expectError(await put('bookings', { ...aBooking, external_booking_id: 'BOOK-B2' }), 422, 'UNKNOWN_REFERENCE');
    expectError(await put('checkins', { ...aCheckin, external_checkin_id: 'CHK-B2' }), 422, 'UNKNOWN_REFERENCE');
    // B's own booking, with A's room as the room it moved to.
    expectError(await put('checkins', { external_checkin_id: 'CHK-B3', external_booking_id: 'BOOK-B', event: 'check_in', occurred_at: '2027-04-10T15:00:00Z', external_room_id: 'ROOM-A' }), 422, 'UNKNOWN_REFERENCE');
    // Service ids of A's records in B's bodies are unknown fields or unknown external ids.
    expectError(await put('bookings', { ...aBooking, external_booking_id: 'BOOK-B4', external_room_id: aRoomId, room_id: aRoomId }), 422, 'UNKNOWN_REFERENCE');
  });

  it("B syncing A's external ids and room numbers gets records of its own, never A's", async () => {
    // A client id in the body is an unknown field: ignored.
    const put = (what: string, body: unknown) =>
      call('PUT', `/api/v1/property-sync/${what}`, {
        headers: bearer(b.syncKey),
        body: { external_source: SOURCE, [what === 'room-categories' ? 'categories' : what]: [body], client_id: a.clientId, hotel_id: a.clientId },
      });
    const category = await put('room-categories', aCategory);
    expect(category.status).toBe(200);
    const rooms = await put('rooms', { ...aRoom, external_category_id: undefined, id: aRoomId, client_id: a.clientId });
    expect(rooms.status).toBe(200);
    expect(rooms.body.items[0]).toMatchObject({ external_room_id: 'ROOM-A', action: 'created' });
    expect(rooms.body.items[0].id).not.toBe(aRoomId);
    const bookings = await put('bookings', aBooking);
    expect(bookings.status).toBe(200);
    expect(bookings.body.conflicts).toEqual([]);
    // A's room is still A's, still booked by A's booking only.
    const aView = await call('GET', `/api/v1/property-sync/availability?check_in_date=${STAY.check_in_date}&check_out_date=${STAY.check_out_date}&guests=1`, { headers: bearer(a.syncKey) });
    expect(aView.body.available_rooms.map((r: { id: string }) => r.id)).not.toContain(aRoomId);
  });

  it('an Idempotency-Key A used is not replayed to B', async () => {
    const key = `shared-key-${Date.now()}`;
    const body = { external_source: SOURCE, categories: [{ external_category_id: 'IDEM-CAT', name: 'Idempotent' }] };
    const first = await call('PUT', '/api/v1/property-sync/room-categories', { headers: { ...bearer(a.syncKey), 'Idempotency-Key': key }, body });
    expect(first.status).toBe(200);
    const other = await call('PUT', '/api/v1/property-sync/room-categories', { headers: { ...bearer(b.syncKey), 'Idempotency-Key': key }, body });
    expect(other.status).toBe(200);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.items[0].id).not.toBe(first.body.items[0].id);
    const orders = await call('POST', '/api/v1/payments/payment-orders', { headers: { ...bearer(b.paymentKey), 'Idempotency-Key': key }, body: { ...aOrderBody, reference: 'IDEM-REF' } });
    expect(orders.status).toBe(201);
    // A's own request above wrote IDEM-CAT: the comparison goes on from here.
    before = await tenantSnapshot([a.clientId]);
  });

  it("a paid order of B naming A's room as service_room_id never locks A's room", async () => {
    const created = await call('POST', '/api/v1/payments/payment-orders', {
      headers: bearer(b.paymentKey),
      body: { ...aOrderBody, reference: 'B-STEALS-A-ROOM', context: { type: 'room_booking', ...STAY, check_in_date: '2027-06-01', check_out_date: '2027-06-03', guests: 1, service_room_id: aRoomId } },
    });
    expect(created.status).toBe(201);
    const paid = await fetch(created.body.checkout_url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect((await call('GET', `/api/v1/payments/payment-orders/verify?reference=${created.body.order_reference}`)).status).toBe(303);
    const status = await call('GET', `/api/v1/payments/payment-orders/${created.body.order_reference}`, { headers: bearer(b.paymentKey) });
    expect(status.body).toMatchObject({ status: 'paid', service_booking_sync: { status: 'synced', room_assignment: 'manual', room_id: null } });
    const aView = await call('GET', '/api/v1/property-sync/availability?check_in_date=2027-06-01&check_out_date=2027-06-03&guests=1', { headers: bearer(a.syncKey) });
    expect(aView.body.available_rooms.map((r: { id: string }) => r.id)).toContain(aRoomId);
  });

  it("a reception booking for B naming A's room is NOT_FOUND", async () => {
    await expect(
      domain.bookings.confirmServiceBooking(b.clientId, {
        origin: 'reception',
        roomId: aRoomId,
        requireRoom: true,
        guest_name: 'Mallory',
        guests: 1,
        check_in_date: '2027-07-01',
        check_out_date: '2027-07-02',
        payment_status: 'unpaid',
        payment_method: 'pay_at_property',
      }),
    ).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it("after all of B's attempts, A's stored data is exactly what it was", async () => {
    expect(snapshotDiff(before, await tenantSnapshot([a.clientId]))).toEqual([]);
  });
});

// ---- keys and secrets

describe('keys and secrets', () => {
  it('a callback secret is shown once: not in deliveries, payloads, callback requests or any answer', async () => {
    const booking = await domain.bookings.confirmServiceBooking(a.clientId, {
      origin: 'reception',
      roomId: aRoomId,
      requireRoom: true,
      guest_name: 'Ada',
      guest_email: 'ada@example.com',
      guests: 1,
      check_in_date: '2027-08-01',
      check_out_date: '2027-08-02',
      payment_status: 'unpaid',
      payment_method: 'pay_at_property',
    });
    const delivery = await waitFor('the delivery', async () => {
      const [d] = await domain.callbacks.listDeliveries(a.clientId);
      return d?.status === 'delivered' ? d : undefined;
    });
    expect(delivery.booking_id).toBe(booking.booking.id);
    expect(JSON.stringify(delivery)).not.toContain(callbackSecret);
    expect(JSON.stringify(await domain.callbacks.showDelivery(delivery.delivery_id))).not.toContain(callbackSecret);
    const [sent] = receiver.received;
    expect(JSON.stringify(sent!.headers)).not.toContain(callbackSecret);
    expect(sent!.rawBody.toString('utf8')).not.toContain(callbackSecret);
    expect(answers.join('\n')).not.toContain(callbackSecret);
  });

  it('keys are stored only as SHA-256 digests; the callback secret only sealed, in its endpoint record', async () => {
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const items: Record<string, unknown>[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: TABLE, ExclusiveStartKey: cursor }));
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    const dump = JSON.stringify(items);
    for (const key of presented) {
      expect(dump).not.toContain(key);
      expect(dump).not.toContain(key.replace(/^svc_(sync|pay)_/, ''));
    }
    for (const key of [a.syncKey, a.paymentKey, b.syncKey, b.paymentKey]) {
      const digest = createHash('sha256').update(key, 'utf8').digest('hex');
      const stored = items.find((item) => item.pk === `APIKEY#${digest}`);
      expect(stored).toBeDefined();
      expect(Object.keys(stored!).sort()).toEqual(expect.arrayContaining(['client_id', 'created_at', 'key_id', 'kind', 'scopes']));
    }
    // Nowhere in clear; the endpoint record holds it sealed, and only that record opens to it.
    expect(items.filter((item) => JSON.stringify(item).includes(callbackSecret))).toEqual([]);
    const { openSecret } = await import('../../shared/secrets/sealed-secrets');
    // Other test files share the table, each sealing with its own stack's key: only this file's tenants.
    const ours = new Map([`CLIENTCONFIG#${a.clientId}`, `CLIENTCONFIG#${b.clientId}`].map((pk) => [pk, pk.slice('CLIENTCONFIG#'.length)]));
    const sealed = items.filter((item) => ours.has(item.pk as string) && typeof item.sealed_secret === 'string');
    const opening = [];
    for (const item of sealed) {
      const context = { client_id: ours.get(item.pk as string)!, kind: item.kind as 'callback' | 'webhook' };
      if ((await openSecret(item.sealed_secret as string, context)) === callbackSecret) opening.push(`${item.pk} ${item.sk}`);
    }
    expect(opening).toEqual([`CLIENTCONFIG#${a.clientId} ENDPOINT#callback`]);
  });

  it('no key, presented key or secret appears in anything logged during this file', () => {
    const everything = output.text();
    // The authorizer's decisions were logged, so the logs were really looked at.
    expect(everything).toContain('"message":"authorization"');
    for (const secret of [...presented, callbackSecret, process.env.STRIPE_WEBHOOK_SECRET!]) {
      expect(everything.includes(secret), `a secret starting ${secret.slice(0, 12)} was logged`).toBe(false);
    }
  });
});

// ---- constant-time comparisons

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('secrets are compared in constant time', () => {
  const SENSITIVE = /signature|secret|password|api_?key|token|digest|key_?hash|hmac/i;
  const LITERAL = /^(['"`].*['"`]|undefined|null|true|false|-?\d[\d_.]*|'[^']*'|"[^"]*")$/;

  it('no == / != / === / !== compares two values of which one is a secret, anywhere in the service code', () => {
    const findings: string[] = [];
    for (const file of ['shared', 'functions', 'infra'].flatMap((d) => sourceFiles(join(root, d)))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, n) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const match of line.matchAll(/([\w$.[\]'"`?()!-]+)\s*(===|!==|==|!=)\s*([\w$.[\]'"`?()-]+)/g)) {
            const [, left, , right] = match as unknown as [string, string, string, string];
            const operands = [left.replace(/^[!(]+|[)]+$/g, ''), right.replace(/^[(]+|[);,]+$/g, '')];
            if (operands.some((o) => LITERAL.test(o) || /\.length$/.test(o))) continue;
            if (operands.some((o) => SENSITIVE.test(o))) findings.push(`${file.slice(root.length)}:${n + 1}: ${line.trim()}`);
          }
        });
    }
    expect(findings).toEqual([]);
  });

  it('signatures are checked with timingSafeEqual; keys are looked up by digest, never compared', async () => {
    // Every file that computes an HMAC and checks one compares with timingSafeEqual (or hands the check to one that does).
    const hmacFiles = ['shared', 'functions'].flatMap((d) => sourceFiles(join(root, d))).filter((f) => /createHmac/.test(readFileSync(f, 'utf8')));
    expect(hmacFiles.length).toBeGreaterThan(0);
    for (const file of hmacFiles) {
      const source = readFileSync(file, 'utf8');
      if (/function verify\w*\(/.test(source)) expect(source, file).toMatch(/timingSafeEqual\(|return verifySignature\(/);
    }
    expect(readFileSync(join(root, 'shared/receiver-kit/index.ts'), 'utf8')).toMatch(/timingSafeEqual\(/);
    const authorize = readFileSync(join(root, 'shared/auth/authorize.ts'), 'utf8');
    expect(authorize).toMatch(/findApiKeyByHash\(keyHash\)|lookup\(keyHash/);
    const { verifyCallbackSignature, signCallbackBody } = await import('../../shared/domain/callbacks/signing');
    const body = '{"event":"booking.confirmed"}';
    const good = signCallbackBody('s'.repeat(32), body);
    expect(verifyCallbackSignature('s'.repeat(32), body, good)).toBe(true);
    expect(verifyCallbackSignature('s'.repeat(32), body, good.toUpperCase())).toBe(true);
    for (const bad of ['', good.slice(0, -1), `${good}0`, `sha256=${good}`, good.replace(/^./, (c) => (c === '0' ? '1' : '0'))]) {
      expect(verifyCallbackSignature('s'.repeat(32), body, bad)).toBe(false);
    }
  });
});
