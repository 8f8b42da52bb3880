/**
 * Concurrency (docs/behaviour.md "Idempotency-Key", "Sync writes", "Payment orders"): requests sent
 * at the same moment through the loopback gateway. The same Idempotency-Key runs once; the same
 * payment reference makes one order; paid orders and reception bookings of one room for
 * overlapping nights leave exactly one holder; the same rooms synced in parallel exist once.
 * Every check ends in the table itself, not only in the answers.
 */
import { randomUUID } from 'node:crypto';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_SCOPES, routes, SYNC_SCOPES } from '../../definitions/routes';
import { type ApiResponse, startTestStack, type Tenant, type TestStack } from '../support/stack';

const SOURCE = 'pms';
let stack: TestStack;
let sent = 0;
const figures: string[] = [];

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  console.log(`concurrency figures: ${sent} requests in parallel bursts\n${figures.join('\n')}`);
  await stack?.stop();
});

// ---- helpers

function request(method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  sent++;
  return stack.request(method, path, { key, body, headers });
}

const put = (tenant: Tenant, what: string, body: unknown, headers: Record<string, string> = {}) =>
  request('PUT', `/api/v1/property-sync/${what}`, tenant.syncKey, body, headers);

/** A sync key of the tenant that may also push rates (its own sync key has the spec's five scopes). */
async function rateKey(tenant: Tenant): Promise<string> {
  return (await stack.issueKey(tenant.clientId, 'sync', { scopes: [...SYNC_SCOPES, ...RATE_SCOPES] })).key;
}

const createOrder = (tenant: Tenant, body: unknown, headers: Record<string, string> = {}) =>
  request('POST', '/api/v1/payments/payment-orders', tenant.paymentKey, body, headers);

