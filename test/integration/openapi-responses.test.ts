/**
 * Real answers of the service, through the local gateway, against the OpenAPI document
 * (openapi.json): every route's success, and errors of each kind (401, 403, 400 and its
 * codes, 404, 409, 413, 415, 422, 303 redirects), each checked against the document's response
 * for that operation and status: status documented, content type, body schema (with objects
 * closed, so an undocumented field fails), required and documented headers. The signed
 * callbacks and webhooks the service posts are checked against the document's `webhooks`.
 * Valid requests are checked against the document's request schemas too.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, OPENAPI_PATH } from '../../shared/openapi/document';
import { OpenApiValidator, type ResponseLike } from '../../shared/openapi/validator';
import { type ReceivedCallback, type Receiver, startReceiver, waitFor } from '../support/receiver';
import { type ApiResponse, type RequestOptions, startTestStack, type Tenant, type TestStack } from '../support/stack';
import { withEnv } from '../support/env';

const SYNC = '/api/v1/property-sync';
const ORDERS = '/api/v1/payments/payment-orders';
const STRIPE_WEBHOOK = '/api/v1/payments/provider-webhooks/stripe';
const WEBHOOK_SECRET = 'whsec_openapi_responses_test_secret';
const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));

let stack: TestStack;
let tenant: Tenant;
let callbacks: Receiver;
let webhooks: Receiver;
const validator = new OpenApiValidator(committed, { closedObjects: true });

beforeAll(async () => {
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  stack = await startTestStack();
  tenant = await stack.createTenant();
  callbacks = await startReceiver();
  webhooks = await startReceiver();
  const deliveries = await import('../../shared/domain/callbacks/deliveries');
  await deliveries.configureEndpoint(tenant.clientId, 'callback', { url: callbacks.url });
  await deliveries.configureEndpoint(tenant.clientId, 'webhook', { url: webhooks.url });
});

afterAll(async () => {
  await callbacks?.close();
  await webhooks?.close();
  await stack?.stop();
});

// ---- helpers

/** Sends a request and checks the answer against the document; returns it for further checks. */
async function call(operationId: string, status: number, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  // A request the service accepts passes the document's request validation too (body or none, its
  // content type, its schema), as a validating proxy in front of the service would judge it.
  if (status < 400) {
    const contentType = options.headers?.['Content-Type'] ?? options.headers?.['content-type'] ?? (options.body !== undefined ? 'application/json' : undefined);
    expect(validator.checkRequest(operationId, { contentType, body: options.body ?? parsedRaw(options.rawBody, contentType) }), `${operationId} request`).toEqual([]);
  }
  const response = await stack.request(method, path, options);
  expect(response.status, `${operationId}: ${response.text.slice(0, 500)}`).toBe(status);
  expectDocumented(operationId, response);
  return response;
}

/** A raw body as the document's schema reads it: a form's fields, JSON parsed. */
function parsedRaw(raw: string | undefined, contentType: string | undefined): unknown {
  if (raw === undefined || raw === '') return raw;
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(raw));
  return type === 'application/json' ? JSON.parse(raw) : raw;
}

function expectDocumented(operationId: string, response: ResponseLike & { status: number }) {
  expect(validator.checkResponse(operationId, response), `${operationId} ${response.status}`).toEqual([]);
  expect(response.headers.get('x-request-id'), `${operationId} ${response.status} X-Request-Id`).toBeTruthy();
}

function expectCode(response: ApiResponse, code: string) {
  expect(response.body.error.code).toBe(code);
  expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
}

const ref = () => `INV-${randomUUID()}`;

function orderBody(overrides: Record<string, unknown> = {}) {
  return {
    reference: ref(),
    amount_minor: 24000,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+442071234567' },
    success_url: 'https://partner.example/paid?x=1',
    cancel_url: 'https://partner.example/cancelled',
    ...overrides,
  };
}

