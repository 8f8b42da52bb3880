/**
 * Payment orders end to end through the local gateway (spec Area B, docs/behaviour.md "Payment
 * orders", "Sandbox payment provider"): create, the hosted sandbox checkout, verify redirects,
 * status lookups, mirroring of paid room bookings, the booking.confirmed callback and the signed
 * payment_order.paid webhook, reuse and conflicts, keys, and ten concurrent paid orders for one
 * room. Redirects are never followed (the harness fetches with redirect: 'manual'), so the
 * partner's return URLs need no network.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/receiver-kit';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const ORDERS = '/api/v1/payments/payment-orders';
const SUCCESS_URL = 'https://partner.example/return?x=1';
const CANCEL_URL = 'https://partner.example/cancel?y=2';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

let stack: TestStack;
let callbacks: Receiver;
let webhooks: Receiver;

type Domain = {
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  store: typeof import('../../shared/store/room-store');
};
let domain: Domain;

beforeAll(async () => {
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  callbacks = await startReceiver();
  webhooks = await startReceiver();
  domain = {
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    store: await import('../../shared/store/room-store'),
  };
});

afterAll(async () => {
  await callbacks?.close();
  await webhooks?.close();
  await stack?.stop();
});

beforeEach(() => {
  callbacks.received.length = 0;
  webhooks.received.length = 0;
});

// ---- helpers

interface Hotel {
  tenant: Tenant;
  rooms: Map<string, string>;
  callbackSecret?: string;
  webhookSecret?: string;
}

/** A client with three synced rooms; callback and webhook URLs only when asked for. */
async function hotel(options: { callback?: boolean; webhook?: boolean } = {}): Promise<Hotel> {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: ['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(put.status).toBe(200);
  const rooms = new Map((await domain.store.listRooms(tenant.clientId)).map((r) => [r.room_number, r.id]));
  const h: Hotel = { tenant, rooms };
  if (options.callback) {
    h.callbackSecret = (await domain.deliveries.configureEndpoint(tenant.clientId, 'callback', { url: callbacks.url })).secret;
  }
  if (options.webhook) {
    h.webhookSecret = (await domain.deliveries.configureEndpoint(tenant.clientId, 'webhook', { url: webhooks.url })).secret;
  }
  return h;
}

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    reference: `INV-${randomUUID()}`,
    amount_minor: 12500,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+442071234567' },
    success_url: SUCCESS_URL,
    cancel_url: CANCEL_URL,
    ...overrides,
  };
}

function create(key: string, body: unknown, headers: Record<string, string> = {}) {
  return stack.request('POST', ORDERS, { key, body, headers });
}

function lookup(key: string, orderReference: string) {
  return stack.request('GET', `${ORDERS}/${encodeURIComponent(orderReference)}`, { key });
}

/** The guest on the hosted page: opens it, then presses one of its buttons. Returns the 303's Location. */
async function checkout(checkoutUrl: string, outcome: 'paid' | 'cancelled' | 'failed'): Promise<string> {
  const page = await fetch(checkoutUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).toContain(`name="outcome" value="${outcome}"`);
  const submit = await fetch(checkoutUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
    redirect: 'manual',
  });
  expect(submit.status).toBe(303);
  return submit.headers.get('location')!;
}

function verifyPath(orderReference: string) {
  return `${ORDERS}/verify?reference=${encodeURIComponent(orderReference)}`;
}

/** The provider sends the guest back to the service: the 303 and its Location. */
async function verify(orderReference: string) {
  const response = await stack.request('GET', verifyPath(orderReference));
  return { status: response.status, location: response.headers.get('location'), response };
}

function returnUrl(base: string, outcome: 'success' | 'failed', orderReference: string) {
  return `${base}&payment=${outcome}&payment_order=${orderReference}&reference=${orderReference}`;
}

async function availableRoomNumbers(h: Hotel, checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, {
    key: h.tenant.syncKey,
  });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

