/**
 * Sync writes stop before their function's timeout (shared/domain/property-sync/time-budget.ts):
 * with too little time left they answer 503 SERVICE_UNAVAILABLE with Retry-After and leave the
 * table as it was; cut short between writes, every item is either as before or as a complete
 * run leaves it, and sending the request again completes it. The 503 is never stored under the
 * Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoute } from '../../definitions/routes';
import type { TimeBudget } from '../../shared/domain/property-sync/time-budget';
import type { PutBookingsBody, PutCheckinsBody } from '../../shared/schemas/property-sync';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const SOURCE = 'pms';
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(() => stack?.stop());

const put = (tenant: Tenant, what: string, body: unknown, headers: Record<string, string> = {}) =>
  stack.request('PUT', `/api/v1/property-sync/${what}`, { key: tenant.syncKey, body: { external_source: SOURCE, ...(body as object) }, headers });

const room = (id: string) => ({ external_room_id: id, room_number: id, room_type: 'double', price: 100, max_occupancy: 2 });
const booking = (id: string, overrides: Record<string, unknown> = {}) => ({
  external_booking_id: id,
  external_room_id: 'R1',
  guest_name: 'Ada Guest',
  guests: 1,
  check_in_date: '2027-05-10',
  check_out_date: '2027-05-12',
  status: 'confirmed',
  ...overrides,
});
const checkin = (id: string, bookingId: string) => ({ external_checkin_id: id, external_booking_id: bookingId, event: 'check_in', occurred_at: '2027-05-10T14:00:00Z' });

/** Runs `fn` with a route's function timeout set to `seconds` (the local gateway reads it per invocation). */
async function withTimeout<T>(routeId: string, seconds: number, fn: () => Promise<T>): Promise<T> {
  const route = findRoute(routeId) as { timeoutSeconds?: number };
  const configured = route.timeoutSeconds;
  route.timeoutSeconds = seconds;
  try {
    return await fn();
  } finally {
    route.timeoutSeconds = configured;
  }
}

/** Items of the client's partition under a sort-key prefix, straight from the table. */
async function stored(tenant: Tenant, prefix: string): Promise<Record<string, any>[]> {
  const { queryAll } = await import('../../shared/store/batch');
  return queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': `CLIENT#${tenant.clientId}`, ':prefix': prefix },
    ConsistentRead: true,
  });
}

async function seeded(bookings = 0): Promise<Tenant> {
  const tenant = await stack.createTenant();
  expect((await put(tenant, 'rooms', { rooms: [room('R1'), room('R2')] })).status).toBe(200);
  if (bookings) expect((await put(tenant, 'bookings', { bookings: Array.from({ length: bookings }, (_, i) => booking(`B${i}`)) })).status).toBe(200);
  return tenant;
}

describe('too little time left before the first write', () => {
  const cases = {
    PutRoomCategories: { path: 'room-categories', prefix: 'CATEGORY#', body: { categories: [{ external_category_id: 'C1', name: 'Double' }] }, bookings: 0 },
    PutRooms: { path: 'rooms', prefix: 'ROOM#', body: { rooms: [room('R9')] }, bookings: 0 },
    PutBookings: { path: 'bookings', prefix: 'BOOKING#', body: { bookings: Array.from({ length: 50 }, (_, i) => booking(`N${i}`)) }, bookings: 0 },
    PutCheckins: { path: 'checkins', prefix: 'CHECKIN#', body: { checkins: [checkin('C1', 'B0'), checkin('C2', 'B1')] }, bookings: 2 },
  };

  it.each(Object.entries(cases))('%s answers 503 with Retry-After, writes nothing, and runs again on retry with the same Idempotency-Key', async (routeId, c) => {
    const tenant = await seeded(c.bookings);
    const before = { items: await stored(tenant, c.prefix), bookings: await stored(tenant, 'BOOKING#') };
    const headers = { 'Idempotency-Key': `deadline-${routeId}` };

    // 3 s left at the start: less than the reserve kept for the last write and the answer.
    const cut = await withTimeout(routeId, 3, () => put(tenant, c.path, c.body, headers));
    expect(cut.status, cut.text).toBe(503);
    expect(cut.headers.get('retry-after')).toBe('2');
    expect(cut.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', request_id: cut.headers.get('x-request-id') });
    expect(await stored(tenant, c.prefix)).toEqual(before.items);
    expect(await stored(tenant, 'BOOKING#')).toEqual(before.bookings);

    const retried = await put(tenant, c.path, c.body, headers);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body.created).toBeGreaterThan(0);
  });

  it('a sync with nothing to write answers 200 however little time is left', async () => {
    const tenant = await seeded(3);
    const again = await withTimeout('PutBookings', 3, () => put(tenant, 'bookings', { bookings: [booking('B0'), booking('B1'), booking('B2')] }));
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ unchanged: 3 });
  });
});