/** Items of the client's partition whose sort key starts with `prefix`, read from the table. */
async function stored(clientId: string, prefix: string): Promise<Record<string, any>[]> {
  const { db, TABLE } = await import('../../shared/store/dynamo');
  const items: Record<string, any>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `CLIENT#${clientId}`, ':prefix': prefix },
        ConsistentRead: true,
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/** Payment orders of a client (a test may scan its own table; no request path does). */
async function ordersOf(clientId: string): Promise<Record<string, any>[]> {
  const { db, TABLE } = await import('../../shared/store/dynamo');
  const items: Record<string, any>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: TABLE,
        FilterExpression: 'sk = :sk AND client_id = :client',
        ExpressionAttributeValues: { ':sk': 'ORDER', ':client': clientId },
        ExclusiveStartKey: cursor,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

const replayed = (r: ApiResponse) => r.headers.get('idempotent-replayed');
const summary = (responses: ApiResponse[]) => responses.map((r) => `${r.status}${replayed(r) ? ' replayed' : ''} ${r.text.slice(0, 160)}`).join('\n');

const room = (id: string, number: string, extra: Record<string, unknown> = {}) => ({ external_room_id: id, room_number: number, room_type: 'double', price: 100, max_occupancy: 2, ...extra });
const booking = (id: string, roomId: string) => ({
  external_booking_id: id,
  external_room_id: roomId,
  guest_name: 'Guest',
  guests: 1,
  check_in_date: '2027-03-01',
  check_out_date: '2027-03-03',
  status: 'confirmed',
});
const orderBody = (overrides: Record<string, unknown> = {}) => ({
  reference: `REF-${randomUUID()}`,
  amount_minor: 12_500,
  currency: 'USD',
  customer: { name: 'Ada', email: 'ada@example.com' },
  success_url: 'https://partner.example/ok',
  cancel_url: 'https://partner.example/cancel',
  ...overrides,
});

// ---- Idempotency-Key

const PARALLEL_SAME_KEY = 8;
const ITEMS = 40;

interface IdempotentCase {
  /** Prepares the tenant; returns the request body and how to count what it wrote. */
  prepare(tenant: Tenant): Promise<{ send: (headers: Record<string, string>) => Promise<ApiResponse>; count: () => Promise<number>; expected: number }>;
}

const idempotentCases: Record<string, IdempotentCase> = {
  PutRoomCategories: {
    async prepare(tenant) {
      const body = { external_source: SOURCE, categories: Array.from({ length: ITEMS }, (_, i) => ({ external_category_id: `C${i}`, name: `Category ${i}` })) };
      return { send: (h) => put(tenant, 'room-categories', body, h), count: async () => (await stored(tenant.clientId, 'CATEGORY#')).length, expected: ITEMS };
    },
  },
  PutRooms: {
    async prepare(tenant) {
      const body = { external_source: SOURCE, rooms: Array.from({ length: ITEMS }, (_, i) => room(`R${i}`, String(100 + i))) };
      return { send: (h) => put(tenant, 'rooms', body, h), count: async () => (await stored(tenant.clientId, 'ROOM#')).length, expected: ITEMS };
    },
  },
  PutBookings: {
    async prepare(tenant) {
      expect((await put(tenant, 'rooms', { external_source: SOURCE, rooms: [room('R1', '1')] })).status).toBe(200);
      const body = { external_source: SOURCE, bookings: Array.from({ length: ITEMS }, (_, i) => booking(`B${i}`, 'R1')) };
      return { send: (h) => put(tenant, 'bookings', body, h), count: async () => (await stored(tenant.clientId, 'BOOKING#')).length, expected: ITEMS };
    },
  },
  PutCheckins: {
    async prepare(tenant) {
      expect((await put(tenant, 'rooms', { external_source: SOURCE, rooms: [room('R1', '1')] })).status).toBe(200);
      expect((await put(tenant, 'bookings', { external_source: SOURCE, bookings: Array.from({ length: ITEMS }, (_, i) => booking(`B${i}`, 'R1')) })).status).toBe(200);
      const body = {
        external_source: SOURCE,
        checkins: Array.from({ length: ITEMS }, (_, i) => ({ external_checkin_id: `K${i}`, external_booking_id: `B${i}`, event: 'check_in', occurred_at: '2027-03-01T15:00:00Z' })),
      };
      return { send: (h) => put(tenant, 'checkins', body, h), count: async () => (await stored(tenant.clientId, 'CHECKIN#')).length, expected: ITEMS };
    },
  },
  PutRatePlans: {
    async prepare(tenant) {
      const key = await rateKey(tenant);
      expect((await put(tenant, 'room-categories', { external_source: SOURCE, categories: [{ external_category_id: 'C1', name: 'Double' }] })).status).toBe(200);
      const body = { external_source: SOURCE, rate_plans: Array.from({ length: ITEMS }, (_, i) => ({ external_rate_plan_id: `P${i}`, external_category_id: 'C1', name: `Plan ${i}` })) };
      return { send: (h) => request('PUT', '/api/v1/property-sync/rate-plans', key, body, h), count: async () => (await stored(tenant.clientId, 'RATEPLAN#')).length, expected: ITEMS };
    },
  },
  PutRates: {
    async prepare(tenant) {
      const key = await rateKey(tenant);
      expect((await put(tenant, 'room-categories', { external_source: SOURCE, categories: [{ external_category_id: 'C1', name: 'Double' }] })).status).toBe(200);
      const plans = ['P0', 'P1', 'P2'];
      const planned = await request('PUT', '/api/v1/property-sync/rate-plans', key, {
        external_source: SOURCE,
        rate_plans: plans.map((id) => ({ external_rate_plan_id: id, external_category_id: 'C1', name: id })),
      });
      expect(planned.status).toBe(200);
      // One night each of three plans, in one month some weeks ahead: three plan-months written.
      const day = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
      const body = { external_source: SOURCE, updates: plans.map((id) => ({ external_rate_plan_id: id, date: day, price: 120 })) };
      return { send: (h) => request('PUT', '/api/v1/property-sync/rates', key, body, h), count: async () => (await stored(tenant.clientId, 'RATES#')).length, expected: plans.length };
    },
  },
  CreatePaymentOrder: {
    async prepare(tenant) {
      const body = orderBody();
      return { send: (h) => createOrder(tenant, body, h), count: async () => (await ordersOf(tenant.clientId)).length, expected: 1 };
    },
  },
  CancelServiceBooking: {
    async prepare(tenant) {
      expect((await put(tenant, 'rooms', { external_source: SOURCE, rooms: [room('R1', '1')] })).status).toBe(200);
      const { listRooms } = await import('../../shared/store/room-store');
      const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
      const [first] = await listRooms(tenant.clientId);
      const { booking: made } = await createReceptionBooking(tenant.clientId, first!.id, {
        check_in_date: '2028-03-01',
        check_out_date: '2028-03-03',
        guests: 1,
        guest_name: 'Guest',
        guest_email: 'guest@example.com',
      });
      const path = `/api/v1/property-sync/service-bookings/${made.id}/cancel`;
      // Each cancellation that runs is one more event of the booking: its sequence counts them.
      const cancellations = async () => {
        const [item] = (await stored(tenant.clientId, `BOOKING#${made.id}`)) as { sequence: number }[];
        return item!.sequence - 1;
      };
      return { send: (h) => request('POST', path, tenant.syncKey, { reason: 'Duplicate' }, h), count: cancellations, expected: 1 };
    },
  },
  RefundPaymentOrder: {
    async prepare(tenant) {
      const created = await createOrder(tenant, orderBody());
      expect(created.status).toBe(201);
      const paid = await fetch(created.body.checkout_url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ outcome: 'paid' }).toString(),
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      const reference = created.body.order_reference as string;
      expect((await stack.request('GET', `/api/v1/payments/payment-orders/verify?reference=${reference}`)).status).toBe(303);
      const path = `/api/v1/payments/payment-orders/${reference}/refunds`;
      const refunds = async () => (await request('GET', `/api/v1/payments/payment-orders/${reference}`, tenant.paymentKey)).body.refunds.length as number;
      return { send: (h) => request('POST', path, tenant.paymentKey, { amount_minor: 1_000 }, h), count: refunds, expected: 1 };
    },
  },
};

