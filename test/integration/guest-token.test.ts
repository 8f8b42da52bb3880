/**
 * Only the guest holds a guest's booking (docs/reliability.md "Only the guest holds a guest's booking"),
 * on the local stack over HTTP: the security review's path from a partner key to a guest's
 * refund (the deliveries API gives the order reference, verify by reference, follow the redirect,
 * cancel) ends at a page that names nobody and leads nowhere; the sandbox checkout, asked again
 * by anyone who knows its session, hands out no return secret; the guest's own checkout redirect
 * and e-mail link still lead to the booking's page, whose cancel works for the guest.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../support/dashboard-client';
import { pagesOf } from '../support/form-post';
import { emailTo, linkIn } from '../support/inbox';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let webhooks: Receiver;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@guest.example`;
const RECEIVED = 'Your payment was received; your confirmation is on its way by e-mail';

interface Hotel {
  clientId: string;
  /** A partner's key that reads the hotel's deliveries, and its payment key. */
  reader: string;
  paymentKey: string;
  roomId: string;
}

async function hotel(): Promise<Hotel> {
  const { createClientAccount } = await import('../../shared/domain/clients');
  const clientId = (await createClientAccount({ name: `Hotel Tramonto ${randomUUID().slice(0, 4)}`, plan: 'premium', currency: 'EUR' })).client_id;
  const [{ key }, payment, reader] = await Promise.all([
    stack.issueKey(clientId, 'sync'),
    stack.issueKey(clientId, 'payment'),
    stack.issueKey(clientId, 'payment', { scopes: ['deliveries:read'] }),
  ]);
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: { external_source: 'pms', rooms: [{ external_room_id: 'R101', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 }] },
  });
  expect(put.status, put.text).toBe(200);
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  await configureEndpoint(clientId, 'webhook', { url: webhooks.url });
  return { clientId, reader: reader.key, paymentKey: payment.key, roomId: (put.body.items as { id: string }[])[0]!.id };
}

const get = (path: string) => pagesOf(stack.url).get(path);
const post = (path: string, form?: Record<string, string>) => pagesOf(stack.url).post(path, form);

/** The guest books room 101 on the pages and pays on the sandbox checkout: the checkout, its redirect to verify and where verify sends the browser. */
async function bookAndPay(h: Hotel, guest: { name: string; email: string }) {
  const stay = { check_in: day(30), check_out: day(32), guests: '1' };
  const details = await get(`/book/${h.clientId}/details?${new URLSearchParams({ ...stay, room_id: h.roomId })}`);
  expect(details.status, details.html).toBe(200);
  const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(details.html)![1]!;
  const opened = await post(`/book/${h.clientId}/bookings`, { ...stay, room_id: h.roomId, attempt, ...guest, pay: 'checkout' });
  expect(opened.status, opened.html).toBe(303);
  const paid = await post(opened.location!, { outcome: 'paid' });
  expect(paid.status).toBe(303);
  const verify = await get(paid.location!);
  expect(verify.status, verify.html).toBe(303);
  return { checkoutUrl: opened.location!, returnUrl: paid.location!, landed: new URL(verify.location!).pathname };
}

beforeAll(async () => {
  stack = await startTestStack();
  webhooks = await startReceiver();
});

afterAll(async () => {
  await webhooks?.close();
  await stack?.stop();
});

