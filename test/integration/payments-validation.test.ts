/**
 * Payment order creation refusals through the local gateway (docs/behaviour.md "Payment orders",
 * "Credentials", "Errors"): each spec code with the condition that triggers it, the
 * allowed-origin rules for the Origin header and the return URLs, and that a refused request
 * creates nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestStack, type Tenant, type TestStack } from '../support/stack';

const ORDERS = '/api/v1/payments/payment-orders';

let stack: TestStack;
let tenant: Tenant;

beforeAll(async () => {
  // The supported list is configurable (docs/behaviour.md "Payment orders"): the defaults plus a 3-decimal currency.
  process.env.SUPPORTED_CURRENCIES = 'USD,EUR,GBP,NGN,GHS,KES,ZAR,JPY,KWD';
  stack = await startTestStack();
  tenant = await stack.createTenant();
});

afterAll(async () => {
  await stack?.stop();
});

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    reference: `INV-${randomUUID()}`,
    amount_minor: 12500,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+442071234567' },
    success_url: 'https://partner.example/return?x=1',
    cancel_url: 'https://partner.example/cancel',
    ...overrides,
  };
}

function create(body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) {
  return stack.request('POST', ORDERS, { key: options.key ?? tenant.paymentKey, body, headers: options.headers });
}

function expectError(response: ApiResponse, status: number, code: string) {
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.body.error).toMatchObject({ message: expect.any(String), request_id: response.headers.get('x-request-id') });
  expect(response.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
}

/** The refused request left nothing behind: the same reference is free for another amount. */
async function expectReferenceFree(reference: string) {
  const created = await create(orderBody({ reference, amount_minor: 777 }));
  expect(created.status).toBe(201);
  expect(created.body.reused).toBe(false);
}

describe('INVALID_AMOUNT', () => {
  it.each([
    ['zero', 0],
    ['negative', -100],
    ['a fraction', 1.5],
    ['a numeric string', '100'],
    ['over 10^12', 1_000_000_000_001],
    ['null', null],
  ])('amount_minor %s answers 400 INVALID_AMOUNT and creates nothing', async (_, amount) => {
    const body = orderBody({ amount_minor: amount });
    expectError(await create(body), 400, 'INVALID_AMOUNT');
    await expectReferenceFree(body.reference);
  });

  it('a missing amount_minor answers 400 INVALID_AMOUNT', async () => {
    const { amount_minor: _, ...body } = orderBody();
    expectError(await create(body), 400, 'INVALID_AMOUNT');
  });

  it('the bounds 1 and 10^12 are accepted', async () => {
    for (const amount of [1, 1_000_000_000_000]) {
      const created = await create(orderBody({ amount_minor: amount }));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ amount_minor: amount, amount: amount / 100 });
    }
  });
});

describe('UNSUPPORTED_CURRENCY', () => {
  it.each([
    ['lowercase', 'usd'],
    ['an unknown code', 'XYZ'],
    ['a real code not in the supported list', 'CHF'],
    ['two letters', 'US'],
    ['a number', 840],
    ['empty', ''],
  ])('currency %s answers 400 UNSUPPORTED_CURRENCY and creates nothing', async (_, currency) => {
    const body = orderBody({ currency });
    expectError(await create(body), 400, 'UNSUPPORTED_CURRENCY');
    await expectReferenceFree(body.reference);
  });

  it('a missing currency answers 400 UNSUPPORTED_CURRENCY', async () => {
    const { currency: _, ...body } = orderBody();
    expectError(await create(body), 400, 'UNSUPPORTED_CURRENCY');
  });

  it('a configured 3-decimal currency (KWD) is accepted; amount is amount_minor / 1000', async () => {
    const created = await create(orderBody({ amount_minor: 12345, currency: 'KWD' }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ amount_minor: 12345, amount: 12.345, currency: 'KWD' });
  });

  it('every default currency is accepted', async () => {
    for (const currency of ['USD', 'EUR', 'GBP', 'NGN', 'GHS', 'KES', 'ZAR', 'JPY']) {
      const created = await create(orderBody({ currency }));
      expect(created.status, currency).toBe(201);
      expect(created.body.currency).toBe(currency);
    }
  });
});

