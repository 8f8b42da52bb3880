/**
 * Area A sync writes through the local gateway (docs/behaviour.md "Sync writes", "Credentials",
 * "Errors"): categories, rooms, bookings and check-ins; validation and references (nothing
 * written either way); room-number linking; conflicts; scopes and key kinds; tenant isolation.
 * Every describe block works on its own tenant, so data never collides.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_SCOPES } from '../../definitions/routes';
import { type ApiResponse, startTestStack, type Tenant, type TestStack } from '../support/stack';

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

type Route = 'room-categories' | 'rooms' | 'bookings' | 'checkins';

function put(route: Route, key: string, body: unknown, headers?: Record<string, string>) {
  return stack.request('PUT', `${BASE}/${route}`, { key, body, headers });
}

function availability(key: string, params: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  return stack.request('GET', `${BASE}/availability?${query}`, { key });
}

/** Room numbers available for the range (any guests count that fits every room). */
async function availableNumbers(key: string, checkIn: string, checkOut: string, extra: Record<string, string | number> = {}) {
  const response = await availability(key, { check_in_date: checkIn, check_out_date: checkOut, guests: 1, ...extra });
  expect(response.status).toBe(200);
  return (response.body.available_rooms as { room_number: string }[]).map((r) => r.room_number);
}

function category(id: string, overrides: Record<string, unknown> = {}) {
  return { external_category_id: id, name: `Category ${id}`, base_price: 100, max_occupancy: 2, ...overrides };
}

function room(id: string, number: string, overrides: Record<string, unknown> = {}) {
  return { external_room_id: id, room_number: number, room_type: 'double', price: 120, max_occupancy: 2, ...overrides };
}

function booking(id: string, roomId: string, checkIn: string, checkOut: string, overrides: Record<string, unknown> = {}) {
  return {
    external_booking_id: id,
    external_room_id: roomId,
    guest_name: 'Ada Guest',
    guest_email: 'ada@example.com',
    guest_phone: '+14155550123',
    guests: 2,
    check_in_date: checkIn,
    check_out_date: checkOut,
    total_amount: 480.5,
    status: 'confirmed',
    payment_status: 'paid',
    ...overrides,
  };
}

function checkin(id: string, bookingId: string, event: 'check_in' | 'check_out', occurredAt: string, overrides: Record<string, unknown> = {}) {
  return { external_checkin_id: id, external_booking_id: bookingId, event, occurred_at: occurredAt, ...overrides };
}

/** The error envelope, with the request id echoed in X-Request-Id. */
function expectError(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.request_id).toBeTruthy();
  expect(response.headers.get('x-request-id')).toBe(response.body.error.request_id);
}

function detailPaths(response: ApiResponse): string[] {
  return (response.body.error.details as { path: string }[]).map((d) => d.path);
}

async function seedRooms(tenant: Tenant, rooms: unknown[], source = SOURCE) {
  const response = await put('rooms', tenant.syncKey, { external_source: source, rooms });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function seedBookings(tenant: Tenant, bookings: unknown[], source = SOURCE) {
  const response = await put('bookings', tenant.syncKey, { external_source: source, bookings });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('room categories', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await stack.createTenant();
  });

  it('creates categories, reports identical ones unchanged without rewriting them, and updates changed ones', async () => {
    const full = category('std', { description: 'Standard', amenities: ['wifi', 'tv'], images: ['https://img.example/std.jpg'], is_active: true });
    const minimal = { external_category_id: 'suite', name: 'Suite' };
    const first = await put('room-categories', tenant.syncKey, { external_source: SOURCE, categories: [full, minimal] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      external_source: SOURCE,
      received: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      items: [
        { external_category_id: 'std', id: expect.stringMatching(UUID), action: 'created' },
        { external_category_id: 'suite', id: expect.stringMatching(UUID), action: 'created' },
      ],
    });
    const ids = first.body.items.map((i: { id: string }) => i.id);
    expect(ids[0]).not.toBe(ids[1]);

    const { listCategories } = await import('../../shared/store/category-store');
    const stored = await listCategories(tenant.clientId);
    const storedStd = stored.find((c) => c.external_category_id === 'std')!;

    const again = await put('room-categories', tenant.syncKey, { external_source: SOURCE, categories: [full, minimal] });
    expect(again.body).toMatchObject({ received: 2, created: 0, updated: 0, unchanged: 2 });
    expect(again.body.items).toEqual([
      { external_category_id: 'std', id: ids[0], action: 'unchanged' },
      { external_category_id: 'suite', id: ids[1], action: 'unchanged' },
    ]);
    const afterResend = await listCategories(tenant.clientId);
    expect(afterResend.find((c) => c.external_category_id === 'std')).toEqual(storedStd);

    const changed = await put('room-categories', tenant.syncKey, {
      external_source: SOURCE,
      categories: [full, { ...minimal, name: 'Grand suite', base_price: 300 }],
    });
    expect(changed.body).toMatchObject({ received: 2, created: 0, updated: 1, unchanged: 1 });
    expect(changed.body.items).toEqual([
      { external_category_id: 'std', id: ids[0], action: 'unchanged' },
      { external_category_id: 'suite', id: ids[1], action: 'updated' },
    ]);
    const suite = (await listCategories(tenant.clientId)).find((c) => c.external_category_id === 'suite')!;
    expect(suite).toMatchObject({ name: 'Grand suite', base_price: 300 });
  });

  it('keeps categories of different sources apart', async () => {
    const response = await put('room-categories', tenant.syncKey, { external_source: 'other-pms', categories: [category('std')] });
    expect(response.body).toMatchObject({ external_source: 'other-pms', created: 1, unchanged: 0 });
  });

  it('rejects an invalid item with its path and writes nothing', async () => {
    const categories = [category('a'), category('b', { base_price: -1 })];
    const response = await put('room-categories', tenant.syncKey, { external_source: 'fresh', categories });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(detailPaths(response)).toEqual(['categories[1].base_price']);

    const valid = await put('room-categories', tenant.syncKey, { external_source: 'fresh', categories: [category('a')] });
    expect(valid.body).toMatchObject({ created: 1, unchanged: 0 });
  });

  it('rejects the same external_category_id twice in one request', async () => {
    const response = await put('room-categories', tenant.syncKey, { external_source: 'dup', categories: [category('x'), category('x')] });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(detailPaths(response)).toEqual(['categories[1].external_category_id']);
  });

  it('accepts 500 items in one request and refuses 501 with TOO_MANY_ITEMS', async () => {
    const many = Array.from({ length: 501 }, (_, i) => category(`bulk-${i}`));
    const tooMany = await put('room-categories', tenant.syncKey, { external_source: 'bulk', categories: many });
    expectError(tooMany, 400, 'TOO_MANY_ITEMS');

    const ok = await put('room-categories', tenant.syncKey, { external_source: 'bulk', categories: many.slice(0, 500) });
    expect(ok.status).toBe(200);
    // Nothing of the refused request was written: all 500 are new now.
    expect(ok.body).toMatchObject({ received: 500, created: 500, updated: 0, unchanged: 0 });
    expect(new Set(ok.body.items.map((i: { id: string }) => i.id)).size).toBe(500);
  });

  it('refuses more than 500 items on every sync route', async () => {
    const routes: [Route, string, unknown][] = [
      ['rooms', 'rooms', room('r', '1')],
      ['bookings', 'bookings', booking('b', 'r', '2027-01-01', '2027-01-02')],
      ['checkins', 'checkins', checkin('c', 'b', 'check_in', '2027-01-01T14:00:00Z')],
    ];
    for (const [route, field, item] of routes) {
      const response = await put(route, tenant.syncKey, { external_source: SOURCE, [field]: Array.from({ length: 501 }, () => item) });
      expectError(response, 400, 'TOO_MANY_ITEMS');
    }
  });
});

