/**
 * docs/behaviour.md "Payment safety in deployed stages", on a stack with the sandbox on: an attempt is
 * settled on the provider it was made on whatever the client's settings became, a checkout the
 * provider cannot find leaves the order processing (logged with the request id), and the
 * provider-facing ids say nothing about the order.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureOutput } from '../support/output-capture';
import { startTestStack, type TestStack } from '../support/stack';

const ORDERS = '/api/v1/payments/payment-orders';

let stack: TestStack;
type Domain = {
  providers: typeof import('../../shared/domain/payments/providers');
  payments: typeof import('../../shared/store/payment-store');
  dynamo: typeof import('../../shared/store/dynamo');
  keys: typeof import('../../shared/store/keys');
};
let domain: Domain;

beforeAll(async () => {
  stack = await startTestStack();
  domain = {
    providers: await import('../../shared/domain/payments/providers'),
    payments: await import('../../shared/store/payment-store'),
    dynamo: await import('../../shared/store/dynamo'),
    keys: await import('../../shared/store/keys'),
  };
});

afterAll(async () => {
  await stack?.stop();
});

async function createOrder(paymentKey: string) {
  const response = await stack.request('POST', ORDERS, {
    key: paymentKey,
    body: {
      reference: `INV-${randomUUID()}`,
      amount_minor: 9_900,
      currency: 'USD',
      customer: { email: 'guest@example.com' },
      success_url: 'https://partner.example/paid',
      cancel_url: 'https://partner.example/cancel',
    },
  });
  expect(response.status).toBe(201);
  return response.body as { order_reference: string; provider: string; provider_reference: string; checkout_url: string };
}

async function payOnSandbox(checkoutUrl: string) {
  const submit = await fetch(checkoutUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'outcome=paid',
    redirect: 'manual',
  });
  expect(submit.status).toBe(303);
}

const verify = (orderReference: string) => stack.request('GET', `${ORDERS}/verify?reference=${encodeURIComponent(orderReference)}`);

describe('an attempt settles on the provider it was made on', () => {
  it('a sandbox checkout opened before the client moved to Stripe is paid and verified: paid', async () => {
    const tenant = await stack.createTenant();
    const order = await createOrder(tenant.paymentKey);
    expect(order.provider).toBe('sandbox');

    // The operator moves the client to Stripe while the guest is still on the sandbox page.
    await domain.providers.configureProvider(tenant.clientId, { provider: 'stripe', account: 'acct_1MovedToStripe' });
    await payOnSandbox(order.checkout_url);
    const back = await verify(order.order_reference);
    expect(back.status).toBe(303);
    expect(new URL(back.headers.get('location')!).searchParams.get('payment')).toBe('success');

    const status = await stack.request('GET', `${ORDERS}/${order.order_reference}`, { key: tenant.paymentKey });
    expect(status.body).toMatchObject({ status: 'paid', provider: 'sandbox', provider_reference: order.provider_reference });
    const history = await domain.payments.orderHistory(order.order_reference);
    expect(history.attempts).toEqual([expect.objectContaining({ attempt: 1, provider: 'sandbox', outcome: 'paid' })]);
  });
});

describe('a checkout the provider cannot find', () => {
  it('leaves the order processing, sends the guest to cancel_url, and logs a warning with the request id', async () => {
    const tenant = await stack.createTenant();
    const order = await createOrder(tenant.paymentKey);
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    await domain.dynamo.db.send(new DeleteCommand({ TableName: domain.dynamo.TABLE, Key: domain.keys.keys.sandboxSession(order.provider_reference) }));

    const output = captureOutput();
    let back: Awaited<ReturnType<typeof verify>>;
    try {
      back = await verify(order.order_reference);
    } finally {
      output.restore();
    }
    expect(back.status).toBe(303);
    expect(new URL(back.headers.get('location')!).searchParams.get('payment')).toBe('failed');
    const requestId = back.headers.get('x-request-id')!;
    const warning = output
      .text()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.order_reference === order.order_reference);
    expect(warning).toMatchObject({ level: 'WARN', request_id: requestId, provider: 'sandbox', provider_reference: order.provider_reference });
    expect(String(warning?.message)).toMatch(/cannot find the checkout/);

    const status = await stack.request('GET', `${ORDERS}/${order.order_reference}`, { key: tenant.paymentKey });
    expect(status.body.status).toBe('processing');
    const history = await domain.payments.orderHistory(order.order_reference);
    expect(history.attempts).toEqual([expect.objectContaining({ attempt: 1, outcome: 'open' })]);
    expect(history.events).toEqual([]);
  });
});

describe('provider-facing ids', () => {
  it('a sandbox session id is random: not derived from the order reference and attempt', async () => {
    const tenant = await stack.createTenant();
    const orders = [await createOrder(tenant.paymentKey), await createOrder(tenant.paymentKey)];
    for (const order of orders) {
      expect(order.provider_reference).toMatch(/^sbx_[0-9a-f]{24}$/);
      const derived = `sbx_${createHash('sha256').update(`${order.order_reference}:1`).digest('hex').slice(0, 24)}`;
      expect(order.provider_reference).not.toBe(derived);
    }
    expect(orders[0]!.provider_reference).not.toBe(orders[1]!.provider_reference);
  });

  it('an order reference is not the unkeyed hash of the client and the partner reference', async () => {
    const tenant = await stack.createTenant();
    const reference = `INV-${randomUUID()}`;
    const created = await stack.request('POST', ORDERS, {
      key: tenant.paymentKey,
      body: { reference, amount_minor: 100, currency: 'USD', customer: { email: 'guest@example.com' }, success_url: 'https://partner.example/a', cancel_url: 'https://partner.example/b' },
    });
    expect(created.status).toBe(201);
    const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
    const digest = createHash('sha256').update(`${tenant.clientId}\u0000${reference}`).digest();
    const unkeyed = `PO-${Array.from(digest.subarray(0, 12), (byte) => alphabet[byte % alphabet.length]).join('')}`;
    expect(created.body.order_reference).toMatch(/^PO-[A-Z2-9]{12}$/);
    expect(created.body.order_reference).not.toBe(unkeyed);
  });
});
