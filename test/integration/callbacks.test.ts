/**
 * booking.confirmed callbacks end to end: a reception booking through the domain function the
 * CLI uses, the delivery written with it, the local queue poller running the real sender
 * against a receiver on loopback, retries, classification and operator retries.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifySignature } from '../../shared/receiver-kit';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';
import { withEnv } from '../support/env';

let stack: TestStack;
let receiver: Receiver;

type Domain = {
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  store: typeof import('../../shared/store/room-store');
};
let domain: Domain;

beforeAll(async () => {
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    store: await import('../../shared/store/room-store'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

beforeEach(() => {
  receiver.respondWith();
  receiver.received.length = 0;
});

interface Hotel {
  tenant: Tenant;
  rooms: Map<string, string>;
  secret?: string;
}

/** A client with three synced rooms, and (unless told otherwise) a callback URL. */
async function hotel(options: { callbackUrl?: string | null } = {}): Promise<Hotel> {
  const tenant = await stack.createTenant();
  await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key: tenant.syncKey,
    body: { external_source: 'pms', categories: [{ external_category_id: 'DBL', name: 'Double', base_price: 120 }] },
  });
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: ['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, external_category_id: 'DBL', room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(put.status).toBe(200);
  const rooms = new Map((await domain.store.listRooms(tenant.clientId)).map((r) => [r.room_number, r.id]));
  let secret: string | undefined;
  if (options.callbackUrl !== null) {
    ({ secret } = await domain.callbacks.configureEndpoint(tenant.clientId, 'callback', {
      url: options.callbackUrl ?? receiver.url,
    }));
  }
  return { tenant, rooms, secret };
}