describe(`${PARALLEL_SAME_KEY} parallel requests with one Idempotency-Key run once`, () => {
  const idempotent = routes.filter((r) => r.idempotent);

  it('every idempotent route of the route table is covered here', () => {
    expect(idempotent.map((r) => r.id).filter((id) => !idempotentCases[id])).toEqual([]);
  });

  it.each(idempotent.filter((r) => idempotentCases[r.id]).map((r) => ({ id: r.id, name: `${r.method} ${r.path}` })))('$name', async ({ id }) => {
    const tenant = await stack.createTenant();
    const { send, count, expected } = await idempotentCases[id]!.prepare(tenant);
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: PARALLEL_SAME_KEY }, () => send({ 'Idempotency-Key': key })));

    const fresh = responses.filter((r) => r.status < 300 && replayed(r) === null);
    expect(fresh, summary(responses)).toHaveLength(1);
    for (const other of responses.filter((r) => r !== fresh[0])) {
      if (other.status === 409) {
        expect(other.body.error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
        expect(other.headers.get('retry-after')).toBeTruthy();
      } else {
        expect(other.status, summary(responses)).toBe(fresh[0]!.status);
        expect(replayed(other)).toBe('true');
        expect(other.text).toBe(fresh[0]!.text);
      }
    }
    expect(await count()).toBe(expected);
    // Once it finished, the key replays the one outcome.
    const later = await send({ 'Idempotency-Key': key });
    expect(replayed(later)).toBe('true');
    expect(later.text).toBe(fresh[0]!.text);
    expect(await count()).toBe(expected);
    figures.push(`same Idempotency-Key, ${id}: ${PARALLEL_SAME_KEY} parallel, 1 execution, ${responses.filter((r) => r.status === 409).length} x 409, ${responses.filter((r) => replayed(r)).length} replays`);
  });

  it('one key with six different bodies in parallel: at most one runs, and only its rooms exist', async () => {
    const tenant = await stack.createTenant();
    const key = randomUUID();
    const bodies = Array.from({ length: 6 }, (_, b) => ({ external_source: SOURCE, rooms: Array.from({ length: 10 }, (_, i) => room(`B${b}-R${i}`, `${b}-${i}`)) }));
    const responses = await Promise.all(bodies.map((body) => put(tenant, 'rooms', body, { 'Idempotency-Key': key })));
    const ran = responses.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 200);
    expect(ran, summary(responses)).toHaveLength(1);
    for (const r of responses.filter((r) => r.status !== 200)) expect(['IDEMPOTENCY_REQUEST_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED']).toContain(r.body.error.code);
    const rooms = await stored(tenant.clientId, 'ROOM#');
    expect(rooms.map((r) => r.external_room_id).sort()).toEqual(bodies[ran[0]!.i]!.rooms.map((r) => r.external_room_id).sort());
    figures.push('same Idempotency-Key, 6 different bodies in parallel: 1 execution, the rest 409/422');
  });
});

