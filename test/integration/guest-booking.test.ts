/**
 * The guest booking use cases (docs/behaviour.md "Guest booking and the reception QR code"), called as
 * the guest pages call them, inside an invocation holding them to the table access the pages'
 * function declares (guestBookingTableAccess): the form's rules, search by category with totals,
 * a checkout paid on the sandbox and verified by HTTP, the room hold (not offered to anyone else,
 * freed by expiry or a cancelled checkout, a late payment recorded for manual assignment), pay at
 * the property, a race for the last free room, a repeated submit of one form (its attempt id) that
 * makes nothing twice, and tokens that lead nowhere else.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalFunction, withinInvocation } from '../../infra/local/lambda-runtime';
import { verifySignature } from '../../shared/receiver-kit';
import { addDays } from '../../shared/schemas/common';
import { emailsTo, emailTo, linkIn } from '../support/inbox';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let guest: typeof import('../../shared/domain/guest-booking/guest-bookings');
let domain: {
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  availability: typeof import('../../shared/domain/property-sync/availability');
  service: typeof import('../../shared/domain/bookings/service-bookings');
  holds: typeof import('../../shared/store/service-booking-store');
  markers: typeof import('../../shared/store/guest-booking-store');
  store: typeof import('../../shared/store/booking-store');
  roomStore: typeof import('../../shared/store/room-store');
  orders: typeof import('../../shared/store/payment-store');
  orderList: typeof import('../../shared/domain/payments/list-orders');
  deliveryStore: typeof import('../../shared/store/delivery-store');
};
/** The function serving the guest pages, as the local stack runs it: only its declared table access. */
let pages: LocalFunction;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  guest = await import('../../shared/domain/guest-booking/guest-bookings');
  domain = {
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    availability: await import('../../shared/domain/property-sync/availability'),
    service: await import('../../shared/domain/bookings/service-bookings'),
    holds: await import('../../shared/store/service-booking-store'),
    markers: await import('../../shared/store/guest-booking-store'),
    store: await import('../../shared/store/booking-store'),
    roomStore: await import('../../shared/store/room-store'),
    orders: await import('../../shared/store/payment-store'),
    orderList: await import('../../shared/domain/payments/list-orders'),
    deliveryStore: await import('../../shared/store/delivery-store'),
  };
  const { guestBookingTableAccess } = await import('../../definitions/guest-booking-access');
  pages = { name: 'GuestBookingTest', handler: 'guest-booking', tableAccess: guestBookingTableAccess };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

beforeEach(() => {
  receiver.received.length = 0;
});

/** Runs a use case as the pages' function does. */
const asPages = <T>(work: () => Promise<T>): Promise<T> => withinInvocation(pages, work);

const MINUTE = 60_000;
const today = () => new Date().toISOString().slice(0, 10);
/** A stay `from` days ahead for `nights` nights. */
const stayIn = (from: number, nights: number, guests = 1) => ({ check_in: addDays(today(), from), check_out: addDays(today(), from + nights), guests });
const ada = { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958' };
/** An address of this test's own, to find its e-mails in the SES emulator (shared by the whole run). */
const uniqueEmail = (who: string) => `${who}-${Math.random().toString(36).slice(2, 10)}@example.com`;

/** The AppError a call rejects with. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: { status?: number; code?: string; message: string; details?: { path: string; message: string }[] }) => e,
  );
  return { status: error.status, code: error.code, message: error.message, details: error.details };
}

/**
 * A client with rooms 101 and 102 (double, 100, 2 guests, no category), 201 and 202 (suite,
 * 150.5, 4 guests, category "Deluxe") and 301 (single, 80, 1 guest, category "Economy").
 */
async function hotel(): Promise<{ tenant: Tenant; rooms: Map<string, string> }> {
  const tenant = await stack.createTenant();
  const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key: tenant.syncKey,
    body: { external_source: 'pms', categories: [{ external_category_id: 'DLX', name: 'Deluxe' }, { external_category_id: 'ECO', name: 'Economy' }] },
  });
  expect(categories.status, categories.text).toBe(200);
  const room = (n: string, rest: Record<string, unknown>) => ({ external_room_id: `R${n}`, room_number: n, ...rest });
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: [
        room('102', { room_type: 'double', price: 100, max_occupancy: 2 }),
        room('101', { room_type: 'double', price: 100, max_occupancy: 2 }),
        room('201', { room_type: 'suite', price: 150.5, max_occupancy: 4, external_category_id: 'DLX' }),
        room('202', { room_type: 'suite', price: 150.5, max_occupancy: 4, external_category_id: 'DLX' }),
        room('301', { room_type: 'single', price: 80, max_occupancy: 1, external_category_id: 'ECO' }),
      ],
    },
  });
  expect(put.status, put.text).toBe(200);
  return { tenant, rooms: new Map((await domain.roomStore.listRooms(tenant.clientId)).map((r) => [r.room_number, r.id])) };
}

