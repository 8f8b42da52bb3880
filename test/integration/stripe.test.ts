/**
 * The Stripe provider end to end: the real local gateway and emulators, the real Stripe SDK,
 * and a loopback stand-in of the Stripe endpoints the adapter calls. Checkout Sessions are
 * created on the client's connected account; an order is paid only when Stripe says so, on the
 * guest's return or on a signed webhook alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';
import { type StandInSession, type StripeStandIn, startStripeStandIn } from '../support/stripe-standin';
import { runOps } from '../support/ops-cli';

const WEBHOOK_SECRET = 'whsec_standin_0123456789abcdef0123456789abcdef';
const WEBHOOK_PATH = '/api/v1/payments/provider-webhooks/stripe';
const ACCOUNT = 'acct_1HotelStandIn42';

let stack: TestStack;
let stripe: StripeStandIn;
let dir: string;
let tenant: Tenant;

type Domain = {
  providers: typeof import('../../shared/domain/payments/providers');
  store: typeof import('../../shared/store/payment-store');
  commands: typeof import('../../shared/ops/commands');
  stripeAdapter: typeof import('../../shared/payments/stripe');
  secrets: typeof import('../../shared/payments/stripe-secrets');
};
let domain: Domain;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  // The adapter reads these on first use; set before any function runs.
  process.env.STRIPE_API_BASE = stripe.url;
  process.env.STRIPE_SECRET_KEY = stripe.secretKey;
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  stack = await startTestStack();
  domain = {
    providers: await import('../../shared/domain/payments/providers'),
    store: await import('../../shared/store/payment-store'),
    commands: await import('../../shared/ops/commands'),
    stripeAdapter: await import('../../shared/payments/stripe'),
    secrets: await import('../../shared/payments/stripe-secrets'),
  };
  dir = mkdtempSync(join(tmpdir(), 'stripe-test-'));
  writeFileSync(join(dir, 'stack.json'), JSON.stringify(stack.info));
  tenant = await stack.createTenant();
});

afterAll(async () => {
  await stack?.stop();
  await stripe?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function orderBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    reference: `INV-${Date.now()}-${counter}`,
    amount_minor: 12_550,
    currency: 'EUR',
    customer: { name: 'Grace Hopper', email: 'grace@example.com' },
    success_url: 'https://shop.example.com/paid?lang=en',
    cancel_url: 'https://shop.example.com/cart',
    ...overrides,
  };
}

async function createOrder(key = tenant.paymentKey, overrides: Record<string, unknown> = {}) {
  const body = orderBody(overrides);
  const response = await stack.request('POST', '/api/v1/payments/payment-orders', { key, body });
  return { body, response };
}

const sessionOf = (order: { provider_reference: string }) => stripe.sessions.get(order.provider_reference)!;
const createsFor = (orderReference: string) =>
  stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.params.client_reference_id === orderReference);
const retrievesOf = (sessionId: string) => stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${sessionId}`);

/** The guest's return: the verify URL Stripe sends them to (our success_url and cancel_url). */
async function guestReturns(session: StandInSession) {
  const url = new URL(session.success_url);
  return stack.request('GET', url.pathname + url.search);
}

const status = async (orderReference: string, key = tenant.paymentKey) =>
  (await stack.request('GET', `/api/v1/payments/payment-orders/${orderReference}`, { key })).body;

function postEvent(event: { payload: string; signature?: string }) {
  return stack.request('POST', WEBHOOK_PATH, {
    rawBody: event.payload,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(event.signature ? { 'Stripe-Signature': event.signature } : {}) },
  });
}

const ops = (args: string[]) => runOps(join(dir, 'stack.json'), args);

