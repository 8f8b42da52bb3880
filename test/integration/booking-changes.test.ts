/**
 * The way back for service bookings (docs/behaviour.md "Booking changes, cancellations and
 * refunds"), through the use cases the dashboard, the CLI, the guest page and the PMS route
 * share: a cancellation frees the room at once and is told to the callback URL with the next
 * sequence (unless the PMS made it), a change obeys availability with the booking's own nights
 * left out and never double-books however concurrent, a no-show only after the check-in day.
 */
import { randomUUID } from 'node:crypto';
import { RATE_SCOPES, SYNC_SCOPES } from '../../definitions/routes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailTo } from '../support/inbox';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';
import { type HotelWithRooms, hotelWithRooms } from '../support/hotel-rooms';

let stack: TestStack;
let receiver: Receiver;
let domain: {
  changes: typeof import('../../shared/domain/bookings/booking-changes');
  reception: typeof import('../../shared/domain/bookings/reception-bookings');
  assign: typeof import('../../shared/domain/bookings/assign-room');
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  store: typeof import('../../shared/store/booking-store');
  holds: typeof import('../../shared/store/service-booking-store');
};

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    changes: await import('../../shared/domain/bookings/booking-changes'),
    reception: await import('../../shared/domain/bookings/reception-bookings'),
    assign: await import('../../shared/domain/bookings/assign-room'),
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    store: await import('../../shared/store/booking-store'),
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

/** A client with synced rooms 101 and 102, its callbacks going to the receiver. */
const hotel = (callbacks = true): Promise<Hotel> => hotelWithRooms(stack, callbacks ? { callbackUrl: receiver.url } : {});

async function book(h: Hotel, room: string, checkIn: string, checkOut: string, guestEmail = 'ada@example.com') {
  const { booking } = await domain.reception.createReceptionBooking(h.tenant.clientId, h.rooms.get(room)!, {
    check_in_date: checkIn,
    check_out_date: checkOut,
    guests: 2,
    guest_name: 'Ada Guest',
    guest_email: guestEmail,
  });
  return booking;
}

