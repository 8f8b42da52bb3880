/**
 * The dashboard's Deliveries page over HTTP, as an operator uses it: callbacks and webhooks with
 * their attempts, Retry on a delivery the receiver refused, Retry all failed, the status filter,
 * pages, and another client's deliveries answering 404. The real sender runs against a receiver
 * on loopback (the local queue poller), so a retried delivery really ends delivered.
 */
import { randomUUID } from 'node:crypto';
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
};

beforeAll(async () => {
  // A dead receiver fails after three quick attempts.
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
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

/** Polls the delivery's page until it shows `status`. */
async function pageShows(client: DashboardClient, id: string, status: string) {
  return waitFor(`the page of ${id} to show ${status}`, async () => {
    const page = await client.get(`/dashboard/deliveries/${id}`);
    expect(page.status).toBe(200);
    return new RegExp(`Status ${status} `).test(textOf(page.text)) ? page : undefined;
  });
}

describe('Deliveries', () => {
  it('lists a needs_review delivery with its attempt; Retry queues it again and it ends delivered', async () => {
    const id = await needsReview(tenant.clientId);

    const list = await staff.get('/dashboard/deliveries');
    expect(list.status).toBe(200);
    const row = rowOf(list.text, id)!;
    expect(row).toBeDefined();
    expect(textOf(row)).toMatch(/booking\.confirmed needs_review callback: http:\/\/127\.0\.0\.1:\d+\/hooks\/booking 1 HTTP 422/);
    expect(row).toContain(retryForm(id));
    expect(row).toMatch(/<button type="submit">Retry<\/button>/);
    expect(list.text).toMatch(/<button type="submit">Retry all failed<\/button>/);
    expect(list.text).toMatch(/<label for="f-status">Status<\/label>/);
    for (const status of ['pending', 'retrying', 'delivered', 'failed', 'needs_review']) expect(list.text).toContain(`<option value="${status}"`);

    const detail = await staff.get(`/dashboard/deliveries/${id}`);
    expect(detail.status).toBe(200);
    const text = textOf(detail.text);
    expect(text).toContain(`Delivery ${id}`);
    expect(text).toMatch(/Status needs_review /);
    expect(text).toMatch(/# At Status code Duration Error 1 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC 422 \d+ ms HTTP 422/);
    expect(text).toContain('"event": "booking.confirmed"');
    expect(detail.text).toContain(retryForm(id));

    // The receiver answers 200 again: the retry from the list is delivered.
    const retried = await staff.submit(`/dashboard/deliveries/${id}/retry`, { back: 'list' });
    expect(retried.status).toBe(200);
    expect(textOf(retried.text)).toContain(`Delivery ${id} queued again.`);
    expect(retried.text).toContain('<h1>Deliveries</h1>');
    const delivered = await pageShows(staff, id, 'delivered');
    expect(textOf(delivered.text)).toMatch(/1 .* 422 .* HTTP 422 2 .* 200 \d+ ms —/);
    expect(delivered.text).not.toContain(retryForm(id));
    expect((await domain.callbacks.showDelivery(id)).attempts.map((a) => a.status_code)).toEqual([422, 200]);

    // A delivered delivery is not retried: the page says so and nothing is sent.
    const again = await staff.submit(`/dashboard/deliveries/${id}/retry`, { back: 'detail' });
    expect(again.status).toBe(200);
    expect(again.text).toContain(`<h1>Delivery ${id}</h1>`);
    expect(textOf(again.text)).toMatch(/is delivered; only failed or needs_review deliveries are retried/);
    expect(again.text).toContain('role="alert"');
  });

  it('Retry all failed queues every failed and needs_review delivery, and they end delivered', async () => {
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
    expect(textOf(page.text)).toContain('2 deliveries queued again.');
    await settled(review, 'delivered');
    const done = await settled(dead, 'delivered');
    expect(done.attempts).toHaveLength(4);

    const none = await operator.submit('/dashboard/deliveries/retry-failed');
    expect(textOf(none.text)).toContain('0 deliveries queued again');
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

  it('shows payment_order.paid webhooks too', async () => {
    await domain.callbacks.configureEndpoint(tenant.clientId, 'webhook', { url: receiver.url });
    const { orderReference } = await paidRoomBooking(stack, tenant, { check_in_date: '2027-10-01', check_out_date: '2027-10-02' });
    const webhook = await waitFor('the webhook delivery', async () => {
      const list = await staff.get('/dashboard/deliveries?status=delivered');
      return list.text.split('<tr>').find((row) => row.includes('<td>payment_order.paid</td>'))?.split('</tr>')[0];
    });
    expect(textOf(webhook)).toMatch(/ UTC payment_order\.paid delivered webhook: http:\/\/127\.0\.0\.1:\d+\/hooks\/booking 1 — [0-9a-f-]{36}$/);
    const id = /\/dashboard\/deliveries\/([0-9a-f-]{36})"/.exec(webhook)![1]!;
    const detail = await staff.get(`/dashboard/deliveries/${id}`);
    expect(detail.text).toContain(`href="/dashboard/payments/${orderReference}"`);
  });

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