describe('time running out between writes', () => {
  /** Plenty of time for the first `checks` checks, then less than the reserve. */
  const runningOutAfter = (checks: number): TimeBudget => {
    let made = 0;
    return { remainingMs: () => (++made <= checks ? 60_000 : 1_000) };
  };

  it('new bookings: each is stored whole or not at all; sending again completes the sync', async () => {
    const { syncBookings } = await import('../../shared/domain/property-sync/sync-bookings');
    const tenant = await seeded();
    const body = { external_source: SOURCE, bookings: Array.from({ length: 100 }, (_, i) => booking(`N${i}`, { guests: 2 })) } as PutBookingsBody;

    // One check before the first write, then one before each write: 30 writes, then a stop.
    await expect(syncBookings(tenant.clientId, body, { budget: runningOutAfter(1 + 30) })).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    const partial = await stored(tenant, 'BOOKING#');
    expect(partial).toHaveLength(30);
    for (const item of partial) expect(item).toMatchObject({ guests: 2, status: 'confirmed', version: 1, gsi2pk: expect.stringMatching(/^ROOM#/) });

    const completed = await syncBookings(tenant.clientId, body);
    expect(completed).toMatchObject({ created: 70, unchanged: 30 });
    expect(await stored(tenant, 'BOOKING#')).toHaveLength(100);
  });

  it('updated bookings: each is as before or as after, index included; sending again completes the sync', async () => {
    const { syncBookings } = await import('../../shared/domain/property-sync/sync-bookings');
    const tenant = await seeded(100);
    const body = {
      external_source: SOURCE,
      bookings: Array.from({ length: 100 }, (_, i) => booking(`B${i}`, { guest_name: 'Renamed', status: i % 2 ? 'cancelled' : 'confirmed' })),
    } as PutBookingsBody;
    await expect(syncBookings(tenant.clientId, body, { budget: runningOutAfter(1 + 40) })).rejects.toMatchObject({ status: 503 });
    const items = await stored(tenant, 'BOOKING#');
    const after = items.filter((item) => item.guest_name === 'Renamed');
    expect(after).toHaveLength(40);
    for (const item of items) {
      const index = Number(String(item.external_booking_id).slice(1));
      if (item.guest_name === 'Renamed') {
        expect(item).toMatchObject({ version: 2, status: index % 2 ? 'cancelled' : 'confirmed' });
        expect(item.gsi2pk === undefined).toBe(index % 2 === 1);
      } else {
        expect(item).toMatchObject({ guest_name: 'Ada Guest', version: 1, status: 'confirmed', gsi2pk: expect.stringMatching(/^ROOM#/) });
      }
    }

    const completed = await syncBookings(tenant.clientId, body);
    expect(completed).toMatchObject({ updated: 60, unchanged: 40 });
    expect((await stored(tenant, 'BOOKING#')).every((item) => item.guest_name === 'Renamed')).toBe(true);
  });

  it('check-ins: a stored check-in record always had its effect; sending again completes the sync', async () => {
    const { syncCheckins } = await import('../../shared/domain/property-sync/sync-checkins');
    const tenant = await seeded(30);
    const body = { external_source: SOURCE, checkins: Array.from({ length: 30 }, (_, i) => checkin(`C${i}`, `B${i}`)) } as PutCheckinsBody;

    // Time for every booking update, none left for the check-in records.
    await expect(syncCheckins(tenant.clientId, body, { budget: runningOutAfter(1 + 30) })).rejects.toMatchObject({ status: 503 });
    expect(await stored(tenant, 'CHECKIN#')).toHaveLength(0);
    expect((await stored(tenant, 'BOOKING#')).every((item) => item.status === 'checked_in')).toBe(true);

    const completed = await syncCheckins(tenant.clientId, body);
    expect(completed).toMatchObject({ created: 30 });
    expect(await stored(tenant, 'CHECKIN#')).toHaveLength(30);
    const bookings = await stored(tenant, 'BOOKING#');
    expect(bookings.every((item) => item.status === 'checked_in' && item.version === 2)).toBe(true);
  });
});