// ---- payment orders with one reference

describe('parallel payment order creates with one reference make one order', () => {
  it('ten identical creates: one 201, nine 200 reused, one order stored', async () => {
    const tenant = await stack.createTenant();
    const body = orderBody();
    const responses = await Promise.all(Array.from({ length: 10 }, () => createOrder(tenant, body)));
    expect(responses.filter((r) => r.status === 201), summary(responses)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200 && r.body.reused === true)).toHaveLength(9);
    expect(new Set(responses.map((r) => r.body.order_reference)).size).toBe(1);
    const orders = await ordersOf(tenant.clientId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ external_reference: body.reference, order_reference: responses[0]!.body.order_reference, attempt: 1 });
    expect(await stored(tenant.clientId, 'ORDEREXT#')).toHaveLength(1);
    figures.push('same payment reference: 10 parallel creates, 1 order');
  });

  it('ten creates with two amounts: one order; the other amount gets 409 EXTERNAL_REFERENCE_CONFLICT', async () => {
    const tenant = await stack.createTenant();
    const reference = `REF-${randomUUID()}`;
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => createOrder(tenant, orderBody({ reference, amount_minor: i % 2 ? 1000 : 2000 }))));
    const orders = await ordersOf(tenant.clientId);
    expect(orders, summary(responses)).toHaveLength(1);
    const winner = orders[0]!.amount_minor;
    for (const [i, r] of responses.entries()) {
      if ((i % 2 ? 1000 : 2000) === winner) {
        expect([200, 201], summary(responses)).toContain(r.status);
        expect(r.body.order_reference).toBe(orders[0]!.order_reference);
      } else {
        expect(r.status, summary(responses)).toBe(409);
        expect(r.body.error.code).toBe('EXTERNAL_REFERENCE_CONFLICT');
      }
    }
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    figures.push('same payment reference, two amounts: 10 parallel creates, 1 order, 5 x 409');
  });
});

// ---- one room, many would-be holders