describe('rooms', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await stack.createTenant();
    const categories = await put('room-categories', tenant.syncKey, {
      external_source: SOURCE,
      categories: [category('std', { base_price: 99.5 }), category('suite', { base_price: 250 })],
    });
    expect(categories.status).toBe(200);
  });

  it('creates rooms linked to categories, leaves identical ones untouched and updates changed ones', async () => {
    const rooms = [room('R101', '101', { external_category_id: 'std' }), room('R102', '102', { external_category_id: 'suite', room_type: 'suite' })];
    const created = await seedRooms(tenant, rooms);
    expect(created).toEqual({
      external_source: SOURCE,
      received: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      items: [
        { external_room_id: 'R101', id: expect.stringMatching(UUID), action: 'created' },
        { external_room_id: 'R102', id: expect.stringMatching(UUID), action: 'created' },
      ],
    });
    const [id101, id102] = created.items.map((i: { id: string }) => i.id);

    const listed = await availability(tenant.syncKey, { check_in_date: '2027-03-01', check_out_date: '2027-03-02', guests: 1 });
    expect(listed.body.available_rooms).toEqual([
      {
        id: id101,
        room_number: '101',
        room_type: 'double',
        price: 120,
        max_occupancy: 2,
        external_source: SOURCE,
        external_room_id: 'R101',
        external_category_id: 'std',
        category: { external_category_id: 'std', name: 'Category std', base_price: 99.5 },
      },
      expect.objectContaining({ id: id102, room_number: '102', external_category_id: 'suite' }),
    ]);

    const { listRooms } = await import('../../shared/store/room-store');
    const before = await listRooms(tenant.clientId);
    const again = await seedRooms(tenant, rooms);
    expect(again).toMatchObject({ received: 2, created: 0, updated: 0, unchanged: 2 });
    expect(again.items).toEqual([
      { external_room_id: 'R101', id: id101, action: 'unchanged' },
      { external_room_id: 'R102', id: id102, action: 'unchanged' },
    ]);
    const after = await listRooms(tenant.clientId);
    expect(after).toEqual(before); // not rewritten: same updated_at, same version

    const changed = await seedRooms(tenant, [{ ...rooms[0], price: 150, room_type: 'twin' }, rooms[1]]);
    expect(changed).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(changed.items[0]).toEqual({ external_room_id: 'R101', id: id101, action: 'updated' });
    const shown = await availability(tenant.syncKey, { check_in_date: '2027-03-01', check_out_date: '2027-03-02', guests: 1, room_type: 'twin' });
    expect(shown.body.available_rooms).toEqual([expect.objectContaining({ id: id101, price: 150, room_type: 'twin' })]);
  });

  it('refuses a room of an unknown category with 422 UNKNOWN_REFERENCE and writes nothing', async () => {
    const response = await put('rooms', tenant.syncKey, {
      external_source: SOURCE,
      rooms: [room('U1', '201', { external_category_id: 'std' }), room('U2', '202', { external_category_id: 'penthouse' })],
    });
    expectError(response, 422, 'UNKNOWN_REFERENCE');
    expect(detailPaths(response)).toEqual(['rooms[1].external_category_id']);
    expect(await availableNumbers(tenant.syncKey, '2027-03-01', '2027-03-02')).not.toContain('201');
  });

  it('does not resolve a category of another external_source', async () => {
    const response = await put('rooms', tenant.syncKey, {
      external_source: 'other-pms',
      rooms: [room('O1', '250', { external_category_id: 'std' })],
    });
    expectError(response, 422, 'UNKNOWN_REFERENCE');
  });

  it('refuses an invalid item with 400 and the item path, and writes nothing', async () => {
    const rooms = [room('V1', '301'), room('V2', '302'), room('V3', '303'), room('V4', '304', { price: -5 })];
    const response = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details).toEqual([{ path: 'rooms[3].price', message: expect.any(String) }]);
    const numbers = await availableNumbers(tenant.syncKey, '2027-03-01', '2027-03-02');
    for (const n of ['301', '302', '303', '304']) expect(numbers).not.toContain(n);
  });

  it.each([
    ['a price given as a string', { price: '120' }, 'rooms[1].price'],
    ['max_occupancy given as a string', { max_occupancy: '2' }, 'rooms[1].max_occupancy'],
    ['a fractional max_occupancy', { max_occupancy: 2.5 }, 'rooms[1].max_occupancy'],
    ['max_occupancy 0', { max_occupancy: 0 }, 'rooms[1].max_occupancy'],
    ['is_active given as a string', { is_active: 'true' }, 'rooms[1].is_active'],
    ['a null optional field', { external_category_id: null }, 'rooms[1].external_category_id'],
    ['a null required field', { room_type: null }, 'rooms[1].room_type'],
    ['an empty room number', { room_number: '' }, 'rooms[1].room_number'],
    ['a room number over 128 characters', { room_number: '9'.repeat(129) }, 'rooms[1].room_number'],
    ['an external_room_id over 128 characters', { external_room_id: 'x'.repeat(129) }, 'rooms[1].external_room_id'],
    ['a missing price', { price: undefined }, 'rooms[1].price'],
  ])('refuses %s', async (_name, override, path) => {
    const rooms = [room('T1', '401'), room('T2', '402', override)];
    const response = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(detailPaths(response)).toEqual([path]);
  });

  it('refuses a body without external_source or with rooms that is not an array', async () => {
    const missing = await put('rooms', tenant.syncKey, { rooms: [room('T1', '401')] });
    expectError(missing, 400, 'VALIDATION_ERROR');
    expect(detailPaths(missing)).toEqual(['external_source']);
    const notArray = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: room('T1', '401') });
    expectError(notArray, 400, 'VALIDATION_ERROR');
    expect(detailPaths(notArray)).toEqual(['rooms']);
    const nullSource = await put('rooms', tenant.syncKey, { external_source: null, rooms: [] });
    expectError(nullSource, 400, 'VALIDATION_ERROR');
    expect(await availableNumbers(tenant.syncKey, '2027-03-01', '2027-03-02')).not.toContain('401');
  });

  it('ignores unknown fields', async () => {
    const body = await seedRooms(tenant, [room('X1', '501', { floor: 5, view: 'sea' })]);
    expect(body).toMatchObject({ created: 1 });
    expect(await availableNumbers(tenant.syncKey, '2027-03-01', '2027-03-02')).toContain('501');
  });

  it('applies the same sync sent concurrently exactly once per room, without failing', async () => {
    const rooms = Array.from({ length: 100 }, (_, i) => room(`CC${i}`, `9${String(i).padStart(3, '0')}`));
    const responses = await Promise.all([1, 2, 3].map(() => put('rooms', tenant.syncKey, { external_source: SOURCE, rooms })));
    for (const response of responses) expect(response.status, response.text).toBe(200);
    // Each room is reported created by exactly one of the requests, and has one id.
    for (let i = 0; i < rooms.length; i++) {
      const items = responses.map((r) => r.body.items[i]);
      expect(items.filter((item) => item.action === 'created')).toHaveLength(1);
      expect(items.filter((item) => item.action === 'unchanged')).toHaveLength(2);
      expect(new Set(items.map((item) => item.id)).size).toBe(1);
    }
    expect(responses.reduce((sum, r) => sum + r.body.created, 0)).toBe(100);
    const listed = (await availableNumbers(tenant.syncKey, '2027-03-01', '2027-03-02')).filter((n) => n.startsWith('9') && n.length === 4);
    expect(listed).toHaveLength(100);
  });

  it('refuses the same external_room_id twice in one request', async () => {
    const response = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('D1', '601'), room('D1', '602')] });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(detailPaths(response)).toEqual(['rooms[1].external_room_id']);
  });

  it('refuses the same room number twice in one request and writes nothing', async () => {
    const response = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('D2', '603'), room('D3', '603')] });
    expectError(response, 422, 'ROOM_NUMBER_CONFLICT');
    expect(detailPaths(response)).toEqual(['rooms[1].room_number']);
    expect(await availableNumbers(tenant.syncKey, '2027-03-01', '2027-03-02')).not.toContain('603');
  });
});

