/**
 * The dashboard's Deliveries page over HTTP, as an operator uses it: callbacks and webhooks named
 * by guest, room and stay, in words, with their attempts; Retry on a delivery the receiver
 * refused, answered with its outcome; a page that reloads itself while its delivery is being
 * sent; Retry all failed and needs review, the status filter, pages, and another client's
 * deliveries answering 404. The real sender runs against a receiver on loopback (the local queue
 * poller), so a retried delivery really ends delivered.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let tenant: Tenant;
let staff: DashboardClient;
let domain: {
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  views: typeof import('../../shared/domain/callbacks/delivery-views');
};

beforeAll(async () => {
  // A dead receiver fails after three quick attempts.
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    views: await import('../../shared/domain/callbacks/delivery-views'),
  };
  tenant = await stack.createTenant();
  staff = await signedInOperator(stack, tenant.clientId, 'staff');
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

beforeEach(() => {
  receiver.respondWith();
});

/** Where the client's callbacks go from now on. */
const callbacksTo = (clientId: string, url: string) => domain.callbacks.configureEndpoint(clientId, 'callback', { url });

/** A confirmed reception booking awaiting a room: it emits booking.confirmed; its delivery id. */
async function receptionBooking(clientId: string): Promise<string> {
  const confirmed = await domain.bookings.confirmServiceBooking(clientId, {
    origin: 'reception',
    requireRoom: false,
    guest_name: 'Ada Lovelace',
    guest_email: 'ada@example.com',
    guests: 1,
    check_in_date: '2027-09-01',
    check_out_date: '2027-09-03',
    total_amount: 200,
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  return confirmed.delivery_id!;
}

async function settled(deliveryId: string, status: 'delivered' | 'failed' | 'needs_review') {
  return waitFor(`delivery ${deliveryId} ${status}`, async () => {
    const delivery = await domain.callbacks.showDelivery(deliveryId);
    return delivery.status === status ? delivery : undefined;
  });
}

/** A delivery the receiver refused with 422: needs_review after one attempt. */
async function needsReview(clientId: string): Promise<string> {
  await callbacksTo(clientId, receiver.url);
  receiver.respondWith(422);
  const id = await receptionBooking(clientId);
  await settled(id, 'needs_review');
  return id;
}

/** A delivery to a receiver that is gone: failed after its attempts. */
async function failed(clientId: string): Promise<string> {
  const dead = await startReceiver();
  await dead.close();
  await callbacksTo(clientId, dead.url);
  const id = await receptionBooking(clientId);
  await settled(id, 'failed');
  return id;
}

/** The table row naming `id`, as HTML. */
function rowOf(html: string, id: string): string | undefined {
  return html.split('<tr>').find((row) => row.includes(id))?.split('</tr>')[0];
}

const retryForm = (id: string) => `action="/dashboard/deliveries/${id}/retry"`;
const unescape = (href: string) => href.replace(/&amp;/g, '&');

/** The "Next page" link of a listing, if any. */
function nextPage(html: string): string | undefined {
  const match = /<a href="([^"]+)">Next page<\/a>/.exec(html);
  return match ? unescape(match[1]!) : undefined;
}

/** The id of the hotel's room `number`, synced from its PMS. */
async function roomOf(hotel: Tenant, number: string): Promise<string> {
  const synced = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: hotel.syncKey,
    body: { external_source: 'pms', rooms: [{ external_room_id: `R${number}`, room_number: number, room_type: 'double', price: 120, max_occupancy: 2 }] },
  });
  expect(synced.status, synced.text).toBe(200);
  const { listRooms } = await import('../../shared/store/room-store');
  return (await listRooms(hotel.clientId)).find((room) => room.room_number === number)!.id;
}