function reception(h: Hotel, room: string, checkIn = '2027-06-10', checkOut = '2027-06-12') {
  return domain.bookings.confirmServiceBooking(h.tenant.clientId, {
    origin: 'reception',
    roomId: h.rooms.get(room),
    requireRoom: true,
    guest_name: 'Ada Lovelace',
    guest_email: 'ada@example.com',
    guest_phone: '+442071234567',
    guests: 2,
    check_in_date: checkIn,
    check_out_date: checkOut,
    total_amount: 240,
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
}

async function settled(clientId: string, expected: 'delivered' | 'failed' | 'needs_review') {
  return waitFor(`a ${expected} delivery`, async () => {
    const [delivery] = await domain.callbacks.listDeliveries(clientId);
    return delivery?.status === expected ? delivery : undefined;
  });
}

describe('booking.confirmed', () => {
  it('a reception booking produces exactly one signed delivery with the full payload', async () => {
    const h = await hotel();
    const booking = await reception(h, '101');
    const delivery = await settled(h.tenant.clientId, 'delivered');
    expect(receiver.received).toHaveLength(1);
    const [callback] = receiver.received;

    expect(callback!.headers['content-type']).toBe('application/json');
    expect(callback!.headers['x-service-event']).toBe('booking.confirmed');
    expect(callback!.headers['x-service-client']).toBe(h.tenant.clientId);
    expect(callback!.headers['x-service-delivery']).toBe(delivery.delivery_id);
    const signature = callback!.headers['x-service-signature'] as string;
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(callback!.rawBody, signature, h.secret!)).toBe(true);
    expect(verifySignature(callback!.rawBody, signature, 'another-secret-value')).toBe(false);

    const payload = JSON.parse(callback!.rawBody.toString('utf8'));
    expect(payload).toEqual({
      event: 'booking.confirmed',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      hotel_id: h.tenant.clientId,
      booking: {
        id: booking.booking.id,
        booking_reference: booking.booking.booking_reference,
        confirmation_code: booking.booking.confirmation_code,
        guest_name: 'Ada Lovelace',
        guest_email: 'ada@example.com',
        guest_phone: '+442071234567',
        guests: 2,
        check_in_date: '2027-06-10',
        check_out_date: '2027-06-12',
        total_amount: 240,
        status: 'confirmed',
        payment_status: 'unpaid',
        payment_method: 'pay_at_property',
        gateway_reference: '',
        // The booking's first event (docs/behaviour.md "Booking changes, cancellations and refunds").
        sequence: 1,
      },
      room: {
        id: h.rooms.get('101'),
        room_number: '101',
        room_type: 'double',
        external_source: 'pms',
        external_room_id: 'R101',
        external_category_id: 'DBL',
      },
    });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ status_code: 200, error: null });

    // The secret is kept sealed: nothing of this client's on the table shows it, and its
    // endpoint record, in the client's configuration partition, holds it sealed.
    const { queryAll } = await import('../../shared/store/batch');
    const { keys } = await import('../../shared/store/keys');
    const partition = (pk: string) => queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
    const stored = [
      ...(await partition(keys.clientPartition(h.tenant.clientId).pk)),
      ...(await partition(keys.clientConfigPartition(h.tenant.clientId).pk)),
    ];
    expect(stored.find((item) => item.sk === 'ENDPOINT#callback')?.pk).toBe(`CLIENTCONFIG#${h.tenant.clientId}`);
    expect(JSON.stringify(stored)).not.toContain(h.secret!);
    expect(JSON.stringify(await domain.callbacks.showDelivery(delivery.delivery_id))).not.toContain(h.secret!);
    const endpoint = stored.find((item) => item.sk === 'ENDPOINT#callback');
    expect(endpoint?.sealed_secret).toMatch(/^v2:local:/);
  });

  it('503 twice then 200 ends delivered after three attempts with one delivery id', async () => {
    const h = await hotel();
    receiver.respondWith(503, 503, 200);
    await reception(h, '101');
    const delivery = await settled(h.tenant.clientId, 'delivered');
    expect(delivery.attempts.map((a) => a.status_code)).toEqual([503, 503, 200]);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([delivery.delivery_id]));
    // The same bytes every time, so the signature is the same too.
    expect(new Set(receiver.received.map((r) => r.rawBody.toString()))).toHaveProperty('size', 1);
  });

  it('422 ends needs_review after one attempt', async () => {
    const h = await hotel();
    receiver.respondWith(422);
    await reception(h, '102');
    const delivery = await settled(h.tenant.clientId, 'needs_review');
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ status_code: 422, error: 'HTTP 422' });
    // No automatic retry follows.
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(1);
  });

  it('a dead receiver ends failed; an operator retry delivers it with the same delivery id', async () => {
    const dead = await startReceiver();
    const deadUrl = dead.url;
    await dead.close();
    const h = await hotel({ callbackUrl: deadUrl });
    await reception(h, '103');
    const failed = await settled(h.tenant.clientId, 'failed');
    // The first attempt and one per configured delay (0,0).
    expect(failed.attempts).toHaveLength(3);
    expect(failed.attempts.every((a) => a.status_code === null && /ECONNREFUSED/.test(a.error ?? ''))).toBe(true);

    await domain.callbacks.configureEndpoint(h.tenant.clientId, 'callback', { url: receiver.url, secret: h.secret });
    await domain.callbacks.retryDelivery(failed.delivery_id);
    const delivered = await settled(h.tenant.clientId, 'delivered');
    expect(delivered.delivery_id).toBe(failed.delivery_id);
    expect(delivered.attempts).toHaveLength(4);
    expect(receiver.received.map((r) => r.headers['x-service-delivery'])).toEqual([failed.delivery_id]);
  });

  it('synced bookings never emit, and a client without a URL gets no delivery', async () => {
    const h = await hotel();
    const sync = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: [{ external_booking_id: 'B1', external_room_id: 'R101', guest_name: 'G', guests: 1, check_in_date: '2027-07-01', check_out_date: '2027-07-03', status: 'confirmed' }],
      },
    });
    expect(sync.status).toBe(200);
    const quiet = await hotel({ callbackUrl: null });
    await reception(quiet, '101');
    await new Promise((r) => setTimeout(r, 500));
    expect(await domain.callbacks.listDeliveries(h.tenant.clientId)).toEqual([]);
    expect(await domain.callbacks.listDeliveries(quiet.tenant.clientId)).toEqual([]);
    expect(receiver.received).toHaveLength(0);
  });

  it('a delivery whose enqueue failed after the booking committed is still made', async () => {
    const h = await hotel();
    const queueUrl = process.env.CALLBACK_QUEUE_URL!;
    // The queue "disappears" between the commit and the enqueue.
    await withEnv({ CALLBACK_QUEUE_URL: `${queueUrl}-missing` }, () => reception(h, '101'));
    const [waiting] = await domain.callbacks.listDeliveries(h.tenant.clientId);
    expect(waiting?.status).toBe('pending');
    // The sweeper's next run (every minute) puts it on the queue.
    await stack.sweep();
    const delivered = await settled(h.tenant.clientId, 'delivered');
    expect(delivered.delivery_id).toBe(waiting!.delivery_id);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('the sender', () => {
  it('drops a message that names no delivery instead of retrying it into the dead-letter queue', async () => {
    const { SendMessageCommand, GetQueueAttributesCommand } = await import('@aws-sdk/client-sqs');
    const queueUrl = process.env.CALLBACK_QUEUE_URL!;
    await stack.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify({ nothing: 'here' }) }));
    await waitFor('the queue to be empty', async () => {
      const { Attributes } = await stack.sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      );
      return Attributes?.ApproximateNumberOfMessages === '0' && Attributes?.ApproximateNumberOfMessagesNotVisible === '0' ? true : undefined;
    });
    const { Attributes } = await stack.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: stack.info.callbackDlqUrl, AttributeNames: ['ApproximateNumberOfMessages'] }),
    );
    expect(Attributes?.ApproximateNumberOfMessages).toBe('0');
  });
});