describe('room-number linking', () => {
  let tenant: Tenant;
  let serviceRoomId: string;

  beforeAll(async () => {
    tenant = await stack.createTenant();
    // A room set up in the service before any PMS knew it: no external ids.
    const { createRoom } = await import('../../shared/store/room-store');
    serviceRoomId = randomUUID();
    const now = new Date().toISOString();
    await createRoom(tenant.clientId, {
      id: serviceRoomId,
      room_number: '301',
      room_type: 'double',
      price: 90,
      max_occupancy: 2,
      images: [],
      is_active: true,
      content_hash: 'manual',
      version: 1,
      created_at: now,
      updated_at: now,
    });
  });

  it('lists the service room before any sync, without external ids', async () => {
    const response = await availability(tenant.syncKey, { check_in_date: '2027-04-01', check_out_date: '2027-04-02', guests: 1 });
    expect(response.body.available_rooms).toEqual([
      {
        id: serviceRoomId,
        room_number: '301',
        room_type: 'double',
        price: 90,
        max_occupancy: 2,
        external_source: null,
        external_room_id: null,
        external_category_id: null,
        category: null,
      },
    ]);
  });

  it('links a synced room to the existing room with the same number instead of duplicating it', async () => {
    const body = await seedRooms(tenant, [room('PMS-301', '301', { price: 110 })]);
    expect(body).toEqual({
      external_source: SOURCE,
      received: 1,
      created: 0,
      updated: 1,
      unchanged: 0,
      items: [{ external_room_id: 'PMS-301', id: serviceRoomId, action: 'linked' }],
    });
    const response = await availability(tenant.syncKey, { check_in_date: '2027-04-01', check_out_date: '2027-04-02', guests: 1 });
    expect(response.body.available_rooms).toEqual([
      expect.objectContaining({ id: serviceRoomId, room_number: '301', price: 110, external_source: SOURCE, external_room_id: 'PMS-301' }),
    ]);

    const again = await seedRooms(tenant, [room('PMS-301', '301', { price: 110 })]);
    expect(again.items).toEqual([{ external_room_id: 'PMS-301', id: serviceRoomId, action: 'unchanged' }]);

    // Bookings now resolve to the linked room.
    const bookings = await seedBookings(tenant, [booking('LB1', 'PMS-301', '2027-04-01', '2027-04-03')]);
    expect(bookings).toMatchObject({ created: 1 });
    expect(await availableNumbers(tenant.syncKey, '2027-04-01', '2027-04-02')).toEqual([]);
  });

  it('refuses another external room of the same source with that number: 422 ROOM_NUMBER_CONFLICT, nothing written', async () => {
    const response = await put('rooms', tenant.syncKey, {
      external_source: SOURCE,
      rooms: [room('PMS-401', '401'), room('PMS-999', '301')],
    });
    expectError(response, 422, 'ROOM_NUMBER_CONFLICT');
    expect(detailPaths(response)).toEqual(['rooms[1].room_number']);
    const numbers = await availableNumbers(tenant.syncKey, '2027-05-01', '2027-05-02');
    expect(numbers).toEqual(['301']); // neither 401 nor a second 301
    const rooms = await availability(tenant.syncKey, { check_in_date: '2027-05-01', check_out_date: '2027-05-02', guests: 1 });
    expect(rooms.body.available_rooms[0]).toMatchObject({ id: serviceRoomId, external_room_id: 'PMS-301' });
  });

  it('moves a room to a new number, releasing the old one', async () => {
    const created = await seedRooms(tenant, [room('PMS-501', '501')]);
    const id = created.items[0].id;
    const renumbered = await seedRooms(tenant, [room('PMS-501', '502')]);
    expect(renumbered.items).toEqual([{ external_room_id: 'PMS-501', id, action: 'updated' }]);
    // 501 is free again: a new room may take it.
    const reuse = await seedRooms(tenant, [room('PMS-601', '501')]);
    expect(reuse.items).toEqual([{ external_room_id: 'PMS-601', id: expect.not.stringMatching(id), action: 'created' }]);
    // 502 is taken by PMS-501: another room of the source cannot move onto it.
    const clash = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('PMS-601', '502')] });
    expectError(clash, 422, 'ROOM_NUMBER_CONFLICT');
    expect(detailPaths(clash)).toEqual(['rooms[0].room_number']);
    const numbers = await availableNumbers(tenant.syncKey, '2027-05-01', '2027-05-02');
    expect(numbers).toEqual(['301', '501', '502']);
  });

  it('links a room of another external source to the syncing source (no conflict across sources)', async () => {
    const body = await seedRooms(tenant, [room('B-301', '301', { price: 115 })], 'channel-b');
    expect(body.items).toEqual([{ external_room_id: 'B-301', id: serviceRoomId, action: 'linked' }]);
    const response = await availability(tenant.syncKey, { check_in_date: '2027-05-01', check_out_date: '2027-05-02', guests: 1, external_source: 'channel-b' });
    expect(response.body.available_rooms).toEqual([
      expect.objectContaining({ id: serviceRoomId, room_number: '301', external_source: 'channel-b', external_room_id: 'B-301' }),
    ]);
  });

  it('gives a room id back to its first source as a new room after another source took the room over', async () => {
    const first = await seedRooms(tenant, [room('PMS-701', '701')]);
    const id = first.items[0].id;
    const takeover = await seedRooms(tenant, [room('B-701', '701')], 'channel-b');
    expect(takeover.items).toEqual([{ external_room_id: 'B-701', id, action: 'linked' }]);
    // The first source syncs its room again under another number: a new room, not a failure.
    const back = await seedRooms(tenant, [room('PMS-701', '7010')]);
    expect(back).toMatchObject({ created: 1, updated: 0 });
    expect(back.items).toEqual([{ external_room_id: 'PMS-701', id: expect.stringMatching(UUID), action: 'created' }]);
    expect(back.items[0].id).not.toBe(id);
    const both = await availability(tenant.syncKey, { check_in_date: '2027-05-01', check_out_date: '2027-05-02', guests: 1, room_type: 'double' });
    expect(both.body.available_rooms).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id, room_number: '701', external_source: 'channel-b', external_room_id: 'B-701' }),
        expect.objectContaining({ id: back.items[0].id, room_number: '7010', external_source: SOURCE, external_room_id: 'PMS-701' }),
      ]),
    );
  });
});

