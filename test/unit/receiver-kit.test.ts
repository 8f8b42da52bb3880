import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  type BookingEvent,
  handleDelivery,
  MemoryDeliveryStore,
  standardWebhookKey,
  standardWebhookSignature,
  verifySignature,
  verifyStandardWebhook,
  BOOKING_EVENT_NAMES,
  PAYMENT_ORDER_EVENT_NAMES,
} from '../../shared/receiver-kit';
import { EventMirror } from '../../shared/receiver-kit/example-receiver';

const secret = 'whsec_test_secret_value';
const body = '{"event":"booking.confirmed","booking":{"id":"b1"}}';
const sign = (raw: string, key = secret) => createHmac('sha256', key).update(raw).digest('hex');

describe('verifySignature', () => {
  it('accepts the HMAC of the exact bytes and nothing else', () => {
    expect(verifySignature(body, sign(body), secret)).toBe(true);
    expect(verifySignature(Buffer.from(body), sign(body), secret)).toBe(true);
    expect(verifySignature(`${body} `, sign(body), secret)).toBe(false);
    expect(verifySignature(body, sign(body, 'another'), secret)).toBe(false);
    expect(verifySignature(body, `sha256=${sign(body)}`, secret)).toBe(false);
    expect(verifySignature(body, sign(body).slice(0, 63), secret)).toBe(false);
    expect(verifySignature(body, undefined, secret)).toBe(false);
  });

  it('accepts any of several secrets during a rotation', () => {
    expect(verifySignature(body, sign(body, 'new-secret'), ['old-secret', 'new-secret'])).toBe(true);
    expect(verifySignature(body, sign(body, 'gone'), ['old-secret', 'new-secret'])).toBe(false);
  });
});

describe('handleDelivery', () => {
  const request = (headers: Record<string, string>, raw = body) => ({ rawBody: raw, headers });
  const signed = (id: string) => ({ 'X-Service-Signature': sign(body), 'X-Service-Delivery': id, 'X-Service-Event': 'booking.confirmed', 'X-Service-Client': 'c1' });

  it('records a delivery once and answers a repeat with the same 2xx', async () => {
    const store = new MemoryDeliveryStore();
    const seen: string[] = [];
    const onEvent = async (_event: unknown, meta: { deliveryId: string }) => void seen.push(meta.deliveryId);
    const first = await handleDelivery(request(signed('d1')), { secret, store, onEvent });
    const again = await handleDelivery(request(signed('d1')), { secret, store, onEvent });
    expect(first).toEqual({ status: 200, body: { received: true, delivery_id: 'd1' } });
    expect(again).toEqual(first);
    expect(seen).toEqual(['d1']);
  });

  it('rejects a bad signature with 401 before reading the body', async () => {
    let called = false;
    const reply = await handleDelivery(request({ ...signed('d2'), 'X-Service-Signature': sign(body, 'wrong') }), {
      secret,
      store: new MemoryDeliveryStore(),
      onEvent: async () => void (called = true),
    });
    expect(reply.status).toBe(401);
    expect(called).toBe(false);
  });

  it('answers 503 and remembers nothing when recording fails, so the retry records it', async () => {
    const store = new MemoryDeliveryStore();
    let attempts = 0;
    const onEvent = async () => {
      if (++attempts === 1) throw new Error('database down');
    };
    expect((await handleDelivery(request(signed('d3')), { secret, store, onEvent })).status).toBe(503);
    expect((await handleDelivery(request(signed('d3')), { secret, store, onEvent })).status).toBe(200);
    expect(attempts).toBe(2);
  });

  it('needs a delivery id and a JSON body', async () => {
    const store = new MemoryDeliveryStore();
    const onEvent = async () => undefined;
    expect((await handleDelivery(request({ 'X-Service-Signature': sign(body) }), { secret, store, onEvent })).status).toBe(400);
    const raw = 'not json';
    expect((await handleDelivery(request({ 'X-Service-Signature': sign(raw), 'X-Service-Delivery': 'd4' }, raw), { secret, store, onEvent })).status).toBe(400);
  });
});

