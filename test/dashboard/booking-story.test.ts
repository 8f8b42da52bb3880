/**
 * A booking's whole story on its dashboard page, over HTTP, as the front desk reads it: a booking
 * whose notification to the PMS failed says so with "Retry" (and Retry brings the desk back to
 * the booking, delivered); a paid booking shows its order, attempt and payment; "Assign room"
 * offers rooms with their category and price a night, and the booking and its payment page then
 * name the room; a PMS booking tells it came from the PMS and was checked in. Never an id on the
 * page; and the page's reads do not grow with the hotel's history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningFunction } from '../../infra/local/lambda-runtime';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
/** A string as a regular expression matching it literally. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TIME = '\\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d';

let stack: TestStack;
let receiver: Receiver;
let domain: {
  audit: typeof import('../../shared/domain/audit');
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  dynamo: typeof import('../../shared/store/dynamo');
};

beforeAll(async () => {
  // A PMS that is gone fails a notification after three quick attempts.
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    audit: await import('../../shared/domain/audit'),
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    dynamo: await import('../../shared/store/dynamo'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

interface Hotel {
  tenant: Tenant;
  /** Room number to room id. */
  rooms: Map<string, string>;
  staff: DashboardClient;
}

/** A hotel whose PMS synced the category "Deluxe" (rooms 101 and 102, 120 a night) and room 103 (a "suite" of no category, 200 a night). */
async function hotel(): Promise<Hotel> {
  const tenant = await stack.createTenant();
  const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key: tenant.syncKey,
    body: { external_source: 'pms', categories: [{ external_category_id: 'DLX', name: 'Deluxe', base_price: 120, max_occupancy: 2 }] },
  });
  expect(categories.status).toBe(200);
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', external_category_id: 'DLX', price: 120, max_occupancy: 2 },
        { external_room_id: 'R102', room_number: '102', room_type: 'double', external_category_id: 'DLX', price: 120, max_occupancy: 2 },
        { external_room_id: 'R103', room_number: '103', room_type: 'suite', price: 200, max_occupancy: 3 },
      ],
    },
  });
  expect(put.status).toBe(200);
  const rooms = new Map<string, string>(put.body.items.map((item: { external_room_id: string; id: string }) => [item.external_room_id.slice(1), item.id]));
  return { tenant, rooms, staff: await signedInOperator(stack, tenant.clientId, 'staff') };
}

/** Where the client's notifications to its PMS go from now on: a receiver that is gone, or `url`. */
async function callbacksTo(clientId: string, url?: string) {
  let target = url;
  if (!target) {
    const dead = await startReceiver();
    await dead.close();
    target = dead.url;
  }
  await domain.callbacks.configureEndpoint(clientId, 'callback', { url: target });
}

