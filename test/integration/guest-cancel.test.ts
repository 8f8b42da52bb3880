/**
 * A guest cancels their own booking from its confirmation page (docs/behaviour.md "Booking
 * changes, cancellations and refunds"), through the local stack's pages as a browser posts them:
 * inside the free-cancellation window the page offers "Cancel booking", asks to confirm on a page
 * of its own, cancels (booking.cancelled to the PMS, the room free at once) and refunds the online
 * payment in full (payment_order.refunded to the webhook URL, the e-mails); outside it the page
 * says to contact the hotel and the POST is refused; repeating the POST, one after another or at
 * once, cancels and refunds once; a booking the hotel cancelled is not refunded by the guest's POST.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../support/dashboard-client';
import { emailsTo, emailTo } from '../support/inbox';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let callbacks: Receiver;
let webhooks: Receiver;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@guest.example`;

interface Hotel {
  clientId: string;
  paymentKey: string;
  rooms: Map<string, string>;
}

/** A hotel (EUR, UTC, the default 48 hours of free cancellation) with rooms 101 and 102 at 120.00 a night, and both receivers. */
async function hotel(): Promise<Hotel> {
  const { createClientAccount } = await import('../../shared/domain/clients');
  const clientId = (await createClientAccount({ name: `Hotel Miramar ${randomUUID().slice(0, 4)}`, plan: 'premium', currency: 'EUR' })).client_id;
  const [{ key }, payment] = await Promise.all([stack.issueKey(clientId, 'sync'), stack.issueKey(clientId, 'payment')]);
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: {
      external_source: 'pms',
      rooms: ['101', '102'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(put.status, put.text).toBe(200);
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  await configureEndpoint(clientId, 'callback', { url: callbacks.url });
  await configureEndpoint(clientId, 'webhook', { url: webhooks.url });
  const rooms = new Map((put.body.items as { id: string; external_room_id: string }[]).map((item) => [item.external_room_id.slice(1), item.id]));
  return { clientId, paymentKey: payment.key, rooms };
}

async function get(path: string) {
  const response = await fetch(new URL(path, stack.url), { redirect: 'manual' });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

async function post(path: string, form: Record<string, string> = {}) {
  const response = await fetch(new URL(path, stack.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

/** Books room 101 for two nights from `checkIn` days ahead and pays on the sandbox checkout: the confirmation page's path. */
async function bookAndPay(h: Hotel, checkIn: number, guest: { name: string; email: string }): Promise<string> {
  const stay = { check_in: day(checkIn), check_out: day(checkIn + 2), guests: '1' };
  const details = await get(`/book/${h.clientId}/details?${new URLSearchParams({ ...stay, room_id: h.rooms.get('101')! })}`);
  expect(details.status, details.html).toBe(200);
  const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(details.html)![1]!;
  const opened = await post(`/book/${h.clientId}/bookings`, { ...stay, room_id: h.rooms.get('101')!, attempt, ...guest, pay: 'checkout' });
  expect(opened.status, opened.html).toBe(303);
  const paid = await fetch(opened.location!, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
  expect(paid.status).toBe(303);
  const verify = await fetch(new URL(paid.headers.get('location')!, stack.url), { redirect: 'manual' });
  expect(verify.status).toBe(303);
  const landed = new URL(verify.headers.get('location')!).pathname;
  expect(textOf((await get(landed)).html)).toContain('Booking confirmed');
  return landed;
}

/** The booking and its order, as the table keeps them. */
async function bookingOf(h: Hotel, email: string) {
  const { listBookings } = await import('../../shared/store/booking-store');
  const { getOrder } = await import('../../shared/store/payment-store');
  const [booking] = (await listBookings(h.clientId)).filter((b) => b.guest_email === email);
  return { booking: booking!, order: (await getOrder(booking!.payment_order_reference!))! };
}

const eventsOf = (receiver: Receiver, event: string, match: (body: any) => boolean) =>
  receiver.received.map((r) => JSON.parse(r.rawBody.toString('utf8'))).filter((body) => body.event === event && match(body));

async function orderLookup(h: Hotel, orderReference: string) {
  const answer = await stack.request('GET', `/api/v1/payments/payment-orders/${encodeURIComponent(orderReference)}`, { key: h.paymentKey });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { status: string; amount_minor: number; amount_refunded_minor: number; refunds: { refund_id: string; amount_minor: number }[] };
}

beforeAll(async () => {
  stack = await startTestStack();
  [callbacks, webhooks] = await Promise.all([startReceiver(), startReceiver()]);
});

afterAll(async () => {
  await Promise.all([callbacks?.close(), webhooks?.close()]);
  await stack?.stop();
});

describe('a guest cancels from the confirmation page', () => {
  it('outside the free cancellation: the page says to contact the hotel, offers no cancel, and the POST is refused', async () => {
    const h = await hotel();
    const guest = { name: 'Late Larry', email: address('late') };
    // Check-in tomorrow at midnight: less than 48 hours away.
    const landed = await bookAndPay(h, 1, guest);
    const page = textOf((await get(landed)).html);
    expect(page).toMatch(/Free cancellation ended on \w{3}, \d{1,2} \w{3,4} \d{4}, \d{1,2}:\d\d [AP]M hotel time\. To cancel or change your booking now, please contact the hotel/);
    expect(page).not.toContain('Cancel booking');
    // The confirmation step leads back to the booking's page.
    expect(await get(`${landed}/cancel`)).toMatchObject({ status: 303, location: landed });

    const refused = await post(`${landed}/cancel`);
    expect(refused.status).toBe(409);
    expect(textOf(refused.html)).toContain('This booking can no longer be cancelled here. To cancel or change it, please contact the hotel');
    const { booking, order } = await bookingOf(h, guest.email);
    expect(booking.status).toBe('confirmed');
    expect(order.status).toBe('paid');
    expect((await orderLookup(h, order.order_reference)).refunds).toEqual([]);
    expect(eventsOf(callbacks, 'booking.cancelled', (b) => b.booking.id === booking.id)).toEqual([]);
  }, 90_000);

  it('inside it: confirm on a page of its own, then cancelled and refunded in full; the PMS, the webhook URL and the guest hear of it; the room is free at once', async () => {
    const h = await hotel();
    const guest = { name: 'Ada Lovelace', email: address('cancel') };
    const landed = await bookAndPay(h, 30, guest);
    const page = await get(landed);
    expect(textOf(page.html)).toMatch(/You can cancel this booking free of charge until \w{3}, \d{1,2} \w{3,4} \d{4}, 12:00 AM hotel time\. Your payment of 240\.00 EUR is refunded in full/);
    expect(page.html).toContain(`action="${landed}/cancel"`);

    const ask = await get(`${landed}/cancel`);
    expect(ask.status).toBe(200);
    expect(textOf(ask.html)).toContain('Cancel your booking?');
    expect(textOf(ask.html)).toContain('You cannot undo this');
    expect(ask.html).toMatch(/<form method="post" action="[^"]+\/cancel"><button type="submit" class="wide warning">Cancel booking<\/button>/);
    // Asking changes nothing.
    expect((await bookingOf(h, guest.email)).booking.status).toBe('confirmed');

    const cancelled = await post(`${landed}/cancel`);
    expect(cancelled).toMatchObject({ status: 303, location: landed });
    const after = textOf((await get(landed)).html);
    expect(after).toContain('Booking cancelled');
    expect(after).toMatch(/You cancelled this booking on \w{3}, \d{1,2} \w{3,4} \d{4}, \d{1,2}:\d\d [AP]M hotel time\. The room is no longer held for you\./);
    expect(after).toContain('Your payment of 240.00 EUR has been refunded in full to the card you paid with.');
    expect(after).not.toContain('Cancel booking');

    const { booking, order } = await bookingOf(h, guest.email);
    expect(booking).toMatchObject({ status: 'cancelled', cancelled_by: 'guest', cancellation_reason: 'Cancelled by the guest' });
    const lookup = await orderLookup(h, order.order_reference);
    expect(lookup).toMatchObject({ status: 'refunded', amount_minor: 24000, amount_refunded_minor: 24000 });
    expect(lookup.refunds).toHaveLength(1);

    const [event] = await waitFor('booking.cancelled', async () => {
      const found = eventsOf(callbacks, 'booking.cancelled', (b) => b.booking.id === booking.id);
      return found.length ? found : undefined;
    });
    expect(event.booking).toMatchObject({ status: 'cancelled', cancellation_reason: 'Cancelled by the guest', sequence: 2 });
    const [refunded] = await waitFor('payment_order.refunded', async () => {
      const found = eventsOf(webhooks, 'payment_order.refunded', (b) => b.payment_order.order_reference === order.order_reference);
      return found.length ? found : undefined;
    });
    expect(refunded).toMatchObject({ payment_order: { status: 'refunded', amount_minor: 24000, amount_refunded_minor: 24000, currency: 'EUR' }, refund: { amount_minor: 24000 } });

    const cancelEmail = await emailTo(guest.email, /^Booking cancelled/, 30_000);
    expect(cancelEmail.body.text).toContain('as you asked, your booking at Hotel Miramar');
    expect(cancelEmail.body.text).toContain('Your payment of 240.00 EUR will be refunded in full');
    const refundEmail = await emailTo(guest.email, /^Refund of 240\.00 EUR/, 30_000);
    expect(refundEmail.body.text).toContain(booking.booking_reference!);

    // The room is offered again for those nights.
    const { searchRooms } = await import('../../shared/domain/guest-booking/guest-bookings');
    const offered = await searchRooms(h.clientId, { check_in: booking.check_in_date, check_out: booking.check_out_date, guests: 1 }, new Date());
    expect(offered.categories.flatMap((c) => c.rooms.map((r) => r.room_id))).toContain(h.rooms.get('101')!);
  }, 90_000);

  it('repeating the POST, one after another or at once, cancels and refunds once', async () => {
    const h = await hotel();
    const guest = { name: 'Double Click', email: address('twice') };
    const landed = await bookAndPay(h, 20, guest);
    const answers = await Promise.all([post(`${landed}/cancel`), post(`${landed}/cancel`), post(`${landed}/cancel`)]);
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303]);
    expect((await post(`${landed}/cancel`)).status).toBe(303);

    const { booking, order } = await bookingOf(h, guest.email);
    const lookup = await orderLookup(h, order.order_reference);
    expect(lookup).toMatchObject({ status: 'refunded', amount_refunded_minor: 24000 });
    expect(lookup.refunds).toHaveLength(1);
    await waitFor('the refund e-mail', async () => ((await emailsTo(guest.email)).some((e) => e.subject.startsWith('Refund')) ? true : undefined), 30_000);
    await waitFor('booking.cancelled', async () => (eventsOf(callbacks, 'booking.cancelled', (b) => b.booking.id === booking.id).length ? true : undefined));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(eventsOf(callbacks, 'booking.cancelled', (b) => b.booking.id === booking.id)).toHaveLength(1);
    expect(eventsOf(webhooks, 'payment_order.refunded', (b) => b.payment_order.order_reference === order.order_reference)).toHaveLength(1);
    const subjects = (await emailsTo(guest.email)).map((e) => e.subject.replace(/:.*/, ''));
    expect(subjects.sort()).toEqual(['Booking cancelled', 'Booking confirmed', 'Refund of 240.00 EUR']);
  }, 90_000);

  it('a booking the hotel cancelled without a refund: the page says so, and the guest\'s POST refunds nothing', async () => {
    const h = await hotel();
    const guest = { name: 'Staff Cancelled', email: address('staff') };
    const landed = await bookAndPay(h, 25, guest);
    const { booking, order } = await bookingOf(h, guest.email);
    const { cancelServiceBooking } = await import('../../shared/domain/bookings/booking-changes');
    await cancelServiceBooking(h.clientId, booking.id, { source: 'staff', reason: 'Leak reported by housekeeping, room 101 out of order', guestMessage: 'Water damage in room 101' });

    const page = textOf((await get(landed)).html);
    expect(page).toMatch(/The hotel cancelled this booking on .+ The room is no longer held for you\. Message from the hotel: Water damage in room 101/);
    // The reason is the hotel's own: never on the guest's page.
    expect(page).not.toContain('housekeeping');
    expect(page).toContain('If the hotel refunds your payment, you will get an e-mail when it does.');
    expect(await post(`${landed}/cancel`)).toMatchObject({ status: 303, location: landed });
    const lookup = await orderLookup(h, order.order_reference);
    expect(lookup).toMatchObject({ status: 'paid', amount_refunded_minor: 0, refunds: [] });
    expect((await bookingOf(h, guest.email)).booking.cancelled_by).toBe('staff');
  }, 90_000);
});
