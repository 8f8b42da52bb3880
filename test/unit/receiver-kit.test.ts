import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handleDelivery, MemoryDeliveryStore, verifySignature } from '../../shared/receiver-kit';

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