async function deliveredCount(clientId: string, count: number) {
  return waitFor(`${count} delivered deliveries`, async () => {
    const all = await domain.deliveries.listDeliveries(clientId);
    return all.length === count && all.every((d) => d.status === 'delivered') ? all : undefined;
  });
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the whole flow

describe('a paid room booking, end to end', () => {
  it('create, checkout, pay, verify, lookup paid and synced, callback and webhook delivered, a second verify records nothing', async () => {
    const h = await hotel({ callback: true, webhook: true });
    const roomId = h.rooms.get('102')!;
    const body = orderBody({
      context: { type: 'room_booking', booking_id: 'WEB-77', check_in_date: '2027-05-10', check_out_date: '2027-05-13', guests: 2, service_room_id: roomId },
    });

    const created = await create(h.tenant.paymentKey, body);
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const order = created.body;
    expect(order).toEqual({
      payment_order_id: expect.stringMatching(UUID),
      order_reference: expect.any(String),
      external_reference: body.reference,
      status: 'processing',
      amount_minor: 12500,
      amount: 125,
      currency: 'USD',
      provider: 'sandbox',
      provider_reference: expect.any(String),
      // The sandbox's own origin, never the API's: paying crosses origins, as with Stripe.
      checkout_url: `${stack.sandboxUrl}/checkout/${order.provider_reference}`,
      reused: false,
    });
    expect(order.order_reference).not.toBe(body.reference);
    expect(new URL(order.checkout_url).origin).not.toBe(new URL(stack.url).origin);

    // The hosted page shows amount, currency and customer.
    const page = await fetch(order.checkout_url);
    const html = await page.text();
    // The amount with its currency, as the page's language (English for a partner's order) writes it.
    expect(html).toContain('125.00 USD');
    expect(html).toContain('ada@example.com');
    expect(html).toContain('Ada Lovelace');

    // The guest pays; the provider sends them to the service's verify URL.
    const back = await checkout(order.checkout_url, 'paid');
    // With the attempt's return secret, which only this checkout's redirect carries.
    expect(back).toMatch(new RegExp(`^${stack.url}${verifyPath(order.order_reference).replace('?', '\\?')}&return=[A-Za-z0-9_-]{43}$`));

    const verified = await verify(order.order_reference);
    expect(verified.status).toBe(303);
    expect(verified.location).toBe(returnUrl(SUCCESS_URL, 'success', order.order_reference));

    const status = await lookup(h.tenant.paymentKey, order.order_reference);
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      payment_order_id: order.payment_order_id,
      order_reference: order.order_reference,
      external_reference: body.reference,
      status: 'paid',
      amount_minor: 12500,
      currency: 'USD',
      provider: 'sandbox',
      provider_reference: order.provider_reference,
      paid_at: expect.stringMatching(ISO_UTC),
      // Nothing refunded yet (docs/behaviour.md "Booking changes, cancellations and refunds").
      amount_refunded_minor: 0,
      refunds: [],
      service_booking_sync: {
        status: 'synced',
        booking_id: expect.stringMatching(UUID),
        booking_reference: expect.any(String),
        confirmation_code: expect.any(String),
        room_id: roomId,
        room_assignment: 'locked',
        // 125.00 for two nights at 120.00: below the rate; the default setting still locks the room.
        below_rate: true,
        room_assignment_reason: null,
      },
    });
    const sync = status.body.service_booking_sync;

    // The locked room is gone from availability for those nights, and only for those nights.
    expect(await availableRoomNumbers(h, '2027-05-12', '2027-05-14')).toEqual(['101', '103']);
    expect(await availableRoomNumbers(h, '2027-05-13', '2027-05-14')).toEqual(['101', '102', '103']);

    // booking.confirmed to the callback URL, signed with the callback secret.
    const delivered = await deliveredCount(h.tenant.clientId, 2);
    expect(callbacks.received).toHaveLength(1);
    const callback = callbacks.received[0]!;
    expect(callback.headers['x-service-event']).toBe('booking.confirmed');
    expect(callback.headers['x-service-client']).toBe(h.tenant.clientId);
    expect(verifySignature(callback.rawBody, callback.headers['x-service-signature'] as string, h.callbackSecret!)).toBe(true);
    const confirmed = JSON.parse(callback.rawBody.toString('utf8'));
    expect(confirmed.booking).toEqual({
      id: sync.booking_id,
      booking_reference: sync.booking_reference,
      confirmation_code: sync.confirmation_code,
      guest_name: 'Ada Lovelace',
      guest_email: 'ada@example.com',
      guest_phone: '+442071234567',
      guests: 2,
      check_in_date: '2027-05-10',
      check_out_date: '2027-05-13',
      total_amount: 125,
      status: 'confirmed',
      payment_status: 'paid',
      payment_method: 'sandbox',
      gateway_reference: order.provider_reference,
      // The booking's first event.
      sequence: 1,
    });
    expect(confirmed.room).toMatchObject({ id: roomId, room_number: '102', external_room_id: 'R102' });

    // payment_order.paid to the webhook URL, signed with the webhook secret (not the callback's).
    expect(webhooks.received).toHaveLength(1);
    const webhook = webhooks.received[0]!;
    expect(webhook.headers['content-type']).toBe('application/json');
    expect(webhook.headers['x-service-event']).toBe('payment_order.paid');
    expect(webhook.headers['x-service-client']).toBe(h.tenant.clientId);
    const signature = webhook.headers['x-service-signature'] as string;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(webhook.rawBody, signature, h.webhookSecret!)).toBe(true);
    expect(verifySignature(webhook.rawBody, signature, h.callbackSecret!)).toBe(false);
    expect(JSON.parse(webhook.rawBody.toString('utf8'))).toEqual({
      event: 'payment_order.paid',
      payment_order: { order_reference: order.order_reference, external_reference: body.reference, status: 'paid', amount_minor: 12500, currency: 'USD' },
    });
    const webhookDelivery = delivered.find((d) => d.event === 'payment_order.paid')!;
    expect(webhook.headers['x-service-delivery']).toBe(webhookDelivery.delivery_id);

    // The guest reloads the return page: success again, nothing recorded twice.
    const again = await verify(order.order_reference);
    expect(again.status).toBe(303);
    expect(again.location).toBe(returnUrl(SUCCESS_URL, 'success', order.order_reference));
    expect((await lookup(h.tenant.paymentKey, order.order_reference)).body).toEqual(status.body);
    await settle(600);
    expect(await domain.deliveries.listDeliveries(h.tenant.clientId)).toHaveLength(2);
    expect(callbacks.received).toHaveLength(1);
    expect(webhooks.received).toHaveLength(1);

    // Creating it again returns the paid order, with no new checkout.
    const repeat = await create(h.tenant.paymentKey, body);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ ...order, status: 'paid', reused: true });
  });

  it('an order without room_booking context is paid without a booking; no webhook URL, no delivery', async () => {
    const h = await hotel();
    const created = await create(h.tenant.paymentKey, orderBody({ context: { type: 'donation', department: 'front desk' } }));
    expect(created.status).toBe(201);
    await checkout(created.body.checkout_url, 'paid');
    expect((await verify(created.body.order_reference)).location).toBe(returnUrl(SUCCESS_URL, 'success', created.body.order_reference));
    const status = await lookup(h.tenant.paymentKey, created.body.order_reference);
    expect(status.body.status).toBe('paid');
    expect(status.body.service_booking_sync).toMatchObject({ status: 'not_applicable', booking_id: null });
    await settle(300);
    expect(await domain.deliveries.listDeliveries(h.tenant.clientId)).toEqual([]);
    expect(webhooks.received).toHaveLength(0);
  });

  it('a room_booking without a service room id is recorded for manual assignment and blocks no room', async () => {
    const h = await hotel({ callback: true });
    const created = await create(
      h.tenant.paymentKey,
      orderBody({ context: { type: 'room_booking', check_in_date: '2027-06-01', check_out_date: '2027-06-03', guests: 1 } }),
    );
    await checkout(created.body.checkout_url, 'paid');
    await verify(created.body.order_reference);
    const status = await lookup(h.tenant.paymentKey, created.body.order_reference);
    expect(status.body.service_booking_sync).toEqual({
      status: 'synced',
      booking_id: expect.stringMatching(UUID),
      booking_reference: expect.any(String),
      confirmation_code: expect.any(String),
      room_id: null,
      room_assignment: 'manual',
      // No room named: no rate to fall below.
      below_rate: false,
      room_assignment_reason: null,
    });
    expect(await availableRoomNumbers(h, '2027-06-01', '2027-06-03')).toEqual(['101', '102', '103']);
    await deliveredCount(h.tenant.clientId, 1);
    const confirmed = JSON.parse(callbacks.received[0]!.rawBody.toString('utf8'));
    expect(confirmed.booking).toMatchObject({ id: status.body.service_booking_sync.booking_id, payment_status: 'paid', status: 'confirmed' });
  });
});