/** A receiver that answers with a status after a delay, as a slow PMS does. */
async function startSlowReceiver() {
  let reply = { status: 200, delayMs: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, delayMs } = reply;
      setTimeout(() => res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/booking`,
    answer: (status: number, delayMs: number) => {
      reply = { status, delayMs };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('Deliveries', () => {
  it('lists a needs_review delivery with its attempt; Retry queues it again and it ends delivered', async () => {
    const id = await needsReview(tenant.clientId);

    const list = await staff.get('/dashboard/deliveries');
    expect(list.status).toBe(200);
    const row = rowOf(list.text, id)!;
    expect(row).toBeDefined();
    expect(textOf(row)).toMatch(
      /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d Booking confirmed Ada Lovelace · no room yet · 1–3 Sep Needs review Your PMS 1 HTTP 422 Retry$/,
    );
    expect(row).toContain(retryForm(id));
    expect(row).toMatch(/<button type="submit" aria-label="Retry booking confirmed, Ada Lovelace · no room yet · 1–3 Sep">Retry<\/button>/);
    // The bulk retry says what it includes.
    expect(list.text).toMatch(/<button type="submit" aria-describedby="retry-all-hint">Retry all failed and needs review<\/button>/);
    expect(textOf(list.text)).toContain('Sends again every delivery that is Failed (its automatic attempts are over) or Needs review (the receiver refused it');
    expect(list.text).toMatch(/<label for="f-status">Status<\/label>/);
    for (const [status, words] of Object.entries({ pending: 'Pending', retrying: 'Retrying', delivered: 'Delivered', failed: 'Failed', needs_review: 'Needs review' })) {
      expect(list.text).toContain(`<option value="${status}">${words}</option>`);
    }
    // No code in front of people: neither the event's nor the status's, nor the delivery id.
    expect(textOf(list.text)).not.toMatch(/booking\.confirmed|needs_review/);
    expect(textOf(list.text)).not.toContain(id);

    const detail = await staff.get(`/dashboard/deliveries/${id}`);
    expect(detail.status).toBe(200);
    const text = textOf(detail.text);
    expect(detail.text).toContain('<h1>Booking confirmed: Ada Lovelace</h1>');
    expect(text).toMatch(/Needs review ?: your PMS refused it \(HTTP 422\)\. It is not tried again by itself/);
    expect(text).toMatch(/Status Needs review /);
    expect(text).toMatch(/About Ada Lovelace · no room yet · 1–3 Sep · Booking BK-[A-Z0-9]{8} /);
    expect(text).toMatch(/# At Answer Duration Error 1 \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d HTTP 422 \d+ ms HTTP 422/);
    expect(text).toContain('"event": "booking.confirmed"');
    expect(detail.text).toContain(retryForm(id));
    expect(detail.text).not.toContain('http-equiv="refresh"');

    // The receiver answers 200 again: the retry from the list waits for the attempt and says how it went.
    const retried = await staff.submit(`/dashboard/deliveries/${id}/retry`, { back: 'list' });
    expect(retried.status).toBe(200);
    expect(textOf(retried.text)).toContain('Booking confirmed for Ada Lovelace: queued again and delivered; your PMS accepted it.');
    expect(retried.text).toContain('<h1>Deliveries</h1>');
    expect(textOf(rowOf(retried.text, id)!)).toMatch(/ Delivered Your PMS 2 —$/);
    const delivered = await staff.get(`/dashboard/deliveries/${id}`);
    expect(textOf(delivered.text)).toMatch(/1 .* HTTP 422 .* HTTP 422 2 .* HTTP 200 \d+ ms —/);
    expect(textOf(delivered.text)).toMatch(/Delivered ?: your PMS accepted it \(HTTP 200\) on \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d\./);
    expect(delivered.text).not.toContain(retryForm(id));
    expect((await domain.callbacks.showDelivery(id)).attempts.map((a) => a.status_code)).toEqual([422, 200]);

    // A delivered delivery is not retried: the page says so and nothing is sent.
    const again = await staff.submit(`/dashboard/deliveries/${id}/retry`, { back: 'detail' });
    expect(again.status).toBe(200);
    expect(again.text).toContain('<h1>Booking confirmed: Ada Lovelace</h1>');
    expect(textOf(again.text)).toMatch(/is delivered; only failed or needs_review deliveries are retried/);
    expect(again.text).toContain('role="alert"');
  });

  it('Retry all failed and needs review queues every failed and needs_review delivery, and they end delivered', async () => {
    const client = (await stack.createTenant()).clientId;
    const operator = await signedInOperator(stack, client, 'admin');
    const review = await needsReview(client);
    const dead = await failed(client);
    await callbacksTo(client, receiver.url);

    const list = await operator.get('/dashboard/deliveries?status=failed');
    expect(rowOf(list.text, dead)).toContain(retryForm(dead));
    expect(list.text).not.toContain(review);

    const page = await operator.submit('/dashboard/deliveries/retry-failed');
    expect(page.status).toBe(200);
    expect(textOf(page.text)).toContain('2 deliveries queued again. 1 had failed, 1 needed review.');
    await settled(review, 'delivered');
    const done = await settled(dead, 'delivered');
    expect(done.attempts).toHaveLength(4);

    const none = await operator.submit('/dashboard/deliveries/retry-failed');
    expect(textOf(none.text)).toContain('Nothing to send again: no delivery is failed or needs review.');
    const delivered = await operator.get('/dashboard/deliveries?status=delivered');
    for (const id of [review, dead]) expect(rowOf(delivered.text, id)).not.toContain(retryForm(id));
  });

  it("answers 404 for another client's delivery, on its page and on Retry, and retries nothing", async () => {
    const other = await stack.createTenant();
    const theirs = await needsReview(other.clientId);

    const page = await staff.get(`/dashboard/deliveries/${theirs}`);
    expect(page.status).toBe(404);
    expect(page.text).not.toContain('booking.confirmed');
    const retry = await staff.request('POST', `/dashboard/deliveries/${theirs}/retry`, { back: 'detail' });
    expect(retry.status).toBe(404);
    expect((await domain.callbacks.showDelivery(theirs)).status).toBe('needs_review');
    // Retry all is the operator's own client's only.
    await staff.submit('/dashboard/deliveries/retry-failed');
    expect((await domain.callbacks.showDelivery(theirs)).status).toBe('needs_review');
    expect((await staff.get('/dashboard/deliveries')).text).not.toContain(theirs);

    const unknown = randomUUID();
    expect((await staff.get(`/dashboard/deliveries/${unknown}`)).status).toBe(404);
    expect((await staff.request('POST', `/dashboard/deliveries/${unknown}/retry`)).status).toBe(404);
  });

  it('shows payment_order.paid webhooks too, named by the guest and stay of their order', async () => {
    await domain.callbacks.configureEndpoint(tenant.clientId, 'webhook', { url: receiver.url });
    const { orderReference } = await paidRoomBooking(stack, tenant, { check_in_date: '2027-10-01', check_out_date: '2027-10-02' });
    const webhook = await waitFor('the webhook delivery', async () => {
      const list = await staff.get('/dashboard/deliveries?status=delivered');
      return list.text.split('<tr>').find((row) => row.includes('>Order paid</a>'))?.split('</tr>')[0];
    });
    // Paid without a room (the order named none): the booking awaits one.
    expect(textOf(webhook)).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d Order paid Ada Lovelace · no room yet · 1–2 Oct Delivered Your website 1 —$/);
    const id = /\/dashboard\/deliveries\/([0-9a-f-]{36})"/.exec(webhook)![1]!;
    const detail = await staff.get(`/dashboard/deliveries/${id}`);
    expect(detail.text).toContain('<h1>Order paid: Ada Lovelace</h1>');
    expect(detail.text).toContain(`href="/dashboard/payments/${orderReference}"`);
  });

  it("names the room of a booking that has one, and keeps each booking's confirmations findable by the booking", async () => {
    const hotel = await stack.createTenant();
    const operator = await signedInOperator(stack, hotel.clientId, 'staff');
    const roomId = await roomOf(hotel, '101');
    await callbacksTo(hotel.clientId, receiver.url);
    const confirmed = await domain.bookings.confirmServiceBooking(hotel.clientId, {
      origin: 'reception',
      roomId,
      requireRoom: true,
      guest_name: 'Ana Silva',
      guests: 1,
      check_in_date: '2027-11-28',
      check_out_date: '2027-11-30',
      payment_status: 'unpaid',
      payment_method: 'pay_at_property',
    });
    const id = confirmed.delivery_id!;
    await settled(id, 'delivered');
    const list = await operator.get('/dashboard/deliveries');
    expect(textOf(rowOf(list.text, id)!)).toMatch(/ Booking confirmed Ana Silva · Room 101 · 28–30 Nov Delivered Your PMS 1 —$/);
    // The booking's confirmation is found by the booking alone: the overview and the booking page read it so.
    const receipts = await domain.views.pmsReceipts(hotel.clientId, [confirmed.booking.id, randomUUID()]);
    expect([...receipts.values()]).toEqual([{ state: 'received', delivery_id: id, at: expect.any(String) }, { state: 'none' }]);
    // Another client asking about the same booking finds nothing.
    expect((await domain.views.pmsReceipts(tenant.clientId, [confirmed.booking.id])).get(confirmed.booking.id)).toEqual({ state: 'none' });
  });

  it("reloads a delivery's page by itself while it is being sent, and shows the outcome once it is known", async () => {
    const hotel = await stack.createTenant();
    const operator = await signedInOperator(stack, hotel.clientId, 'staff');
    const slow = await startSlowReceiver();
    try {
      await callbacksTo(hotel.clientId, slow.url);
      // Refused at once: needs review.
      slow.answer(422, 0);
      const id = await receptionBooking(hotel.clientId);
      await settled(id, 'needs_review');

      // The PMS now takes 6 s to answer: Retry waits a few seconds, then shows the page as it stands.
      slow.answer(200, 6000);
      const started = Date.now();
      const posted = await operator.request('POST', `/dashboard/deliveries/${id}/retry`, { back: 'detail' });
      expect(posted.status).toBe(303);
      expect(posted.location).toBe(`/dashboard/deliveries/${id}`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
      const sending = await operator.get(posted.location!);
      expect(textOf(sending.text)).toContain('Booking confirmed for Ada Lovelace: queued again and being sent to your PMS now.');
      expect(textOf(sending.text)).toContain('Sending… This page reloads itself every 2 seconds until the outcome is known.');
      expect(sending.text).toContain('<meta http-equiv="refresh" content="2"/>');
      expect(sending.text).not.toContain(retryForm(id));

      // What the reload finds once the PMS has answered: the outcome, and no more reloading.
      await settled(id, 'delivered');
      const done = await operator.get(`/dashboard/deliveries/${id}`);
      expect(textOf(done.text)).toMatch(/Delivered ?: your PMS accepted it \(HTTP 200\) on .*\. It was delivered; nothing more to do\./);
      expect(done.text).not.toContain('http-equiv="refresh"');
      expect(textOf(done.text)).not.toContain('Sending…');
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('pages through every delivery once, with the filter kept', async () => {
    const client = (await stack.createTenant()).clientId;
    const operator = await signedInOperator(stack, client, 'staff');
    await callbacksTo(client, receiver.url);
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(await receptionBooking(client));
    for (const id of ids) await settled(id, 'delivered');

    for (const first of ['/dashboard/deliveries?limit=2', '/dashboard/deliveries?status=delivered&limit=2']) {
      const seen: string[] = [];
      let path: string | undefined = first;
      let pages = 0;
      while (path) {
        const page = await operator.get(path);
        expect(page.status).toBe(200);
        const rows = [...page.text.matchAll(/href="\/dashboard\/deliveries\/([0-9a-f-]{36})"/g)].map((m) => m[1]!);
        expect(rows.length).toBeLessThanOrEqual(2);
        seen.push(...rows);
        path = nextPage(page.text);
        if (path) expect(new URLSearchParams(path.split('?')[1]).get('limit')).toBe('2');
        if (path && first.includes('status')) expect(path).toContain('status=delivered');
        expect(++pages).toBeLessThan(10);
      }
      expect(seen).toHaveLength(5);
      expect(new Set(seen)).toEqual(ids);
    }

    // A cursor of another list, or none at all, is refused; so is a status that is none.
    const bad = await operator.get('/dashboard/deliveries?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(textOf(bad.text)).toContain('cursor: is not a cursor of this list');
    expect((await operator.get('/dashboard/deliveries?status=lost')).status).toBe(400);
    expect((await operator.get('/dashboard/deliveries?limit=0')).status).toBe(400);
  });
});
