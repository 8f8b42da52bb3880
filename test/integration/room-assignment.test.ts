/**
 * The operator use cases the CLI and the dashboard share, called as the dashboard will call them
 * (client id given): rooms set up in the service and linked by a later PMS sync, a client's
 * bookings of every origin with filters and pages, and a room given to a paid booking recorded
 * for manual assignment (docs/behaviour.md "booking.confirmed for bookings assigned later").
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/receiver-kit';
import { orderStatus, paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';
import { type HotelWithRooms, hotelWithRooms } from '../support/hotel-rooms';

let stack: TestStack;
let receiver: Receiver;
let domain: {
  rooms: typeof import('../../shared/domain/rooms/service-rooms');
  list: typeof import('../../shared/domain/bookings/list-bookings');
  assign: typeof import('../../shared/domain/bookings/assign-room');
  service: typeof import('../../shared/domain/bookings/service-bookings');
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  store: typeof import('../../shared/store/booking-store');
  roomStore: typeof import('../../shared/store/room-store');
  holds: typeof import('../../shared/store/service-booking-store');
};

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    rooms: await import('../../shared/domain/rooms/service-rooms'),
    list: await import('../../shared/domain/bookings/list-bookings'),
    assign: await import('../../shared/domain/bookings/assign-room'),
    service: await import('../../shared/domain/bookings/service-bookings'),
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    store: await import('../../shared/store/booking-store'),
    roomStore: await import('../../shared/store/room-store'),
    holds: await import('../../shared/store/service-booking-store'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

beforeEach(() => {
  receiver.received.length = 0;
});

/** The AppError a call rejects with, as {status, code}. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: { status?: number; code?: string; message: string }) => e,
  );
  return { status: error.status, code: error.code, message: error.message };
}

type Hotel = HotelWithRooms;

/** A client with synced rooms 101 and 102. */
const hotel = (): Promise<Hotel> => hotelWithRooms(stack);