describe('providers set', () => {
  it('puts a client on Stripe with its connected account (operator CLI, --json)', async () => {
    const run = await ops(['providers', 'set', '--client', tenant.clientId, '--provider', 'stripe', '--account', ACCOUNT, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ client_id: tenant.clientId, provider: 'stripe', account: ACCOUNT });
    expect(await domain.store.getProviderSettings(tenant.clientId)).toEqual({ provider: 'stripe', account: ACCOUNT });
  });

  it('refuses Stripe without a well-formed account, and an account for the sandbox', async () => {
    const command = domain.commands.commands.find((c) => c.name === 'providers set')!;
    const target = { kind: 'local' as const, source: 'test', environment: {}, ...stack.info };
    const run = (flags: Record<string, string | undefined>) => command.run({ flags: { client: tenant.clientId, ...flags }, args: {}, target });
    await expect(run({ provider: 'stripe' })).rejects.toThrow(/needs --account/);
    await expect(run({ provider: 'stripe', account: 'acct-1' })).rejects.toThrow(/acct_/);
    await expect(run({ provider: 'stripe', account: 'cus_123' })).rejects.toThrow(/acct_/);
    await expect(run({ provider: 'sandbox', account: ACCOUNT })).rejects.toThrow(/only for --provider stripe/);
    await expect(run({ client: 'no-such-client', provider: 'sandbox' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Nothing changed.
    expect(await domain.store.getProviderSettings(tenant.clientId)).toEqual({ provider: 'stripe', account: ACCOUNT });
  });
});

describe('checkout on the connected account', () => {
  let order: any;
  let body: ReturnType<typeof orderBody>;

  it('creates a Checkout Session on the client\'s account with the order\'s amount, currency and reference', async () => {
    const created = await createOrder();
    body = created.body;
    expect(created.response.status).toBe(201);
    order = created.response.body;
    expect(order).toMatchObject({ status: 'processing', provider: 'stripe', amount_minor: 12_550, currency: 'EUR', reused: false });
    expect(order.provider_reference).toMatch(/^cs_test_/);
    expect(order.checkout_url).toBe(`https://checkout.stripe.test/c/pay/${order.provider_reference}`);

    const [create, ...others] = createsFor(order.order_reference);
    expect(others).toEqual([]);
    expect(create!.stripeAccount).toBe(ACCOUNT);
    expect(create!.idempotencyKey).toBe(`checkout-session:${order.order_reference}:1`);
    // The attempt's return secret rides along: only this checkout's redirect carries it (the order keeps its hash).
    const verifyUrl = create!.params.success_url as string;
    expect(verifyUrl).toMatch(new RegExp(`^${stack.url}/api/v1/payments/payment-orders/verify\\?reference=${order.order_reference}&return=[A-Za-z0-9_-]{43}$`));
    expect(create!.params).toEqual({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '12550', product_data: { name: `Payment ${body.reference}` } } }],
      customer_email: 'grace@example.com',
      client_reference_id: order.order_reference,
      metadata: { order_reference: order.order_reference },
      payment_intent_data: { metadata: { order_reference: order.order_reference } },
      success_url: verifyUrl,
      cancel_url: verifyUrl,
    });
    expect(sessionOf(order)).toMatchObject({ account: ACCOUNT, amount_total: 12_550, currency: 'eur' });
  });

  it('keeps the order processing while the checkout is open, sending the guest to cancel_url', async () => {
    const back = await guestReturns(sessionOf(order));
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://shop.example.com/cart');
    expect(location.searchParams.get('payment')).toBe('failed');
    expect(location.searchParams.get('payment_order')).toBe(order.order_reference);
    expect((await status(order.order_reference)).status).toBe('processing');
    // Asked on the connected account, with the intent expanded.
    const [retrieve] = retrievesOf(order.provider_reference);
    expect(retrieve).toMatchObject({ stripeAccount: ACCOUNT, params: { expand: ['payment_intent'] } });
  });

  it('marks the order paid once Stripe reports the session paid', async () => {
    stripe.complete(order.provider_reference);
    const back = await guestReturns(sessionOf(order));
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('https://shop.example.com/paid');
    expect(location.searchParams.get('lang')).toBe('en');
    expect(location.searchParams.get('payment')).toBe('success');

    const paid = await status(order.order_reference);
    expect(paid).toMatchObject({
      status: 'paid',
      provider: 'stripe',
      provider_reference: order.provider_reference,
      amount_minor: 12_550,
      currency: 'EUR',
      paid_at: expect.stringMatching(/Z$/),
    });
    const history = await domain.store.orderHistory(order.order_reference);
    expect(history.transactions).toEqual([
      expect.objectContaining({ id: sessionOf(order).payment_intent, provider: 'stripe', amount_minor: 12_550, currency: 'EUR' }),
    ]);
    // The provider event keeps a small subset of the session, nothing more.
    const event = history.events.find((e) => e.type === 'payment.paid')!;
    expect(event.data).toEqual({ id: order.provider_reference, status: 'complete', payment_status: 'paid', amount_total: 12_550, currency: 'eur' });
  });

  it('answers a repeat of the paid order\'s reference with the same order, without a new session', async () => {
    const again = await stack.request('POST', '/api/v1/payments/payment-orders', { key: tenant.paymentKey, body });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ order_reference: order.order_reference, status: 'paid', reused: true, provider_reference: order.provider_reference });
    expect(createsFor(order.order_reference)).toHaveLength(1);
  });
});

