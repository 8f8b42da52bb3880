/**
 * GET /api/v1/property-sync/availability through the local gateway (docs/behaviour.md
 * "Availability"): response shape, natural room order, every overlap edge, bookings of any
 * origin, every filter, occupancy, inactive rooms, and query validation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const BASE = '/api/v1/property-sync';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SOURCE = 'pms';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

function availability(key: string, params: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return stack.request('GET', `${BASE}/availability?${query}`, { key });
}

async function numbers(key: string, params: Record<string, string | number>) {
  const response = await availability(key, params);
  expect(response.status, response.text).toBe(200);
  return (response.body.available_rooms as { room_number: string }[]).map((r) => r.room_number);
}

async function sync(tenant: Tenant, route: string, body: unknown) {
  const response = await stack.request('PUT', `${BASE}/${route}`, { key: tenant.syncKey, body });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

function room(id: string, number: string, overrides: Record<string, unknown> = {}) {
  return { external_room_id: id, room_number: number, room_type: 'double', price: 100, max_occupancy: 2, ...overrides };
}

function booking(id: string, roomId: string, checkIn: string, checkOut: string, status = 'confirmed') {
  return {
    external_booking_id: id,
    external_room_id: roomId,
    guest_name: 'Grace Guest',
    guests: 1,
    check_in_date: checkIn,
    check_out_date: checkOut,
    status,
    payment_status: 'paid',
  };
}

describe('response', () => {
  let tenant: Tenant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    tenant = await stack.createTenant();
    await sync(tenant, 'room-categories', {
      external_source: SOURCE,
      categories: [
        { external_category_id: 'std', name: 'Standard', base_price: 89.9, max_occupancy: 2 },
        { external_category_id: 'fam', name: 'Family' },
      ],
    });
    const rooms = await sync(tenant, 'rooms', {
      external_source: SOURCE,
      rooms: [
        room('R101', '101', { external_category_id: 'std', price: 95.5 }),
        room('R10', '10', { external_category_id: 'std' }),
        room('R2', '2', { external_category_id: 'fam', room_type: 'family', max_occupancy: 4, price: 150 }),
        room('RA1', 'A1'),
      ],
    });
    for (const item of rooms.items) ids[item.external_room_id] = item.id;
  });

  it('has the documented shape, rooms in natural room-number order', async () => {
    const response = await availability(tenant.syncKey, { check_in_date: '2027-02-27', check_out_date: '2027-03-02', guests: 2 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      check_in_date: '2027-02-27',
      check_out_date: '2027-03-02',
      nights: 3,
      guests: 2,
      available_rooms: [
        {
          id: ids.R2,
          room_number: '2',
          room_type: 'family',
          price: 150,
          max_occupancy: 4,
          external_source: SOURCE,
          external_room_id: 'R2',
          external_category_id: 'fam',
          category: { external_category_id: 'fam', name: 'Family', base_price: null },
        },
        {
          id: ids.R10,
          room_number: '10',
          room_type: 'double',
          price: 100,
          max_occupancy: 2,
          external_source: SOURCE,
          external_room_id: 'R10',
          external_category_id: 'std',
          category: { external_category_id: 'std', name: 'Standard', base_price: 89.9 },
        },
        {
          id: ids.R101,
          room_number: '101',
          room_type: 'double',
          price: 95.5,
          max_occupancy: 2,
          external_source: SOURCE,
          external_room_id: 'R101',
          external_category_id: 'std',
          category: { external_category_id: 'std', name: 'Standard', base_price: 89.9 },
        },
        {
          id: ids.RA1,
          room_number: 'A1',
          room_type: 'double',
          price: 100,
          max_occupancy: 2,
          external_source: SOURCE,
          external_room_id: 'RA1',
          external_category_id: null,
          category: null,
        },
      ],
      categories: expect.any(Array),
    });
    for (const id of Object.values(ids)) expect(id).toMatch(UUID);
    expect(response.body.categories).toHaveLength(2);
    expect(response.body.categories).toEqual(
      expect.arrayContaining([
        { external_category_id: 'fam', name: 'Family', base_price: null, available_count: 1 },
        { external_category_id: 'std', name: 'Standard', base_price: 89.9, available_count: 2 },
      ]),
    );
  });

  it('counts only available rooms per category', async () => {
    await sync(tenant, 'bookings', { external_source: SOURCE, bookings: [booking('CNT', 'R10', '2027-03-10', '2027-03-12')] });
    const response = await availability(tenant.syncKey, { check_in_date: '2027-03-11', check_out_date: '2027-03-12', guests: 1 });
    expect(response.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['2', '101', 'A1']);
    expect(response.body.categories).toEqual(
      expect.arrayContaining([
        { external_category_id: 'fam', name: 'Family', base_price: null, available_count: 1 },
        { external_category_id: 'std', name: 'Standard', base_price: 89.9, available_count: 1 },
      ]),
    );
    expect(response.body.categories).toHaveLength(2);
  });

  it('answers an empty client with empty lists', async () => {
    const empty = await stack.createTenant();
    const response = await availability(empty.syncKey, { check_in_date: '2027-03-11', check_out_date: '2027-03-12', guests: 1 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ check_in_date: '2027-03-11', check_out_date: '2027-03-12', nights: 1, guests: 1, available_rooms: [], categories: [] });
  });
});

describe('overlap', () => {
  let tenant: Tenant;
  const query = { check_in_date: '2027-05-10', check_out_date: '2027-05-13', guests: 1 };

  beforeAll(async () => {
    tenant = await stack.createTenant();
    const rooms = await sync(tenant, 'rooms', {
      external_source: SOURCE,
      rooms: Array.from({ length: 19 }, (_, i) => room(`R${i + 1}`, String(i + 1))),
    });
    const roomIds = Object.fromEntries(rooms.items.map((i: { external_room_id: string; id: string }) => [i.external_room_id, i.id]));
    await sync(tenant, 'bookings', {
      external_source: SOURCE,
      bookings: [
        booking('ends-on-check-in', 'R1', '2027-05-07', '2027-05-10'),
        booking('starts-on-check-out', 'R2', '2027-05-13', '2027-05-15'),
        booking('covers', 'R3', '2027-05-09', '2027-05-14'),
        booking('inside', 'R4', '2027-05-11', '2027-05-12'),
        booking('overlaps-start', 'R5', '2027-05-08', '2027-05-11'),
        booking('overlaps-end', 'R6', '2027-05-12', '2027-05-20'),
        booking('cancelled', 'R7', '2027-05-09', '2027-05-14', 'cancelled'),
        booking('no-show', 'R8', '2027-05-09', '2027-05-14', 'no_show'),
        booking('checked-out', 'R9', '2027-05-09', '2027-05-14', 'checked_out'),
        booking('pending', 'R10', '2027-05-09', '2027-05-14', 'pending'),
        booking('checked-in', 'R11', '2027-05-09', '2027-05-14', 'checked_in'),
        // R12: no booking.
        booking('long', 'R13', '2027-03-01', '2027-08-01'),
        booking('year', 'R14', '2026-06-01', '2027-06-01'),
        booking('long-ends-on-check-in', 'R15', '2027-02-01', '2027-05-10'),
        booking('31-nights', 'R16', '2027-04-12', '2027-05-13'),
        booking('32-nights', 'R17', '2027-04-10', '2027-05-12'),
        // Far away in time: never relevant.
        booking('next-year', 'R12', '2028-05-10', '2028-05-13'),
      ],
    });
    // Bookings made in the service itself (reception, paid orders) block rooms too.
    const { createBooking } = await import('../../shared/store/booking-store');
    const now = new Date().toISOString();
    const serviceBooking = (roomId: string, status: 'confirmed' | 'cancelled', origin: 'reception' | 'payment') => ({
      id: randomUUID(),
      origin,
      room_id: roomId,
      guest_name: 'Walk In',
      guests: 1,
      check_in_date: '2027-05-11',
      check_out_date: '2027-05-12',
      status,
      payment_status: 'paid' as const,
      created_at: now,
      updated_at: now,
    });
    await Promise.all([serviceBooking(roomIds.R18, 'confirmed', 'reception'), serviceBooking(roomIds.R19, 'cancelled', 'payment')].map((b) => createBooking(tenant.clientId, b)));
  });

  it('excludes exactly the rooms with an active booking that overlaps the range', async () => {
    expect(await numbers(tenant.syncKey, query)).toEqual(['1', '2', '7', '8', '9', '12', '15', '19']);
  });

  it('treats the requested range as nights: the day before and the day after are separate stays', async () => {
    // 05-09 → 05-10: only bookings holding the night of the 9th.
    expect(await numbers(tenant.syncKey, { ...query, check_in_date: '2027-05-09', check_out_date: '2027-05-10' })).toEqual([
      '2', '4', '6', '7', '8', '9', '12', '18', '19',
    ]);
    // 05-13 → 05-14: the booking starting on 05-13 now blocks; the one ending on 05-10 does not.
    expect(await numbers(tenant.syncKey, { ...query, check_in_date: '2027-05-13', check_out_date: '2027-05-14' })).toEqual([
      '1', '4', '5', '7', '8', '9', '12', '15', '16', '17', '18', '19',
    ]);
  });
});

describe('filters, occupancy and inactive rooms', () => {
  let tenant: Tenant;
  const range = { check_in_date: '2027-09-01', check_out_date: '2027-09-03' };

  beforeAll(async () => {
    tenant = await stack.createTenant();
    await sync(tenant, 'room-categories', {
      external_source: SOURCE,
      categories: [
        { external_category_id: 'std', name: 'Standard', base_price: 80 },
        { external_category_id: 'suite', name: 'Suite', base_price: 200 },
      ],
    });
    await sync(tenant, 'room-categories', { external_source: 'chan', categories: [{ external_category_id: 'std', name: 'Channel standard', base_price: 85 }] });
    await sync(tenant, 'rooms', {
      external_source: SOURCE,
      rooms: [
        room('P1', '1', { external_category_id: 'std', max_occupancy: 1, room_type: 'single' }),
        room('P2', '2', { external_category_id: 'suite', room_type: 'suite', max_occupancy: 4 }),
        room('P3', '3'),
      ],
    });
    await sync(tenant, 'rooms', {
      external_source: 'chan',
      rooms: [room('C1', '4', { external_category_id: 'std', room_type: 'twin' }), room('C2', '5', { external_category_id: 'std', max_occupancy: 3 })],
    });
  });

  it.each([
    ['no filter', {}, ['1', '2', '3', '4', '5']],
    ['external_source', { external_source: SOURCE }, ['1', '2', '3']],
    ['the other external_source', { external_source: 'chan' }, ['4', '5']],
    ['external_category_id', { external_category_id: 'std' }, ['1', '4', '5']],
    ['external_category_id and external_source', { external_category_id: 'std', external_source: 'chan' }, ['4', '5']],
    ['room_type', { room_type: 'double' }, ['3', '5']],
    ['room_type and external_category_id', { room_type: 'suite', external_category_id: 'suite' }, ['2']],
    ['all three', { room_type: 'twin', external_category_id: 'std', external_source: 'chan' }, ['4']],
    ['an unknown external_source', { external_source: 'nobody' }, []],
    ['an unknown category', { external_category_id: 'penthouse' }, []],
    ['an unknown room_type', { room_type: 'castle' }, []],
  ])('filters by %s', async (_name, filter, expected) => {
    expect(await numbers(tenant.syncKey, { ...range, guests: 1, ...filter })).toEqual(expected);
  });

  it('summarises categories per source of the listed rooms', async () => {
    const response = await availability(tenant.syncKey, { ...range, guests: 1, external_category_id: 'std' });
    expect(response.body.categories).toHaveLength(2);
    expect(response.body.categories).toEqual(
      expect.arrayContaining([
        { external_category_id: 'std', name: 'Standard', base_price: 80, available_count: 1 },
        { external_category_id: 'std', name: 'Channel standard', base_price: 85, available_count: 2 },
      ]),
    );
  });

  it.each([
    [1, ['1', '2', '3', '4', '5']],
    [2, ['2', '3', '4', '5']],
    [3, ['2', '5']],
    [4, ['2']],
    [5, []],
  ])('lists only rooms whose max_occupancy holds %i guests', async (guests, expected) => {
    const response = await availability(tenant.syncKey, { ...range, guests });
    expect(response.body.guests).toBe(guests);
    expect(response.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(expected);
  });

  it('does not list inactive rooms, and lists them again once active', async () => {
    const inactive = await sync(tenant, 'rooms', { external_source: SOURCE, rooms: [room('P3', '3', { is_active: false })] });
    expect(inactive).toMatchObject({ updated: 1 });
    expect(await numbers(tenant.syncKey, { ...range, guests: 1 })).toEqual(['1', '2', '4', '5']);
    await sync(tenant, 'rooms', { external_source: SOURCE, rooms: [room('P3', '3', { is_active: true })] });
    expect(await numbers(tenant.syncKey, { ...range, guests: 1 })).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('check-in and check-out', () => {
  it('keeps the room taken after check-in and frees it after check-out', async () => {
    const tenant = await stack.createTenant();
    await sync(tenant, 'rooms', { external_source: SOURCE, rooms: [room('R1', '1'), room('R2', '2')] });
    await sync(tenant, 'bookings', { external_source: SOURCE, bookings: [booking('STAY', 'R1', '2027-10-01', '2027-10-05')] });
    const range = { check_in_date: '2027-10-03', check_out_date: '2027-10-05', guests: 1 };
    expect(await numbers(tenant.syncKey, range)).toEqual(['2']);

    const event = (id: string, kind: string, at: string) => ({ external_checkin_id: id, external_booking_id: 'STAY', event: kind, occurred_at: at });
    await sync(tenant, 'checkins', { external_source: SOURCE, checkins: [event('IN', 'check_in', '2027-10-01T15:00:00Z')] });
    expect(await numbers(tenant.syncKey, range)).toEqual(['2']);
    await sync(tenant, 'checkins', { external_source: SOURCE, checkins: [event('OUT', 'check_out', '2027-10-03T08:00:00Z')] });
    expect(await numbers(tenant.syncKey, range)).toEqual(['1', '2']);
  });
});

describe('query validation', () => {
  let tenant: Tenant;
  const valid = { check_in_date: '2027-01-10', check_out_date: '2027-01-12', guests: '2' };

  beforeAll(async () => {
    tenant = await stack.createTenant();
  });

  it.each([
    ['check_in_date missing', { check_in_date: undefined }, 'check_in_date'],
    ['check_out_date missing', { check_out_date: undefined }, 'check_out_date'],
    ['guests missing', { guests: undefined }, 'guests'],
    ['a check-in date that does not exist', { check_in_date: '2026-02-30', check_out_date: '2026-03-03' }, 'check_in_date'],
    ['a check-out date that does not exist', { check_out_date: '2027-02-29' }, 'check_out_date'],
    ['a date in another form', { check_in_date: '2027-1-10' }, 'check_in_date'],
    ['an empty date', { check_out_date: '' }, 'check_out_date'],
    ['check-out on the check-in day', { check_out_date: '2027-01-10' }, 'check_out_date'],
    ['check-out before check-in', { check_out_date: '2027-01-09' }, 'check_out_date'],
    ['a range of 366 nights', { check_out_date: '2028-01-11' }, 'check_out_date'],
    ['guests 0', { guests: '0' }, 'guests'],
    ['negative guests', { guests: '-1' }, 'guests'],
    ['fractional guests', { guests: '2.5' }, 'guests'],
    ['guests not a number', { guests: 'two' }, 'guests'],
    ['empty guests', { guests: '' }, 'guests'],
  ])('answers 400 VALIDATION_ERROR to %s', async (_name, override, path) => {
    const params = Object.fromEntries(Object.entries({ ...valid, ...override }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const response = await availability(tenant.syncKey, params);
    expect(response.status, response.text).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('answers 400 VALIDATION_ERROR naming every missing parameter when there is no query', async () => {
    const response = await stack.request('GET', `${BASE}/availability`, { key: tenant.syncKey });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['check_in_date', 'check_out_date', 'guests']);
  });

  it('accepts a range of 365 nights', async () => {
    const response = await availability(tenant.syncKey, { ...valid, check_out_date: '2028-01-10' });
    expect(response.status).toBe(200);
    expect(response.body.nights).toBe(365);
    expect(response.body.guests).toBe(2);
  });
});