/** Room numbers the sync API's availability offers for the stay (real time). */
async function apiAvailable(tenant: Tenant, stay: { check_in: string; check_out: string }): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${stay.check_in}&check_out_date=${stay.check_out}&guests=1`, { key: tenant.syncKey });
  expect(response.status, response.text).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

/** Room numbers the guest page offers for the stay at `now`. */
async function offered(clientId: string, stay: { check_in: string; check_out: string; guests: number }, now: Date): Promise<string[]> {
  const found = await asPages(() => guest.searchRooms(clientId, stay, now));
  return found.categories.flatMap((c) => c.rooms.map((r) => r.room_number)).sort();
}

/** The guest on the sandbox checkout choosing an outcome, then the provider's redirect to verify: where the guest lands. */
async function payOnSandbox(checkoutUrl: string, outcome: 'paid' | 'cancelled' | 'failed' = 'paid'): Promise<URL> {
  const submitted = await fetch(checkoutUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
  expect(submitted.status).toBe(303);
  const verify = await fetch(new URL(submitted.headers.get('location')!, stack.url), { redirect: 'manual' });
  expect(verify.status).toBe(303);
  return new URL(verify.headers.get('location')!);
}

/** The booking.confirmed callbacks of a client received so far, parsed. */
function callbacksOf(clientId: string) {
  return receiver.received.filter((r) => r.headers['x-service-client'] === clientId).map((r) => ({ headers: r.headers, raw: r.rawBody, payload: JSON.parse(r.rawBody.toString('utf8')) }));
}

async function receiveCallbacks(clientId: string) {
  return (await domain.deliveries.configureEndpoint(clientId, 'callback', { url: receiver.url })).secret;
}

describe('the stay form (checkStay)', () => {
  const now = new Date('2030-05-10T23:30:00.000Z');

  const problems = (input: Parameters<typeof guest.checkStay>[0]) => {
    try {
      guest.checkStay(input, now);
    } catch (error) {
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      return (error as { details: { path: string; message: string }[] }).details;
    }
    return [];
  };
  const paths = (input: Parameters<typeof guest.checkStay>[0]) => problems(input).map((d) => d.path);

  it('accepts a stay from today (the UTC date of now) and the guests as typed in a form', () => {
    expect(guest.checkStay({ check_in: '2030-05-10', check_out: '2030-05-12', guests: '2' }, now)).toEqual({ check_in: '2030-05-10', check_out: '2030-05-12', guests: 2 });
    expect(guest.checkStay({ check_in: ' 2030-05-11 ', check_out: '2030-06-10', guests: 1 }, now)).toEqual({ check_in: '2030-05-11', check_out: '2030-06-10', guests: 1 });
  });

  it('refuses dates that are not real', () => {
    expect(paths({ check_in: '2030-02-30', check_out: '2030-03-02', guests: 1 })).toEqual(['check_in']);
    expect(paths({ check_in: '2030-05-12', check_out: '12/05/2030', guests: 1 })).toEqual(['check_out']);
    expect(paths({ check_in: 'tomorrow', check_out: '2030-13-01', guests: 1 })).toEqual(['check_in', 'check_out']);
  });

  it('refuses a check-in before today', () => {
    expect(problems({ check_in: '2030-05-09', check_out: '2030-05-12', guests: 1 })).toEqual([{ path: 'check_in', message: 'cannot be in the past' }]);
  });

  it('refuses a check-out not after the check-in', () => {
    expect(problems({ check_in: '2030-05-12', check_out: '2030-05-12', guests: 1 })).toEqual([{ path: 'check_out', message: 'must be after the check-in date' }]);
    expect(paths({ check_in: '2030-05-12', check_out: '2030-05-11', guests: 1 })).toEqual(['check_out']);
  });

  it('refuses more than 30 nights', () => {
    expect(guest.checkStay({ check_in: '2030-05-10', check_out: '2030-06-09', guests: 1 }, now).check_out).toBe('2030-06-09');
    expect(problems({ check_in: '2030-05-10', check_out: '2030-06-10', guests: 1 })).toEqual([{ path: 'check_out', message: 'must be at most 30 nights after check-in' }]);
  });

  it('refuses guests that are not a whole number of at least 1', () => {
    for (const guests of [0, -1, 1.5, '0', '1.5', 'two', '-2', '', NaN]) {
      expect(paths({ check_in: '2030-05-10', check_out: '2030-05-11', guests }), String(guests)).toEqual(['guests']);
    }
  });

  it('reports every problem at once, missing values included', () => {
    expect(paths({})).toEqual(['check_in', 'check_out', 'guests']);
    expect(paths({ check_in: '2030-05-01', check_out: '2030-04-30', guests: 0 })).toEqual(['check_in', 'check_out', 'guests']);
  });
});

describe('the hotel and its rooms', () => {
  it('knows the hotel by its id; an unknown or malformed id is 404', async () => {
    const { tenant } = await hotel();
    expect(await asPages(() => guest.guestBookingClient(tenant.clientId))).toEqual({ client_id: tenant.clientId, name: expect.stringMatching(/^Test hotel/), currency: 'USD', pay_at_property: false, booking_horizon_days: 365, time_zone: 'UTC', free_cancellation_hours: 48, language: 'en', page: tenant.clientId, tax_percent: 0 });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-client', '', `${tenant.clientId}x`]) {
      expect(await refusal(asPages(() => guest.guestBookingClient(id)))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
  });

  it('lists the free rooms by category (or room type) with the total of the stay', async () => {
    const { tenant } = await hotel();
    const stay = stayIn(20, 3);
    const found = await asPages(() => guest.searchRooms(tenant.clientId, stay, new Date()));
    expect(found).toEqual({
      nights: 3,
      currency: 'USD',
      categories: [
        { name: 'Economy', rooms: [{ room_id: expect.any(String), room_number: '301', room_type: 'single', price: 80, max_occupancy: 1, total: 240 }] },
        {
          name: 'double',
          rooms: ['101', '102'].map((n) => ({ room_id: expect.any(String), room_number: n, room_type: 'double', price: 100, max_occupancy: 2, total: 300 })),
        },
        {
          name: 'Deluxe',
          rooms: ['201', '202'].map((n) => ({ room_id: expect.any(String), room_number: n, room_type: 'suite', price: 150.5, max_occupancy: 4, total: 451.5 })),
        },
      ],
      refused: [],
    });
    // Occupancy and taken rooms follow the availability rules.
    expect(await offered(tenant.clientId, { ...stay, guests: 3 }, new Date())).toEqual(['201', '202']);
    const pms = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: tenant.syncKey,
      body: { external_source: 'pms', bookings: [{ external_booking_id: 'B1', external_room_id: 'R201', guest_name: 'PMS', guests: 1, check_in_date: addDays(stay.check_in, 2), check_out_date: addDays(stay.check_in, 5), status: 'confirmed' }] },
    });
    expect(pms.status).toBe(200);
    expect(await offered(tenant.clientId, { ...stay, guests: 3 }, new Date())).toEqual(['202']);
    expect(await offered(tenant.clientId, { ...stayIn(20, 2), guests: 3 }, new Date())).toEqual(['201', '202']);

    expect(await refusal(asPages(() => guest.searchRooms('00000000-0000-4000-8000-000000000000', stay, new Date())))).toMatchObject({ status: 404 });
    expect(await refusal(asPages(() => guest.searchRooms(tenant.clientId, { ...stay, check_in: addDays(today(), -1) }, new Date())))).toMatchObject({
      status: 400,
      details: [{ path: 'check_in' }],
    });
  });

  it('an empty hotel has nothing to offer', async () => {
    const tenant = await stack.createTenant();
    expect(await asPages(() => guest.searchRooms(tenant.clientId, stayIn(1, 1), new Date()))).toEqual({ nights: 1, currency: 'USD', categories: [], refused: [] });
  });
});

describe('booking with payment', () => {
  it('holds the room, pays on the provider checkout, and confirms: reference, code, room, booking.confirmed', async () => {
    const { tenant, rooms } = await hotel();
    const secret = await receiveCallbacks(tenant.clientId);
    const stay = stayIn(30, 2, 3);
    const now = new Date();
    const started = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('201')!, stay, guest: ada }, stack.url, now));
    expect(started.checkout_url).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/sbx_`));
    expect(started.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The order is the client's, for the stay's total, with the chosen room and the guest.
    const view = await asPages(() => guest.guestBookingOf(tenant.clientId, started.token));
    expect(view).toEqual({
      state: 'awaiting_payment',
      booking_reference: null,
      confirmation_code: null,
      room_number: null,
      check_in: stay.check_in,
      check_out: stay.check_out,
      guests: 3,
      guest_name: 'Ada Lovelace',
      total: 301,
      currency: 'USD',
      payment_status: 'unpaid',
    });

    // Held: the API does not offer it, nor the page to another guest, and nobody else can take it.
    expect(await apiAvailable(tenant, stay)).toEqual(['101', '102', '202', '301']);
    expect(await offered(tenant.clientId, stay, new Date())).toEqual(['202']);
    const other = { name: 'Grace Hopper', email: 'grace@example.com' };
    expect(await refusal(asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('201')!, stay: { ...stay, check_in: addDays(stay.check_in, 1) }, guest: other }, stack.url, new Date())))).toMatchObject({
      status: 409,
      code: 'ROOM_NOT_AVAILABLE',
    });
    // Other nights of the same room are free.
    expect(await offered(tenant.clientId, { ...stay, check_in: stay.check_out, check_out: addDays(stay.check_out, 1) }, new Date())).toContain('201');

    const landed = await payOnSandbox(started.checkout_url);
    expect(`${landed.origin}${landed.pathname}`).toBe(`${stack.url}/book/${tenant.clientId}/confirmation/${started.token}`);
    expect(landed.searchParams.get('payment')).toBe('success');
    const orderReference = landed.searchParams.get('payment_order')!;
    const order = await domain.orders.getOrder(orderReference);
    expect(order).toMatchObject({
      client_id: tenant.clientId,
      status: 'paid',
      amount_minor: 30100,
      currency: 'USD',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+442079460958' },
      context: { type: 'room_booking', check_in_date: stay.check_in, check_out_date: stay.check_out, guests: 3, service_room_id: rooms.get('201') },
      booking_sync: { status: 'synced', room_id: rooms.get('201'), room_assignment: 'locked' },
    });

    const confirmed = await asPages(() => guest.guestBookingOf(tenant.clientId, started.token));
    expect(confirmed).toEqual({
      ...view,
      state: 'confirmed',
      booking_reference: order!.booking_sync!.booking_reference,
      confirmation_code: order!.booking_sync!.confirmation_code,
      room_number: '201',
      payment_status: 'paid',
    });
    expect(confirmed!.booking_reference).toMatch(/^BK-/);

    // The booking holds the room for good: still not offered, even once the checkout's hold would have expired.
    expect(await apiAvailable(tenant, stay)).toEqual(['101', '102', '202', '301']);
    expect(await offered(tenant.clientId, stay, new Date(now.getTime() + 31 * MINUTE))).toEqual(['202']);
    const { holds } = await domain.holds.getRoomHolds(tenant.clientId, rooms.get('201')!);
    expect(holds).toEqual([{ booking_id: order!.booking_sync!.booking_id, check_in_date: stay.check_in, check_out_date: stay.check_out }]);

    const [callback] = await waitFor('booking.confirmed', async () => (callbacksOf(tenant.clientId).length ? callbacksOf(tenant.clientId) : undefined));
    expect(verifySignature(callback!.raw, callback!.headers['x-service-signature'] as string, secret)).toBe(true);
    expect(callback!.payload).toMatchObject({
      event: 'booking.confirmed',
      hotel_id: tenant.clientId,
      booking: {
        id: order!.booking_sync!.booking_id,
        booking_reference: confirmed!.booking_reference,
        confirmation_code: confirmed!.confirmation_code,
        guest_name: 'Ada Lovelace',
        guest_email: 'ada@example.com',
        guests: 3,
        check_in_date: stay.check_in,
        check_out_date: stay.check_out,
        total_amount: 301,
        status: 'confirmed',
        payment_status: 'paid',
        payment_method: 'sandbox',
      },
      room: { id: rooms.get('201'), room_number: '201', room_type: 'suite' },
    });
  });

  it('refuses bad input with every problem at once, an unknown or foreign room, and a room too small', async () => {
    const { tenant, rooms } = await hotel();
    const other = await hotel();
    const stay = stayIn(5, 1, 2);
    const start = (room_id: string, input: Partial<{ stay: typeof stay; guest: Record<string, unknown>; attempt: unknown }> = {}) =>
      refusal(asPages(() => guest.startCheckout(tenant.clientId, { room_id, stay: stay, guest: ada, ...input } as never, stack.url, new Date())));

    const bad = await start(rooms.get('101')!, { stay: { check_in: addDays(today(), -2), check_out: addDays(today(), -3), guests: 0 }, guest: { name: ' ', email: 'ada@', phone: '12345' } });
    expect(bad).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(bad.details!.map((d) => d.path)).toEqual(['check_in', 'check_out', 'guests', 'name', 'email', 'phone']);
    expect((await start(rooms.get('101')!, { guest: { name: 'Ada' } })).details).toEqual([{ path: 'email', message: expect.any(String) }]);
    for (const attempt of ['', 'not-an-attempt', `${guest.newBookingAttempt()}0`, 42, null]) {
      expect((await start(rooms.get('101')!, { attempt })).details, String(attempt)).toEqual([{ path: 'attempt', message: expect.any(String) }]);
    }

    expect(await start('00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await start('not a room')).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await start(other.rooms.get('101')!)).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await start(rooms.get('301')!)).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    expect(await refusal(asPages(() => guest.startCheckout('00000000-0000-4000-8000-000000000000', { room_id: rooms.get('101')!, stay, guest: ada }, stack.url, new Date())))).toMatchObject({ status: 404 });

    // Nothing was held or ordered by any of these.
    expect(await offered(tenant.clientId, stay, new Date())).toEqual(['101', '102', '201', '202']);
    expect(await apiAvailable(other.tenant, stay)).toEqual(['101', '102', '201', '202', '301']);
  });
});