describe('bookings', () => {
  let tenant: Tenant;
  const roomIds: Record<string, string> = {};

  beforeAll(async () => {
    tenant = await stack.createTenant();
    const body = await seedRooms(tenant, [room('R1', '1'), room('R2', '2'), room('R3', '3'), room('R4', '4'), room('R5', '5')]);
    for (const item of body.items) roomIds[item.external_room_id] = item.id;
  });

  it('creates bookings, leaves identical ones untouched and updates changed ones', async () => {
    const bookings = [booking('B1', 'R1', '2027-06-01', '2027-06-04'), booking('B2', 'R2', '2027-06-01', '2027-06-02', { guest_phone: undefined })];
    const created = await seedBookings(tenant, bookings);
    expect(created).toEqual({
      external_source: SOURCE,
      received: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      items: [
        { external_booking_id: 'B1', id: expect.stringMatching(UUID), action: 'created' },
        { external_booking_id: 'B2', id: expect.stringMatching(UUID), action: 'created' },
      ],
      conflicts: [],
    });
    const ids = created.items.map((i: { id: string }) => i.id);
    expect(await availableNumbers(tenant.syncKey, '2027-06-01', '2027-06-02')).toEqual(['3', '4', '5']);

    const { getBookings } = await import('../../shared/store/booking-store');
    const before = await getBookings(tenant.clientId, ids);
    const again = await seedBookings(tenant, bookings);
    expect(again).toMatchObject({ received: 2, created: 0, updated: 0, unchanged: 2, conflicts: [] });
    expect(again.items).toEqual([
      { external_booking_id: 'B1', id: ids[0], action: 'unchanged' },
      { external_booking_id: 'B2', id: ids[1], action: 'unchanged' },
    ]);
    expect(await getBookings(tenant.clientId, ids)).toEqual(before);

    const cancelled = await seedBookings(tenant, [bookings[0], { ...bookings[1], status: 'cancelled', payment_status: 'refunded' }]);
    expect(cancelled).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(cancelled.items[1]).toEqual({ external_booking_id: 'B2', id: ids[1], action: 'updated' });
    expect(await availableNumbers(tenant.syncKey, '2027-06-01', '2027-06-02')).toEqual(['2', '3', '4', '5']);

    // Moving a booking to another room frees the first and blocks the second.
    const moved = await seedBookings(tenant, [{ ...bookings[0], external_room_id: 'R3' }]);
    expect(moved.items).toEqual([{ external_booking_id: 'B1', id: ids[0], action: 'updated' }]);
    expect(await availableNumbers(tenant.syncKey, '2027-06-01', '2027-06-02')).toEqual(['1', '2', '4', '5']);
  });

  it('accepts every booking status and payment status', async () => {
    const statuses = ['pending', 'confirmed', 'checked_in', 'checked_out', 'cancelled', 'no_show'];
    const payments = ['unpaid', 'partially_paid', 'paid', 'refunded'];
    const bookings = statuses.map((status, i) =>
      booking(`S-${status}`, 'R4', `2028-01-${String(10 + 2 * i).padStart(2, '0')}`, `2028-01-${String(11 + 2 * i).padStart(2, '0')}`, {
        status,
        payment_status: payments[i % payments.length],
      }),
    );
    const body = await seedBookings(tenant, bookings);
    expect(body).toMatchObject({ received: 6, created: 6, conflicts: [] });
    // Only optional fields omitted: a minimal booking.
    const minimal = await seedBookings(tenant, [
      { external_booking_id: 'MIN', external_room_id: 'R4', guest_name: 'Min', guests: 1, check_in_date: '2028-03-01', check_out_date: '2028-03-02', status: 'pending' },
    ]);
    expect(minimal).toMatchObject({ created: 1 });
  });

  it('accepts a stay of 365 nights', async () => {
    const body = await seedBookings(tenant, [booking('LONG', 'R5', '2029-01-01', '2030-01-01')]);
    expect(body).toMatchObject({ created: 1 });
    expect(await availableNumbers(tenant.syncKey, '2029-07-01', '2029-07-02')).not.toContain('5');
  });

  it('refuses a booking of an unknown room with 422 UNKNOWN_REFERENCE and writes nothing', async () => {
    const bookings = [booking('K1', 'R1', '2027-07-01', '2027-07-03'), booking('K2', 'NOPE', '2027-07-01', '2027-07-03')];
    const response = await put('bookings', tenant.syncKey, { external_source: SOURCE, bookings });
    expectError(response, 422, 'UNKNOWN_REFERENCE');
    expect(detailPaths(response)).toEqual(['bookings[1].external_room_id']);
    expect(await availableNumbers(tenant.syncKey, '2027-07-01', '2027-07-02')).toContain('1');
    const valid = await seedBookings(tenant, [bookings[0]]);
    expect(valid.items).toEqual([{ external_booking_id: 'K1', id: expect.stringMatching(UUID), action: 'created' }]);
  });

  it('does not resolve a room of another external_source', async () => {
    const response = await put('bookings', tenant.syncKey, {
      external_source: 'other-pms',
      bookings: [booking('K3', 'R1', '2027-07-01', '2027-07-03')],
    });
    expectError(response, 422, 'UNKNOWN_REFERENCE');
    expect(detailPaths(response)).toEqual(['bookings[0].external_room_id']);
  });

  it.each([
    ['an unknown status', { status: 'booked' }, 'bookings[1].status'],
    ['an unknown payment status', { payment_status: 'free' }, 'bookings[1].payment_status'],
    ['a missing status', { status: undefined }, 'bookings[1].status'],
    ['check-out on the check-in day', { check_in_date: '2027-08-10', check_out_date: '2027-08-10' }, 'bookings[1].check_out_date'],
    ['check-out before check-in', { check_in_date: '2027-08-10', check_out_date: '2027-08-09' }, 'bookings[1].check_out_date'],
    ['a stay of 366 nights', { check_in_date: '2027-08-10', check_out_date: '2028-08-10' }, 'bookings[1].check_out_date'],
    ['a date that does not exist', { check_in_date: '2026-02-30', check_out_date: '2026-03-02' }, 'bookings[1].check_in_date'],
    ['a date in another form', { check_out_date: '2027-8-12' }, 'bookings[1].check_out_date'],
    ['a date with a time', { check_in_date: '2027-08-10T00:00:00Z' }, 'bookings[1].check_in_date'],
    ['guests given as a string', { guests: '2' }, 'bookings[1].guests'],
    ['guests 0', { guests: 0 }, 'bookings[1].guests'],
    ['guests null', { guests: null }, 'bookings[1].guests'],
    ['a null optional field', { guest_email: null }, 'bookings[1].guest_email'],
    ['an invalid e-mail address', { guest_email: 'ada.example.com' }, 'bookings[1].guest_email'],
    ['a phone number not in E.164', { guest_phone: '0415 555 0123' }, 'bookings[1].guest_phone'],
    ['a negative total_amount', { total_amount: -1 }, 'bookings[1].total_amount'],
    ['a total_amount given as a string', { total_amount: '480.50' }, 'bookings[1].total_amount'],
    ['a missing guest name', { guest_name: undefined }, 'bookings[1].guest_name'],
    ['a guest name over 2,000 characters', { guest_name: 'a'.repeat(2001) }, 'bookings[1].guest_name'],
  ])('refuses %s with the item path and writes nothing', async (_name, override, path) => {
    const id = `V-${randomUUID()}`;
    const bookings = [booking(id, 'R2', '2027-09-01', '2027-09-02'), booking(`${id}-bad`, 'R2', '2027-08-10', '2027-08-12', override)];
    const response = await put('bookings', tenant.syncKey, { external_source: SOURCE, bookings });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(detailPaths(response)).toEqual([path]);
    const valid = await seedBookings(tenant, [bookings[0]]);
    expect(valid.items[0].action).toBe('created');
    // Clean up so the room stays free for the next case.
    await seedBookings(tenant, [{ ...bookings[0], status: 'cancelled' }]);
  });

  it('refuses the same external_booking_id twice in one request', async () => {
    const response = await put('bookings', tenant.syncKey, {
      external_source: SOURCE,
      bookings: [booking('DUP', 'R1', '2027-10-01', '2027-10-02'), booking('DUP', 'R2', '2027-10-01', '2027-10-02')],
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(detailPaths(response)).toEqual(['bookings[1].external_booking_id']);
  });
});

describe('booking conflicts', () => {
  let tenant: Tenant;
  const roomIds: Record<string, string> = {};

  beforeAll(async () => {
    tenant = await stack.createTenant();
    const body = await seedRooms(tenant, [room('C1', '1'), room('C2', '2')]);
    for (const item of body.items) roomIds[item.external_room_id] = item.id;
  });

  it('reports overlaps with stored active bookings and records the booking anyway', async () => {
    const first = await seedBookings(tenant, [booking('A', 'C1', '2027-05-10', '2027-05-14')]);
    const idA = first.items[0].id;

    const second = await seedBookings(tenant, [
      booking('B', 'C1', '2027-05-12', '2027-05-16'), // overlaps A
      booking('E', 'C1', '2027-05-07', '2027-05-10'), // ends on A's check-in: no overlap
      booking('F', 'C1', '2027-05-16', '2027-05-18'), // starts on B's check-out: no overlap
      booking('D', 'C1', '2027-05-11', '2027-05-13', { status: 'cancelled' }), // not active
    ]);
    expect(second).toMatchObject({ received: 4, created: 4 });
    const idB = second.items[0].id;
    expect(second.conflicts).toEqual([{ external_booking_id: 'B', room_id: roomIds.C1, overlapping_booking_id: idA }]);
    // Recorded: B alone blocks C1 on 14-16.
    expect(await availableNumbers(tenant.syncKey, '2027-05-14', '2027-05-16')).toEqual(['2']);

    // Cancelling A removes the conflict on the next sync of B.
    await seedBookings(tenant, [booking('A', 'C1', '2027-05-10', '2027-05-14', { status: 'cancelled' })]);
    const resent = await seedBookings(tenant, [booking('B', 'C1', '2027-05-12', '2027-05-16')]);
    expect(resent).toMatchObject({ unchanged: 1, conflicts: [] });
    expect(resent.items[0].id).toBe(idB);
  });

  it('reports overlaps between bookings of the same request, both ways', async () => {
    const body = await seedBookings(tenant, [booking('G', 'C2', '2027-05-20', '2027-05-25'), booking('H', 'C2', '2027-05-24', '2027-05-26')]);
    const [idG, idH] = body.items.map((i: { id: string }) => i.id);
    expect(body.created).toBe(2);
    expect(body.conflicts).toEqual(
      expect.arrayContaining([
        { external_booking_id: 'G', room_id: roomIds.C2, overlapping_booking_id: idH },
        { external_booking_id: 'H', room_id: roomIds.C2, overlapping_booking_id: idG },
      ]),
    );
    expect(body.conflicts).toHaveLength(2);
  });

  it('reports an overlap with a long stay that began well before', async () => {
    const long = await seedBookings(tenant, [booking('L', 'C2', '2027-07-01', '2027-10-01')]);
    expect(long.conflicts).toEqual([]);
    const short = await seedBookings(tenant, [booking('S', 'C2', '2027-09-01', '2027-09-03')]);
    expect(short.conflicts).toEqual([{ external_booking_id: 'S', room_id: roomIds.C2, overlapping_booking_id: long.items[0].id }]);
  });
});

describe('booking conflicts with service bookings', () => {
  it('reports an overlap with a booking made in the service itself', async () => {
    const tenant = await stack.createTenant();
    const rooms = await seedRooms(tenant, [room('S1', '1')]);
    const roomId = rooms.items[0].id;
    const { createBooking } = await import('../../shared/store/booking-store');
    const now = new Date().toISOString();
    const reception = {
      id: randomUUID(),
      origin: 'reception' as const,
      room_id: roomId,
      guest_name: 'Walk In',
      guests: 1,
      check_in_date: '2027-05-10',
      check_out_date: '2027-05-12',
      status: 'confirmed' as const,
      payment_status: 'paid' as const,
      created_at: now,
      updated_at: now,
    };
    await createBooking(tenant.clientId, reception);
    const body = await seedBookings(tenant, [booking('OVER', 'S1', '2027-05-11', '2027-05-13'), booking('AFTER', 'S1', '2027-05-13', '2027-05-14')]);
    expect(body).toMatchObject({ created: 2 });
    expect(body.conflicts).toEqual([{ external_booking_id: 'OVER', room_id: roomId, overlapping_booking_id: reception.id }]);
  });
});

describe('check-ins', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await stack.createTenant();
    await seedRooms(tenant, [room('Q1', '1'), room('Q2', '2'), room('Q3', '3')]);
    await seedBookings(tenant, [
      booking('IN-OUT', 'Q1', '2027-05-10', '2027-05-15'),
      booking('MOVE', 'Q2', '2027-06-10', '2027-06-12'),
      booking('ORDER', 'Q3', '2027-07-10', '2027-07-12'),
    ]);
  });

  it('check-in keeps the room taken; check-out frees it from the check-out day on', async () => {
    expect(await availableNumbers(tenant.syncKey, '2027-05-12', '2027-05-14')).toEqual(['2', '3']);

    const checkedIn = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('CI-1', 'IN-OUT', 'check_in', '2027-05-10T15:02:00Z', { notes: 'early arrival' })],
    });
    expect(checkedIn.status).toBe(200);
    expect(checkedIn.body).toEqual({
      external_source: SOURCE,
      received: 1,
      created: 1,
      updated: 0,
      unchanged: 0,
      items: [{ external_checkin_id: 'CI-1', id: expect.stringMatching(UUID), action: 'created' }],
    });
    expect(await availableNumbers(tenant.syncKey, '2027-05-12', '2027-05-14')).toEqual(['2', '3']);

    const checkedOut = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('CO-1', 'IN-OUT', 'check_out', '2027-05-12T10:30:00+02:00')],
    });
    expect(checkedOut.body).toMatchObject({ created: 1 });
    expect(await availableNumbers(tenant.syncKey, '2027-05-12', '2027-05-14')).toEqual(['1', '2', '3']);

    const again = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('CI-1', 'IN-OUT', 'check_in', '2027-05-10T15:02:00Z', { notes: 'early arrival' })],
    });
    expect(again.body).toMatchObject({ received: 1, created: 0, updated: 0, unchanged: 1 });
    expect(again.body.items[0]).toEqual({ external_checkin_id: 'CI-1', id: checkedIn.body.items[0].id, action: 'unchanged' });
    expect(await availableNumbers(tenant.syncKey, '2027-05-12', '2027-05-14')).toEqual(['1', '2', '3']);
  });

  it('moves the booking to the room given at check-in', async () => {
    const response = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('CI-MOVE', 'MOVE', 'check_in', '2027-06-10T14:00:00Z', { external_room_id: 'Q1' })],
    });
    expect(response.status).toBe(200);
    expect(await availableNumbers(tenant.syncKey, '2027-06-10', '2027-06-11')).toEqual(['2', '3']);
  });

  it('applies the latest event even when the events arrive out of order', async () => {
    const out = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('ORD-OUT', 'ORDER', 'check_out', '2027-07-11T09:00:00Z')],
    });
    expect(out.status).toBe(200);
    const lateIn = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('ORD-IN', 'ORDER', 'check_in', '2027-07-10T15:00:00Z')],
    });
    expect(lateIn.body).toMatchObject({ created: 1 });
    expect(await availableNumbers(tenant.syncKey, '2027-07-10', '2027-07-12')).toContain('3');
  });

  it('refuses an unknown booking with 422 UNKNOWN_REFERENCE and writes nothing', async () => {
    await seedBookings(tenant, [booking('NW', 'Q2', '2027-08-10', '2027-08-12')]);
    const checkins = [checkin('NW-IN', 'NW', 'check_out', '2027-08-11T09:00:00Z'), checkin('X-IN', 'NOBODY', 'check_in', '2027-08-10T15:00:00Z')];
    const response = await put('checkins', tenant.syncKey, { external_source: SOURCE, checkins });
    expectError(response, 422, 'UNKNOWN_REFERENCE');
    expect(detailPaths(response)).toEqual(['checkins[1].external_booking_id']);
    // The valid check-out was not applied: the room is still taken, and the record is new.
    expect(await availableNumbers(tenant.syncKey, '2027-08-10', '2027-08-12')).not.toContain('2');
    const valid = await put('checkins', tenant.syncKey, { external_source: SOURCE, checkins: [checkins[0]] });
    expect(valid.body).toMatchObject({ created: 1 });
    expect(await availableNumbers(tenant.syncKey, '2027-08-10', '2027-08-12')).toContain('2');
  });

  it('refuses an unknown room with 422 UNKNOWN_REFERENCE', async () => {
    const response = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('RM', 'MOVE', 'check_in', '2027-06-10T14:00:00Z', { external_room_id: 'NOPE' })],
    });
    expectError(response, 422, 'UNKNOWN_REFERENCE');
    expect(detailPaths(response)).toEqual(['checkins[0].external_room_id']);
  });

  it('does not resolve a booking of another external_source', async () => {
    const response = await put('checkins', tenant.syncKey, {
      external_source: 'other-pms',
      checkins: [checkin('OS', 'MOVE', 'check_in', '2027-06-10T14:00:00Z')],
    });
    expectError(response, 422, 'UNKNOWN_REFERENCE');
  });

  it.each([
    ['an unknown event', { event: 'arrive' }, 'checkins[0].event'],
    ['an occurred_at that is not a timestamp', { occurred_at: 'yesterday' }, 'checkins[0].occurred_at'],
    ['an occurred_at without a time', { occurred_at: '2027-06-10' }, 'checkins[0].occurred_at'],
    ['a missing external_checkin_id', { external_checkin_id: undefined }, 'checkins[0].external_checkin_id'],
    ['a null note', { notes: null }, 'checkins[0].notes'],
  ])('refuses %s', async (_name, override, path) => {
    const response = await put('checkins', tenant.syncKey, {
      external_source: SOURCE,
      checkins: [checkin('BAD', 'MOVE', 'check_in', '2027-06-10T14:00:00Z', override)],
    });
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(detailPaths(response)).toEqual([path]);
  });
});