/** A reception booking of `roomId`, as the desk makes one (the notification to the PMS goes with it); its booking and delivery ids. */
async function receptionBooking(clientId: string, roomId: string, stay: { check_in_date: string; check_out_date: string }) {
  const confirmed = await domain.bookings.confirmServiceBooking(clientId, {
    origin: 'reception',
    roomId,
    requireRoom: true,
    guest_name: 'Mary Jackson',
    guest_email: 'mary@example.com',
    guests: 2,
    ...stay,
    total_amount: 240,
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  return { bookingId: confirmed.booking.id, deliveryId: confirmed.delivery_id! };
}

async function settled(deliveryId: string, status: string) {
  await waitFor(`delivery ${deliveryId} ${status}`, async () => ((await domain.callbacks.showDelivery(deliveryId)).status === status ? true : undefined));
}

/** The History part of a booking page, as the sentences a person reads, newest first. */
function history(html: string): string[] {
  const list = html.split('<ol class="story">')[1]?.split('</ol>')[0] ?? '';
  return list
    .split('<li>')
    .slice(1)
    .map((item) => textOf(item.split('</li>')[0]!));
}

/** The visible text of a page's main part (not the URLs of its links and forms). */
const mainText = (html: string) => textOf(html.split('<main')[1]?.split('</main>')[0] ?? '');

describe("a booking's page", () => {
  let h: Hotel;

  beforeAll(async () => {
    h = await hotel();
  });

  it('shows a notification to the PMS that failed, with Retry; Retry brings the desk back to the booking, delivered, and records who retried', async () => {
    await callbacksTo(h.tenant.clientId);
    const { bookingId, deliveryId } = await receptionBooking(h.tenant.clientId, h.rooms.get('101')!, { check_in_date: '2027-10-01', check_out_date: '2027-10-03' });
    await settled(deliveryId, 'failed');

    const page = await h.staff.get(`/dashboard/bookings/${bookingId}`);
    expect(page.status).toBe(200);
    const text = mainText(page.text);
    expect(text).not.toContain('No operator has acted');
    expect(text).not.toMatch(UUID);
    for (const fact of ['Guest name Mary Jackson', 'Check-in Fri 1 Oct 2027', 'Nights 2', 'Room Room 101 (Deluxe)', 'Status Confirmed', 'Origin Reception', 'Total 240.00 USD']) {
      expect(text).toContain(fact);
    }
    const [newest, ...older] = history(page.text);
    expect(newest).toMatch(new RegExp(`^${TIME} Sending to your PMS with room 101 failed after 3 attempts \\(last error: .+\\) Retry Details$`));
    expect(older.at(-1)).toMatch(new RegExp(`^${TIME} Booked at reception$`));
    expect(page.text).toContain(`<form method="post" action="/dashboard/deliveries/${deliveryId}/retry" class="inline"><input type="hidden" name="back" value="booking"/>`);

    // The PMS is back: Retry on the booking's page comes back to it.
    await callbacksTo(h.tenant.clientId, receiver.url);
    const retried = await h.staff.request('POST', `/dashboard/deliveries/${deliveryId}/retry`, { back: 'booking' });
    expect(retried.status).toBe(303);
    expect(retried.location).toBe(`/dashboard/bookings/${bookingId}`);
    await settled(deliveryId, 'delivered');
    const after = await h.staff.get(retried.location!);
    const story = history(after.text);
    expect(story[0]).toMatch(new RegExp(`^${TIME} Sent to your PMS with room 101: delivered Details$`));
    expect(story).toContainEqual(expect.stringMatching(new RegExp(`^${TIME} Sent a notification to your PMS again \\(it had failed\\), by ${literally(h.staff.email)}$`)));
    expect(mainText(after.text)).not.toMatch(UUID);
  });

  it('tells a paid booking: its order, attempt and payment; Assign room offers rooms with category and price; then the booking and its payment page name the room', async () => {
    const paid = await paidRoomBooking(stack, h.tenant, { check_in_date: '2027-11-10', check_out_date: '2027-11-12', guests: 2 });
    const bookingId = paid.sync.booking_id;
    const page = await h.staff.get(`/dashboard/bookings/${bookingId}`);
    expect(page.status).toBe(200);
    const text = mainText(page.text);
    expect(text).toContain('Room No room yet');
    expect(text).toContain('Origin Paid online');
    expect(text).not.toMatch(UUID);
    const story = history(page.text);
    const order = paid.orderReference;
    expect(story).toContainEqual(expect.stringMatching(new RegExp(`^${TIME} Booked online and paid 240\\.00 USD \\(order ${order} ?\\); no room was given to it then: staff assign one$`)));
    expect(story).toContainEqual(expect.stringMatching(new RegExp(`^${TIME} Payment order ${order} opened for 240\\.00 USD$`)));
    expect(story).toContainEqual(expect.stringMatching(new RegExp(`^${TIME} Payment attempt 1 paid \\(Sandbox \\(test payments\\)\\)$`)));
    expect(story).toContainEqual(expect.stringMatching(new RegExp(`^${TIME} Payment of 240\\.00 USD received$`)));
    // Newest first: the order was opened before anything else happened.
    expect(story.at(-1)).toMatch(/ Payment order .* opened for 240\.00 USD$/);
    expect(page.text).toContain(`href="/dashboard/payments/${order}"`);

    const payment = await h.staff.get(`/dashboard/payments/${order}`);
    expect(mainText(payment.text)).toContain('Room Awaiting a room');

    // The form: only the rooms free for the stay, each with its category and price a night.
    const form = await h.staff.get(`/dashboard/bookings/${bookingId}/assign`);
    expect(form.status).toBe(200);
    expect(form.text).toContain(`<option value="${h.rooms.get('101')}">101 · Deluxe · 120.00 USD a night</option>`);
    expect(form.text).toContain(`<option value="${h.rooms.get('103')}">103 · suite · 200.00 USD a night</option>`);
    // Room 101 is the reception booking's from 2027-10-01: this stay is later, so it is free.
    const none = await h.staff.request('POST', `/dashboard/bookings/${bookingId}/assign`, { room_id: '' });
    expect(none.status).toBe(400);
    expect(none.text).toContain('<h2 id="error-summary-title">There is a problem</h2>');
    expect(none.text).toContain('<a href="#f-room_id">Room: Choose a room</a>');

    const assigned = await h.staff.submit(`/dashboard/bookings/${bookingId}/assign`, { room_id: h.rooms.get('102')! });
    expect(assigned.status).toBe(200);
    expect(mainText(assigned.text)).toContain('Room Room 102 (Deluxe)');
    const after = history(assigned.text);
    expect(after).toContainEqual(expect.stringMatching(new RegExp(`^${TIME} Room 102 \\(Deluxe\\) assigned by ${literally(h.staff.email)}$`)));
    expect(mainText(assigned.text)).not.toMatch(UUID);

    const named = mainText((await h.staff.get(`/dashboard/payments/${order}`)).text);
    expect(named).toContain('Room Room 102 (Deluxe)');
    expect(named).not.toContain('awaiting a room');
    expect(named).not.toContain('Awaiting a room');
  });

  it('tells a booking from the PMS: received from it, checked in', async () => {
    const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: [{ external_booking_id: 'PMS-7', external_room_id: 'R103', guest_name: 'Grace Hopper', guests: 1, check_in_date: '2027-12-01', check_out_date: '2027-12-03', status: 'confirmed' }],
      },
    });
    expect(synced.status).toBe(200);
    const checkins = await stack.request('PUT', '/api/v1/property-sync/checkins', {
      key: h.tenant.syncKey,
      body: { external_source: 'pms', checkins: [{ external_checkin_id: 'CI-7', external_booking_id: 'PMS-7', event: 'check_in', occurred_at: '2027-12-01T15:00:00Z' }] },
    });
    expect(checkins.status).toBe(200);
    const page = await h.staff.get(`/dashboard/bookings/${synced.body.items[0].id}`);
    const text = mainText(page.text);
    for (const fact of ['Room Room 103 (suite)', 'Status Checked in', 'Origin From your PMS', 'PMS booking PMS-7 (pms)']) expect(text).toContain(fact);
    expect(history(page.text)).toEqual([
      expect.stringMatching(/^1 Dec 2027, 15:00 Checked in$/),
      expect.stringMatching(new RegExp(`^${TIME} Received from your PMS \\(pms booking PMS-7\\)$`)),
    ]);
    expect(text).not.toMatch(UUID);
  });

  it("reads the same, however long the hotel's history", async () => {
    const { dynamoClient } = domain.dynamo;
    await callbacksTo(h.tenant.clientId, receiver.url);
    const { bookingId, deliveryId } = await receptionBooking(h.tenant.clientId, h.rooms.get('103')!, { check_in_date: '2028-01-01', check_out_date: '2028-01-02' });
    await settled(deliveryId, 'delivered');

    /** The calls and the items the booking page's function reads. */
    async function reads(): Promise<{ calls: string[]; items: number }> {
      const seen = { calls: [] as string[], items: 0 };
      dynamoClient.middlewareStack.add(
        (next, context) => async (args) => {
          const result = await next(args);
          if (runningFunction()?.name === 'DashboardBookings') {
            const output = result.output as { Items?: unknown[]; Item?: unknown; Responses?: Record<string, unknown[]> };
            seen.calls.push(context.commandName ?? '?');
            seen.items += (output.Items?.length ?? 0) + (output.Item ? 1 : 0) + Object.values(output.Responses ?? {}).reduce((n, r) => n + r.length, 0);
          }
          return result;
        },
        { step: 'initialize', name: 'countBookingPageReads' },
      );
      try {
        expect((await h.staff.get(`/dashboard/bookings/${bookingId}`)).status).toBe(200);
      } finally {
        dynamoClient.middlewareStack.remove('countBookingPageReads');
      }
      seen.calls.sort();
      return seen;
    }

    const before = await reads();
    // History elsewhere: other bookings and their notifications, staff actions about other records.
    for (let i = 0; i < 12; i++) await receptionBooking(h.tenant.clientId, h.rooms.get(['101', '102'][i % 2]!)!, { check_in_date: `2028-02-${String(i * 2 + 1).padStart(2, '0')}`, check_out_date: `2028-02-${String(i * 2 + 2).padStart(2, '0')}` });
    for (let i = 0; i < 40; i++) await domain.audit.recordAudit(h.tenant.clientId, { operator: 'night@hotel.example', action: 'room.create', target: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, changes: { room_number: `9${i}` } });
    const after = await reads();
    expect(after).toEqual(before);
    expect(before.calls).not.toContain('ScanCommand');
  });
});