async function availableRoomNumbers(tenant: Tenant, checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, { key: tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

describe('rooms set up in the service', () => {
  it('creates an unlinked room that a later PMS sync with its room number links, keeping its id', async () => {
    const { tenant } = await hotel();
    const room = await domain.rooms.createServiceRoom(tenant.clientId, { room_number: '201', room_type: 'suite', price: 250.5, max_occupancy: 4 });
    expect(room).toMatchObject({ room_number: '201', room_type: 'suite', price: 250.5, max_occupancy: 4, is_active: true });
    expect(room.external_source).toBeUndefined();
    expect(await availableRoomNumbers(tenant, '2028-01-10', '2028-01-12')).toEqual(['101', '102', '201']);

    const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key: tenant.syncKey,
      body: { external_source: 'pms', rooms: [{ external_room_id: 'R201', room_number: '201', room_type: 'suite', price: 260, max_occupancy: 4 }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.items).toEqual([{ external_room_id: 'R201', id: room.id, action: 'linked' }]);
    const linked = (await domain.roomStore.listRooms(tenant.clientId)).find((r) => r.id === room.id);
    expect(linked).toMatchObject({ room_number: '201', external_source: 'pms', external_room_id: 'R201', price: 260 });

    // Once linked, the number's rules are the sync's: another PMS room cannot take it.
    const conflict = await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key: tenant.syncKey,
      body: { external_source: 'pms', rooms: [{ external_room_id: 'R999', room_number: '201', room_type: 'suite', price: 1, max_occupancy: 1 }] },
    });
    expect(conflict.status).toBe(422);
    expect(conflict.body.error.code).toBe('ROOM_NUMBER_CONFLICT');
  });

  it("refuses the API's invalid values and a room number the client has", async () => {
    const { tenant } = await hotel();
    for (const [input, path] of [
      [{ room_number: '1', room_type: 'double', price: -1, max_occupancy: 2 }, 'price'],
      [{ room_number: '1', room_type: 'double', price: 10, max_occupancy: 0 }, 'max_occupancy'],
      [{ room_number: '1', room_type: 'double', price: 10, max_occupancy: 1.5 }, 'max_occupancy'],
      [{ room_number: '', room_type: 'double', price: 10, max_occupancy: 2 }, 'room_number'],
      [{ room_number: '1', room_type: '', price: 10, max_occupancy: 2 }, 'room_type'],
      [{ room_number: '1', room_type: 'double', price: '10', max_occupancy: 2 }, 'price'],
    ] as const) {
      const error = await refusal(domain.rooms.createServiceRoom(tenant.clientId, input));
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(error.message).toMatch(new RegExp(`^${path}: `));
    }
    expect(await refusal(domain.rooms.createServiceRoom(tenant.clientId, { room_number: '101', room_type: 'double', price: 10, max_occupancy: 2 }))).toMatchObject({
      status: 422,
      code: 'ROOM_NUMBER_CONFLICT',
    });
    expect((await domain.roomStore.listRooms(tenant.clientId)).map((r) => r.room_number).sort()).toEqual(['101', '102']);
  });
});

describe("a client's bookings", () => {
  let tenant: Tenant;
  let ids: { synced: string; cancelled: string; reception: string; paid: string };

  beforeAll(async () => {
    const h = await hotel();
    tenant = h.tenant;
    const sync = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: [
          { external_booking_id: 'B1', external_room_id: 'R101', guest_name: 'Sync Guest', guests: 1, check_in_date: '2028-03-01', check_out_date: '2028-03-04', status: 'confirmed' },
          { external_booking_id: 'B2', external_room_id: 'R102', guest_name: 'Gone Guest', guests: 1, check_in_date: '2028-03-10', check_out_date: '2028-03-12', status: 'cancelled' },
        ],
      },
    });
    expect(sync.status).toBe(200);
    const reception = await domain.service.confirmServiceBooking(tenant.clientId, {
      origin: 'reception',
      roomId: h.rooms.get('102'),
      requireRoom: true,
      guest_name: 'Desk Guest',
      guest_email: 'desk@example.com',
      guests: 2,
      check_in_date: '2028-03-05',
      check_out_date: '2028-03-07',
      total_amount: 200,
      payment_status: 'unpaid',
      payment_method: 'pay_at_property',
    });
    const paid = await paidRoomBooking(stack, tenant, { check_in_date: '2028-03-20', check_out_date: '2028-03-22' });
    ids = {
      synced: sync.body.items[0].id,
      cancelled: sync.body.items[1].id,
      reception: reception.booking.id,
      paid: paid.sync.booking_id,
    };
  });

  const listed = async (filters: Record<string, string> = {}) =>
    (await domain.list.listClientBookings(tenant.clientId, filters)).bookings.map((b) => b.booking_id).sort();

  it('lists every origin, with the fields an operator needs', async () => {
    const { bookings, next_cursor } = await domain.list.listClientBookings(tenant.clientId);
    expect(next_cursor).toBeNull();
    expect(bookings.map((b) => b.booking_id).sort()).toEqual(Object.values(ids).sort());
    const byId = new Map(bookings.map((b) => [b.booking_id, b]));
    expect(byId.get(ids.synced)).toMatchObject({ origin: 'sync', status: 'confirmed', room_number: '101', external_source: 'pms', external_booking_id: 'B1', awaiting_room: false });
    expect(byId.get(ids.reception)).toMatchObject({ origin: 'reception', room_number: '102', payment_method: 'pay_at_property', awaiting_room: false, booking_reference: expect.stringMatching(/^BK-/) });
    expect(byId.get(ids.paid)).toMatchObject({
      origin: 'payment',
      status: 'confirmed',
      payment_status: 'paid',
      room_id: null,
      room_number: null,
      awaiting_room: true,
      payment_order_reference: expect.any(String),
    });
    expect(Object.keys(byId.get(ids.paid)!).sort()).toEqual(
      [
        'booking_id', 'origin', 'status', 'payment_status', 'room_id', 'room_number', 'awaiting_room', 'check_in_date', 'check_out_date', 'guests',
        'guest_name', 'guest_email', 'total_amount', 'taxes_amount', 'booking_reference', 'confirmation_code', 'external_source', 'external_booking_id',
        'payment_method', 'payment_order_reference', 'below_rate', 'created_at', 'updated_at',
      ].sort(),
    );
  });

  it('filters by origin, status and the nights of the stay', async () => {
    expect(await listed({ origin: 'sync' })).toEqual([ids.synced, ids.cancelled].sort());
    expect(await listed({ origin: 'reception' })).toEqual([ids.reception]);
    expect(await listed({ origin: 'payment' })).toEqual([ids.paid]);
    expect(await listed({ status: 'cancelled' })).toEqual([ids.cancelled]);
    expect(await listed({ status: 'confirmed', origin: 'sync' })).toEqual([ids.synced]);
    // Nights from `from` to `to`, both included: 03-01..03-03 and 03-05..03-06 are inside 03-03..03-05.
    expect(await listed({ from: '2028-03-03', to: '2028-03-05' })).toEqual([ids.synced, ids.reception].sort());
    // Check-out day is no night of the stay; check-in day is.
    expect(await listed({ from: '2028-03-04', to: '2028-03-04' })).toEqual([]);
    expect(await listed({ from: '2028-03-20', to: '2028-03-20' })).toEqual([ids.paid]);
    expect(await listed({ from: '2028-03-11' })).toEqual([ids.cancelled, ids.paid].sort());
    expect(await listed({ to: '2028-03-01' })).toEqual([ids.synced]);
  });

  it('pages through the same bookings with a cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await domain.list.listClientBookings(tenant.clientId, {}, { limit: 1, cursor });
      expect(page.bookings.length).toBeLessThanOrEqual(1);
      seen.push(...page.bookings.map((b) => b.booking_id));
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    expect(seen.sort()).toEqual(Object.values(ids).sort());
    const filtered = await domain.list.listClientBookings(tenant.clientId, { origin: 'sync' }, { limit: 1 });
    expect(filtered.bookings).toHaveLength(1);
    const rest = await domain.list.listClientBookings(tenant.clientId, { origin: 'sync' }, { limit: 5, cursor: filtered.next_cursor! });
    expect([...filtered.bookings, ...rest.bookings].map((b) => b.booking_id).sort()).toEqual([ids.synced, ids.cancelled].sort());
    expect(rest.next_cursor).toBeNull();
  });

  it('refuses invalid filters and cursors', async () => {
    for (const [filters, page, path] of [
      [{ from: '2028-02-30' }, undefined, 'from'],
      [{ from: '2028-03-05', to: '2028-03-01' }, undefined, 'to'],
      [{ status: 'lost' }, undefined, 'status'],
      [{ origin: 'walk-in' }, undefined, 'origin'],
      [{}, { limit: 0 }, 'limit'],
      [{}, { limit: 101 }, 'limit'],
      [{}, { cursor: 'not a cursor!' }, 'cursor'],
    ] as const) {
      const error = await refusal(domain.list.listClientBookings(tenant.clientId, filters as Record<string, string>, page));
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(error.message).toMatch(new RegExp(`^${path}: `));
    }
  });

  it("lists another client's bookings for nobody else", async () => {
    const other = await hotel();
    expect((await domain.list.listClientBookings(other.tenant.clientId)).bookings).toEqual([]);
  });
});