describe('sealed signing secrets', () => {
  it("two clients' sealed secrets swapped on the table: the sender signs with neither, both need review", async () => {
    const { GetCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const { logger } = await import('../../shared/observability');
    // The sender warns about each refusal; kept here, to check it, instead of in the test output.
    const warned = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const a = await hotel();
    const b = await hotel();
    const key = (h: Hotel) => ({ pk: `CLIENTCONFIG#${h.tenant.clientId}`, sk: 'ENDPOINT#callback' });
    const sealedOf = async (h: Hotel) => (await db.send(new GetCommand({ TableName: TABLE, Key: key(h) }))).Item!.sealed_secret as string;
    const [sealedA, sealedB] = [await sealedOf(a), await sealedOf(b)];
    // What someone with write access to the table could do: each record now holds the other's.
    for (const [h, sealed] of [[a, sealedB], [b, sealedA]] as const) {
      await db.send(new UpdateCommand({ TableName: TABLE, Key: key(h), UpdateExpression: 'SET sealed_secret = :s', ExpressionAttributeValues: { ':s': sealed } }));
    }

    await reception(a, '101');
    await reception(b, '101');
    for (const h of [a, b]) {
      const delivery = await settled(h.tenant.clientId, 'needs_review');
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining('callback signing secret cannot be opened') });
      for (const text of [a.secret!, b.secret!, sealedA, sealedB]) expect(delivery.attempts[0]!.error).not.toContain(text);
    }
    // Nothing was sent, so nothing was ever signed with another client's secret.
    expect(receiver.received).toHaveLength(0);
    const warnings = JSON.stringify(warned.mock.calls.filter(([message]) => message === 'signing secret cannot be opened'));
    warned.mockRestore();
    expect(warnings).toContain(a.tenant.clientId);
    expect(warnings).toContain(b.tenant.clientId);
    for (const text of [a.secret!, b.secret!, sealedA, sealedB]) expect(warnings).not.toContain(text);

    // The way out: set the callback again (a new secret, sealed for this client), then retry.
    const [waiting] = await domain.callbacks.listDeliveries(a.tenant.clientId);
    const { secret } = await domain.callbacks.configureEndpoint(a.tenant.clientId, 'callback', { url: receiver.url });
    await domain.callbacks.retryDelivery(waiting!.delivery_id);
    await settled(a.tenant.clientId, 'delivered');
    expect(receiver.received).toHaveLength(1);
    const [callback] = receiver.received;
    expect(callback!.headers['x-service-client']).toBe(a.tenant.clientId);
    expect(verifySignature(callback!.rawBody, callback!.headers['x-service-signature'] as string, secret)).toBe(true);
  });
});

describe('reception bookings', () => {
  it('refuse a room taken for any of the nights, by a synced or a service booking', async () => {
    const h = await hotel({ callbackUrl: null });
    await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: h.tenant.syncKey,
      body: {
        external_source: 'pms',
        bookings: [{ external_booking_id: 'B1', external_room_id: 'R101', guest_name: 'G', guests: 1, check_in_date: '2027-08-05', check_out_date: '2027-08-07', status: 'confirmed' }],
      },
    });
    await expect(reception(h, '101', '2027-08-06', '2027-08-09')).rejects.toMatchObject({ status: 409, code: 'ROOM_NOT_AVAILABLE' });
    await reception(h, '102', '2027-08-06', '2027-08-09');
    await expect(reception(h, '102', '2027-08-08', '2027-08-10')).rejects.toMatchObject({ code: 'ROOM_NOT_AVAILABLE' });
    // Touching stays do not overlap.
    await reception(h, '102', '2027-08-09', '2027-08-10');
    await reception(h, '101', '2027-08-07', '2027-08-08');
    // The booked room disappears from availability.
    const availability = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2027-08-06&check_out_date=2027-08-07&guests=1', {
      key: h.tenant.syncKey,
    });
    expect(availability.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['103']);
  });

  it('ten concurrent bookings of one room for overlapping nights: exactly one holds it', async () => {
    const h = await hotel({ callbackUrl: null });
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => reception(h, '103', `2027-09-0${1 + (i % 3)}`, '2027-09-05')),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => r.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: 'ROOM_NOT_AVAILABLE' });
    }
  });
});
