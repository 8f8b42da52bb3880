/**
 * The dashboard's overview over HTTP, for a hotel whose date is not UTC's right now (Kiritimati,
 * UTC+14, from 10:00 UTC; Pago Pago, UTC-11, before): the page says the hotel's date and zone,
 * lists that day's arrivals and departures, counts occupancy from that night and the orders paid
 * since the hotel's midnight. An arrival whose booking its PMS refused is flagged "Not yet in
 * your PMS" with "Retry", which sends it again and answers on the overview with the outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/schemas/common';
import { localDate } from '../../shared/domain/hotel-time';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

/** A zone whose date differs from UTC's now: 14 hours ahead from 10:00 UTC, 11 hours behind before. */
const ZONE = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';

let stack: TestStack;
let receiver: Receiver;
let hotel: Tenant;
let staff: DashboardClient;
let today: string;
let utcToday: string;
let dateInFull: (date: string) => string;
let domain: {
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  overview: typeof import('../../shared/domain/overview');
};
const rooms = new Map<string, string>();
let refused: { bookingId: string; deliveryId: string };
let paidOrder: string;

async function sync(path: string, body: unknown) {
  const response = await stack.request('PUT', `/api/v1/property-sync/${path}`, { key: hotel.syncKey, body });
  expect(response.status, response.text).toBe(200);
  return response;
}