/** The guest on the sandbox page, on the sandbox's own origin: opens it, presses a button; returns the submit's 303. */
async function checkout(checkoutUrl: string, outcome: string) {
  await call('SandboxCheckoutPage', 200, 'GET', checkoutUrl);
  return call('SandboxCheckoutSubmit', 303, 'POST', checkoutUrl, {
    rawBody: `outcome=${outcome}`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

/** A received event against the document's webhook: its headers and body. */
function expectEventDocumented(operationId: string, received: ReceivedCallback) {
  const { operation } = validator.operation(operationId);
  for (const parameter of operation.parameters as { in: string; name: string; schema: object; required?: boolean }[]) {
    const value = received.headers[parameter.name.toLowerCase()];
    if (value === undefined) {
      expect(parameter.required, `${operationId} header ${parameter.name}`).toBeFalsy();
      continue;
    }
    expect(validator.check(parameter.schema, value), `${operationId} header ${parameter.name}`).toEqual([]);
  }
  expect(received.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(received.rawBody.toString('utf8'));
  const schema = (operation.requestBody as { content: Record<string, { schema: object }> }).content['application/json']!.schema;
  expect(validator.check(schema, body), `${operationId} body`).toEqual([]);
  return body;
}

// ---- the document itself

describe('GET /api/v1/openapi.json', () => {
  it('serves the committed document', async () => {
    const response = await fetch(stack.url + OPENAPI_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const served = await response.json();
    expect(served).toEqual(committed);
    expect(served).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('describes the gateway\'s own answers (unknown route, other method) with the error envelope', async () => {
    const envelope = { $ref: '#/components/schemas/ErrorEnvelope' };
    const unknown = await stack.request('GET', '/api/v1/no-such-route');
    expect(unknown.status).toBe(404);
    expect(validator.check(envelope, unknown.body)).toEqual([]);
    expectCode(unknown, 'NOT_FOUND');
    const otherMethod = await stack.request('DELETE', `${SYNC}/rooms`, { key: tenant.syncKey });
    expect(otherMethod.status).toBe(405);
    expect(validator.check(envelope, otherMethod.body)).toEqual([]);
    expectCode(otherMethod, 'METHOD_NOT_ALLOWED');
  });
});

// ---- Area A

describe('property sync', () => {
  const source = 'openapi-pms';

  it('room categories: 200, an idempotent replay, 422 IDEMPOTENCY_KEY_REUSED, 400s, 415, 401, 403', async () => {
    const body = {
      external_source: source,
      categories: [
        { external_category_id: 'DBL', name: 'Double room', base_price: 120, max_occupancy: 2, amenities: ['wifi'], images: ['https://cdn.example.com/dbl.jpg'] },
        { external_category_id: 'STE', name: 'Suite' },
      ],
    };
    const headers = { 'Idempotency-Key': `cat-${randomUUID()}` };
    const first = await call('PutRoomCategories', 200, 'PUT', `${SYNC}/room-categories`, { key: tenant.syncKey, body, headers });
    expect(first.body.items.map((i: { action: string }) => i.action)).toEqual(['created', 'created']);
    const replay = await call('PutRoomCategories', 200, 'PUT', `${SYNC}/room-categories`, { key: tenant.syncKey, body, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await call('PutRoomCategories', 200, 'PUT', `${SYNC}/room-categories`, { key: tenant.syncKey, body });
    expect(again.body.unchanged).toBe(2);

    expectCode(
      await call('PutRoomCategories', 422, 'PUT', `${SYNC}/room-categories`, { key: tenant.syncKey, body: { ...body, categories: [] }, headers }),
      'IDEMPOTENCY_KEY_REUSED',
    );
    const invalid = await call('PutRoomCategories', 400, 'PUT', `${SYNC}/room-categories`, {
      key: tenant.syncKey,
      body: { external_source: source, categories: [{ external_category_id: 'X', name: 'X', max_occupancy: 0 }] },
    });
    expectCode(invalid, 'VALIDATION_ERROR');
    expect(invalid.body.error.details[0].path).toBe('categories[0].max_occupancy');
    expectCode(
      await call('PutRoomCategories', 400, 'PUT', `${SYNC}/room-categories`, {
        key: tenant.syncKey,
        body: { external_source: source, categories: Array.from({ length: 501 }, (_, i) => ({ external_category_id: `C${i}`, name: 'C' })) },
      }),
      'TOO_MANY_ITEMS',
    );
    expectCode(
      await call('PutRoomCategories', 400, 'PUT', `${SYNC}/room-categories`, { key: tenant.syncKey, rawBody: '{"external_source":', headers: { 'Content-Type': 'application/json' } }),
      'INVALID_JSON',
    );
    expectCode(
      await call('PutRoomCategories', 400, 'PUT', `${SYNC}/room-categories`, { key: tenant.syncKey, body, headers: { 'Idempotency-Key': 'k'.repeat(256) } }),
      'VALIDATION_ERROR',
    );
    expectCode(
      await call('PutRoomCategories', 415, 'PUT', `${SYNC}/room-categories`, { key: tenant.syncKey, rawBody: JSON.stringify(body), headers: { 'Content-Type': 'text/plain' } }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expectCode(await call('PutRoomCategories', 401, 'PUT', `${SYNC}/room-categories`, { body }), 'MISSING_API_KEY');
    expectCode(await call('PutRoomCategories', 401, 'PUT', `${SYNC}/room-categories`, { key: `svc_sync_${'A'.repeat(43)}`, body }), 'INVALID_API_KEY');
    expectCode(await call('PutRoomCategories', 403, 'PUT', `${SYNC}/room-categories`, { key: tenant.paymentKey, body }), 'INSUFFICIENT_SCOPE');
    const readOnly = await stack.issueKey(tenant.clientId, 'sync', { scopes: ['availability:read'] });
    expectCode(await call('PutRoomCategories', 403, 'PUT', `${SYNC}/room-categories`, { key: readOnly.key, body }), 'INSUFFICIENT_SCOPE');
  });

  it('rooms: 200, 422 UNKNOWN_REFERENCE and ROOM_NUMBER_CONFLICT, 400 VALIDATION_ERROR, 413', async () => {
    const rooms = [
      { external_room_id: 'R101', external_category_id: 'DBL', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
      { external_room_id: 'R102', external_category_id: 'STE', room_number: '102', room_type: 'suite', price: 300, max_occupancy: 4, is_active: true, images: [{ url: 'https://cdn.example.com/102.jpg', caption: 'View' }] },
      { external_room_id: 'R103', room_number: '103', room_type: 'single', price: 80.5, max_occupancy: 1 },
    ];
    const created = await call('PutRooms', 200, 'PUT', `${SYNC}/rooms`, { key: tenant.syncKey, body: { external_source: source, rooms } });
    expect(created.body.created).toBe(3);

    expectCode(
      await call('PutRooms', 422, 'PUT', `${SYNC}/rooms`, {
        key: tenant.syncKey,
        body: { external_source: source, rooms: [{ ...rooms[0], external_room_id: 'R104', room_number: '104', external_category_id: 'NOPE' }] },
      }),
      'UNKNOWN_REFERENCE',
    );
    expectCode(
      await call('PutRooms', 422, 'PUT', `${SYNC}/rooms`, {
        key: tenant.syncKey,
        body: { external_source: source, rooms: [{ ...rooms[2], external_room_id: 'R105', room_number: '101' }] },
      }),
      'ROOM_NUMBER_CONFLICT',
    );
    expectCode(
      await call('PutRooms', 400, 'PUT', `${SYNC}/rooms`, { key: tenant.syncKey, body: { external_source: source, rooms: [{ ...rooms[0], price: '120' }] } }),
      'VALIDATION_ERROR',
    );
    expectCode(
      await call('PutRooms', 413, 'PUT', `${SYNC}/rooms`, {
        key: tenant.syncKey,
        body: { external_source: source, rooms: [{ ...rooms[0], notes: 'x'.repeat(1024 * 1024) }] },
      }),
      'PAYLOAD_TOO_LARGE',
    );
  });

  it('bookings (with conflicts) and check-ins: 200 and 422 UNKNOWN_REFERENCE', async () => {
    const booking = (id: string, checkIn: string, checkOut: string) => ({
      external_booking_id: id,
      external_room_id: 'R101',
      guest_name: 'Ada Guest',
      guest_email: 'ada@example.com',
      guest_phone: '+14155550123',
      guests: 2,
      check_in_date: checkIn,
      check_out_date: checkOut,
      total_amount: 240,
      status: 'confirmed',
      payment_status: 'paid',
    });
    const synced = await call('PutBookings', 200, 'PUT', `${SYNC}/bookings`, {
      key: tenant.syncKey,
      body: { external_source: source, bookings: [booking('B1', '2027-03-01', '2027-03-04'), { ...booking('B2', '2027-03-03', '2027-03-05'), payment_status: undefined }] },
    });
    expect(synced.body.conflicts.length).toBeGreaterThan(0);
    expectCode(
      await call('PutBookings', 422, 'PUT', `${SYNC}/bookings`, {
        key: tenant.syncKey,
        body: { external_source: source, bookings: [{ ...booking('B3', '2027-03-01', '2027-03-02'), external_room_id: 'NOPE' }] },
      }),
      'UNKNOWN_REFERENCE',
    );

    await call('PutCheckins', 200, 'PUT', `${SYNC}/checkins`, {
      key: tenant.syncKey,
      body: {
        external_source: source,
        checkins: [
          { external_checkin_id: 'C1', external_booking_id: 'B1', event: 'check_in', occurred_at: '2027-03-01T15:00:00Z', external_room_id: 'R101', notes: 'Late' },
          { external_checkin_id: 'C2', external_booking_id: 'B2', event: 'check_out', occurred_at: '2027-03-05T10:00:00+02:00' },
        ],
      },
    });
    expectCode(
      await call('PutCheckins', 422, 'PUT', `${SYNC}/checkins`, {
        key: tenant.syncKey,
        body: { external_source: source, checkins: [{ external_checkin_id: 'C3', external_booking_id: 'NOPE', event: 'check_in', occurred_at: '2027-03-01T15:00:00Z' }] },
      }),
      'UNKNOWN_REFERENCE',
    );
  });

  it('availability: 200 (rooms with and without a category) and 400 VALIDATION_ERROR', async () => {
    const found = await call('GetAvailability', 200, 'GET', `${SYNC}/availability?check_in_date=2027-04-01&check_out_date=2027-04-03&guests=1`, { key: tenant.syncKey });
    expect(found.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['101', '102', '103']);
    expect(found.body.available_rooms[2].category).toBeNull();
    await call('GetAvailability', 200, 'GET', `${SYNC}/availability?check_in_date=2027-03-02&check_out_date=2027-03-03&guests=2&external_source=${source}&room_type=suite`, {
      key: tenant.syncKey,
    });
    expectCode(
      await call('GetAvailability', 400, 'GET', `${SYNC}/availability?check_in_date=2027-04-03&check_out_date=2027-04-01&guests=1`, { key: tenant.syncKey }),
      'VALIDATION_ERROR',
    );
    expectCode(await call('GetAvailability', 400, 'GET', `${SYNC}/availability?check_in_date=2027-04-01`, { key: tenant.syncKey }), 'VALIDATION_ERROR');
    expectCode(await call('GetAvailability', 401, 'GET', `${SYNC}/availability?check_in_date=2027-04-01&check_out_date=2027-04-03&guests=1`), 'MISSING_API_KEY');
  });
});

// ---- Area B

describe('payment orders, the sandbox checkout and the events', () => {
  let roomId: string;
  let paid: { order_reference: string; checkout_url: string };

  beforeAll(async () => {
    const availability = await stack.request('GET', `${SYNC}/availability?check_in_date=2027-08-01&check_out_date=2027-08-03&guests=1`, { key: tenant.syncKey });
    roomId = availability.body.available_rooms[0].id;
  });

  it('create: 201, 200 reused (also with x-api-key), 409, 400 codes, 403 ORIGIN_NOT_ALLOWED, 401', async () => {
    const body = orderBody({
      context: { type: 'room_booking', booking_id: 'WEB-1', check_in_date: '2027-08-01', check_out_date: '2027-08-03', guests: 2, service_room_id: roomId },
    });
    const created = await call('CreatePaymentOrder', 201, 'POST', ORDERS, { key: tenant.paymentKey, body, headers: { 'Idempotency-Key': randomUUID() } });
    paid = created.body;
    const reused = await call('CreatePaymentOrder', 200, 'POST', ORDERS, { body, headers: { 'x-api-key': tenant.paymentKey } });
    expect(reused.body.reused).toBe(true);

    expectCode(await call('CreatePaymentOrder', 409, 'POST', ORDERS, { key: tenant.paymentKey, body: { ...body, amount_minor: 1 } }), 'EXTERNAL_REFERENCE_CONFLICT');
    expectCode(await call('CreatePaymentOrder', 400, 'POST', ORDERS, { key: tenant.paymentKey, body: orderBody({ amount_minor: 1.5 }) }), 'INVALID_AMOUNT');
    expectCode(await call('CreatePaymentOrder', 400, 'POST', ORDERS, { key: tenant.paymentKey, body: orderBody({ currency: 'XYZ' }) }), 'UNSUPPORTED_CURRENCY');
    expectCode(await call('CreatePaymentOrder', 400, 'POST', ORDERS, { key: tenant.paymentKey, body: orderBody({ customer: { name: 'No Mail' } }) }), 'CUSTOMER_EMAIL_REQUIRED');
    expectCode(await call('CreatePaymentOrder', 400, 'POST', ORDERS, { key: tenant.paymentKey, body: orderBody({ success_url: 'not a url' }) }), 'VALIDATION_ERROR');
    const withOrigins = await stack.issueKey(tenant.clientId, 'payment', { origins: ['https://partner.example'] });
    expectCode(
      await call('CreatePaymentOrder', 400, 'POST', ORDERS, { key: withOrigins.key, body: orderBody({ cancel_url: 'https://elsewhere.example/c' }) }),
      'RETURN_URL_NOT_ALLOWED',
    );
    expectCode(
      await call('CreatePaymentOrder', 403, 'POST', ORDERS, { key: withOrigins.key, body: orderBody(), headers: { Origin: 'https://elsewhere.example' } }),
      'ORIGIN_NOT_ALLOWED',
    );
    await call('CreatePaymentOrder', 201, 'POST', ORDERS, { key: withOrigins.key, body: orderBody(), headers: { Origin: 'https://partner.example' } });
    expectCode(await call('CreatePaymentOrder', 403, 'POST', ORDERS, { key: tenant.syncKey, body: orderBody() }), 'INSUFFICIENT_SCOPE');
    expectCode(await call('CreatePaymentOrder', 401, 'POST', ORDERS, { body: orderBody() }), 'MISSING_API_KEY');
  });

  it('status before payment, 404 PAYMENT_ORDER_NOT_FOUND', async () => {
    const status = await call('GetPaymentOrder', 200, 'GET', `${ORDERS}/${paid.order_reference}`, { key: tenant.paymentKey });
    expect(status.body.paid_at).toBeNull();
    expect(status.body.service_booking_sync.status).toBe('not_applicable');
    expectCode(await call('GetPaymentOrder', 404, 'GET', `${ORDERS}/PO-ZZZZZZZZZZZZ`, { key: tenant.paymentKey }), 'PAYMENT_ORDER_NOT_FOUND');
    expectCode(await call('GetPaymentOrder', 404, 'GET', `${ORDERS}/not-a-reference`, { key: tenant.paymentKey }), 'PAYMENT_ORDER_NOT_FOUND');
    const other = await stack.createTenant();
    expectCode(await call('GetPaymentOrder', 404, 'GET', `${ORDERS}/${paid.order_reference}`, { key: other.paymentKey }), 'PAYMENT_ORDER_NOT_FOUND');
  });

  it('sandbox page and submit: 200 html, 303, 404, 415, 400', async () => {
    // On the sandbox's own origin, as the document's servers of these operations say.
    const path = paid.checkout_url;
    expect(path).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/sbx_`));
    const page = await call('SandboxCheckoutPage', 200, 'GET', path);
    expect(page.text).toContain('<html');
    expectCode(await call('SandboxCheckoutPage', 404, 'GET', `${stack.sandboxUrl}/checkout/sbx_unknown`), 'NOT_FOUND');
    expectCode(await call('SandboxCheckoutSubmit', 415, 'POST', path, { body: { outcome: 'paid' } }), 'UNSUPPORTED_MEDIA_TYPE');
    expectCode(
      await call('SandboxCheckoutSubmit', 400, 'POST', path, { rawBody: 'outcome=maybe', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      'VALIDATION_ERROR',
    );
    expectCode(
      await call('SandboxCheckoutSubmit', 404, 'POST', `${stack.sandboxUrl}/checkout/sbx_unknown`, { rawBody: 'outcome=paid', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
      'NOT_FOUND',
    );
  });

  it('pay and verify: 303 to success (locked room), status paid; a cancelled order goes to cancel_url; 404 and 400 on verify', async () => {
    const submitted = await checkout(paid.checkout_url, 'paid');
    const verifyUrl = new URL(submitted.headers.get('location')!);
    expect(verifyUrl.pathname).toBe(`${ORDERS}/verify`);
    const verified = await call('VerifyPaymentOrder', 303, 'GET', verifyUrl.pathname + verifyUrl.search);
    expect(verified.headers.get('location')).toContain('payment=success');
    const status = await call('GetPaymentOrder', 200, 'GET', `${ORDERS}/${paid.order_reference}`, { key: tenant.paymentKey });
    expect(status.body.service_booking_sync).toMatchObject({ status: 'synced', room_assignment: 'locked', room_id: roomId });

    // No room named: paid, recorded for manual assignment (the callback's room is null).
    const manual = await call('CreatePaymentOrder', 201, 'POST', ORDERS, {
      key: tenant.paymentKey,
      body: orderBody({ context: { type: 'room_booking', check_in_date: '2027-09-01', check_out_date: '2027-09-02' } }),
    });
    const back = await checkout(manual.body.checkout_url, 'paid');
    await call('VerifyPaymentOrder', 303, 'GET', new URL(back.headers.get('location')!).pathname + new URL(back.headers.get('location')!).search);
    const manualStatus = await call('GetPaymentOrder', 200, 'GET', `${ORDERS}/${manual.body.order_reference}`, { key: tenant.paymentKey });
    expect(manualStatus.body.service_booking_sync).toMatchObject({ status: 'synced', room_assignment: 'manual', room_id: null });

    const cancelled = await call('CreatePaymentOrder', 201, 'POST', ORDERS, { key: tenant.paymentKey, body: orderBody() });
    await checkout(cancelled.body.checkout_url, 'cancelled');
    const failed = await call('VerifyPaymentOrder', 303, 'GET', `${ORDERS}/verify?reference=${cancelled.body.order_reference}`);
    expect(failed.headers.get('location')).toMatch(/^https:\/\/partner\.example\/cancelled\?payment=failed/);
    const retried = await call('CreatePaymentOrder', 200, 'POST', ORDERS, {
      key: tenant.paymentKey,
      body: { ...orderBody(), reference: cancelled.body.external_reference },
    });
    expect(retried.body).toMatchObject({ reused: true, status: 'processing' });

    expectCode(await call('VerifyPaymentOrder', 404, 'GET', `${ORDERS}/verify?reference=PO-ZZZZZZZZZZZZ`), 'PAYMENT_ORDER_NOT_FOUND');
    expectCode(await call('VerifyPaymentOrder', 400, 'GET', `${ORDERS}/verify`), 'VALIDATION_ERROR');
  });

  it('posts booking.confirmed and payment_order.paid as the webhooks section describes them', async () => {
    const bookings = await waitFor('two booking.confirmed callbacks', async () => (callbacks.received.length >= 2 ? callbacks.received : undefined));
    const events = bookings.map((received) => expectEventDocumented('BookingConfirmedCallback', received));
    expect(events.map((e) => (e.room === null ? 'manual' : 'locked')).sort()).toEqual(['locked', 'manual']);
    const paidHooks = await waitFor('two payment_order.paid webhooks', async () => (webhooks.received.length >= 2 ? webhooks.received : undefined));
    for (const received of paidHooks) expect(expectEventDocumented('PaymentOrderPaidWebhook', received).event).toBe('payment_order.paid');
  });

  it('takes, as the document does, a refund without a body and a delivery retry with `{}`', async () => {
    // No amount: all that is left is refunded (CONTRACT "Booking changes, cancellations and refunds").
    const refund = await call('RefundPaymentOrder', 201, 'POST', `${ORDERS}/${paid.order_reference}/refunds`, { key: tenant.paymentKey });
    expect(refund.body).toMatchObject({ amount_minor: 24000, currency: 'USD' });
    const { key } = await stack.issueKey(tenant.clientId, 'sync', { scopes: ['deliveries:read', 'deliveries:write'] });
    const list = await call('ListDeliveries', 200, 'GET', '/api/v1/deliveries', { key });
    const id = list.body.deliveries[0].delivery_id;
    await call('RetryDelivery', 202, 'POST', `/api/v1/deliveries/${id}/retry`, { key, body: {} });
    await call('RetryDelivery', 202, 'POST', `/api/v1/deliveries/${id}/retry`, { key });
    // The check is not a pass-all: a body of a type the document does not name fails it.
    expect(validator.checkRequest('RetryDelivery', { contentType: 'text/plain', body: 'again' })).not.toEqual([]);
  });
});

describe('Stripe webhook', () => {
  it('200 for a correctly signed event, 400 INVALID_SIGNATURE otherwise, 404 NOT_FOUND without Stripe', async () => {
    const payload = JSON.stringify({ id: `evt_${randomUUID()}`, object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const ok = await call('StripeWebhook', 200, 'POST', STRIPE_WEBHOOK, { rawBody: payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature } });
    expect(ok.body).toEqual({ received: true });
    expectCode(await call('StripeWebhook', 400, 'POST', STRIPE_WEBHOOK, { rawBody: payload, headers: { 'Content-Type': 'application/json' } }), 'INVALID_SIGNATURE');
    expectCode(
      await call('StripeWebhook', 400, 'POST', STRIPE_WEBHOOK, { rawBody: payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': 't=1,v1=00' } }),
      'INVALID_SIGNATURE',
    );
    await withEnv({ STRIPE_WEBHOOK_SECRET: undefined }, async () => {
      expectCode(await call('StripeWebhook', 404, 'POST', STRIPE_WEBHOOK, { rawBody: payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature } }), 'NOT_FOUND');
    });
  });
});