describe('Stripe webhooks', () => {
  it('marks an order paid from checkout.session.completed alone (the guest never returns)', async () => {
    const { response } = await createOrder();
    const order = response.body;
    const session = stripe.complete(order.provider_reference);
    const reply = await postEvent(stripe.signedEvent('checkout.session.completed', session, WEBHOOK_SECRET));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ received: true });
    expect(await status(order.order_reference)).toMatchObject({ status: 'paid', provider: 'stripe', provider_reference: order.provider_reference });
    // The event was not trusted: Stripe was asked.
    expect(retrievesOf(order.provider_reference)).toHaveLength(1);

    // Stripe delivers at least once: the same event again changes nothing.
    const again = await postEvent(stripe.signedEvent('checkout.session.completed', session, WEBHOOK_SECRET));
    expect(again.status).toBe(200);
    expect((await domain.store.orderHistory(order.order_reference)).transactions).toHaveLength(1);
  });

  it('refuses a bad or missing signature with 400 and changes nothing', async () => {
    const { response } = await createOrder();
    const order = response.body;
    const session = stripe.complete(order.provider_reference);
    const forged = stripe.signedEvent('checkout.session.completed', session, 'whsec_not_the_real_one');
    for (const attempt of [
      forged,
      { payload: forged.payload },
      { payload: forged.payload.replace('"livemode":false', '"livemode":true'), signature: stripe.signedEvent('checkout.session.completed', session, WEBHOOK_SECRET).signature },
      { payload: forged.payload, signature: 'garbage' },
    ]) {
      const reply = await postEvent(attempt);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'INVALID_SIGNATURE', request_id: reply.headers.get('x-request-id') });
    }
    expect(retrievesOf(order.provider_reference)).toHaveLength(0);
    expect((await status(order.order_reference)).status).toBe('processing');
  });

  it('expires the order on checkout.session.expired; a repeat of the reference makes a new attempt', async () => {
    const { body, response } = await createOrder();
    const order = response.body;
    const session = stripe.expire(order.provider_reference);
    const reply = await postEvent(stripe.signedEvent('checkout.session.expired', session, WEBHOOK_SECRET));
    expect(reply.status).toBe(200);
    expect((await status(order.order_reference)).status).toBe('expired');

    const again = await stack.request('POST', '/api/v1/payments/payment-orders', { key: tenant.paymentKey, body });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ order_reference: order.order_reference, status: 'processing', provider: 'stripe', reused: true });
    expect(again.body.provider_reference).not.toBe(order.provider_reference);
    expect(again.body.checkout_url).not.toBe(order.checkout_url);
    expect(again.body.checkout_url).toBe(`https://checkout.stripe.test/c/pay/${again.body.provider_reference}`);
    expect(createsFor(order.order_reference).map((r) => r.idempotencyKey)).toEqual([
      `checkout-session:${order.order_reference}:1`,
      `checkout-session:${order.order_reference}:2`,
    ]);

    // The new attempt is paid through the webhook.
    const second = stripe.complete(again.body.provider_reference);
    expect((await postEvent(stripe.signedEvent('checkout.session.completed', second, WEBHOOK_SECRET))).status).toBe(200);
    expect(await status(order.order_reference)).toMatchObject({ status: 'paid', provider_reference: again.body.provider_reference });
  });

  it('fails the order when a delayed payment fails (async_payment_failed)', async () => {
    const { response } = await createOrder();
    const order = response.body;
    // Completed with a delayed method: still processing, so the order stays processing.
    let session = stripe.complete(order.provider_reference, { paymentStatus: 'unpaid' });
    await postEvent(stripe.signedEvent('checkout.session.completed', session, WEBHOOK_SECRET));
    expect((await status(order.order_reference)).status).toBe('processing');
    // Then the bank debit fails.
    session = stripe.complete(order.provider_reference, { paymentStatus: 'unpaid', intentStatus: 'requires_payment_method' });
    await postEvent(stripe.signedEvent('checkout.session.async_payment_failed', session, WEBHOOK_SECRET));
    expect((await status(order.order_reference)).status).toBe('failed');
  });

  it('acknowledges events it has nothing to do with, so Stripe does not retry them', async () => {
    const { response } = await createOrder();
    const session = sessionOf(response.body);
    const unknownOrder = { ...session, metadata: { order_reference: 'PO-UNKNOWN00000' }, client_reference_id: 'PO-UNKNOWN00000' };
    const noReference = { ...session, metadata: {}, client_reference_id: null };
    for (const event of [
      stripe.signedEvent('checkout.session.completed', unknownOrder, WEBHOOK_SECRET),
      stripe.signedEvent('checkout.session.completed', noReference, WEBHOOK_SECRET),
      stripe.signedEvent('payment_intent.succeeded', { id: 'pi_123', object: 'payment_intent' }, WEBHOOK_SECRET),
      stripe.signedEvent('account.updated', { id: ACCOUNT, object: 'account' }, WEBHOOK_SECRET),
    ]) {
      const reply = await postEvent(event);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ received: true });
    }
    expect(retrievesOf(session.id)).toHaveLength(0);
    expect((await status(response.body.order_reference)).status).toBe('processing');
  });
});