/** The card of one heading on the overview, as text. */
function card(html: string, id: string): string {
  const start = html.indexOf(`<h2 id="${id}">`);
  return textOf(html.slice(start, html.indexOf('</section>', start)));
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  ({ dateInFull } = await import('../../shared/dashboard/pages/overview'));
  domain = {
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    overview: await import('../../shared/domain/overview'),
  };
  hotel = await stack.createTenant();
  const { setClientSettings } = await import('../../shared/domain/clients');
  await setClientSettings(hotel.clientId, { time_zone: ZONE });
  staff = await signedInOperator(stack, hotel.clientId, 'staff');
  today = localDate(ZONE, new Date());
  utcToday = new Date().toISOString().slice(0, 10);

  await sync('rooms', {
    external_source: 'pms',
    rooms: ['101', '102', '103', '104', '105'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
  });
  const { listRooms } = await import('../../shared/store/room-store');
  for (const room of await listRooms(hotel.clientId)) rooms.set(room.room_number, room.id);
  // From the PMS: one guest arriving on the hotel's today, one leaving on it, one arriving on UTC's today.
  await sync('bookings', {
    external_source: 'pms',
    bookings: [
      { external_booking_id: 'LOCAL', external_room_id: 'R101', guest_name: 'Grace Hopper', check_in_date: today, check_out_date: addDays(today, 2), guests: 1, status: 'confirmed' },
      { external_booking_id: 'LEAVES', external_room_id: 'R103', guest_name: 'Leaving Guest', check_in_date: addDays(today, -2), check_out_date: today, guests: 1, status: 'confirmed' },
      { external_booking_id: 'LEFT', external_room_id: 'R105', guest_name: 'Early Leaver', check_in_date: addDays(today, -3), check_out_date: today, guests: 2, status: 'checked_out' },
      { external_booking_id: 'UTC', external_room_id: 'R104', guest_name: 'Utc Day Guest', check_in_date: utcToday, check_out_date: addDays(utcToday, 3), guests: 1, status: 'confirmed' },
    ],
  });

  // A reception booking arriving on the hotel's today, which its PMS refuses (422): needs review.
  await domain.callbacks.configureEndpoint(hotel.clientId, 'callback', { url: receiver.url });
  receiver.respondWith(422);
  const confirmed = await domain.bookings.confirmServiceBooking(hotel.clientId, {
    origin: 'reception',
    roomId: rooms.get('102'),
    requireRoom: true,
    guest_name: 'Ana Silva',
    guests: 1,
    check_in_date: today,
    check_out_date: addDays(today, 2),
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  refused = { bookingId: confirmed.booking.id, deliveryId: confirmed.delivery_id! };
  await waitFor('the refused confirmation', async () => ((await domain.callbacks.showDelivery(refused.deliveryId)).status === 'needs_review' ? true : undefined));
  // An order paid now: on the hotel's today, not on its local date read as a UTC day.
  paidOrder = (await paidRoomBooking(stack, hotel, { check_in_date: addDays(today, 5), check_out_date: addDays(today, 6) })).orderReference;
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe(`the overview of a hotel in ${ZONE}`, () => {
  it("says the hotel's date and zone, and lists that day's arrivals and departures", async () => {
    expect(today).not.toBe(utcToday);
    const page = await staff.get('/dashboard');
    expect(page.status).toBe(200);
    expect(textOf(page.text)).toContain(`Today is ${dateInFull(today)} (${ZONE}).`);
    expect(dateInFull('2026-11-25')).toBe('Wednesday 25 November 2026');

    const arrivals = card(page.text, 'arrivals');
    expect(arrivals).toMatch(/^Arrivals today \(2\) /);
    expect(arrivals).toContain('Grace Hopper · Room 101');
    expect(arrivals).toContain('Ana Silva · Room 102');
    expect(arrivals).not.toContain('Utc Day Guest');
    // Every booking leaving today, the one checked out already too.
    const departures = card(page.text, 'departures');
    expect(departures).toMatch(/^Departures today \(2\) Leaving Guest · Room 103 · /);
    expect(departures).toMatch(/Early Leaver · Room 105 · [^·]+ · Checked out$/);
    // Arrivals show their guests and the balance due.
    expect(arrivals).toMatch(/Grace Hopper · Room 101 · [^·]+ · Confirmed · 1 guest · Balance due \d+\.\d\d USD/);
    // Occupancy from the hotel's tonight.
    expect(page.text).toContain(`<th scope="col">Night</th><th scope="col">${today.slice(5)}</th>`);
  });

  it('flags the arrival its PMS has not received, with Retry; a booking from the PMS is not flagged', async () => {
    const page = await staff.get('/dashboard');
    const arrivals = card(page.text, 'arrivals');
    expect(arrivals).toMatch(/Ana Silva · Room 102 · [^·]+ · Confirmed · 1 guest · Balance due 0\.00 USD Not yet in your PMS : your PMS refused it Retry/);
    expect(arrivals).not.toMatch(/Grace Hopper[^·]*·[^·]*·[^·]*· Confirmed Not yet/);
    expect(arrivals.match(/Not yet in your PMS/g)).toHaveLength(1);
    expect(page.text).toContain(`action="/dashboard/deliveries/${refused.deliveryId}/retry"`);
    expect(page.text).toContain(`aria-label="Retry sending Ana Silva's booking to your PMS"`);
    // The same delivery needs attention, named by guest, room and stay, in words.
    expect(card(page.text, 'attention')).toMatch(/Booking confirmed · Ana Silva · Room 102 · [^·]+ · Needs review Retry/);
    expect(textOf(page.text)).not.toMatch(/booking\.confirmed|needs_review/);
  });

  it('Retry sends it again and the overview shows it has reached the PMS', async () => {
    const answered = await staff.submit(`/dashboard/deliveries/${refused.deliveryId}/retry`, { back: 'overview' });
    expect(answered.status).toBe(200);
    expect(answered.text).toContain('<h1>Overview</h1>');
    expect(textOf(answered.text)).toContain('Booking confirmed for Ana Silva: queued again and delivered; your PMS accepted it.');
    expect(card(answered.text, 'arrivals')).not.toContain('Not yet in your PMS');
    expect(card(answered.text, 'attention')).toContain('Every notification to your PMS and website went out.');
  });

  it("counts the orders paid since the hotel's midnight, and none of another day's", async () => {
    const page = await staff.get('/dashboard');
    expect(card(page.text, 'paid-today')).toMatch(/^Orders paid today \(1\) Ada Lovelace · [^·]+ · 240\.00 USD · paid at \d\d:\d\d$/);
    // The UTC date of the payment is another day for this hotel: nothing was paid on it, locally.
    const utcDay = await domain.overview.overviewOf(hotel.clientId, utcToday, ZONE);
    expect(utcDay.paid_today).toEqual([]);
    const local = await domain.overview.overviewOf(hotel.clientId, today, ZONE);
    expect(local.paid_today.map((o) => o.order_reference)).toEqual([paidOrder]);
    // Refunded in full, it is no longer among the orders paid today.
    const { refundPaymentOrder } = await import('../../shared/domain/payments/refunds');
    await refundPaymentOrder(hotel.clientId, paidOrder, {}, new Date());
    expect((await domain.overview.overviewOf(hotel.clientId, today, ZONE)).paid_today).toEqual([]);
    expect(card((await staff.get('/dashboard')).text, 'paid-today')).toBe('Orders paid today (0) No order paid today yet.');
  });
});