async function available(h: Hotel, checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, { key: h.tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

/** The events the receiver got for a booking, parsed, in sequence order. */
function eventsOf(bookingId: string) {
  return receiver.received
    .map((r) => ({ headers: r.headers, body: JSON.parse(r.rawBody.toString()) }))
    .filter((r) => r.body.booking?.id === bookingId)
    .sort((a, b) => a.body.booking.sequence - b.body.booking.sequence);
}

async function eventsArrived(bookingId: string, count: number) {
  return waitFor(`${count} events of ${bookingId}`, async () => (eventsOf(bookingId).length >= count ? eventsOf(bookingId) : undefined));
}

describe('cancelling a service booking', () => {
  it("e-mails the guest staff's message, never the reason, saying who cancelled: the hotel, or the guest who asked", async () => {
    const h = await hotel();
    const byHotel = `hotel-${randomUUID().slice(0, 8)}@guest.example`;
    const first = await book(h, '101', '2028-03-10', '2028-03-12', byHotel);
    const cancelled = await domain.changes.cancelServiceBooking(h.tenant.clientId, first.id, {
      source: 'staff',
      reason: 'Overbooked by a PMS import error',
      guestMessage: 'We are very sorry: a pipe burst above your room. Call us to rebook at no cost.',
    });
    expect(cancelled.booking).toMatchObject({ cancellation_reason: 'Overbooked by a PMS import error', cancellation_asked_by: 'hotel' });
    const told = await emailTo(byHotel, /^Booking cancelled/);
    const words = `${told.body.text ?? ''}\n${told.body.html ?? ''}`;
    expect(told.body.text).toContain('has cancelled your booking');
    expect(told.body.text).toContain('Message from the hotel: We are very sorry: a pipe burst above your room. Call us to rebook at no cost.');
    expect(words).not.toContain('Overbooked');
    expect(words).not.toContain('PMS import');
    // The PMS still gets the reason with booking.cancelled.
    const events = await eventsArrived(first.id, 2);
    expect(events[1]!.body.booking).toMatchObject({ cancellation_reason: 'Overbooked by a PMS import error' });

    const byGuest = `guest-${randomUUID().slice(0, 8)}@guest.example`;
    const second = await book(h, '102', '2028-03-10', '2028-03-12', byGuest);
    await domain.changes.cancelServiceBooking(h.tenant.clientId, second.id, { source: 'staff', reason: 'Guest phoned: flight cancelled', askedBy: 'guest' });
    const asked = await emailTo(byGuest, /^Booking cancelled/);
    expect(asked.body.text).toContain('as you asked, your booking at');
    expect(asked.body.text).not.toContain('has cancelled your booking');
    expect(`${asked.body.text}${asked.body.html}`).not.toContain('flight');
    expect(asked.body.text).not.toContain('Message from the hotel');
  });

  it('frees its nights at once and tells the callback URL booking.cancelled, with the reason and the next sequence', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-02-10', '2028-02-13');
    expect(await available(h, '2028-02-11', '2028-02-12')).toEqual(['102']);

    const cancelled = await domain.changes.cancelServiceBooking(h.tenant.clientId, booking.id, { reason: 'Guest fell ill', source: 'staff' });
    expect(cancelled.booking).toMatchObject({ status: 'cancelled', cancellation_reason: 'Guest fell ill', cancelled_by: 'staff', sequence: 2 });
    expect(cancelled.delivery_id).toBeDefined();
    expect(await available(h, '2028-02-11', '2028-02-12')).toEqual(['101', '102']);
    expect((await domain.holds.getRoomHolds(h.tenant.clientId, h.rooms.get('101')!)).holds).toEqual([]);

    const events = await eventsArrived(booking.id, 2);
    expect(events.map((e) => [e.body.event, e.body.booking.sequence])).toEqual([
      ['booking.confirmed', 1],
      ['booking.cancelled', 2],
    ]);
    expect(events[1]!.body.booking).toMatchObject({ status: 'cancelled', cancellation_reason: 'Guest fell ill', check_in_date: '2028-02-10' });
    expect(events[1]!.body.room).toMatchObject({ room_number: '101' });
    expect(events[1]!.headers['x-service-event']).toBe('booking.cancelled');
    expect(events[1]!.headers['x-service-delivery']).toBe(cancelled.delivery_id);

    // The room can be booked again for those nights.
    const again = await book(h, '101', '2028-02-10', '2028-02-13');
    expect(again.room_id).toBe(h.rooms.get('101'));
  });

  it('answers a second cancellation with the same booking and sends nothing more', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-02-20', '2028-02-21');
    const first = await domain.changes.cancelServiceBooking(h.tenant.clientId, booking.id, { reason: 'No longer needed', source: 'staff' });
    const second = await domain.changes.cancelServiceBooking(h.tenant.clientId, booking.id, { reason: 'Another reason', source: 'guest' });
    expect(second.repeated).toBe(true);
    expect(second.delivery_id).toBeUndefined();
    expect(second.booking).toEqual(first.booking);
    await eventsArrived(booking.id, 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(eventsOf(booking.id)).toHaveLength(2);
  });

  it('sends nothing back to the PMS for a cancellation the PMS made', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-02-24', '2028-02-25');
    await eventsArrived(booking.id, 1);
    const cancelled = await domain.changes.cancelServiceBooking(h.tenant.clientId, booking.id, { source: 'pms' });
    expect(cancelled.booking).toMatchObject({ status: 'cancelled', cancelled_by: 'pms', sequence: 2 });
    expect(cancelled.delivery_id).toBeUndefined();
    expect(await available(h, '2028-02-24', '2028-02-25')).toEqual(['101', '102']);
    await new Promise((r) => setTimeout(r, 700));
    expect(eventsOf(booking.id).map((e) => e.body.event)).toEqual(['booking.confirmed']);
  });

  it('refuses a booking checked in or out (409 BOOKING_NOT_CANCELLABLE), another client’s or a synced one (404)', async () => {
    const h = await hotel(false);
    const booking = await book(h, '101', '2028-03-01', '2028-03-03');
    for (const status of ['checked_in', 'checked_out'] as const) {
      const read = (await domain.store.getBooking(h.tenant.clientId, booking.id))!;
      expect(await domain.store.updateBooking(h.tenant.clientId, read, { status }, new Date().toISOString())).toBe(true);
      expect(await refusal(domain.changes.cancelServiceBooking(h.tenant.clientId, booking.id, { source: 'staff' }))).toMatchObject({
        status: 409,
        code: 'BOOKING_NOT_CANCELLABLE',
      });
    }
    const other = await hotel(false);
    expect(await refusal(domain.changes.cancelServiceBooking(other.tenant.clientId, booking.id, { source: 'staff' }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: [{ external_booking_id: 'PMS-1', external_room_id: 'R102', guest_name: 'P', guests: 1, check_in_date: '2028-03-05', check_out_date: '2028-03-06', status: 'confirmed' }],
      },
    });
    expect(synced.status).toBe(200);
    const syncedId = synced.body.items[0].id;
    expect(await refusal(domain.changes.cancelServiceBooking(h.tenant.clientId, syncedId, { source: 'pms' }))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await domain.store.getBooking(h.tenant.clientId, syncedId))!.status).toBe('confirmed');
  });
});