describe('paid orders and reception bookings racing for one room and overlapping nights', () => {
  it('six paid orders and six reception bookings at once: exactly one holds the room', async () => {
    const tenant = await stack.createTenant();
    const rooms = await put(tenant, 'rooms', { external_source: SOURCE, rooms: [room('R1', '1'), room('R2', '2')] });
    expect(rooms.status).toBe(200);
    const roomId = rooms.body.items[0].id as string;
    const nights = (i: number) => ({ check_in_date: `2027-10-0${1 + (i % 3)}`, check_out_date: '2027-10-05' });

    // The orders are created and paid at the provider first; the race is the verification.
    const orders = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const created = await createOrder(tenant, orderBody({ context: { type: 'room_booking', ...nights(i), guests: 1, service_room_id: roomId } }));
        expect(created.status).toBe(201);
        const paid = await fetch(created.body.checkout_url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid', redirect: 'manual' });
        expect(paid.status).toBe(303);
        return created.body.order_reference as string;
      }),
    );
    const { confirmServiceBooking } = await import('../../shared/domain/bookings/service-bookings');
    const [verifies, receptions] = await Promise.all([
      Promise.all(orders.map((ref) => stack.request('GET', `/api/v1/payments/payment-orders/verify?reference=${ref}`))),
      Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          confirmServiceBooking(tenant.clientId, {
            origin: 'reception',
            roomId,
            requireRoom: true,
            guest_name: `Walk-in ${i}`,
            guests: 1,
            ...nights(i + 1),
            payment_status: 'unpaid',
            payment_method: 'pay_at_property',
          }),
        ),
      ),
    ]);
    sent += 12;
    for (const v of verifies) expect(v.status).toBe(303);

    const statuses = await Promise.all(orders.map(async (ref) => (await request('GET', `/api/v1/payments/payment-orders/${ref}`, tenant.paymentKey)).body));
    for (const s of statuses) expect(s).toMatchObject({ status: 'paid', service_booking_sync: { status: 'synced' } });
    const lockedOrders = statuses.filter((s) => s.service_booking_sync.room_assignment === 'locked');
    const wonReceptions = receptions.filter((r) => r.status === 'fulfilled');
    for (const lost of receptions.filter((r) => r.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    }
    expect(lockedOrders.length + wonReceptions.length, JSON.stringify({ lockedOrders, wonReceptions: wonReceptions.length })).toBe(1);
    for (const s of lockedOrders) expect(s.service_booking_sync.room_id).toBe(roomId);

    // In the table: one hold on the room; one active booking of the service on it.
    const [hold] = await stored(tenant.clientId, `ROOMHOLD#${roomId}`);
    expect(hold!.holds).toHaveLength(1);
    const bookings = await stored(tenant.clientId, 'BOOKING#');
    expect(bookings).toHaveLength(12 - (receptions.length - wonReceptions.length));
    expect(bookings.filter((b) => b.room_id === roomId)).toHaveLength(1);
    const availability = await request('GET', '/api/v1/property-sync/availability?check_in_date=2027-10-03&check_out_date=2027-10-04&guests=1', tenant.syncKey);
    expect(availability.body.available_rooms.map((r: { id: string }) => r.id)).not.toContain(roomId);
    figures.push('one room: 6 paid-order verifications + 6 reception bookings at once, 1 holder');
  });
});

// ---- the same rooms synced in parallel