describe('an attempt settles on the account it was made on', () => {
  it('pays an order whose client moved to another connected account meanwhile, asking the first account', async () => {
    const mover = await stack.createTenant();
    await domain.providers.configureProvider(mover.clientId, { provider: 'stripe', account: ACCOUNT });
    const { response } = await createOrder(mover.paymentKey);
    expect(response.status).toBe(201);
    const order = response.body;
    await domain.providers.configureProvider(mover.clientId, { provider: 'stripe', account: 'acct_1SomewhereElse' });

    stripe.complete(order.provider_reference);
    const back = await guestReturns(sessionOf(order));
    expect(new URL(back.headers.get('location')!).searchParams.get('payment')).toBe('success');
    expect((await status(order.order_reference, mover.paymentKey)).status).toBe('paid');
    expect(retrievesOf(order.provider_reference).map((r) => r.stripeAccount)).toEqual([ACCOUNT]);
    const history = await domain.store.orderHistory(order.order_reference);
    expect(history.attempts).toEqual([expect.objectContaining({ provider: 'stripe', provider_account: ACCOUNT, outcome: 'paid' })]);
  });

  it('keeps the order processing when Stripe cannot find the session on that account', async () => {
    const { response } = await createOrder();
    const order = response.body;
    const session = sessionOf(order);
    stripe.sessions.delete(order.provider_reference);
    const back = await guestReturns(session);
    expect(back.status).toBe(303);
    expect(new URL(back.headers.get('location')!).searchParams.get('payment')).toBe('failed');
    expect((await status(order.order_reference)).status).toBe('processing');
    expect((await domain.store.orderHistory(order.order_reference)).attempts).toEqual([expect.objectContaining({ outcome: 'open' })]);
  });
});