describe('Standard Webhooks', () => {
  // A secret as the service generates it: whsec_ + base64 of 32 bytes.
  const whsec = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const at = new Date('2027-03-01T12:00:00Z');
  const seconds = Math.floor(at.getTime() / 1000);
  const headersFor = (signature: string, timestamp = seconds, id = 'msg_1') => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  });

  it('makes the signature the standardwebhooks library makes and verifies, keyed with the bytes a whsec_ secret encodes', () => {
    const ours = standardWebhookSignature(whsec, 'msg_1', seconds, body);
    expect(ours).toBe(new Webhook(whsec).sign('msg_1', at, body));
    expect(verifyStandardWebhook(body, headersFor(ours), whsec, at)).toEqual({ valid: true });
    // Another form of secret keys with its UTF-8 bytes, as `new Webhook(bytes, { format: 'raw' })` does.
    const chosen = 'an-operator-chose-this-secret';
    expect(standardWebhookKey(chosen)).toEqual(Buffer.from(chosen));
    expect(standardWebhookSignature(chosen, 'msg_1', seconds, body)).toBe(new Webhook(Buffer.from(chosen), { format: 'raw' }).sign('msg_1', at, body));
    expect(standardWebhookKey('whsec_not/base64!')).toEqual(Buffer.from('whsec_not/base64!'));
  });

  it('refuses a timestamp more than 5 minutes off, a changed id or body, and a signature with another secret', () => {
    const signed = (timestamp: number) => headersFor(standardWebhookSignature(whsec, 'msg_1', timestamp, body), timestamp);
    expect(verifyStandardWebhook(body, signed(seconds - 299), whsec, at).valid).toBe(true);
    expect(verifyStandardWebhook(body, signed(seconds - 301), whsec, at)).toEqual({ valid: false, reason: 'webhook-timestamp is more than 5 minutes off' });
    expect(verifyStandardWebhook(body, signed(seconds + 301), whsec, at).valid).toBe(false);
    expect(verifyStandardWebhook(body, { ...signed(seconds), 'webhook-id': 'msg_2' }, whsec, at).valid).toBe(false);
    expect(verifyStandardWebhook(`${body} `, signed(seconds), whsec, at).valid).toBe(false);
    expect(verifyStandardWebhook(body, headersFor(standardWebhookSignature('whsec_b3RoZXI=', 'msg_1', seconds, body)), whsec, at).valid).toBe(false);
    expect(verifyStandardWebhook(body, { 'webhook-id': 'msg_1' }, whsec, at).valid).toBe(false);
  });

  it('accepts a header with several signatures when one is made with a secret it has (a rotation)', () => {
    const old = 'whsec_b2xkLXNlY3JldC1ieXRlcy0wMTIzNDU2Nzg5MDEyMzQ1';
    const both = `${standardWebhookSignature(whsec, 'msg_1', seconds, body)} ${standardWebhookSignature(old, 'msg_1', seconds, body)}`;
    expect(verifyStandardWebhook(body, headersFor(both), whsec, at).valid).toBe(true);
    expect(verifyStandardWebhook(body, headersFor(both), old, at).valid).toBe(true);
    expect(verifyStandardWebhook(body, headersFor(both), 'whsec_Z29uZQ==', at).valid).toBe(false);
  });

  it('handleDelivery checks the Standard Webhooks headers when present, X-Service-Signature otherwise (or never, when told)', async () => {
    const onEvent = async () => undefined;
    const now = () => at;
    const standard = headersFor(standardWebhookSignature(whsec, 'd5', seconds, body), seconds, 'd5');
    const ok = await handleDelivery({ rawBody: body, headers: standard }, { secret: whsec, store: new MemoryDeliveryStore(), onEvent, now });
    expect(ok).toEqual({ status: 200, body: { received: true, delivery_id: 'd5' } });
    // A replay an hour later, even with a valid X-Service-Signature beside it.
    const later = () => new Date(at.getTime() + 3_600_000);
    const replay = await handleDelivery(
      { rawBody: body, headers: { ...standard, 'X-Service-Signature': sign(body, whsec), 'X-Service-Delivery': 'd5' } },
      { secret: whsec, store: new MemoryDeliveryStore(), onEvent, now: later },
    );
    expect(replay).toEqual({ status: 401, body: { error: 'webhook-timestamp is more than 5 minutes off' } });
    const legacy = { 'X-Service-Signature': sign(body, whsec), 'X-Service-Delivery': 'd6' };
    expect((await handleDelivery({ rawBody: body, headers: legacy }, { secret: whsec, store: new MemoryDeliveryStore(), onEvent, now })).status).toBe(200);
    const strict = await handleDelivery({ rawBody: body, headers: legacy }, { secret: whsec, requireStandardWebhooks: true, store: new MemoryDeliveryStore(), onEvent, now });
    expect(strict.status).toBe(401);
  });
});

