/**
 * The PMS cancelling a booking the service made, through the API (`POST
 * /api/v1/property-sync/service-bookings/{booking_id}/cancel`): the nights are free at once in
 * availability, nothing is sent back to the PMS's callback URL (a staff cancel is), a repeated
 * cancel answers the same body, an Idempotency-Key replays, and each refusal has its code.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenApiValidator } from '../../shared/openapi/validator';
import { emailTo } from '../support/inbox';
import { orderStatus, paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { type RequestOptions, startTestStack, type TestStack } from '../support/stack';
import { type HotelWithRooms, hotelWithRooms } from '../support/hotel-rooms';

let stack: TestStack;
let receiver: Receiver;
let domain: {
  reception: typeof import('../../shared/domain/bookings/reception-bookings');
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  actor: typeof import('../../shared/domain/operator-actions/actor');
  staff: typeof import('../../shared/domain/operator-actions/booking-changes');
  store: typeof import('../../shared/store/booking-store');
};

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    reception: await import('../../shared/domain/bookings/reception-bookings'),
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    actor: await import('../../shared/domain/operator-actions/actor'),
    staff: await import('../../shared/domain/operator-actions/booking-changes'),
    store: await import('../../shared/store/booking-store'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

beforeEach(() => {
  receiver.received.length = 0;
});

// Every answer of the route is checked against the committed API document (objects closed).
const validator = new OpenApiValidator(JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')), { closedObjects: true });

/** The PMS's cancel request; its answer as the document describes it. */
async function cancel(bookingId: string, options: RequestOptions = {}) {
  const response = await stack.request('POST', cancelPath(bookingId), options);
  expect(validator.checkResponse('CancelServiceBooking', response), `${response.status} ${response.text.slice(0, 300)}`).toEqual([]);
  return response;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const cancelPath = (bookingId: string) => `/api/v1/property-sync/service-bookings/${bookingId}/cancel`;

type Hotel = HotelWithRooms;

/** A client with synced rooms 101 and 102, its callbacks going to the receiver. */
const hotel = (): Promise<Hotel> => hotelWithRooms(stack, { callbackUrl: receiver.url });

/** A confirmed reception booking of the room, for a guest of an address of its own. */
async function book(h: Hotel, room: string, checkIn: string, checkOut: string, guestEmail = `guest-${randomUUID()}@example.com`) {
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

/** The events the receiver got for a booking: [event, sequence], in the order they came. */
const eventsOf = (bookingId: string) =>
  receiver.received
    .map((r) => JSON.parse(r.rawBody.toString()))
    .filter((body) => body.booking?.id === bookingId)
    .map((body) => [body.event, body.booking.sequence]);

const eventsArrived = (bookingId: string, count: number) =>
  waitFor(`${count} events of ${bookingId}`, async () => (eventsOf(bookingId).length >= count ? eventsOf(bookingId) : undefined));

describe('the PMS cancels a service booking', () => {
  it('frees the nights at once, answers the cancelled booking, tells the guest and sends nothing back to the PMS', async () => {
    const h = await hotel();
    const guest = `guest-${randomUUID()}@example.com`;
    const booking = await book(h, '101', '2028-04-10', '2028-04-13', guest);
    await eventsArrived(booking.id, 1);
    expect(await available(h, '2028-04-11', '2028-04-12')).toEqual(['102']);

    const cancelled = await cancel(booking.id, { key: h.tenant.syncKey, body: { reason: 'Guest cancelled by phone' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({
      booking_id: booking.id,
      booking_reference: booking.booking_reference,
      status: 'cancelled',
      cancellation_reason: 'Guest cancelled by phone',
      cancelled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      cancelled_by: 'pms',
      room_id: h.rooms.get('101'),
      check_in_date: '2028-04-10',
      check_out_date: '2028-04-13',
    });
    // Free at once, for the whole stay.
    expect(await available(h, '2028-04-10', '2028-04-13')).toEqual(['101', '102']);
    expect(await emailTo(guest, /^Booking cancelled: /)).toBeDefined();

    // A second cancel, even with another reason: the same answer, nothing changed.
    const again = await cancel(booking.id, { key: h.tenant.syncKey, body: { reason: 'Another reason' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cancelled.body);
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    await new Promise((r) => setTimeout(r, 800));
    expect(eventsOf(booking.id)).toEqual([['booking.confirmed', 1]]);
  });

  it('while a staff cancel of the same kind of booking is told to the callback URL as booking.cancelled', async () => {
    const h = await hotel();
    const booking = await book(h, '102', '2028-04-20', '2028-04-21');
    await eventsArrived(booking.id, 1);
    const cancelled = await domain.staff.cancelBooking(domain.actor.cliActor(h.tenant.clientId), booking.id, { reason: 'Overbooked' });
    expect(cancelled.booking).toMatchObject({ status: 'cancelled', cancelled_by: 'staff' });
    expect(await eventsArrived(booking.id, 2)).toEqual([
      ['booking.confirmed', 1],
      ['booking.cancelled', 2],
    ]);
    // The PMS cancelling it afterwards is told how it stands, and sends nothing more.
    const pms = await cancel(booking.id, { key: h.tenant.syncKey });
    expect(pms.status).toBe(200);
    expect(pms.body).toMatchObject({ booking_id: booking.id, status: 'cancelled', cancelled_by: 'staff', cancellation_reason: 'Overbooked' });
    await new Promise((r) => setTimeout(r, 800));
    expect(eventsOf(booking.id)).toHaveLength(2);
  });

  it('takes a request without a body, and leaves a paid booking’s payment to its partner', async () => {
    const h = await hotel();
    const paid = await paidRoomBooking(stack, h.tenant, { check_in_date: '2028-05-01', check_out_date: '2028-05-03', serviceRoomId: h.rooms.get('101') });
    expect(paid.sync.room_id).toBe(h.rooms.get('101'));
    const response = await cancel(paid.sync.booking_id, { key: h.tenant.syncKey });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ booking_id: paid.sync.booking_id, status: 'cancelled', cancellation_reason: null, cancelled_by: 'pms' });
    expect(await available(h, '2028-05-01', '2028-05-03')).toEqual(['101', '102']);
    const order = await orderStatus(stack, h.tenant, paid.orderReference);
    expect(order.body.status).toBe('paid');
  });

  it('replays an Idempotency-Key, and refuses the key with another body', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-06-01', '2028-06-02');
    const key = `cancel-${randomUUID()}`;
    const headers = { 'Idempotency-Key': key };
    const first = await cancel(booking.id, { key: h.tenant.syncKey, headers, body: { reason: 'Duplicate booking' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await cancel(booking.id, { key: h.tenant.syncKey, headers, body: { reason: 'Duplicate booking' } });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    const reused = await cancel(booking.id, { key: h.tenant.syncKey, headers, body: { reason: 'Something else' } });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('refusals', () => {
  it('answers each with its code and changes nothing', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2028-07-01', '2028-07-03');
    const refused = async (bookingId: string, options: RequestOptions, status: number, code: string) => {
      const response = await cancel(bookingId, options);
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status, code });
      expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
    };

    await refused(booking.id, {}, 401, 'MISSING_API_KEY');
    // A payment key, and a sync key without bookings:write.
    await refused(booking.id, { key: h.tenant.paymentKey }, 403, 'INSUFFICIENT_SCOPE');
    const readOnly = await stack.issueKey(h.tenant.clientId, 'sync', { scopes: ['availability:read', 'rooms:write'] });
    await refused(booking.id, { key: readOnly.key }, 403, 'INSUFFICIENT_SCOPE');
    // Another client's booking, an unknown id, a value that is no id.
    const other = await hotel();
    await refused(booking.id, { key: other.tenant.syncKey }, 404, 'NOT_FOUND');
    await refused(randomUUID(), { key: h.tenant.syncKey }, 404, 'NOT_FOUND');
    await refused('not-a-booking', { key: h.tenant.syncKey }, 404, 'NOT_FOUND');
    // The body's rules.
    await refused(booking.id, { key: h.tenant.syncKey, body: { reason: 42 } }, 400, 'VALIDATION_ERROR');
    await refused(booking.id, { key: h.tenant.syncKey, body: { reason: null } }, 400, 'VALIDATION_ERROR');
    await refused(booking.id, { key: h.tenant.syncKey, rawBody: '{"reason":', headers: { 'Content-Type': 'application/json' } }, 400, 'INVALID_JSON');
    await refused(booking.id, { key: h.tenant.syncKey, rawBody: 'reason=x', headers: { 'Content-Type': 'text/plain' } }, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect((await domain.store.getBooking(h.tenant.clientId, booking.id))!.status).toBe('confirmed');
    expect(await available(h, '2028-07-01', '2028-07-03')).toEqual(['102']);

    // A booking its PMS synced is the PMS's own to change (PUT bookings): not a service booking.
    const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: [{ external_booking_id: 'PMS-1', external_room_id: 'R102', guest_name: 'P', guests: 1, check_in_date: '2028-07-05', check_out_date: '2028-07-06', status: 'confirmed' }],
      },
    });
    expect(synced.status).toBe(200);
    const syncedId: string = synced.body.items[0].id;
    expect(syncedId).toMatch(UUID);
    await refused(syncedId, { key: h.tenant.syncKey }, 404, 'NOT_FOUND');
    expect((await domain.store.getBooking(h.tenant.clientId, syncedId))!.status).toBe('confirmed');

    // Checked in, checked out: too late to cancel.
    for (const status of ['checked_in', 'checked_out'] as const) {
      const read = (await domain.store.getBooking(h.tenant.clientId, booking.id))!;
      expect(await domain.store.updateBooking(h.tenant.clientId, read, { status }, new Date().toISOString())).toBe(true);
      await refused(booking.id, { key: h.tenant.syncKey, body: { reason: 'Too late' } }, 409, 'BOOKING_NOT_CANCELLABLE');
      expect((await domain.store.getBooking(h.tenant.clientId, booking.id))!.status).toBe(status);
    }
  });
});