describe('keys and scopes', () => {
  let tenant: Tenant;

  const validRequests: Record<string, { method: string; path: string; body?: unknown }> = {
    'room_categories:write': { method: 'PUT', path: `${BASE}/room-categories`, body: { external_source: SOURCE, categories: [category('scope-cat')] } },
    'rooms:write': { method: 'PUT', path: `${BASE}/rooms`, body: { external_source: SOURCE, rooms: [room('scope-room', '77')] } },
    'bookings:write': { method: 'PUT', path: `${BASE}/bookings`, body: { external_source: SOURCE, bookings: [] } },
    'checkins:write': { method: 'PUT', path: `${BASE}/checkins`, body: { external_source: SOURCE, checkins: [] } },
    'availability:read': { method: 'GET', path: `${BASE}/availability?check_in_date=2027-03-01&check_out_date=2027-03-02&guests=1` },
  };

  beforeAll(async () => {
    tenant = await stack.createTenant();
  });

  it('answers 401 MISSING_API_KEY without a key and 401 INVALID_API_KEY for an unknown key on every route', async () => {
    for (const request of Object.values(validRequests)) {
      const missing = await stack.request(request.method, request.path, { body: request.body });
      expectError(missing, 401, 'MISSING_API_KEY');
      const unknown = await stack.request(request.method, request.path, { body: request.body, key: `svc_sync_${'A'.repeat(43)}` });
      expectError(unknown, 401, 'INVALID_API_KEY');
    }
  });

  it.each([...SYNC_SCOPES])('answers 403 INSUFFICIENT_SCOPE to a key without %s, and that scope alone is enough', async (scope) => {
    const request = validRequests[scope]!;
    const without = await stack.issueKey(tenant.clientId, 'sync', { scopes: SYNC_SCOPES.filter((s) => s !== scope) });
    const denied = await stack.request(request.method, request.path, { key: without.key, body: request.body });
    expectError(denied, 403, 'INSUFFICIENT_SCOPE');

    const only = await stack.issueKey(tenant.clientId, 'sync', { scopes: [scope] });
    const allowed = await stack.request(request.method, request.path, { key: only.key, body: request.body });
    expect(allowed.status, allowed.text).toBe(200);
    // The denied write wrote nothing: the allowed one created what it sent.
    if (scope === 'room_categories:write' || scope === 'rooms:write') expect(allowed.body.created).toBe(1);
  });

  it('answers 403 INSUFFICIENT_SCOPE to a payment key on every route, and 401 MISSING_API_KEY when it is not in Authorization', async () => {
    for (const request of Object.values(validRequests)) {
      const bearer = await stack.request(request.method, request.path, { key: tenant.paymentKey, body: request.body });
      expectError(bearer, 403, 'INSUFFICIENT_SCOPE');
      // Sync routes read the key from Authorization only: API Gateway refuses the request before
      // their cached authorizer runs (definitions/authorizers.ts).
      const header = await stack.request(request.method, request.path, { headers: { 'x-api-key': tenant.paymentKey }, body: request.body });
      expectError(header, 401, 'MISSING_API_KEY');
    }
    // Nothing was written by the refused writes.
    expect(await availableNumbers(tenant.syncKey, '2027-03-01', '2027-03-02')).toEqual(['77']);
  });
});