describe('recorded for manual assignment when the room cannot be locked', () => {
  async function paidRoomOrder(h: Hotel, context: Record<string, unknown>) {
    const created = await create(h.tenant.paymentKey, orderBody({ context: { type: 'room_booking', ...context } }));
    expect(created.status).toBe(201);
    await checkout(created.body.checkout_url, 'paid');
    await verify(created.body.order_reference);
    const status = await lookup(h.tenant.paymentKey, created.body.order_reference);
    expect(status.body.status).toBe('paid');
    return status.body.service_booking_sync;
  }

  it('a room already booked by the PMS for overlapping nights', async () => {
    const h = await hotel();
    const sync = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: [{ external_booking_id: 'B1', external_room_id: 'R103', guest_name: 'G', guests: 1, check_in_date: '2027-07-04', check_out_date: '2027-07-06', status: 'confirmed' }],
      },
    });
    expect(sync.status).toBe(200);
    const taken = await paidRoomOrder(h, { check_in_date: '2027-07-05', check_out_date: '2027-07-07', guests: 1, service_room_id: h.rooms.get('103') });
    expect(taken).toMatchObject({ status: 'synced', room_assignment: 'manual', room_id: null });
    // Touching stays do not overlap: the room is free from the PMS booking's check-out day.
    const free = await paidRoomOrder(h, { check_in_date: '2027-07-06', check_out_date: '2027-07-08', guests: 1, service_room_id: h.rooms.get('103') });
    expect(free).toMatchObject({ room_assignment: 'locked', room_id: h.rooms.get('103') });
  });

  it('more guests than the room takes', async () => {
    const h = await hotel();
    const sync = await paidRoomOrder(h, { check_in_date: '2027-07-10', check_out_date: '2027-07-11', guests: 3, service_room_id: h.rooms.get('101') });
    expect(sync).toMatchObject({ status: 'synced', room_assignment: 'manual', room_id: null });
    expect(await availableRoomNumbers(h, '2027-07-10', '2027-07-11')).toEqual(['101', '102', '103']);
  });

  it("another client's room id: nothing of that client is touched", async () => {
    const victim = await hotel();
    const h = await hotel();
    const victimRoom = victim.rooms.get('101')!;
    const sync = await paidRoomOrder(h, { check_in_date: '2027-07-20', check_out_date: '2027-07-22', guests: 1, service_room_id: victimRoom });
    expect(sync).toMatchObject({ status: 'synced', room_assignment: 'manual', room_id: null });
    expect(await availableRoomNumbers(victim, '2027-07-20', '2027-07-22')).toEqual(['101', '102', '103']);
  });
});

