/**
 * Standard Webhooks on real deliveries: a reception booking's callback, sent by the real sender
 * to a receiver on loopback, verified by the `standardwebhooks` and `svix` libraries as receivers
 * run them; a secret rotated with `ops callbacks rotate-secret` signs beside the old one for the
 * overlap (X-Service-Signature keeping the old one), and once the overlap ended only the new one
 * signs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../shared/receiver-kit';
import { runOps } from '../support/ops-cli';
import { type ReceivedCallback, type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let dir: string;
let stackFile: string;

type Domain = {
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  rotation: typeof import('../../shared/domain/callbacks/rotation');
  endpoints: typeof import('../../shared/store/endpoint-store');
  rooms: typeof import('../../shared/store/room-store');
};
let domain: Domain;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  dir = mkdtempSync(join(tmpdir(), 'standard-webhooks-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
  domain = {
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    rotation: await import('../../shared/domain/callbacks/rotation'),
    endpoints: await import('../../shared/store/endpoint-store'),
    rooms: await import('../../shared/store/room-store'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  receiver.respondWith();
});

/** A client with three rooms and a callback URL at the receiver, its secret generated. */
async function hotel() {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: ['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(put.status).toBe(200);
  const rooms = new Map((await domain.rooms.listRooms(tenant.clientId)).map((r) => [r.room_number, r.id]));
  const { secret } = await domain.callbacks.configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
  return { clientId: tenant.clientId, rooms, secret };
}

/** Books `room` at the reception and answers the callback the receiver got for it. */
async function bookAndReceive(h: { clientId: string; rooms: Map<string, string> }, room: string): Promise<ReceivedCallback & { body: string; headers: Record<string, string> }> {
  const { booking } = await domain.bookings.confirmServiceBooking(h.clientId, {
    origin: 'reception',
    roomId: h.rooms.get(room),
    requireRoom: true,
    guest_name: 'Ada Lovelace',
    guest_email: 'ada@example.com',
    guest_phone: '+442071234567',
    guests: 2,
    check_in_date: '2027-06-10',
    check_out_date: '2027-06-12',
    total_amount: 240,
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  const received = await waitFor(`the callback of room ${room}`, async () => receiver.received.find((r) => r.rawBody.toString().includes(booking.id)));
  return { ...received, body: received.rawBody.toString('utf8'), headers: received.headers as Record<string, string> };
}

const standardHeaders = (headers: Record<string, string>) => ({
  'webhook-id': headers['webhook-id']!,
  'webhook-timestamp': headers['webhook-timestamp']!,
  'webhook-signature': headers['webhook-signature']!,
});

/** Whether both libraries accept the delivery with `secret`; they agree, or the test fails. */
function librariesAccept(secret: string, delivery: { body: string; headers: Record<string, string> }): boolean {
  const verdicts = [new StandardWebhook(secret), new SvixWebhook(secret)].map((library) => {
    try {
      library.verify(delivery.body, standardHeaders(delivery.headers));
      return true;
    } catch {
      return false;
    }
  });
  expect(verdicts[0]).toBe(verdicts[1]);
  return verdicts[0]!;
}

const ops = (args: string[]) => runOps(stackFile, args);

async function opsJson(args: string[]) {
  const run = await ops([...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe('Standard Webhooks headers', () => {
  it('every callback carries webhook-id, webhook-timestamp and a webhook-signature the standardwebhooks and svix libraries verify', async () => {
    const h = await hotel();
    expect(h.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const before = Math.floor(Date.now() / 1000);
    const delivery = await bookAndReceive(h, '101');
    expect(delivery.headers['webhook-id']).toBe(delivery.headers['x-service-delivery']);
    const timestamp = Number(delivery.headers['webhook-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before - 1);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const parsed = new StandardWebhook(h.secret).verify(delivery.body, standardHeaders(delivery.headers)) as { event: string };
    expect(parsed.event).toBe('booking.confirmed');
    expect(() => new SvixWebhook(h.secret).verify(delivery.body, standardHeaders(delivery.headers))).not.toThrow();
    // The spec's signature, beside it, keys with the secret as shown.
    expect(verifySignature(delivery.body, delivery.headers['x-service-signature'], h.secret)).toBe(true);
    // A changed body is refused.
    expect(librariesAccept(h.secret, { ...delivery, body: delivery.body.replace('"guests":2', '"guests":3') })).toBe(false);
  });
});

describe('rotation with overlap', () => {
  it('during the overlap both secrets verify and X-Service-Signature keeps the old one; afterwards only the new one signs', async () => {
    const h = await hotel();
    const old = h.secret;
    const started = Date.now();
    const rotated = await opsJson(['callbacks', 'rotate-secret', '--client', h.clientId, '--overlap-hours', '2']);
    expect(rotated).toEqual({ client_id: h.clientId, url: receiver.url, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), previous_valid_until: expect.any(String) });
    const until = Date.parse(rotated.previous_valid_until);
    expect(until).toBeGreaterThanOrEqual(started + 2 * 3_600_000 - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);

    const during = await bookAndReceive(h, '101');
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(librariesAccept(rotated.secret, during)).toBe(true);
    expect(librariesAccept(old, during)).toBe(true);
    expect(verifySignature(during.body, during.headers['x-service-signature'], old)).toBe(true);
    expect(verifySignature(during.body, during.headers['x-service-signature'], rotated.secret)).toBe(false);

    // Rotated again, as if 3 hours ago with a 1-hour overlap: the overlap has ended.
    const again = await domain.rotation.rotateEndpointSecret(h.clientId, 'callback', 1, new Date(Date.now() - 3 * 3_600_000));
    const after = await bookAndReceive(h, '102');
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(librariesAccept(again.secret, after)).toBe(true);
    expect(librariesAccept(rotated.secret, after)).toBe(false);
    expect(verifySignature(after.body, after.headers['x-service-signature'], again.secret)).toBe(true);
    expect(verifySignature(after.body, after.headers['x-service-signature'], rotated.secret)).toBe(false);
    // The next write leaves the expired secret out.
    expect((await domain.endpoints.getEndpoint(h.clientId, 'callback'))!.sealed_previous_secret).toBeDefined();
    await domain.callbacks.setEndpointUrl(h.clientId, 'callback', { url: receiver.url });
    expect((await domain.endpoints.getEndpoint(h.clientId, 'callback'))!.sealed_previous_secret).toBeUndefined();
  });

  it('`callbacks set --secret` replaces the secret at once, without an overlap', async () => {
    const h = await hotel();
    await opsJson(['callbacks', 'rotate-secret', '--client', h.clientId]);
    const given = 'an-operator-chosen-secret-0123456789';
    await opsJson(['callbacks', 'set', '--client', h.clientId, '--url', receiver.url, '--secret', given]);
    const delivery = await bookAndReceive(h, '103');
    expect(delivery.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifySignature(delivery.body, delivery.headers['x-service-signature'], given)).toBe(true);
    // A secret in another form keys webhook-signature with its UTF-8 bytes.
    const raw = (library: typeof StandardWebhook) => new library(Buffer.from(given), { format: 'raw' });
    expect(() => raw(StandardWebhook).verify(delivery.body, standardHeaders(delivery.headers))).not.toThrow();
  });
});

describe('ops rotate-secret', () => {
  it('webhooks rotate-secret keeps the old secret 24 hours by default; a client without the URL and a bad overlap are refused', async () => {
    const h = await hotel();
    const refused = await ops(['webhooks', 'rotate-secret', '--client', h.clientId, '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: { code: 'NOT_FOUND', message: 'No webhook URL is set, so there is no signing secret to rotate' } });

    const { secret: old } = await opsJson(['webhooks', 'set', '--client', h.clientId, '--url', receiver.url]);
    const started = Date.now();
    const rotated = await opsJson(['webhooks', 'rotate-secret', '--client', h.clientId]);
    expect(rotated.secret).not.toBe(old);
    expect(Date.parse(rotated.previous_valid_until)).toBeGreaterThanOrEqual(started + 24 * 3_600_000 - 1000);
    expect(Date.parse(rotated.previous_valid_until)).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    const endpoint = (await domain.endpoints.getEndpoint(h.clientId, 'webhook'))!;
    const { current, previous } = await domain.endpoints.signingSecretsOf(endpoint);
    expect([current, previous?.secret]).toEqual([rotated.secret, old]);

    const bad = await ops(['callbacks', 'rotate-secret', '--client', h.clientId, '--overlap-hours', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--overlap-hours must be a number of hours');
    const tooLong = await ops(['callbacks', 'rotate-secret', '--client', h.clientId, '--overlap-hours', '1000', '--json']);
    expect(tooLong.code).toBe(1);
    expect(JSON.parse(tooLong.stdout).error.code).toBe('VALIDATION_ERROR');
  }, 60_000);
});
