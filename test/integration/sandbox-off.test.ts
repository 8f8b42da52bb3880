/**
 * A stage without the sandbox provider (every deployed stage unless synthesized with
 * -c sandboxPayments=true, and always prod), run locally with the sandbox switched off: the
 * sandbox routes do not exist, a client with no provider cannot create orders, and an order
 * whose attempt was made on the sandbox can never become paid here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-standin';

const ORDERS = '/api/v1/payments/payment-orders';

let stack: TestStack;
let stripe: StripeStandIn;
let tenant: Tenant;
type Domain = {
  providers: typeof import('../../shared/domain/payments/providers');
  payments: typeof import('../../shared/store/payment-store');
  bookings: typeof import('../../shared/store/booking-store');
  transactions: typeof import('../../shared/store/transactions');
};
let domain: Domain;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  process.env.STRIPE_API_BASE = stripe.url;
  process.env.STRIPE_SECRET_KEY = stripe.secretKey;
  stack = await startTestStack({ sandboxPayments: false });
  domain = {
    providers: await import('../../shared/domain/payments/providers'),
    payments: await import('../../shared/store/payment-store'),
    bookings: await import('../../shared/store/booking-store'),
    transactions: await import('../../shared/store/transactions'),
  };
  tenant = await stack.createTenant();
});

afterAll(async () => {
  await stack?.stop();
  await stripe?.close();
});

const orderBody = (overrides: Record<string, unknown> = {}) => ({
  reference: `INV-${randomUUID()}`,
  amount_minor: 15_000,
  currency: 'USD',
  customer: { email: 'guest@example.com' },
  success_url: 'https://partner.example/paid',
  cancel_url: 'https://partner.example/cancel',
  ...overrides,
});

describe('a stage without the sandbox', () => {
  it('has no sandbox origin, and the API knows no sandbox route: the hosted page and its form are unknown routes', async () => {
    expect(stack.sandboxUrl).toBeUndefined();
    expect(stack.info.sandboxUrl).toBeUndefined();
    for (const path of ['/checkout/sbx_0123456789abcdef01234567', '/sandbox/checkout/sbx_0123456789abcdef01234567']) {
      for (const method of ['GET', 'POST']) {
        const response = await stack.request(method, path, {
          rawBody: method === 'POST' ? 'outcome=paid' : undefined,
          headers: method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {},
        });
        expect(response.status).toBe(404);
        expect(response.body.error).toMatchObject({ code: 'NOT_FOUND', request_id: response.headers.get('x-request-id') });
      }
    }
  });

  it('answers 422 PROVIDER_NOT_CONFIGURED to a client with no provider, and writes nothing', async () => {
    const body = orderBody();
    const response = await stack.request('POST', ORDERS, { key: tenant.paymentKey, body });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED', request_id: response.headers.get('x-request-id') });
    expect(await domain.payments.findOrderByExternalReference(tenant.clientId, body.reference)).toBeUndefined();
  });

  it('refuses to put a client on the sandbox', async () => {
    await expect(domain.providers.configureProvider(tenant.clientId, { provider: 'sandbox' })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(await domain.payments.getProviderSettings(tenant.clientId)).toBeUndefined();
  });

  it('creates orders for a client on Stripe as usual', async () => {
    const other = await stack.createTenant();
    await domain.providers.configureProvider(other.clientId, { provider: 'stripe', account: 'acct_1NoSandboxHere' });
    const response = await stack.request('POST', ORDERS, { key: other.paymentKey, body: orderBody() });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ provider: 'stripe', status: 'processing' });
  });

  it('never makes paid an order whose attempt was made on the sandbox, even with a paid sandbox session', async () => {
    // As a stage that once had the sandbox on would have left it: an order on a paid sandbox session.
    const orderReference = `PO-${randomUUID().slice(0, 12).toUpperCase()}`;
    const providerReference = `sbx_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const now = new Date().toISOString();
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const { keys } = await import('../../shared/store/keys');
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: {
          ...keys.sandboxSession(providerReference),
          entity: 'sandbox_session',
          provider_reference: providerReference,
          order_reference: orderReference,
          amount_minor: 15_000,
          currency: 'USD',
          customer: { email: 'guest@example.com' },
          description: 'left over',
          return_url: 'https://partner.example/verify',
          state: 'paid',
          created_at: now,
          completed_at: now,
        },
      }),
    );
    const order = {
      payment_order_id: randomUUID(),
      order_reference: orderReference,
      external_reference: `INV-${randomUUID()}`,
      client_id: tenant.clientId,
      status: 'processing' as const,
      amount_minor: 15_000,
      currency: 'USD',
      customer: { email: 'guest@example.com' },
      context: { type: 'room_booking', check_in_date: '2031-03-01', check_out_date: '2031-03-03' },
      success_url: 'https://partner.example/paid',
      cancel_url: 'https://partner.example/cancel',
      provider: 'sandbox' as const,
      provider_reference: providerReference,
      checkout_url: 'https://old.example/sandbox',
      attempt: 1,
      created_at: now,
      updated_at: now,
    };
    await domain.transactions.transactWrite(
      domain.payments.newOrderItems(order, { attempt: 1, provider: 'sandbox', provider_reference: providerReference, checkout_url: order.checkout_url, outcome: 'open', created_at: now, updated_at: now }),
    );

    const verify = await stack.request('GET', `${ORDERS}/verify?reference=${orderReference}`);
    expect(verify.status).toBe(422);
    expect(verify.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((await domain.payments.getOrder(orderReference))?.status).toBe('processing');
    // The booking a paid order would have mirrored does not exist.
    const { nameBasedId } = await import('../../shared/ids');
    expect(await domain.bookings.getBooking(tenant.clientId, nameBasedId(tenant.clientId, 'order-booking', orderReference))).toBeUndefined();
    expect(await domain.bookings.activeBookingsOverlapping(tenant.clientId, { checkIn: '2031-03-01', checkOut: '2031-03-03' })).toEqual([]);
  });
});