describe('CUSTOMER_EMAIL_REQUIRED', () => {
  it.each([
    ['no e-mail', { name: 'Ada' }],
    ['an e-mail that is not one', { name: 'Ada', email: 'not-an-email' }],
    ['an e-mail without a domain', { email: 'ada@' }],
    ['an empty e-mail', { email: '' }],
    ['a null e-mail', { email: null }],
    ['a customer that is not an object', 'ada@example.com'],
  ])('%s answers 400 CUSTOMER_EMAIL_REQUIRED and creates nothing', async (_, customer) => {
    const body = orderBody({ customer });
    expectError(await create(body), 400, 'CUSTOMER_EMAIL_REQUIRED');
    await expectReferenceFree(body.reference);
  });

  it('no customer at all answers 400 CUSTOMER_EMAIL_REQUIRED', async () => {
    const { customer: _, ...body } = orderBody();
    expectError(await create(body), 400, 'CUSTOMER_EMAIL_REQUIRED');
  });

  it('a customer with only an e-mail is enough', async () => {
    expect((await create(orderBody({ customer: { email: 'guest@example.com' } }))).status).toBe(201);
  });
});

describe('VALIDATION_ERROR', () => {
  it.each([
    ['a space', 'INV 1'],
    ['a slash', 'INV/1'],
    ['a non-ASCII letter', 'INVÉ1'],
    ['a query character', 'INV?1'],
    ['nothing', ''],
    ['101 characters', 'R'.repeat(101)],
  ])('a reference with %s answers 400 VALIDATION_ERROR naming reference', async (_, reference) => {
    const response = await create(orderBody({ reference }));
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'reference' })]));
  });

  it('a reference of 100 characters from the whole alphabet is accepted and echoed', async () => {
    const reference = `Az09._:-${randomUUID()}`.padEnd(100, 'x');
    const created = await create(orderBody({ reference }));
    expect(created.status).toBe(201);
    expect(created.body.external_reference).toBe(reference);
  });

  it('missing or non-string reference answers 400 VALIDATION_ERROR', async () => {
    const { reference: _, ...body } = orderBody();
    expectError(await create(body), 400, 'VALIDATION_ERROR');
    expectError(await create(orderBody({ reference: 12345 })), 400, 'VALIDATION_ERROR');
  });

  it.each([
    ['success_url', 'not a url'],
    ['success_url', '/relative/return'],
    ['cancel_url', 'ftp://partner.example/cancel'],
    ['cancel_url', 'javascript:alert(1)'],
  ])('%s %s answers 400 VALIDATION_ERROR', async (field, url) => {
    const response = await create(orderBody({ [field]: url }));
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
  });

  it('missing return URLs answer 400 VALIDATION_ERROR', async () => {
    const { success_url: _s, ...noSuccess } = orderBody();
    expectError(await create(noSuccess), 400, 'VALIDATION_ERROR');
    const { cancel_url: _c, ...noCancel } = orderBody();
    expectError(await create(noCancel), 400, 'VALIDATION_ERROR');
  });

  it.each([
    ['a date that does not exist', { type: 'room_booking', check_in_date: '2027-02-30', check_out_date: '2027-03-02' }, 'context.check_in_date'],
    ['check-out before check-in', { type: 'room_booking', check_in_date: '2027-03-05', check_out_date: '2027-03-02' }, 'context.check_out_date'],
    ['check-out on check-in', { type: 'room_booking', check_in_date: '2027-03-05', check_out_date: '2027-03-05' }, 'context.check_out_date'],
    ['zero guests', { type: 'room_booking', guests: 0 }, 'context.guests'],
    ['a room id that is not a UUID', { type: 'room_booking', service_room_id: '101' }, 'context.service_room_id'],
    ['a null type', { type: null }, 'context.type'],
    ['a null context', null, 'context'],
  ])('context with %s answers 400 VALIDATION_ERROR', async (_, context, path) => {
    const body = orderBody({ context });
    const response = await create(body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    await expectReferenceFree(body.reference);
  });

  it('a phone that is not E.164 is a VALIDATION_ERROR, not an e-mail problem', async () => {
    const response = await create(orderBody({ customer: { email: 'ada@example.com', phone: '0207 123 4567' } }));
    expectError(response, 400, 'VALIDATION_ERROR');
  });

  it('a body that is not JSON answers 400 INVALID_JSON', async () => {
    const response = await stack.request('POST', ORDERS, { key: tenant.paymentKey, rawBody: '{"reference":', headers: { 'Content-Type': 'application/json' } });
    expectError(response, 400, 'INVALID_JSON');
  });
});