describe('the example receiver keeps bookings in sequence', () => {
  const booking = (event: BookingEvent['event'], sequence: number, extra: Partial<BookingEvent['booking']> = {}) =>
    ({ event, created_at: '2027-03-01T12:00:00Z', hotel_id: 'h1', booking: { id: 'b1', status: 'confirmed', sequence, ...extra }, room: null }) as unknown as BookingEvent;

  it('upserts by booking.id and ignores an event with a lower sequence than the one it has', () => {
    const mirror = new EventMirror();
    expect(mirror.apply(booking('booking.confirmed', 1))).toBe(true);
    expect(mirror.apply(booking('booking.cancelled', 3, { status: 'cancelled', cancellation_reason: 'guest' }))).toBe(true);
    // booking.modified (sequence 2) arrives late, after the cancellation: ignored.
    expect(mirror.apply(booking('booking.modified', 2, { check_out_date: '2027-03-09' }))).toBe(false);
    expect(mirror.bookings.size).toBe(1);
    expect(mirror.bookings.get('b1')).toMatchObject({ last_event: 'booking.cancelled', sequence: 3, booking: { status: 'cancelled', cancellation_reason: 'guest' } });
    expect(mirror.ignored.map((e) => e.event)).toEqual(['booking.modified']);
  });

  it('keeps a payment order by reference, its latest state', () => {
    const mirror = new EventMirror();
    const order = { order_reference: 'PO-1', external_reference: 'X', status: 'paid', amount_minor: 100, currency: 'EUR' };
    mirror.apply({ event: 'payment_order.paid', payment_order: order });
    mirror.apply({ event: 'payment_order.refunded', payment_order: { ...order, status: 'refunded', amount_refunded_minor: 100 } });
    expect(mirror.paymentOrders.get('PO-1')).toMatchObject({ status: 'refunded', amount_refunded_minor: 100, last_event: 'payment_order.refunded' });
  });
});

describe('every event named where integrators read about them', () => {
  it('the Integrations page and the example receiver name each callback and webhook event', async () => {
    const { readFileSync } = await import('node:fs');
    // The page's words for each endpoint (ENDPOINT_WORDS), read as text: the page module needs the stage's config to load.
    const words = readFileSync(new URL('../../shared/dashboard/pages/integrations.tsx', import.meta.url), 'utf8');
    const ENDPOINT_WORDS = {
      callback: { events: /callback: \{[^\n]*events: '([^']*)'/.exec(words)![1]! },
      webhook: { events: /webhook: \{[^\n]*events: '([^']*)'/.exec(words)![1]! },
    };
    const receiver = readFileSync(new URL('../../bin/example-receiver.ts', import.meta.url), 'utf8');
    for (const event of BOOKING_EVENT_NAMES) {
      expect(ENDPOINT_WORDS.callback.events, event).toContain(event);
      expect(receiver, event).toContain(event);
    }
    for (const event of PAYMENT_ORDER_EVENT_NAMES) {
      expect(ENDPOINT_WORDS.webhook.events, event).toContain(event);
      expect(receiver, event).toContain(event);
    }
    // The service's own list of booking events is the kit's.
    const payloads = readFileSync(new URL('../../shared/domain/callbacks/payloads.ts', import.meta.url), 'utf8');
    expect(payloads).toContain(`export type BookingEvent = ${BOOKING_EVENT_NAMES.map((e) => `'${e}'`).join(' | ')};`);
  });
});