// ---- outcomes other than paid

describe('cancel and fail', () => {
  it.each(['cancelled', 'failed'] as const)('a %s checkout sends the guest to cancel_url, and a repeat makes a new attempt that can be paid', async (outcome) => {
    const h = await hotel({ webhook: true });
    const body = orderBody({ amount_minor: 4999, currency: 'EUR' });
    const first = await create(h.tenant.paymentKey, body);
    expect(first.status).toBe(201);
    expect(first.body.amount).toBe(49.99);

    await checkout(first.body.checkout_url, outcome);
    const verified = await verify(first.body.order_reference);
    expect(verified.status).toBe(303);
    expect(verified.location).toBe(returnUrl(CANCEL_URL, 'failed', first.body.order_reference));
    const closed = await lookup(h.tenant.paymentKey, first.body.order_reference);
    expect(closed.body).toMatchObject({ status: outcome, paid_at: null, service_booking_sync: { status: 'not_applicable' } });

    // The closed checkout page no longer offers buttons, and cannot be paid after the fact.
    const stale = await (await fetch(first.body.checkout_url)).text();
    expect(stale).not.toContain('name="outcome"');
    await fetch(first.body.checkout_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'outcome=paid',
      redirect: 'manual',
    });
    await verify(first.body.order_reference);
    expect((await lookup(h.tenant.paymentKey, first.body.order_reference)).body.status).toBe(outcome);

    // The partner tries again with the same reference: same order, new attempt.
    const retry = await create(h.tenant.paymentKey, body);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({
      payment_order_id: first.body.payment_order_id,
      order_reference: first.body.order_reference,
      status: 'processing',
      reused: true,
    });
    expect(retry.body.checkout_url).not.toBe(first.body.checkout_url);
    expect(retry.body.provider_reference).not.toBe(first.body.provider_reference);
    expect((await lookup(h.tenant.paymentKey, first.body.order_reference)).body.status).toBe('processing');

    await checkout(retry.body.checkout_url, 'paid');
    expect((await verify(first.body.order_reference)).location).toBe(returnUrl(SUCCESS_URL, 'success', first.body.order_reference));
    expect((await lookup(h.tenant.paymentKey, first.body.order_reference)).body).toMatchObject({
      status: 'paid',
      provider_reference: retry.body.provider_reference,
    });
    await deliveredCount(h.tenant.clientId, 1);
    expect(webhooks.received).toHaveLength(1);
  });

  it('the redirect query never marks an order paid: verify before paying keeps it processing, and it can still be paid', async () => {
    const h = await hotel({ webhook: true });
    const created = await create(h.tenant.paymentKey, orderBody());
    const ref = created.body.order_reference;

    // The guest (or anyone) hits verify before paying, even with a forged "success" query.
    const early = await stack.request('GET', `${verifyPath(ref)}&payment=success&payment_order=${ref}`);
    expect(early.status).toBe(303);
    expect(early.headers.get('location')).toBe(returnUrl(CANCEL_URL, 'failed', ref));
    const status = await lookup(h.tenant.paymentKey, ref);
    expect(status.body).toMatchObject({ status: 'processing', paid_at: null });

    // Submitting the form alone does not mark it paid either; verify asks the provider.
    await checkout(created.body.checkout_url, 'paid');
    expect((await verify(ref)).location).toBe(returnUrl(SUCCESS_URL, 'success', ref));
    expect((await lookup(h.tenant.paymentKey, ref)).body.status).toBe('paid');
    await deliveredCount(h.tenant.clientId, 1);
  });
});