describe('a repeated submit of one form (its attempt id)', () => {
  /** The client's orders, open checkout markers and bookings: what a repeat must not make twice. */
  async function made(clientId: string, stay: { check_in: string; check_out: string }) {
    const [orders, markers, bookings, deliveries] = await Promise.all([
      domain.orderList.listClientOrders(clientId),
      domain.markers.openCheckoutHolds(clientId, { checkIn: stay.check_in, checkOut: stay.check_out }, new Date()),
      domain.store.listBookings(clientId),
      (await import('../../shared/store/delivery-listings')).listDeliveries(clientId),
    ]);
    return { orders: orders.orders, markers, bookings, deliveries };
  }

  it('is one checkout, in a row or five at once: one hold keeping its first expiry, one order, one token; paid, one booking', async () => {
    const { tenant, rooms } = await hotel();
    await receiveCallbacks(tenant.clientId);
    const stay = stayIn(35, 2);
    const input = { room_id: rooms.get('101')!, stay, guest: ada, attempt: guest.newBookingAttempt() };
    const now = new Date();
    const first = await asPages(() => guest.startCheckout(tenant.clientId, input, stack.url, now));
    const again = await asPages(() => guest.startCheckout(tenant.clientId, input, stack.url, new Date(now.getTime() + 5 * MINUTE)));
    expect(again).toEqual(first);
    expect((await domain.holds.getRoomHolds(tenant.clientId, rooms.get('101')!)).holds).toEqual([
      { booking_id: expect.any(String), check_in_date: stay.check_in, check_out_date: stay.check_out, expires_at: new Date(now.getTime() + 30 * MINUTE).toISOString() },
    ]);
    let so = await made(tenant.clientId, stay);
    expect(so.orders).toEqual([expect.objectContaining({ reference: expect.stringMatching(/^guest:[0-9a-f]{32}$/), status: 'processing' })]);
    expect(so.markers).toHaveLength(1);

    // A double click sends both before either answers: here five, at the same instant.
    const twin = { room_id: rooms.get('102')!, stay, guest: ada, attempt: guest.newBookingAttempt() };
    const at = new Date();
    const all = await Promise.all(Array.from({ length: 5 }, () => asPages(() => guest.startCheckout(tenant.clientId, twin, stack.url, at))));
    expect(new Set(all.map((r) => r.checkout_url)).size).toBe(1);
    expect(new Set(all.map((r) => r.token)).size).toBe(1);
    expect(all[0]!.token).not.toBe(first.token);
    expect((await domain.holds.getRoomHolds(tenant.clientId, rooms.get('102')!)).holds).toHaveLength(1);
    so = await made(tenant.clientId, stay);
    expect(so.orders).toHaveLength(2);
    expect(so.markers).toHaveLength(2);

    // Whichever submit created the order, its return URL's token leads to the booking.
    const landed = await payOnSandbox(all[0]!.checkout_url);
    expect(`${landed.origin}${landed.pathname}`).toBe(`${stack.url}/book/${tenant.clientId}/confirmation/${all[0]!.token}`);
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, all[0]!.token))).toMatchObject({ state: 'confirmed', room_number: '102', payment_status: 'paid' });
    // The form sent once more after paying: the same checkout, nothing new.
    expect(await asPages(() => guest.startCheckout(tenant.clientId, twin, stack.url, new Date()))).toEqual(all[0]);
    so = await made(tenant.clientId, stay);
    expect(so.orders).toHaveLength(2);
    expect(so.bookings).toMatchObject([{ room_id: rooms.get('102'), payment_status: 'paid' }]);
    expect(so.deliveries).toHaveLength(1);
    expect((await domain.holds.getRoomHolds(tenant.clientId, rooms.get('102')!)).holds).toEqual([{ booking_id: so.bookings[0]!.id, check_in_date: stay.check_in, check_out_date: stay.check_out }]);
  });

  it("a paid guest booking the PMS cancels ends its checkout marker at once: the room is offered again, not at the hold's end", async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(37, 2);
    const started = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay, guest: ada, attempt: guest.newBookingAttempt() }, stack.url, new Date()));
    await payOnSandbox(started.checkout_url);
    const [booking] = (await made(tenant.clientId, stay)).bookings;
    expect(booking).toMatchObject({ room_id: rooms.get('101'), payment_status: 'paid' });
    expect((await made(tenant.clientId, stay)).markers).toHaveLength(1);

    const cancelled = await stack.request('POST', `/api/v1/property-sync/service-bookings/${booking!.id}/cancel`, { key: tenant.syncKey });
    expect(cancelled.status).toBe(200);
    expect((await made(tenant.clientId, stay)).markers).toEqual([]);
    const free = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${stay.check_in}&check_out_date=${stay.check_out}&guests=1`, { key: tenant.syncKey });
    expect(free.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toContain('101');
  });

  it('with other choices is another booking: another room, or other details for the same room (refused while the first holds it)', async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(36, 1);
    const attempt = guest.newBookingAttempt();
    const one = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay, guest: ada, attempt }, stack.url, new Date()));
    const other = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('102')!, stay, guest: ada, attempt }, stack.url, new Date()));
    expect(other.checkout_url).not.toBe(one.checkout_url);
    expect(other.token).not.toBe(one.token);
    expect(await refusal(asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay, guest: { ...ada, email: 'ada@example.org' }, attempt }, stack.url, new Date())))).toMatchObject({
      status: 409,
      code: 'ROOM_NOT_AVAILABLE',
    });
    expect((await made(tenant.clientId, stay)).orders).toHaveLength(2);
  });

  it('paying at the property is one pending booking, then one booking with one booking.confirmed, in a row or five at once', async () => {
    const { tenant, rooms } = await hotel();
    await receiveCallbacks(tenant.clientId);
    await guest.setPayAtProperty(tenant.clientId, true);
    const desk = await import('../../shared/domain/guest-booking/pay-at-property');
    const stay = stayIn(12, 1);
    const book = (input: Parameters<typeof desk.bookPayAtProperty>[1]) => asPages(() => desk.bookPayAtProperty(tenant.clientId, input, stack.url, new Date()));
    const input = { room_id: rooms.get('101')!, stay, guest: { ...ada, email: uniqueEmail('desk-row') }, attempt: guest.newBookingAttempt() };
    const first = await book(input);
    expect(await book(input)).toEqual(first);
    const twin = { room_id: rooms.get('102')!, stay, guest: { ...ada, email: uniqueEmail('desk-twin') }, attempt: guest.newBookingAttempt() };
    const all = await Promise.all(Array.from({ length: 5 }, () => book(twin)));
    expect(new Set(all.map((r) => r.token)).size).toBe(1);

    // Pending until the guest confirms with the e-mail's link: held once each, nothing booked or sent.
    let so = await made(tenant.clientId, stay);
    expect(so.markers.map((m) => m.room_id).sort()).toEqual([rooms.get('101'), rooms.get('102')].sort());
    expect(so.bookings).toEqual([]);
    expect(so.deliveries).toEqual([]);
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, all[0]!.token))).toMatchObject({ state: 'awaiting_confirmation', room_number: '102', payment_status: 'unpaid' });
    const secretOf = async (email: string) => {
      expect(await emailsTo(email)).toHaveLength(1);
      return linkIn(await emailTo(email, /^Confirm your booking/), 'Confirm your booking').split('/').pop()!;
    };
    const confirm = (secret: string) => asPages(() => desk.confirmPayAtProperty(tenant.clientId, secret, stack.url, new Date()));
    expect(await confirm(await secretOf(input.guest.email))).toEqual({ token: first.token, outcome: 'confirmed' });
    const twinSecret = await secretOf(twin.guest.email);
    expect(await Promise.all(Array.from({ length: 5 }, () => confirm(twinSecret)))).toEqual(Array.from({ length: 5 }, () => ({ token: all[0]!.token, outcome: 'confirmed' })));

    so = await made(tenant.clientId, stay);
    expect(so.bookings.map((b) => b.room_id).sort()).toEqual([rooms.get('101'), rooms.get('102')].sort());
    expect(so.deliveries).toHaveLength(2);
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, all[0]!.token))).toMatchObject({ state: 'confirmed', room_number: '102', payment_status: 'unpaid' });
    const callbacks = await waitFor('two booking.confirmed', async () => (callbacksOf(tenant.clientId).length >= 2 ? callbacksOf(tenant.clientId) : undefined));
    expect(callbacks.map((c) => c.payload.booking.id).sort()).toEqual(so.bookings.map((b) => b.id).sort());
    // The same attempt with other details: another booking, refused as the room is taken.
    expect(await refusal(book({ ...input, guest: { ...ada, name: 'Ada King' } }))).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
  });
});

describe('the hold', () => {
  it('expires after 30 minutes: the room is offered and can be booked again', async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(40, 2);
    const now = new Date();
    await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay, guest: ada }, stack.url, now));
    const at = (minutes: number) => new Date(now.getTime() + minutes * MINUTE);

    expect(await offered(tenant.clientId, stay, at(29))).not.toContain('101');
    const query = { check_in_date: stay.check_in, check_out_date: stay.check_out, guests: 1 };
    expect((await domain.availability.findAvailableRooms(tenant.clientId, query, at(29))).available_rooms.map((r) => r.room_number)).not.toContain('101');
    expect(await offered(tenant.clientId, stay, at(30))).toContain('101');
    expect((await domain.availability.findAvailableRooms(tenant.clientId, query, at(31))).available_rooms.map((r) => r.room_number)).toContain('101');

    const second = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay, guest: { name: 'Grace', email: 'grace@example.com' } }, stack.url, at(31)));
    expect(second.checkout_url).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/sbx_`));
    // The expired entry left the room's hold item when the new one was written.
    const { holds } = await domain.holds.getRoomHolds(tenant.clientId, rooms.get('101')!);
    expect(holds).toHaveLength(1);
    expect(holds[0]!.expires_at).toBe(at(61).toISOString());
    // And a reception booking respects the new hold, and ignores an expired one.
    const reception = (when: Date) =>
      domain.service.confirmServiceBooking(
        tenant.clientId,
        { origin: 'reception', roomId: rooms.get('101')!, requireRoom: true, guest_name: 'Desk', guests: 1, check_in_date: stay.check_in, check_out_date: stay.check_out, payment_status: 'unpaid', payment_method: 'pay_at_property' },
        when,
      );
    expect(await refusal(reception(at(40)))).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    expect((await reception(at(62))).room?.room_number).toBe('101');
  });

  it('a payment landing after someone else took the room is recorded for manual assignment', async () => {
    const { tenant, rooms } = await hotel();
    await receiveCallbacks(tenant.clientId);
    const stay = stayIn(50, 3);
    const now = new Date();
    const first = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('102')!, stay, guest: ada }, stack.url, now));
    // 31 minutes later the first guest's hold is over; another guest books the room and pays.
    const later = new Date(now.getTime() + 31 * MINUTE);
    expect(await offered(tenant.clientId, stay, later)).toContain('102');
    const second = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('102')!, stay, guest: { name: 'Grace', email: 'grace@example.com' } }, stack.url, later));
    expect((await payOnSandbox(second.checkout_url)).searchParams.get('payment')).toBe('success');
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, second.token))).toMatchObject({ state: 'confirmed', room_number: '102', payment_status: 'paid' });

    // Then the first guest pays: confirmed and paid, awaiting a room.
    const landed = await payOnSandbox(first.checkout_url);
    expect(landed.searchParams.get('payment')).toBe('success');
    const view = await asPages(() => guest.guestBookingOf(tenant.clientId, first.token));
    expect(view).toMatchObject({ state: 'confirmed', room_number: null, payment_status: 'paid', booking_reference: expect.stringMatching(/^BK-/) });
    const order = await domain.orders.getOrder(landed.searchParams.get('payment_order')!);
    expect(order!.booking_sync).toMatchObject({ status: 'synced', room_id: null, room_assignment: 'manual' });
    expect((await domain.store.getBooking(tenant.clientId, order!.booking_sync!.booking_id!))?.room_id).toBeUndefined();

    const callbacks = await waitFor('both booking.confirmed', async () => (callbacksOf(tenant.clientId).length >= 2 ? callbacksOf(tenant.clientId) : undefined));
    const late = callbacks.find((c) => c.payload.booking.id === order!.booking_sync!.booking_id)!;
    expect(late.payload).toMatchObject({ booking: { payment_status: 'paid', guest_name: 'Ada Lovelace' }, room: null });
    const { holds } = await domain.holds.getRoomHolds(tenant.clientId, rooms.get('102')!);
    expect(holds.map((h) => h.booking_id)).toEqual([callbacks.find((c) => c.payload.booking.guest_name === 'Grace')!.payload.booking.id]);
  });

  it('a cancelled checkout frees the room at once', async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(60, 1);
    const started = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('202')!, stay, guest: ada }, stack.url, new Date()));
    expect(await offered(tenant.clientId, stay, new Date())).not.toContain('202');
    const landed = await payOnSandbox(started.checkout_url, 'cancelled');
    expect(landed.searchParams.get('payment')).toBe('failed');
    expect(`${landed.origin}${landed.pathname}`).toBe(`${stack.url}/book/${tenant.clientId}/confirmation/${started.token}`);
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, started.token))).toMatchObject({ state: 'payment_failed', booking_reference: null, payment_status: 'unpaid' });
    expect(await offered(tenant.clientId, stay, new Date())).toContain('202');
    expect(await apiAvailable(tenant, stay)).toContain('202');
    expect((await domain.holds.getRoomHolds(tenant.clientId, rooms.get('202')!)).holds).toEqual([]);
    await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('202')!, stay, guest: { name: 'Grace', email: 'grace@example.com' } }, stack.url, new Date()));
  });

  it('a checkout the provider cannot open holds nothing', async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(65, 1);
    // A Stripe account, but this stack has no Stripe secret key: the checkout cannot be created.
    const { configureProvider } = await import('../../shared/domain/payments/providers');
    await configureProvider(tenant.clientId, { provider: 'stripe', account: 'acct_1GuestTest' });
    await expect(asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay, guest: ada }, stack.url, new Date()))).rejects.toThrow();
    expect((await domain.holds.getRoomHolds(tenant.clientId, rooms.get('101')!)).holds).toEqual([]);
    expect(await offered(tenant.clientId, stay, new Date())).toContain('101');
    expect(await apiAvailable(tenant, stay)).toContain('101');
  });

  it('20 concurrent checkouts for the last free room: exactly one holds it, 19 get 409 ROOM_NOT_AVAILABLE', async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(70, 2);
    // Every other room that takes two guests is booked through the PMS.
    const pms = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: ['101', '201', '202'].map((n) => ({ external_booking_id: `B${n}`, external_room_id: `R${n}`, guest_name: 'PMS', guests: 1, check_in_date: stay.check_in, check_out_date: stay.check_out, status: 'confirmed' })),
      },
    });
    expect(pms.status).toBe(200);
    expect(await offered(tenant.clientId, { ...stay, guests: 2 }, new Date())).toEqual(['102']);

    const now = new Date();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('102')!, stay: { ...stay, guests: 2 }, guest: { name: `Guest ${i}`, email: `guest${i}@example.com` } }, stack.url, now)),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((r) => (r.reason as { status: number; code: string }).code)).toEqual(Array(19).fill('ROOM_NOT_AVAILABLE'));
    expect(lost.every((r) => (r.reason as { status: number }).status === 409)).toBe(true);

    const { holds } = await domain.holds.getRoomHolds(tenant.clientId, rooms.get('102')!);
    expect(holds).toHaveLength(1);
    expect(await offered(tenant.clientId, { ...stay, guests: 2 }, new Date())).toEqual([]);
    expect(await apiAvailable(tenant, stay)).toEqual(['301']);
    // The winner's checkout is the one open order of the client.
    const winner = (won[0] as PromiseFulfilledResult<{ token: string }>).value;
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, winner.token))).toMatchObject({ state: 'awaiting_payment', guest_name: expect.stringMatching(/^Guest /) });
  });
});