describe('tenant isolation', () => {
  let a: Tenant;
  let b: Tenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([stack.createTenant(), stack.createTenant()]);
    await put('room-categories', a.syncKey, { external_source: SOURCE, categories: [category('std')] });
    await seedRooms(a, [room('R1', '101', { external_category_id: 'std' }), room('R2', '102')]);
    await seedBookings(a, [booking('AB1', 'R1', '2027-05-10', '2027-05-12')]);
  });

  it("never shows one client's rooms to another", async () => {
    expect(await availableNumbers(b.syncKey, '2027-05-01', '2027-05-02')).toEqual([]);
    expect(await availableNumbers(a.syncKey, '2027-05-01', '2027-05-02')).toEqual(['101', '102']);
  });

  it("cannot refer to another client's categories, rooms or bookings", async () => {
    const rooms = await put('rooms', b.syncKey, { external_source: SOURCE, rooms: [room('R9', '9', { external_category_id: 'std' })] });
    expectError(rooms, 422, 'UNKNOWN_REFERENCE');
    const bookings = await put('bookings', b.syncKey, { external_source: SOURCE, bookings: [booking('BB1', 'R1', '2027-05-10', '2027-05-12')] });
    expectError(bookings, 422, 'UNKNOWN_REFERENCE');
    const checkins = await put('checkins', b.syncKey, { external_source: SOURCE, checkins: [checkin('BC1', 'AB1', 'check_out', '2027-05-11T10:00:00Z')] });
    expectError(checkins, 422, 'UNKNOWN_REFERENCE');
    // A's booking still blocks A's room: B's check-out did not touch it.
    expect(await availableNumbers(a.syncKey, '2027-05-10', '2027-05-11')).toEqual(['102']);
  });

  it('keeps the same external ids of two clients apart', async () => {
    const bRooms = await seedRooms(b, [room('R1', '101'), room('R2', '102')]);
    expect(bRooms).toMatchObject({ created: 2, updated: 0 });
    const aRooms = await seedRooms(a, [room('R1', '101', { external_category_id: 'std' }), room('R2', '102')]);
    expect(aRooms).toMatchObject({ created: 0, unchanged: 2 });
    expect(bRooms.items.map((i: { id: string }) => i.id)).not.toContain(aRooms.items[0].id);
    expect(bRooms.items.map((i: { id: string }) => i.id)).not.toContain(aRooms.items[1].id);

    // Same external booking id in both clients: separate bookings, each blocking only its own room.
    const bBooking = await seedBookings(b, [booking('AB1', 'R2', '2027-05-10', '2027-05-12')]);
    expect(bBooking).toMatchObject({ created: 1, conflicts: [] });
    expect(await availableNumbers(a.syncKey, '2027-05-10', '2027-05-11')).toEqual(['102']);
    expect(await availableNumbers(b.syncKey, '2027-05-10', '2027-05-11')).toEqual(['101']);
    const bAvailability = await availability(b.syncKey, { check_in_date: '2027-05-10', check_out_date: '2027-05-11', guests: 1 });
    expect(bAvailability.body.available_rooms[0].id).toBe(bRooms.items[0].id);
    expect(bAvailability.body.available_rooms[0].category).toBeNull();
    expect(bAvailability.body.categories).toEqual([]);
  });
});