describe('the sandbox provider', () => {
  it('a provider that reports another amount than the order does not make it paid', async () => {
    const h = await hotel({ webhook: true });
    const created = await create(h.tenant.paymentKey, orderBody());
    const ref = created.body.order_reference;
    await checkout(created.body.checkout_url, 'paid');
    // The provider's record of the payment disagrees with the order (1.00 USD instead of 125.00).
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { keys } = await import('../../shared/store/keys');
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.sandboxSession(created.body.provider_reference),
        UpdateExpression: 'SET amount_minor = :a',
        ExpressionAttributeValues: { ':a': 100 },
      }),
    );
    expect((await verify(ref)).location).toBe(returnUrl(CANCEL_URL, 'failed', ref));
    expect((await lookup(h.tenant.paymentKey, ref)).body).toMatchObject({ status: 'failed', paid_at: null });
    await settle(300);
    expect(await domain.deliveries.listDeliveries(h.tenant.clientId)).toEqual([]);
  });

  it('the hosted page escapes what the partner sent, and unknown sessions or outcomes are refused', async () => {
    const h = await hotel();
    const created = await create(h.tenant.paymentKey, orderBody({ customer: { name: '<img src=x onerror=alert(1)>', email: 'ada@example.com' } }));
    const html = await (await fetch(created.body.checkout_url)).text();
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');

    const unknown = await fetch(`${stack.sandboxUrl}/checkout/sbx_000000000000000000000000`);
    expect(unknown.status).toBe(404);
    const bogus = await fetch(created.body.checkout_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'outcome=refunded',
      redirect: 'manual',
    });
    expect(bogus.status).toBe(400);
    expect(bogus.headers.get('location')).toBeNull();
    // The session is still open: the guest can pay.
    await checkout(created.body.checkout_url, 'paid');
    await verify(created.body.order_reference);
    expect((await lookup(h.tenant.paymentKey, created.body.order_reference)).body.status).toBe('paid');
  });
});

// ---- verify route