describe('assigning a room to a paid booking recorded for manual assignment', () => {
  it('the room leaves availability, the order names it, and a second booking.confirmed carries it', async () => {
    const h = await hotel();
    const secret = (await domain.deliveries.configureEndpoint(h.tenant.clientId, 'callback', { url: receiver.url })).secret;
    const { orderReference, sync } = await paidRoomBooking(stack, h.tenant, { check_in_date: '2028-05-01', check_out_date: '2028-05-03' });
    expect(sync).toMatchObject({ status: 'synced', room_id: null, room_assignment: 'manual' });
    const first = await waitFor('the first booking.confirmed', async () => receiver.received[0]);
    expect(JSON.parse(first.rawBody.toString('utf8')).room).toBeNull();

    expect(await domain.assign.findBookingClient(sync.booking_id)).toBe(h.tenant.clientId);
    const roomId = h.rooms.get('102')!;
    const assigned = await domain.assign.assignBookingRoom(h.tenant.clientId, sync.booking_id, roomId);
    expect(assigned.booking).toMatchObject({ id: sync.booking_id, room_id: roomId, status: 'confirmed' });
    expect(assigned.delivery_id).toEqual(expect.any(String));

    expect(await availableRoomNumbers(h.tenant, '2028-05-02', '2028-05-04')).toEqual(['101']);
    const status = await orderStatus(stack, h.tenant, orderReference);
    expect(status.body.service_booking_sync).toEqual({ ...sync, room_id: roomId, room_assignment: 'manual' });
    const [view] = (await domain.list.listClientBookings(h.tenant.clientId, { origin: 'payment' })).bookings;
    expect(view).toMatchObject({ booking_id: sync.booking_id, room_id: roomId, room_number: '102', awaiting_room: false });

    const second = await waitFor('the second booking.confirmed', async () => receiver.received[1]);
    expect(receiver.received).toHaveLength(2);
    expect(second.headers['x-service-delivery']).toBe(assigned.delivery_id);
    expect(second.headers['x-service-delivery']).not.toBe(first.headers['x-service-delivery']);
    expect(verifySignature(second.rawBody, second.headers['x-service-signature'] as string, secret)).toBe(true);
    const payload = JSON.parse(second.rawBody.toString('utf8'));
    const before = JSON.parse(first.rawBody.toString('utf8'));
    expect(payload.event).toBe('booking.confirmed');
    // The same booking, as the next event of it (docs/behaviour.md "Booking changes, cancellations and refunds").
    expect(payload.booking).toEqual({ ...before.booking, sequence: 2 });
    expect(before.booking.sequence).toBe(1);
    expect(payload.room).toEqual({ id: roomId, room_number: '102', room_type: 'double', external_source: 'pms', external_room_id: 'R102', external_category_id: '' });
  });

  it('refuses an unknown booking, another client\'s room, a booking with a room, and a taken room', async () => {
    const h = await hotel();
    const other = await hotel();
    const { sync } = await paidRoomBooking(stack, h.tenant, { check_in_date: '2028-06-01', check_out_date: '2028-06-04' });
    const { sync: locked } = await paidRoomBooking(stack, h.tenant, { check_in_date: '2028-06-01', check_out_date: '2028-06-02', serviceRoomId: h.rooms.get('101') });
    expect(locked).toMatchObject({ room_assignment: 'locked', room_id: h.rooms.get('101') });
    await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: { external_source: 'pms', bookings: [{ external_booking_id: 'P1', external_room_id: 'R102', guest_name: 'PMS', guests: 1, check_in_date: '2028-06-03', check_out_date: '2028-06-05', status: 'confirmed' }] },
    });
    const assign = (bookingId: string, roomId: string, clientId = h.tenant.clientId) => refusal(domain.assign.assignBookingRoom(clientId, bookingId, roomId));

    expect(await refusal(domain.assign.findBookingClient('00000000-0000-4000-8000-000000000000'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await assign('00000000-0000-4000-8000-000000000000', h.rooms.get('101')!)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await assign(sync.booking_id, other.rooms.get('101')!)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    // Another client cannot reach this client's booking either.
    expect(await assign(sync.booking_id, other.rooms.get('101')!, other.tenant.clientId)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await assign(locked.booking_id, h.rooms.get('102')!)).toMatchObject({ status: 409, code: 'BOOKING_ALREADY_ASSIGNED' });
    // 101 is held by the locked paid order, 102 by the PMS booking, for some of the nights.
    expect(await assign(sync.booking_id, h.rooms.get('101')!)).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    expect(await assign(sync.booking_id, h.rooms.get('102')!)).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    expect((await domain.store.getBooking(h.tenant.clientId, sync.booking_id))?.room_id).toBeUndefined();

    // A room free for the whole stay works, once.
    const spare = await domain.rooms.createServiceRoom(h.tenant.clientId, { room_number: '103', room_type: 'double', price: 100, max_occupancy: 2 });
    expect((await domain.assign.assignBookingRoom(h.tenant.clientId, sync.booking_id, spare.id)).booking.room_id).toBe(spare.id);
    expect(await assign(sync.booking_id, spare.id)).toMatchObject({ status: 409, code: 'BOOKING_ALREADY_ASSIGNED' });
  });

  it('ten concurrent assignments of two bookings to one room for overlapping nights: exactly one wins', async () => {
    const h = await hotel();
    const [a, b] = await Promise.all([
      paidRoomBooking(stack, h.tenant, { check_in_date: '2028-07-01', check_out_date: '2028-07-04' }),
      paidRoomBooking(stack, h.tenant, { check_in_date: '2028-07-03', check_out_date: '2028-07-05' }),
    ]);
    const roomId = h.rooms.get('101')!;
    const bookings = [a.sync.booking_id, b.sync.booking_id];
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => domain.assign.assignBookingRoom(h.tenant.clientId, bookings[i % 2]!, roomId)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const codes = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code: string }).code] : []));
    expect(codes).toHaveLength(9);
    for (const code of codes) expect(['ROOM_NOT_AVAILABLE', 'BOOKING_ALREADY_ASSIGNED']).toContain(code);

    const winner = (won[0] as PromiseFulfilledResult<{ booking: { id: string } }>).value.booking.id;
    const loser = bookings.find((id) => id !== winner)!;
    expect((await domain.store.getBooking(h.tenant.clientId, winner))?.room_id).toBe(roomId);
    expect((await domain.store.getBooking(h.tenant.clientId, loser))?.room_id).toBeUndefined();
    expect((await domain.holds.getRoomHolds(h.tenant.clientId, roomId)).holds.map((hold) => hold.booking_id)).toEqual([winner]);
    expect(await availableRoomNumbers(h.tenant, '2028-07-01', '2028-07-05')).toEqual(['102']);
    // The loser can still have the other room.
    expect((await domain.assign.assignBookingRoom(h.tenant.clientId, loser, h.rooms.get('102')!)).booking.room_id).toBe(h.rooms.get('102'));
  });
});