describe('Payments in words', () => {
  it('names a booking-page order by its stay, never by its internal reference, with amounts in their currency and statuses in words', async () => {
    const h = await hotel();
    const paid = await paidRoomBooking(stack, h.tenant, { check_in_date: '2027-11-20', check_out_date: '2027-11-23', guests: 2 });
    // An order as the guest booking page makes one (its use case: the API refuses a `guest:`
    // reference to partners): its partner reference is internal.
    const { createPaymentOrder } = await import('../../shared/domain/payments/create-payment-order');
    const created = await createPaymentOrder(
      { clientId: h.tenant.clientId, origins: [] },
      {
        reference: 'guest:0b7a1c2d-5e6f-4a8b-9c0d-1e2f3a4b5c6d',
        amount_minor: 36000,
        currency: 'USD',
        customer: { name: 'Ana Silva', email: 'ana@example.com' },
        success_url: 'https://hotel.example/return',
        cancel_url: 'https://hotel.example/return',
        context: { type: 'room_booking', check_in_date: '2027-12-04', check_out_date: '2027-12-07', guests: 1, service_room_id: h.rooms.get('103') },
      },
      { baseUrl: stack.url, allowHttp: true },
    );
    expect(created.status).toBe(201);
    const guestOrder = created.body.order_reference as string;

    const page = await h.staff.get('/dashboard/payments');
    const list = mainText(page.text);
    expect(list).toMatch(new RegExp(`${paid.orderReference} Room booking: Sat 20 Nov 2027 to Tue 23 Nov 2027, 3 nights, 2 guests \\(reference INV-[0-9a-f-]+\\) 240\\.00 USD Paid `));
    expect(list).toMatch(new RegExp(`${guestOrder} Room booking: Sat 4 Dec 2027 to Tue 7 Dec 2027, 3 nights, 1 guest \\(your booking page\\) 360\\.00 USD In progress `));
    expect(page.text).not.toContain('guest:');

    const detail = await h.staff.get(`/dashboard/payments/${guestOrder}`);
    const text = mainText(detail.text);
    expect(text).toContain('Made on Your booking page');
    expect(text).toContain('For Room booking: Sat 4 Dec 2027 to Tue 7 Dec 2027, 3 nights, 1 guest');
    expect(text).toMatch(/Amount 360\.00 USD Status In progress /);
    expect(detail.text).not.toContain('guest:');
    expect(textOf(detail.text.replace(/<pre class="payload">[\s\S]*?<\/pre>/g, ''))).not.toMatch(UUID);
  });
});