describe('changing a service booking', () => {
  it('reprices the stay from the room\'s price per night, or keeps the total, or takes an amount; booking.modified carries the new total', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-05-10', '2028-05-12');
    // Rooms of this hotel cost 100 a night: 2 nights, 3 nights.
    const longer = await domain.changes.modifyServiceBooking(h.tenant.clientId, booking.id, { check_out_date: '2028-05-13', total: 'recalculate' });
    expect(longer.booking.total_amount).toBe(300);
    const events = await eventsArrived(booking.id, 2);
    expect(events[1]!.headers['x-service-event']).toBe('booking.modified');
    expect(events[1]!.body.booking).toMatchObject({ check_out_date: '2028-05-13', total_amount: 300 });

    const kept = await domain.changes.modifyServiceBooking(h.tenant.clientId, booking.id, { check_out_date: '2028-05-14', total: 'keep' });
    expect(kept.booking.total_amount).toBe(300);
    const given = await domain.changes.modifyServiceBooking(h.tenant.clientId, booking.id, { guests: 1, total: 275.5 });
    expect(given.booking.total_amount).toBe(275.5);
    const all = await eventsArrived(booking.id, 4);
    expect(all.map((e) => e.body.booking.total_amount)).toEqual([all[0]!.body.booking.total_amount, 300, 300, 275.5]);
  });

  it("reprices the stay from its room category's rate plan, night by night", async () => {
    const h = await hotel();
    const { key } = await stack.issueKey(h.tenant.clientId, 'sync', { scopes: [...SYNC_SCOPES, ...RATE_SCOPES] });
    const sync = (path: string, body: unknown) => stack.request('PUT', `/api/v1/property-sync/${path}`, { key, body });
    expect((await sync('room-categories', { external_source: 'pms', categories: [{ external_category_id: 'dbl', name: 'Double', base_price: 100 }] })).status).toBe(200);
    expect(
      (await sync('rooms', { external_source: 'pms', rooms: [{ external_room_id: 'R201', room_number: '201', room_type: 'double', price: 100, max_occupancy: 2, external_category_id: 'dbl' }] })).status,
    ).toBe(200);
    expect((await sync('rate-plans', { external_source: 'pms', rate_plans: [{ external_rate_plan_id: 'BAR', external_category_id: 'dbl', name: 'Best available' }] })).status).toBe(200);
    // 120 a night, 180 on the 12th.
    const rates = await sync('rates', {
      external_source: 'pms',
      updates: [
        { external_rate_plan_id: 'BAR', date_from: '2028-06-10', date_to: '2028-06-14', price: 120 },
        { external_rate_plan_id: 'BAR', date: '2028-06-12', price: 180 },
      ],
    });
    expect(rates.status, rates.text).toBe(200);
    const { listRooms } = await import('../../shared/store/room-store');
    const room = (await listRooms(h.tenant.clientId)).find((r) => r.room_number === '201')!;
    const { booking } = await domain.reception.createReceptionBooking(h.tenant.clientId, room.id, {
      check_in_date: '2028-06-10',
      check_out_date: '2028-06-11',
      guests: 2,
      guest_name: 'Ada Guest',
      guest_email: 'ada@example.com',
    });
    // Three nights: 120 + 120 + 180, not the room's 100 a night.
    const changed = await domain.changes.modifyServiceBooking(h.tenant.clientId, booking.id, { check_out_date: '2028-06-13', total: 'recalculate' });
    expect(changed.booking.total_amount).toBe(420);
    const events = await eventsArrived(booking.id, 2);
    expect(events[1]!.body.booking).toMatchObject({ check_out_date: '2028-06-13', total_amount: 420 });
  });

  it('moves its dates under the availability rules, with its own nights left out, and tells booking.modified', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-04-10', '2028-04-12');
    // Longer, overlapping its own nights: allowed.
    const changed = await domain.changes.modifyServiceBooking(h.tenant.clientId, booking.id, { check_in_date: '2028-04-11', check_out_date: '2028-04-15' });
    expect(changed.booking).toMatchObject({ status: 'confirmed', check_in_date: '2028-04-11', check_out_date: '2028-04-15', sequence: 2 });
    expect(await available(h, '2028-04-10', '2028-04-11')).toEqual(['101', '102']);
    expect(await available(h, '2028-04-14', '2028-04-15')).toEqual(['102']);
    const events = await eventsArrived(booking.id, 2);
    expect(events[1]!.body).toMatchObject({ event: 'booking.modified', booking: { check_in_date: '2028-04-11', check_out_date: '2028-04-15', sequence: 2 } });
  });

  it('refuses a clash with 409 ROOM_NOT_AVAILABLE and changes nothing', async () => {
    const h = await hotel(false);
    const first = await book(h, '101', '2028-04-20', '2028-04-22');
    const second = await book(h, '102', '2028-04-20', '2028-04-22');
    expect(await refusal(domain.changes.modifyServiceBooking(h.tenant.clientId, second.id, { room_id: h.rooms.get('101') }))).toMatchObject({
      status: 409,
      code: 'ROOM_NOT_AVAILABLE',
    });
    expect(await refusal(domain.changes.modifyServiceBooking(h.tenant.clientId, first.id, { guests: 3 }))).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    expect(await refusal(domain.changes.modifyServiceBooking(h.tenant.clientId, first.id, { check_out_date: '2028-04-19' }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    expect(await domain.store.getBooking(h.tenant.clientId, second.id)).toMatchObject({ room_id: h.rooms.get('102'), sequence: 1 });
    expect(await domain.store.getBooking(h.tenant.clientId, first.id)).toMatchObject({ guests: 2, check_out_date: '2028-04-22', sequence: 1 });
  });

  it('moves a booking to another room, freeing the first', async () => {
    const h = await hotel(false);
    const booking = await book(h, '101', '2028-05-01', '2028-05-03');
    const moved = await domain.changes.modifyServiceBooking(h.tenant.clientId, booking.id, { room_id: h.rooms.get('102') });
    expect(moved.booking.room_id).toBe(h.rooms.get('102'));
    expect(await available(h, '2028-05-01', '2028-05-03')).toEqual(['101']);
    expect((await domain.holds.getRoomHolds(h.tenant.clientId, h.rooms.get('101')!)).holds).toEqual([]);
  });

  it('lets one of two concurrent changes into the same free room win, never both', async () => {
    for (let round = 0; round < 3; round++) {
      const h = await hotel(false);
      const a = await book(h, '101', '2028-06-01', '2028-06-03');
      const b = await book(h, '101', '2028-06-05', '2028-06-07');
      // Room 102 is free; both move into it for overlapping nights.
      const results = await Promise.allSettled([
        domain.changes.modifyServiceBooking(h.tenant.clientId, a.id, { room_id: h.rooms.get('102'), check_out_date: '2028-06-06' }),
        domain.changes.modifyServiceBooking(h.tenant.clientId, b.id, { room_id: h.rooms.get('102'), check_in_date: '2028-06-02' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
      const inRoom = [await domain.store.getBooking(h.tenant.clientId, a.id), await domain.store.getBooking(h.tenant.clientId, b.id)].filter(
        (x) => x!.room_id === h.rooms.get('102'),
      );
      expect(inRoom).toHaveLength(1);
      const holds = (await domain.holds.getRoomHolds(h.tenant.clientId, h.rooms.get('102')!)).holds;
      expect(holds.map((x) => x.booking_id)).toEqual([inRoom[0]!.id]);
    }
  });
});

describe('no-shows', () => {
  it('marks a no-show only once the check-in day has passed, and frees its nights from then on', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-07-01', '2028-07-05');
    expect(await refusal(domain.changes.markNoShow(h.tenant.clientId, booking.id, new Date('2028-07-01T20:00:00Z')))).toMatchObject({
      status: 409,
      code: 'BOOKING_NOT_CANCELLABLE',
    });
    const marked = await domain.changes.markNoShow(h.tenant.clientId, booking.id, new Date('2028-07-02T09:00:00Z'));
    expect(marked.booking).toMatchObject({ status: 'no_show', sequence: 2 });
    expect(await available(h, '2028-07-02', '2028-07-05')).toEqual(['101', '102']);
    // Its delivery is due at the (future) time the test marked it: read what will be sent.
    const delivery = await domain.deliveries.showDelivery(marked.delivery_id!);
    expect(delivery.event).toBe('booking.no_show');
    expect(JSON.parse(delivery.payload)).toMatchObject({ event: 'booking.no_show', booking: { status: 'no_show', sequence: 2 } });
    expect(await refusal(domain.changes.markNoShow(h.tenant.clientId, booking.id, new Date('2028-07-03T09:00:00Z')))).toMatchObject({ status: 409 });
  });
});

describe('sequences', () => {
  it('grow strictly across confirm, assign, modify and cancel, each event under its own delivery id', async () => {
    const h = await hotel();
    const { sync } = await paidRoomBooking(stack, h.tenant, { check_in_date: '2028-08-01', check_out_date: '2028-08-03' });
    const bookingId = sync.booking_id;
    await domain.assign.assignBookingRoom(h.tenant.clientId, bookingId, h.rooms.get('101')!);
    await domain.changes.modifyServiceBooking(h.tenant.clientId, bookingId, { check_out_date: '2028-08-04' });
    await domain.changes.cancelServiceBooking(h.tenant.clientId, bookingId, { reason: 'Plans changed', source: 'staff' });
    const events = await eventsArrived(bookingId, 4);
    expect(events.map((e) => [e.body.event, e.body.booking.sequence])).toEqual([
      ['booking.confirmed', 1],
      ['booking.confirmed', 2],
      ['booking.modified', 3],
      ['booking.cancelled', 4],
    ]);
    expect(new Set(events.map((e) => e.headers['x-service-delivery'])).size).toBe(4);
    expect(events[0]!.body.room).toBeNull();
    expect(events[3]!.body.booking.cancellation_reason).toBe('Plans changed');
  });
});
