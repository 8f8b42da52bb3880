/**
 * Refunds of payment orders end to end through the local gateway (docs/behaviour.md "Booking
 * changes, cancellations and refunds"): full and part refunds on the sandbox, what is left when
 * no amount is given, ten concurrent refunds that can never add up to more than was paid, the
 * refusals, the Idempotency-Key, a refund the sandbox fails, the status lookup, the signed
 * payment_order.refunded webhook, and a Stripe refund answered `pending` and settled by Stripe's
 * `refund.updated` webhook (through the local Stripe stand-in and the real SDK).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/receiver-kit';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-standin';

const ORDERS = '/api/v1/payments/payment-orders';
const WEBHOOK_PATH = '/api/v1/payments/provider-webhooks/stripe';
const WEBHOOK_SECRET = 'whsec_refunds_0123456789abcdef0123456789abcdef';
const ACCOUNT = 'acct_1RefundsStandIn7';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let stack: TestStack;
let stripe: StripeStandIn;
let webhooks: Receiver;
let tenant: Tenant;

type Domain = {
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  providers: typeof import('../../shared/domain/payments/providers');
  store: typeof import('../../shared/store/payment-store');
};
let domain: Domain;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  // The Stripe adapter reads these on first use; set before any function runs.
  process.env.STRIPE_API_BASE = stripe.url;
  process.env.STRIPE_SECRET_KEY = stripe.secretKey;
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  webhooks = await startReceiver();
  domain = {
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    providers: await import('../../shared/domain/payments/providers'),
    store: await import('../../shared/store/payment-store'),
  };
  tenant = await stack.createTenant();
});

afterAll(async () => {
  await webhooks?.close();
  await stack?.stop();
  await stripe?.close();
});

beforeEach(() => {
  webhooks.received.length = 0;
});

// ---- helpers

function orderBody(amountMinor: number) {
  return {
    reference: `INV-${randomUUID()}`,
    amount_minor: amountMinor,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    success_url: 'https://partner.example/return',
    cancel_url: 'https://partner.example/cancel',
  };
}

async function createOrder(amountMinor: number, key = tenant.paymentKey) {
  const created = await stack.request('POST', ORDERS, { key, body: orderBody(amountMinor) });
  expect(created.status).toBe(201);
  return created.body as { order_reference: string; checkout_url: string; provider_reference: string };
}

/** A sandbox order the guest paid on the hosted page, verified. */
async function paidOrder(amountMinor: number, key = tenant.paymentKey) {
  const order = await createOrder(amountMinor, key);
  const submit = await fetch(order.checkout_url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'paid' }).toString(),
    redirect: 'manual',
  });
  expect(submit.status).toBe(303);
  expect((await stack.request('GET', `${ORDERS}/verify?reference=${order.order_reference}`)).status).toBe(303);
  expect((await lookup(order.order_reference, key)).body.status).toBe('paid');
  return order;
}

const refund = (orderReference: string, body: Record<string, unknown> = {}, options: { key?: string; headers?: Record<string, string> } = {}) =>
  stack.request('POST', `${ORDERS}/${orderReference}/refunds`, { key: options.key ?? tenant.paymentKey, body, headers: options.headers ?? {} });

const lookup = (orderReference: string, key = tenant.paymentKey) => stack.request('GET', `${ORDERS}/${orderReference}`, { key });

// ---- refunds on the sandbox