describe('verify', () => {
  it('an unknown reference answers 404 PAYMENT_ORDER_NOT_FOUND as JSON, with no redirect', async () => {
    for (const reference of ['PO-ZZZZZZZZZZZZ', 'no-such-order']) {
      const response = await stack.request('GET', verifyPath(reference));
      expect(response.status).toBe(404);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toEqual({ error: { code: 'PAYMENT_ORDER_NOT_FOUND', message: expect.any(String), request_id: expect.any(String) } });
      expect(response.headers.get('x-request-id')).toBe(response.body.error.request_id);
    }
  });

  it('without a reference answers 400 VALIDATION_ERROR and no redirect', async () => {
    const response = await stack.request('GET', `${ORDERS}/verify`);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('keeps a return URL without a query intact and appends the parameters', async () => {
    const h = await hotel();
    const created = await create(h.tenant.paymentKey, orderBody({ success_url: 'https://partner.example/thanks', cancel_url: 'https://partner.example/cart#top' }));
    const ref = created.body.order_reference;
    expect((await verify(ref)).location).toBe(`https://partner.example/cart?payment=failed&payment_order=${ref}&reference=${ref}#top`);
    await checkout(created.body.checkout_url, 'paid');
    expect((await verify(ref)).location).toBe(`https://partner.example/thanks?payment=success&payment_order=${ref}&reference=${ref}`);
  });
});

// ---- reuse, conflicts, idempotency

describe('repeating a reference', () => {
  let h: Hotel;
  beforeAll(async () => {
    h = await hotel();
  });

  it('same reference, amount and currency returns the open order with 200 and reused: true', async () => {
    const body = orderBody();
    const first = await create(h.tenant.paymentKey, body);
    expect(first.status).toBe(201);
    const second = await create(h.tenant.paymentKey, { ...body, customer: { email: 'someone.else@example.com' } });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, reused: true });
  });

  it('same reference with another amount or currency answers 409 EXTERNAL_REFERENCE_CONFLICT and leaves the order alone', async () => {
    const body = orderBody();
    const first = await create(h.tenant.paymentKey, body);
    for (const change of [{ amount_minor: 12501 }, { currency: 'EUR' }, { amount_minor: 125, currency: 'JPY' }]) {
      const conflict = await create(h.tenant.paymentKey, { ...body, ...change });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error.code).toBe('EXTERNAL_REFERENCE_CONFLICT');
    }
    const status = await lookup(h.tenant.paymentKey, first.body.order_reference);
    expect(status.body).toMatchObject({ status: 'processing', amount_minor: 12500, currency: 'USD' });
  });

  it('a reference is unique per workspace: another client may use it for its own order', async () => {
    const body = orderBody();
    const mine = await create(h.tenant.paymentKey, body);
    const other = await hotel();
    const theirs = await create(other.tenant.paymentKey, { ...body, amount_minor: 999 });
    expect(theirs.status).toBe(201);
    expect(theirs.body.order_reference).not.toBe(mine.body.order_reference);
    expect(theirs.body.payment_order_id).not.toBe(mine.body.payment_order_id);
  });

  it('Idempotency-Key on create: a replay returns the stored 201 with Idempotent-Replayed, another body is 422', async () => {
    const key = randomUUID();
    const body = orderBody();
    const first = await create(h.tenant.paymentKey, body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await create(h.tenant.paymentKey, body, { 'Idempotency-Key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await create(h.tenant.paymentKey, { ...body, amount_minor: 1 }, { 'Idempotency-Key': key });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Without the key the same body is an ordinary repeat.
    const plain = await create(h.tenant.paymentKey, body);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ order_reference: first.body.order_reference, reused: true });
  });

  it('JPY has no minor unit: amount equals amount_minor', async () => {
    const created = await create(h.tenant.paymentKey, orderBody({ amount_minor: 15000, currency: 'JPY' }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ amount_minor: 15000, amount: 15000, currency: 'JPY' });
    expect(await (await fetch(created.body.checkout_url)).text()).toContain('15,000 JPY');
  });
});

describe('concurrent duplicates', () => {
  it('ten parallel creates with one reference make one order: one 201, nine 200 reused', async () => {
    const h = await hotel();
    const body = orderBody();
    const responses = await Promise.all(Array.from({ length: 10 }, () => create(h.tenant.paymentKey, body)));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((r) => r.body.order_reference)).size).toBe(1);
    expect(new Set(responses.map((r) => r.body.checkout_url)).size).toBe(1);
    expect(responses.filter((r) => r.body.reused)).toHaveLength(9);
  });

  it('five parallel verifies of one paid order record one payment: one booking, one callback, one webhook', async () => {
    const h = await hotel({ callback: true, webhook: true });
    const created = await create(
      h.tenant.paymentKey,
      orderBody({ context: { type: 'room_booking', check_in_date: '2027-10-01', check_out_date: '2027-10-02', guests: 1, service_room_id: h.rooms.get('101') } }),
    );
    const ref = created.body.order_reference;
    await checkout(created.body.checkout_url, 'paid');
    const verified = await Promise.all(Array.from({ length: 5 }, () => verify(ref)));
    expect(verified.map((v) => v.location)).toEqual(Array(5).fill(returnUrl(SUCCESS_URL, 'success', ref)));
    const status = await lookup(h.tenant.paymentKey, ref);
    expect(status.body.service_booking_sync).toMatchObject({ status: 'synced', room_assignment: 'locked', room_id: h.rooms.get('101') });
    await deliveredCount(h.tenant.clientId, 2);
    await settle(400);
    expect(await domain.deliveries.listDeliveries(h.tenant.clientId)).toHaveLength(2);
    expect(callbacks.received).toHaveLength(1);
    expect(webhooks.received).toHaveLength(1);
  });
});