describe('parallel syncs of the same records create no duplicates', () => {
  it('five identical syncs of 60 rooms: each room created once, one id each', async () => {
    const tenant = await stack.createTenant();
    const rooms = Array.from({ length: 60 }, (_, i) => room(`P${i}`, `P-${i}`));
    const responses = await Promise.all(Array.from({ length: 5 }, () => put(tenant, 'rooms', { external_source: SOURCE, rooms })));
    for (const r of responses) expect(r.status, r.text.slice(0, 300)).toBe(200);
    for (let i = 0; i < rooms.length; i++) {
      const items = responses.map((r) => r.body.items[i]);
      expect(items.filter((item) => item.action === 'created')).toHaveLength(1);
      expect(new Set(items.map((item) => item.id)).size).toBe(1);
    }
    expect(await stored(tenant.clientId, 'ROOM#')).toHaveLength(60);
    expect(await stored(tenant.clientId, 'ROOMNUM#')).toHaveLength(60);
    figures.push('same 60 rooms: 5 parallel syncs, 60 rooms stored');
  });

  it('five syncs of the same rooms with different prices: one room per id, holding one of the prices sent', async () => {
    const tenant = await stack.createTenant();
    const prices = [101, 102, 103, 104, 105];
    const responses = await Promise.all(prices.map((price) => put(tenant, 'rooms', { external_source: SOURCE, rooms: Array.from({ length: 30 }, (_, i) => room(`V${i}`, `V-${i}`, { price })) })));
    for (const r of responses) expect(r.status, r.text.slice(0, 300)).toBe(200);
    const storedRooms = await stored(tenant.clientId, 'ROOM#');
    expect(storedRooms).toHaveLength(30);
    for (const r of storedRooms) expect(prices).toContain(r.price);
    figures.push('same 30 rooms, 5 different prices: 5 parallel syncs, 30 rooms stored');
  });

  it('six syncs linking one unlinked room by its number: linked once, one room', async () => {
    const tenant = await stack.createTenant();
    const { createRoom } = await import('../../shared/store/room-store');
    const now = new Date().toISOString();
    const existing = { id: randomUUID(), room_number: 'L1', room_type: 'double', price: 90, max_occupancy: 2, images: [], is_active: true, content_hash: 'reception', version: 1, created_at: now, updated_at: now };
    await createRoom(tenant.clientId, existing);
    const responses = await Promise.all(Array.from({ length: 6 }, () => put(tenant, 'rooms', { external_source: SOURCE, rooms: [room('X1', 'L1')] })));
    for (const r of responses) expect(r.status, summary(responses)).toBe(200);
    const actions = responses.map((r) => r.body.items[0].action).sort();
    expect(actions.filter((a) => a === 'linked'), summary(responses)).toHaveLength(1);
    expect(new Set(responses.map((r) => r.body.items[0].id))).toEqual(new Set([existing.id]));
    expect(await stored(tenant.clientId, 'ROOM#')).toHaveLength(1);
    figures.push('one unlinked room: 6 parallel syncs linking it, 1 link');
  });

  it('six syncs linking one room number to six different external rooms: one wins, five get ROOM_NUMBER_CONFLICT', async () => {
    const tenant = await stack.createTenant();
    const { createRoom } = await import('../../shared/store/room-store');
    const now = new Date().toISOString();
    const existing = { id: randomUUID(), room_number: 'L2', room_type: 'double', price: 90, max_occupancy: 2, images: [], is_active: true, content_hash: 'reception', version: 1, created_at: now, updated_at: now };
    await createRoom(tenant.clientId, existing);
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => put(tenant, 'rooms', { external_source: SOURCE, rooms: [room(`Y${i}`, 'L2')] })));
    const won = responses.filter((r) => r.status === 200);
    expect(won, summary(responses)).toHaveLength(1);
    expect(won[0]!.body.items[0]).toMatchObject({ id: existing.id, action: 'linked' });
    for (const r of responses.filter((r) => r.status !== 200)) {
      expect(r.status, summary(responses)).toBe(422);
      expect(r.body.error.code).toBe('ROOM_NUMBER_CONFLICT');
    }
    const storedRooms = await stored(tenant.clientId, 'ROOM#');
    expect(storedRooms).toHaveLength(1);
    expect(storedRooms[0]!.external_room_id).toBe(won[0]!.body.items[0].external_room_id);
    figures.push('one room number, 6 different external rooms in parallel: 1 link, 5 x 422');
  });

  it('five identical syncs of categories, bookings and check-ins: each record once', async () => {
    const tenant = await stack.createTenant();
    expect((await put(tenant, 'rooms', { external_source: SOURCE, rooms: [room('R1', '1')] })).status).toBe(200);
    const categories = { external_source: SOURCE, categories: Array.from({ length: 30 }, (_, i) => ({ external_category_id: `C${i}`, name: `C ${i}` })) };
    const bookings = { external_source: SOURCE, bookings: Array.from({ length: 30 }, (_, i) => booking(`B${i}`, 'R1')) };
    const checkins = { external_source: SOURCE, checkins: Array.from({ length: 30 }, (_, i) => ({ external_checkin_id: `K${i}`, external_booking_id: `B${i}`, event: 'check_in', occurred_at: '2027-03-01T15:00:00Z' })) };
    for (const [what, body, prefix] of [
      ['room-categories', categories, 'CATEGORY#'],
      ['bookings', bookings, 'BOOKING#'],
      ['checkins', checkins, 'CHECKIN#'],
    ] as const) {
      const responses = await Promise.all(Array.from({ length: 5 }, () => put(tenant, what, body)));
      for (const r of responses) expect(r.status, r.text.slice(0, 300)).toBe(200);
      for (let i = 0; i < 30; i++) expect(new Set(responses.map((r) => r.body.items[i].id)).size).toBe(1);
      expect(await stored(tenant.clientId, prefix)).toHaveLength(30);
    }
    const active = (await stored(tenant.clientId, 'BOOKING#')).filter((b) => b.status === 'checked_in');
    expect(active).toHaveLength(30);
    figures.push('same 30 categories / bookings / check-ins: 5 parallel syncs each, 30 of each stored');
  });
});