describe('refunds of a paid order', () => {
  it('refunds all of it without an amount: 201 with the refund, the order refunded, nothing left', async () => {
    const order = await paidOrder(12_000);
    const full = await refund(order.order_reference, { reason: 'Stay cancelled' });
    expect(full.status).toBe(201);
    expect(full.body).toEqual({ refund_id: expect.stringMatching(UUID), amount_minor: 12_000, currency: 'USD', status: 'succeeded', created_at: expect.stringMatching(ISO_UTC) });

    const status = (await lookup(order.order_reference)).body;
    expect(status).toMatchObject({ status: 'refunded', amount_minor: 12_000, amount_refunded_minor: 12_000 });
    expect(status.refunds).toEqual([full.body]);
    // Recorded as a transaction of the order, beside its payment.
    const { transactions } = await domain.store.orderHistory(order.order_reference);
    expect(transactions.map((t) => [t.kind, t.amount_minor])).toEqual(expect.arrayContaining([['payment', 12_000], ['refund', 12_000]]));

    const again = await refund(order.order_reference);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('REFUND_EXCEEDS_PAYMENT');
  });

  it('refunds part, then what is left: partially_refunded, then refunded; more than is left is refused', async () => {
    const order = await paidOrder(12_000);
    const part = await refund(order.order_reference, { amount_minor: 5_000 });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({ amount_minor: 5_000, status: 'succeeded' });
    expect((await lookup(order.order_reference)).body).toMatchObject({ status: 'partially_refunded', amount_refunded_minor: 5_000 });

    const tooMuch = await refund(order.order_reference, { amount_minor: 7_001 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toMatchObject({ code: 'REFUND_EXCEEDS_PAYMENT', message: expect.stringContaining('7000') });

    // A POST without a body, as `curl -X POST` sends it: what is left.
    const rest = await stack.request('POST', `${ORDERS}/${order.order_reference}/refunds`, { key: tenant.paymentKey });
    expect(rest.status).toBe(201);
    expect(rest.body).toMatchObject({ amount_minor: 7_000, status: 'succeeded' });
    const status = (await lookup(order.order_reference)).body;
    expect(status).toMatchObject({ status: 'refunded', amount_refunded_minor: 12_000 });
    expect(status.refunds.map((r: { amount_minor: number }) => r.amount_minor)).toEqual([5_000, 7_000]);
  });

  it('ten concurrent refunds of 5,000 on a 20,000 order: exactly four succeed, six answer 409', async () => {
    const order = await paidOrder(20_000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refund(order.order_reference, { amount_minor: 5_000 })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.error.code).toBe('REFUND_EXCEEDS_PAYMENT');

    const status = (await lookup(order.order_reference)).body;
    expect(status).toMatchObject({ status: 'refunded', amount_refunded_minor: 20_000 });
    expect(status.refunds).toHaveLength(4);
    const { transactions } = await domain.store.orderHistory(order.order_reference);
    expect(transactions.filter((t) => t.kind === 'refund')).toHaveLength(4);
  });

  it('refuses an unpaid order (409 ORDER_NOT_PAID), another client\'s order (404) and a bad amount (400), refunding nothing', async () => {
    const unpaid = await createOrder(9_000);
    const notPaid = await refund(unpaid.order_reference, { amount_minor: 1_000 });
    expect(notPaid.status).toBe(409);
    expect(notPaid.body.error.code).toBe('ORDER_NOT_PAID');

    const other = await stack.createTenant();
    const theirs = await paidOrder(9_000, other.paymentKey);
    const foreign = await refund(theirs.order_reference, { amount_minor: 1_000 });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('PAYMENT_ORDER_NOT_FOUND');
    expect((await lookup(theirs.order_reference, other.paymentKey)).body).toMatchObject({ status: 'paid', amount_refunded_minor: 0, refunds: [] });

    for (const amount of [0, -5, 1.5, '100']) {
      const bad = await refund(theirs.order_reference, { amount_minor: amount }, { key: other.paymentKey });
      expect(bad.status, String(amount)).toBe(400);
      expect(bad.body.error.code).toBe('INVALID_AMOUNT');
    }
    expect((await refund('PO-NOTAREFERENCE', {})).status).toBe(404);
    // A sync key is not a payment key.
    expect((await refund(theirs.order_reference, {}, { key: other.syncKey })).status).toBe(403);
  });

  it('honours the Idempotency-Key: the same request answers the same refund, once; the same key on another order is another refund', async () => {
    const order = await paidOrder(10_000);
    const key = `refund-${randomUUID()}`;
    const first = await refund(order.order_reference, { amount_minor: 3_000 }, { headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(201);
    const replay = await refund(order.order_reference, { amount_minor: 3_000 }, { headers: { 'Idempotency-Key': key } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await refund(order.order_reference, { amount_minor: 4_000 }, { headers: { 'Idempotency-Key': key } });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await lookup(order.order_reference)).body).toMatchObject({ amount_refunded_minor: 3_000, refunds: [first.body] });

    const another = await paidOrder(10_000);
    const elsewhere = await refund(another.order_reference, { amount_minor: 3_000 }, { headers: { 'Idempotency-Key': key } });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    expect(elsewhere.body.refund_id).not.toBe(first.body.refund_id);
  });

  it('a refund the sandbox fails answers failed and gives its amount back to refund', async () => {
    const order = await paidOrder(8_000);
    const failed = await refund(order.order_reference, { amount_minor: 8_000, reason: 'sandbox:fail' });
    expect(failed.status).toBe(201);
    expect(failed.body).toMatchObject({ amount_minor: 8_000, status: 'failed' });
    expect((await lookup(order.order_reference)).body).toMatchObject({ status: 'paid', amount_refunded_minor: 0, refunds: [failed.body] });

    const retried = await refund(order.order_reference, {});
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ amount_minor: 8_000, status: 'succeeded' });
    expect((await lookup(order.order_reference)).body).toMatchObject({ status: 'refunded', amount_refunded_minor: 8_000 });
  });

  it('sends payment_order.refunded to the webhook URL, signed with the webhook secret', async () => {
    const hotel = await stack.createTenant();
    const { secret } = await domain.deliveries.configureEndpoint(hotel.clientId, 'webhook', { url: webhooks.url });
    const order = await paidOrder(15_000, hotel.paymentKey);
    await waitFor('payment_order.paid', async () => (webhooks.received.length === 1 ? true : undefined));
    webhooks.received.length = 0;

    const part = await refund(order.order_reference, { amount_minor: 6_000 }, { key: hotel.paymentKey });
    expect(part.status).toBe(201);
    const received = await waitFor('payment_order.refunded', async () => webhooks.received[0]);
    expect(received.headers['x-service-event']).toBe('payment_order.refunded');
    expect(received.headers['x-service-client']).toBe(hotel.clientId);
    expect(verifySignature(received.rawBody, received.headers['x-service-signature'] as string, secret!)).toBe(true);
    const created = await stack.request('GET', `${ORDERS}/${order.order_reference}`, { key: hotel.paymentKey });
    expect(JSON.parse(received.rawBody.toString('utf8'))).toEqual({
      event: 'payment_order.refunded',
      payment_order: {
        order_reference: order.order_reference,
        external_reference: created.body.external_reference,
        status: 'partially_refunded',
        amount_minor: 15_000,
        amount_refunded_minor: 6_000,
        currency: 'USD',
      },
      refund: { refund_id: part.body.refund_id, amount_minor: 6_000 },
    });
    // A failed refund sends nothing.
    expect((await refund(order.order_reference, { amount_minor: 1_000, reason: 'sandbox:fail' }, { key: hotel.paymentKey })).body.status).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(webhooks.received).toHaveLength(1);
  });
});

// ---- Stripe: a refund settled later

describe('a Stripe refund answered pending', () => {
  it('is refunded on the order\'s connected account with an idempotency key, and settled by refund.updated', async () => {
    const hotel = await stack.createTenant();
    await domain.providers.configureProvider(hotel.clientId, { provider: 'stripe', account: ACCOUNT });
    const order = await createOrder(12_550, hotel.paymentKey);
    stripe.complete(order.provider_reference);
    expect((await stack.request('GET', `${ORDERS}/verify?reference=${order.order_reference}`)).status).toBe(303);

    stripe.refundStatusNext('pending');
    const pending = await refund(order.order_reference, { amount_minor: 2_550, reason: 'Minibar charged twice' }, { key: hotel.paymentKey });
    expect(pending.status).toBe(201);
    expect(pending.body).toMatchObject({ amount_minor: 2_550, currency: 'USD', status: 'pending' });
    const call = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.params.metadata?.order_reference === order.order_reference)!;
    expect(call.stripeAccount).toBe(ACCOUNT);
    expect(call.idempotencyKey).toBe(`refund:${pending.body.refund_id}`);
    expect(call.params).toMatchObject({ amount: '2550', metadata: { refund_id: pending.body.refund_id, reason: 'Minibar charged twice' } });
    expect(call.params.payment_intent).toMatch(/^pi_/);
    // Pending counts as made: what is left is 10,000.
    expect((await lookup(order.order_reference, hotel.paymentKey)).body).toMatchObject({ status: 'paid', amount_refunded_minor: 0, refunds: [pending.body] });
    expect((await refund(order.order_reference, { amount_minor: 10_001 }, { key: hotel.paymentKey })).body.error.code).toBe('REFUND_EXCEEDS_PAYMENT');

    const stripeRefund = [...stripe.refunds.values()].find((r) => r.metadata.refund_id === pending.body.refund_id)!;
    stripe.settleRefund(stripeRefund.id, 'succeeded');
    const event = stripe.signedEvent('refund.updated', stripeRefund as never, WEBHOOK_SECRET, { account: ACCOUNT });
    const reply = await stack.request('POST', WEBHOOK_PATH, { rawBody: event.payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature } });
    expect(reply.status).toBe(200);

    const status = (await lookup(order.order_reference, hotel.paymentKey)).body;
    expect(status).toMatchObject({ status: 'partially_refunded', amount_refunded_minor: 2_550 });
    expect(status.refunds).toEqual([{ ...pending.body, status: 'succeeded' }]);
    const { transactions } = await domain.store.orderHistory(order.order_reference);
    expect(transactions.filter((t) => t.kind === 'refund')).toEqual([expect.objectContaining({ amount_minor: 2_550, provider_reference: stripeRefund.id })]);

    // Stripe delivers at least once: the same event again records nothing twice.
    expect((await stack.request('POST', WEBHOOK_PATH, { rawBody: event.payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature } })).status).toBe(200);
    expect((await domain.store.orderHistory(order.order_reference)).transactions.filter((t) => t.kind === 'refund')).toHaveLength(1);
  });

  it('a refund Stripe fails later gives its amount back', async () => {
    const hotel = await stack.createTenant();
    await domain.providers.configureProvider(hotel.clientId, { provider: 'stripe', account: ACCOUNT });
    const order = await createOrder(5_000, hotel.paymentKey);
    stripe.complete(order.provider_reference);
    await stack.request('GET', `${ORDERS}/verify?reference=${order.order_reference}`);

    stripe.refundStatusNext('pending');
    const pending = await refund(order.order_reference, {}, { key: hotel.paymentKey });
    expect(pending.body).toMatchObject({ amount_minor: 5_000, status: 'pending' });
    const stripeRefund = [...stripe.refunds.values()].find((r) => r.metadata.refund_id === pending.body.refund_id)!;
    stripe.settleRefund(stripeRefund.id, 'failed');
    const event = stripe.signedEvent('refund.failed', stripeRefund as never, WEBHOOK_SECRET, { account: ACCOUNT });
    expect((await stack.request('POST', WEBHOOK_PATH, { rawBody: event.payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': event.signature } })).status).toBe(200);

    expect((await lookup(order.order_reference, hotel.paymentKey)).body).toMatchObject({ status: 'paid', amount_refunded_minor: 0, refunds: [{ ...pending.body, status: 'failed' }] });
    const again = await refund(order.order_reference, {}, { key: hotel.paymentKey });
    expect(again.body).toMatchObject({ amount_minor: 5_000, status: 'succeeded' });
  });
});

// ---- at most once at the provider

describe('a refund made at most once at Stripe', () => {
  it('is looked for by its refund id before it is sent again: an answer lost, then the idempotency key forgotten, makes no second refund', async () => {
    const hotel = await stack.createTenant();
    await domain.providers.configureProvider(hotel.clientId, { provider: 'stripe', account: ACCOUNT });
    const order = await createOrder(8_000, hotel.paymentKey);
    stripe.complete(order.provider_reference);
    expect((await stack.request('GET', `${ORDERS}/verify?reference=${order.order_reference}`)).status).toBe(303);
    const intentOf = () => (stripe.sessions.get(order.provider_reference) as unknown as { payment_intent: string }).payment_intent;
    const refundsAtStripe = () => [...stripe.refunds.values()].filter((r) => r.payment_intent === intentOf());
    const key = randomUUID();

    // Stripe makes the refund; its answer is lost on both of the SDK's tries. The refund stays `requested`.
    stripe.loseRefundAnswers(2);
    const lost = await refund(order.order_reference, {}, { key: hotel.paymentKey, headers: { 'Idempotency-Key': key } });
    expect(lost.status, lost.text).toBeGreaterThanOrEqual(500);
    expect(refundsAtStripe()).toHaveLength(1);
    // Partners see a refund not yet answered as `pending`.
    expect((await lookup(order.order_reference, hotel.paymentKey)).body).toMatchObject({ status: 'paid', refunds: [expect.objectContaining({ status: 'pending' })] });
    expect((await domain.store.orderHistory(order.order_reference)).transactions.filter((t) => t.kind === 'refund')).toEqual([]);

    // More than a day later Stripe has forgotten the idempotency key; the partner asks again.
    stripe.forgetIdempotencyKeys();
    const posts = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.params.metadata?.order_reference === order.order_reference).length;
    const postsBefore = posts();
    const again = await refund(order.order_reference, {}, { key: hotel.paymentKey, headers: { 'Idempotency-Key': key } });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toMatchObject({ amount_minor: 8_000, status: 'succeeded' });
    // Found among the intent's refunds by its id, recorded, and never sent again.
    expect(stripe.requests.some((r) => r.method === 'GET' && r.path === '/v1/refunds' && r.params.payment_intent === intentOf())).toBe(true);
    expect(posts()).toBe(postsBefore);
    expect(refundsAtStripe()).toHaveLength(1);
    expect(refundsAtStripe()[0]!.metadata.refund_id).toBe(again.body.refund_id);
    expect((await lookup(order.order_reference, hotel.paymentKey)).body).toMatchObject({ status: 'refunded', amount_refunded_minor: 8_000, refunds: [again.body] });
  });

  it('a refund nobody finished is finished by the sweeper, once, with its webhook', async () => {
    const hotel = await stack.createTenant();
    await domain.deliveries.configureEndpoint(hotel.clientId, 'webhook', { url: webhooks.url });
    await domain.providers.configureProvider(hotel.clientId, { provider: 'stripe', account: ACCOUNT });
    const order = await createOrder(3_000, hotel.paymentKey);
    stripe.complete(order.provider_reference);
    await stack.request('GET', `${ORDERS}/verify?reference=${order.order_reference}`);
    stripe.loseRefundAnswers(2);
    const lost = await refund(order.order_reference, {}, { key: hotel.paymentKey, headers: { 'Idempotency-Key': randomUUID() } });
    expect(lost.status).toBeGreaterThanOrEqual(500);
    stripe.forgetIdempotencyKeys();

    // Not yet due: the sweeper leaves a refund just tried to its sender.
    await stack.sweep();
    expect((await lookup(order.order_reference, hotel.paymentKey)).body.refunds).toEqual([expect.objectContaining({ status: 'pending' })]);
    // Due (as 30 seconds later): driven, found at Stripe, recorded.
    const { driveDueRefunds } = await import('../../shared/domain/payments/refunds');
    expect(await driveDueRefunds(new Date(Date.now() + 31_000))).toMatchObject({ driven: 1, failed: 0 });
    expect((await lookup(order.order_reference, hotel.paymentKey)).body).toMatchObject({ status: 'refunded', refunds: [expect.objectContaining({ status: 'succeeded' })] });
    expect([...stripe.refunds.values()].filter((r) => r.metadata.order_reference === order.order_reference)).toHaveLength(1);
    await waitFor('payment_order.refunded', async () => webhooks.received.find((r) => JSON.parse(r.rawBody.toString('utf8')).payment_order?.order_reference === order.order_reference));
  });
});