// ---- keys

describe('payment keys', () => {
  let h: Hotel;
  beforeAll(async () => {
    h = await hotel();
  });

  it('x-api-key works for create and lookup', async () => {
    const created = await stack.request('POST', ORDERS, { headers: { 'x-api-key': h.tenant.paymentKey }, body: orderBody() });
    expect(created.status).toBe(201);
    const status = await stack.request('GET', `${ORDERS}/${created.body.order_reference}`, { headers: { 'x-api-key': h.tenant.paymentKey } });
    expect(status.status).toBe(200);
    expect(status.body.order_reference).toBe(created.body.order_reference);
  });

  it('no key: 401 MISSING_API_KEY; unknown key: 401 INVALID_API_KEY', async () => {
    const missing = await stack.request('POST', ORDERS, { body: orderBody() });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('MISSING_API_KEY');
    const invalid = await create(`svc_pay_${'x'.repeat(43)}`, orderBody());
    expect(invalid.status).toBe(401);
    expect(invalid.body.error.code).toBe('INVALID_API_KEY');
  });

  it('a sync key on the payment routes answers 403 INSUFFICIENT_SCOPE and creates nothing', async () => {
    const body = orderBody();
    const denied = await create(h.tenant.syncKey, body);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const created = await create(h.tenant.paymentKey, body);
    expect(created.status).toBe(201);
    const lookupDenied = await lookup(h.tenant.syncKey, created.body.order_reference);
    expect(lookupDenied.status).toBe(403);
    expect(lookupDenied.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it("another client's order is not found, exactly like a missing one", async () => {
    const created = await create(h.tenant.paymentKey, orderBody());
    const other = await stack.createTenant();
    for (const reference of [created.body.order_reference, 'PO-ZZZZZZZZZZZZ']) {
      const response = await lookup(other.paymentKey, reference);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('PAYMENT_ORDER_NOT_FOUND');
    }
    // Nor can it "reuse" the order through its reference.
    const repeat = await create(other.paymentKey, { ...orderBody(), reference: created.body.external_reference });
    expect(repeat.status).toBe(201);
    expect(repeat.body.order_reference).not.toBe(created.body.order_reference);
  });
});

// ---- concurrency

describe('ten concurrent paid orders for one room and overlapping nights', () => {
  it('exactly one locks the room, nine are recorded for manual assignment, and the room leaves availability', async () => {
    const h = await hotel();
    const roomId = h.rooms.get('101')!;
    const orders = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const created = await create(
          h.tenant.paymentKey,
          orderBody({
            reference: `CONC-${i}-${randomUUID().slice(0, 8)}`,
            context: { type: 'room_booking', check_in_date: `2027-09-0${1 + (i % 3)}`, check_out_date: '2027-09-05', guests: 1, service_room_id: roomId },
          }),
        );
        expect(created.status).toBe(201);
        await checkout(created.body.checkout_url, 'paid');
        return created.body;
      }),
    );

    const verified = await Promise.all(orders.map((o) => verify(o.order_reference)));
    for (const [i, v] of verified.entries()) expect(v.location).toBe(returnUrl(SUCCESS_URL, 'success', orders[i]!.order_reference));

    const statuses = await Promise.all(orders.map(async (o) => (await lookup(h.tenant.paymentKey, o.order_reference)).body));
    expect(statuses.every((s) => s.status === 'paid' && s.service_booking_sync.status === 'synced')).toBe(true);
    const syncs = statuses.map((s) => s.service_booking_sync);
    const locked = syncs.filter((s) => s.room_assignment === 'locked');
    const manual = syncs.filter((s) => s.room_assignment === 'manual');
    expect(locked).toHaveLength(1);
    expect(locked[0]!.room_id).toBe(roomId);
    expect(manual).toHaveLength(9);
    expect(manual.every((s) => s.room_id === null)).toBe(true);
    expect(new Set(syncs.map((s) => s.booking_id)).size).toBe(10);

    expect(await availableRoomNumbers(h, '2027-09-03', '2027-09-04')).toEqual(['102', '103']);
  });
});