describe('pay at the property', () => {
  it('is refused until the hotel enables it; then held until the e-mail link confirms it, unpaid, with booking.confirmed', async () => {
    const { tenant, rooms } = await hotel();
    const secret = await receiveCallbacks(tenant.clientId);
    const desk = await import('../../shared/domain/guest-booking/pay-at-property');
    const stay = stayIn(10, 2);
    const guestEmail = uniqueEmail('desk');
    const book = (roomNumber: string, who = { ...ada, email: guestEmail }) =>
      asPages(() => desk.bookPayAtProperty(tenant.clientId, { room_id: rooms.get(roomNumber)!, stay, guest: who }, stack.url, new Date()));

    expect(await refusal(book('101'))).toMatchObject({ status: 403, code: 'PAY_AT_PROPERTY_DISABLED' });
    await guest.setPayAtProperty(tenant.clientId, true);
    expect((await guest.guestBookingClient(tenant.clientId)).pay_at_property).toBe(true);

    const { token } = await book('101');
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, token))).toEqual({
      state: 'awaiting_confirmation',
      booking_reference: null,
      confirmation_code: null,
      room_number: '101',
      check_in: stay.check_in,
      check_out: stay.check_out,
      guests: 1,
      guest_name: 'Ada Lovelace',
      total: 200,
      currency: 'USD',
      payment_status: 'unpaid',
      confirm_by: expect.any(String),
    });
    // Held meanwhile, and nothing is sent to the PMS.
    expect(await apiAvailable(tenant, stay)).not.toContain('101');
    expect(await refusal(book('101', { name: 'Grace', email: 'grace@example.com' } as typeof ada))).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    const link = linkIn(await emailTo(guestEmail, /^Confirm your booking/), 'Confirm your booking').split('/').pop()!;
    expect(callbacksOf(tenant.clientId)).toEqual([]);
    expect(await asPages(() => desk.confirmPayAtProperty(tenant.clientId, link, stack.url, new Date()))).toEqual({ token, outcome: 'confirmed' });

    const view = await asPages(() => guest.guestBookingOf(tenant.clientId, token));
    expect(view).toEqual({
      state: 'confirmed',
      booking_reference: expect.stringMatching(/^BK-/),
      confirmation_code: expect.stringMatching(/^[A-Z2-9]{6}$/),
      room_number: '101',
      check_in: stay.check_in,
      check_out: stay.check_out,
      guests: 1,
      guest_name: 'Ada Lovelace',
      total: 200,
      currency: 'USD',
      payment_status: 'unpaid',
    });
    expect(await apiAvailable(tenant, stay)).not.toContain('101');
    expect(await refusal(book('101', { name: 'Grace', email: 'grace@example.com' } as typeof ada))).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });

    const [callback] = await waitFor('booking.confirmed', async () => (callbacksOf(tenant.clientId).length ? callbacksOf(tenant.clientId) : undefined));
    expect(verifySignature(callback!.raw, callback!.headers['x-service-signature'] as string, secret)).toBe(true);
    expect(callback!.payload).toMatchObject({
      booking: { booking_reference: view!.booking_reference, confirmation_code: view!.confirmation_code, payment_status: 'unpaid', payment_method: 'pay_at_property', total_amount: 200, guest_phone: '+442079460958' },
      room: { room_number: '101' },
    });

    // A room held by another guest's open checkout cannot be taken at the desk page either.
    await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('102')!, stay, guest: { name: 'Grace', email: 'grace@example.com' } }, stack.url, new Date()));
    expect(await refusal(book('102'))).toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    // Bad input as for a checkout.
    expect(await refusal(book('201', { name: '', email: 'x' } as typeof ada))).toMatchObject({ status: 400, details: [{ path: 'name' }, { path: 'email' }] });

    await guest.setPayAtProperty(tenant.clientId, false);
    expect(await refusal(book('202'))).toMatchObject({ status: 403, code: 'PAY_AT_PROPERTY_DISABLED' });
    expect(await refusal(guest.setPayAtProperty('00000000-0000-4000-8000-000000000000', true))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('confirmation tokens', () => {
  it("lead to their own client's booking only", async () => {
    const { tenant, rooms } = await hotel();
    const other = await hotel();
    const started = await asPages(() => guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay: stayIn(3, 1), guest: ada }, stack.url, new Date()));
    expect(await asPages(() => guest.guestBookingOf(tenant.clientId, started.token))).toMatchObject({ state: 'awaiting_payment' });
    expect(await asPages(() => guest.guestBookingOf(other.tenant.clientId, started.token))).toBeUndefined();
    for (const token of ['x'.repeat(43), `${started.token.slice(0, -1)}${started.token.endsWith('A') ? 'B' : 'A'}`, '', 'short', `${started.token}=`, '../../etc']) {
      expect(await asPages(() => guest.guestBookingOf(tenant.clientId, token))).toBeUndefined();
    }
    expect(await asPages(() => guest.guestBookingOf('not-a-client', started.token))).toBeUndefined();
  });
});