describe('allowed origins', () => {
  let restricted: string;
  beforeAll(async () => {
    restricted = (await stack.issueKey(tenant.clientId, 'payment', { origins: ['https://partner.example', 'https://shop.partner.example'] })).key;
  });

  it('return URLs on the allowed origins are accepted, with or without a matching Origin header', async () => {
    const urls = { success_url: 'https://partner.example/return?x=1', cancel_url: 'https://shop.partner.example/cart' };
    expect((await create(orderBody(urls), { key: restricted })).status).toBe(201);
    expect((await create(orderBody(urls), { key: restricted, headers: { Origin: 'https://partner.example' } })).status).toBe(201);
    expect((await create(orderBody(urls), { key: restricted, headers: { Origin: 'https://SHOP.partner.example' } })).status).toBe(201);
  });

  it.each([
    ['success_url', 'https://evil.example/return'],
    ['success_url', 'http://partner.example/return'],
    ['cancel_url', 'https://partner.example:8443/cancel'],
    ['cancel_url', 'https://partner.example.evil.example/cancel'],
  ])('%s on %s answers 400 RETURN_URL_NOT_ALLOWED and creates nothing', async (field, url) => {
    const body = orderBody({ [field]: url });
    expectError(await create(body, { key: restricted }), 400, 'RETURN_URL_NOT_ALLOWED');
    await expectReferenceFree(body.reference);
  });

  it('an Origin header that is not allowed answers 403 ORIGIN_NOT_ALLOWED and creates nothing', async () => {
    const body = orderBody();
    for (const origin of ['https://evil.example', 'http://partner.example', 'null']) {
      expectError(await create(body, { key: restricted, headers: { Origin: origin } }), 403, 'ORIGIN_NOT_ALLOWED');
    }
    await expectReferenceFree(body.reference);
  });

  it('an Origin header is refused for a key without allowed origins; no Origin is the normal server call', async () => {
    expectError(await create(orderBody(), { headers: { Origin: 'https://partner.example' } }), 403, 'ORIGIN_NOT_ALLOWED');
    // Without allowed origins, return URLs may be on any origin.
    expect((await create(orderBody({ success_url: 'https://anywhere.example/ok', cancel_url: 'https://elsewhere.example/ko' }))).status).toBe(201);
  });

  it('the status lookup applies the Origin rule too', async () => {
    const created = await create(orderBody(), { key: restricted });
    const ref = created.body.order_reference;
    const denied = await stack.request('GET', `${ORDERS}/${ref}`, { key: restricted, headers: { Origin: 'https://evil.example' } });
    expectError(denied, 403, 'ORIGIN_NOT_ALLOWED');
    const allowed = await stack.request('GET', `${ORDERS}/${ref}`, { key: restricted, headers: { Origin: 'https://partner.example' } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.status).toBe('processing');
  });
});