describe("a guest's booking from an order reference", () => {
  it("the review's path is closed: deliveries API, verify, follow, cancel lead nowhere; the guest's own redirect and e-mail still do", async () => {
    const h = await hotel();
    const guest = { name: 'Ada Lovelace', email: address('ada') };
    const own = await bookAndPay(h, guest);
    expect(own.returnUrl).toMatch(/[?&]return=[A-Za-z0-9_-]{43}$/);
    expect(own.landed).toMatch(new RegExp(`^/book/${h.clientId}/confirmation/[A-Za-z0-9_-]{43}$`));
    expect(textOf((await get(own.landed)).html)).toContain('Booking confirmed');

    // A partner's key with deliveries:read: the payment_order.paid webhook's body gives the order reference.
    await waitFor('payment_order.paid', async () => (webhooks.received.length ? true : undefined));
    const listed = await stack.request('GET', '/api/v1/deliveries?event=payment_order.paid', { key: h.reader });
    expect(listed.status, listed.text).toBe(200);
    const [delivery] = listed.body.deliveries as { delivery_id: string }[];
    const shown = await stack.request('GET', `/api/v1/deliveries/${delivery!.delivery_id}`, { key: h.reader });
    expect(shown.status, shown.text).toBe(200);
    const orderReference = /(PO-[A-Z0-9]{12})/.exec(JSON.stringify(shown.body))![1]!;

    // Verify by the reference alone: a page, no redirect, no token, no name, no address.
    const verifyUrl = `/api/v1/payments/payment-orders/verify?reference=${orderReference}`;
    for (const url of [verifyUrl, `${verifyUrl}&return=${'A'.repeat(43)}`, `${verifyUrl}&return=`]) {
      const answer = await get(url);
      expect(answer.status, answer.html).toBe(200);
      expect(answer.location).toBeUndefined();
      expect(textOf(answer.html)).toContain(RECEIVED);
      for (const secret of ['/confirmation/', own.landed.split('/').pop()!, guest.name, guest.email, guest.email.split('@')[0]!]) {
        expect(answer.html).not.toContain(secret);
      }
    }
    // Followed as a browser would: it stays where it is.
    const followed = await fetch(new URL(verifyUrl, stack.url));
    expect(followed.url).toBe(new URL(verifyUrl, stack.url).toString());
    expect(await followed.text()).not.toContain('/confirmation/');

    // The sandbox checkout, submitted again or opened by anyone who knows its session (the status
    // lookup names it): sent back without the return secret, so to the same page.
    const lookup = await stack.request('GET', `/api/v1/payments/payment-orders/${orderReference}`, { key: h.paymentKey });
    expect(lookup.body.provider_reference).toBe(new URL(own.checkoutUrl).pathname.split('/').pop());
    const again = await post(own.checkoutUrl, { outcome: 'paid' });
    expect(again.status).toBe(303);
    expect(again.location).not.toContain('return=');
    expect(textOf((await get(again.location!)).html)).toContain(RECEIVED);
    expect((await get(own.checkoutUrl)).html).not.toContain('return=');

    // Try the cancel with what the path gave: nothing of the booking's page answers to the reference.
    expect((await post(`/book/${h.clientId}/confirmation/${orderReference}/cancel`)).status).toBe(404);
    const { getOrder } = await import('../../shared/store/payment-store');
    expect(await getOrder(orderReference)).toMatchObject({ status: 'paid' });
    expect((await stack.request('GET', `/api/v1/payments/payment-orders/${orderReference}`, { key: h.paymentKey })).body.refunds).toEqual([]);

    // The guest's own: the e-mail's link leads to the booking's page, whose cancel works for the guest.
    const email = await emailTo(guest.email, /^Booking confirmed/, 30_000);
    const link = new URL(linkIn(email, 'See your booking')).pathname;
    expect(link).toBe(own.landed);
    expect(textOf((await get(link)).html)).toContain('Booking confirmed');
    expect(await post(`${link}/cancel`)).toMatchObject({ status: 303, location: link });
    expect(textOf((await get(link)).html)).toContain('Booking cancelled');
    expect(await getOrder(orderReference)).toMatchObject({ status: 'refunded' });
  }, 120_000);

  it("a partner's own order still returns to its success_url by reference alone", async () => {
    const h = await hotel();
    const created = await stack.request('POST', '/api/v1/payments/payment-orders', {
      key: h.paymentKey,
      headers: { 'Idempotency-Key': randomUUID() },
      body: { reference: `P-${randomUUID().slice(0, 8)}`, amount_minor: 5000, currency: 'EUR', customer: { email: address('p') }, success_url: 'https://partner.example/ok', cancel_url: 'https://partner.example/no' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await post(created.body.checkout_url, { outcome: 'paid' })).status).toBe(303);
    const verified = await get(`/api/v1/payments/payment-orders/verify?reference=${created.body.order_reference}`);
    expect(verified.status).toBe(303);
    expect(verified.location).toMatch(/^https:\/\/partner\.example\/ok\?payment=success/);
  }, 60_000);
});