describe('Stripe setup and faults', () => {
  it('refuses an order for a Stripe client without a connected account, before calling Stripe', async () => {
    const other = await stack.createTenant();
    await domain.store.putProviderSettings(other.clientId, { provider: 'stripe' });
    const before = stripe.requests.length;
    const { response } = await createOrder(other.paymentKey);
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', message: expect.stringMatching(/no connected Stripe account/) });
    expect(stripe.requests.length).toBe(before);
  });

  it('answers 422 when Stripe refuses the connected account, and 503 when Stripe is down', async () => {
    stripe.failNext(1, 403, { type: 'invalid_request_error', message: "The provided key 'sk_test_****' does not have access to account 'acct_x'" });
    const refused = await createOrder();
    expect(refused.response.status).toBe(422);
    expect(refused.response.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect(refused.response.body.error.message).not.toMatch(/sk_/);

    stripe.failNext(1, 500, { type: 'api_error', message: 'Something went wrong' }, { 'Stripe-Should-Retry': 'false' });
    const down = await createOrder();
    expect(down.response.status).toBe(503);
    expect(down.response.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(down.response.headers.get('retry-after')).toBe('1');

    // A rejected checkout (e.g. an amount under Stripe's minimum) is the client's to fix.
    stripe.failNext(1, 400, { type: 'invalid_request_error', code: 'amount_too_small', message: 'Amount must be at least €0.50 eur' });
    const rejected = await createOrder();
    expect(rejected.response.status).toBe(422);
    expect(rejected.response.body.error).toMatchObject({ code: 'PROVIDER_REJECTED', message: expect.stringContaining('amount_too_small') });
  });

  it('makes one session per order attempt, however often the create is retried', async () => {
    const provider = domain.stripeAdapter.stripeProvider();
    const request = {
      orderReference: 'PO-RETRIEDCREATE',
      attempt: 1,
      amountMinor: 5_000,
      currency: 'JPY',
      customer: { email: 'kenji@example.com' },
      description: 'Payment retried',
      returnUrl: `${stack.url}/api/v1/payments/payment-orders/verify?reference=PO-RETRIEDCREATE`,
      settings: { provider: 'stripe' as const, account: ACCOUNT },
    };
    const first = await provider.createCheckout(request);
    const second = await provider.createCheckout(request);
    expect(second).toEqual(first);
    expect([...stripe.sessions.values()].filter((s) => s.client_reference_id === 'PO-RETRIEDCREATE')).toHaveLength(1);
    expect(sessionOf({ provider_reference: first.providerReference })).toMatchObject({ currency: 'jpy', amount_total: 5_000 });
  });
});

describe('platform secrets from SSM (as in the stack)', () => {
  it('reads SecureString parameters decrypted, once per container, and says which one is missing', async () => {
    const calls: { target: string; body: any }[] = [];
    const values: Record<string, string> = { '/hotel-integration/test/stripe/secret-key': 'sk_test_from_ssm', '/hotel-integration/test/stripe/webhook-secret': 'whsec_a,whsec_b' };
    const ssm = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const body = JSON.parse(text);
        calls.push({ target: String(req.headers['x-amz-target']), body });
        const value = values[body.Name];
        const failure = body.Name.endsWith('/throttled') ? 'ThrottlingException' : 'ParameterNotFound';
        res.writeHead(value ? 200 : 400, { 'Content-Type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(value ? { Parameter: { Name: body.Name, Type: 'SecureString', Value: value, Version: 1 } } : { __type: failure, message: '' }));
      });
    });
    await new Promise<void>((resolve) => ssm.listen(0, '127.0.0.1', resolve));
    const saved = { ...process.env };
    try {
      delete process.env.STRIPE_SECRET_KEY;
      delete process.env.STRIPE_WEBHOOK_SECRET;
      process.env.AWS_ENDPOINT_URL_SSM = `http://127.0.0.1:${(ssm.address() as AddressInfo).port}`;
      resetConfig();
      await expect(domain.secrets.stripeSecret('secretKey')).rejects.toThrow(/STRIPE_SECRET_KEY or STRIPE_SECRET_KEY_PARAMETER/);
      expect(calls).toHaveLength(0);

      process.env.STRIPE_SECRET_KEY_PARAMETER = '/hotel-integration/test/stripe/secret-key';
      process.env.STRIPE_WEBHOOK_SECRET_PARAMETER = '/hotel-integration/test/stripe/webhook-secret';
      resetConfig();
      expect(await domain.secrets.stripeSecret('secretKey')).toBe('sk_test_from_ssm');
      expect(await domain.secrets.stripeSecret('secretKey')).toBe('sk_test_from_ssm');
      expect(await domain.secrets.stripeSecret('webhookSecret')).toBe('whsec_a,whsec_b');
      expect(calls).toEqual([
        { target: 'AmazonSSM.GetParameter', body: { Name: '/hotel-integration/test/stripe/secret-key', WithDecryption: true } },
        { target: 'AmazonSSM.GetParameter', body: { Name: '/hotel-integration/test/stripe/webhook-secret', WithDecryption: true } },
      ]);

      process.env.STRIPE_SECRET_KEY_PARAMETER = '/hotel-integration/test/stripe/missing';
      resetConfig();
      const missing = domain.secrets.stripeSecret('secretKey');
      await expect(missing).rejects.toThrow(/SSM parameter \/hotel-integration\/test\/stripe\/missing: ParameterNotFound/);
      await expect(missing).rejects.not.toThrow(/sk_test/);

      // SSM throttling (after the client's own retries) is the platform's moment, not a missing setting.
      process.env.STRIPE_SECRET_KEY_PARAMETER = '/hotel-integration/test/stripe/throttled';
      resetConfig();
      await expect(domain.secrets.stripeSecret('secretKey')).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    } finally {
      for (const name of ['STRIPE_SECRET_KEY_PARAMETER', 'STRIPE_WEBHOOK_SECRET_PARAMETER', 'AWS_ENDPOINT_URL_SSM']) delete process.env[name];
      Object.assign(process.env, { STRIPE_SECRET_KEY: saved.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: saved.STRIPE_WEBHOOK_SECRET });
      resetConfig();
      await new Promise<void>((resolve) => ssm.close(() => resolve()));
    }
  });
});
