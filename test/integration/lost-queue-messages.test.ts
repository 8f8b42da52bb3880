/**
 * A delivery never depends on a queue message alone (docs/behaviour.md "Nothing lost across crashes"):
 * a `retrying` delivery whose message is purged from the queue, and one whose attempt died
 * holding its lease, are found by the sweeper once their resend-after time on the due index has
 * passed, and sent under their own delivery id with the same bytes; while the message is on the
 * queue, the sweeper leaves the delivery alone; one it hands out again while an attempt holds it
 * is not sent twice. The file has its own table, and its sweeper runs
 * only when a test calls it, at the time the scheduled run would see.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withinInvocation, supportFunction } from '../../infra/local/lambda-runtime';
import { verifySignature } from '../../shared/receiver-kit';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let clientId: string;
let secret: string;

type Modules = {
  keys: typeof import('../../shared/store/keys');
  store: typeof import('../../shared/store/delivery-store');
  batch: typeof import('../../shared/store/batch');
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  resend: typeof import('../../shared/domain/callbacks/resend');
  sweep: typeof import('../../shared/domain/callbacks/sweep');
  dynamo: typeof import('../../shared/store/dynamo');
};
let m: Modules;

beforeAll(async () => {
  // A retry waits 3 s on the queue: time enough to purge it before it is received.
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '3,3';
  stack = await startTestStack({ tableName: 'hotel-integration-test-lost-messages', sweepIntervalMs: 60 * 60_000 });
  receiver = await startReceiver();
  m = {
    keys: await import('../../shared/store/keys'),
    store: await import('../../shared/store/delivery-store'),
    batch: await import('../../shared/store/batch'),
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    resend: await import('../../shared/domain/callbacks/resend'),
    sweep: await import('../../shared/domain/callbacks/sweep'),
    dynamo: await import('../../shared/store/dynamo'),
  };
  clientId = (await stack.createTenant()).clientId;
  ({ secret } = await m.deliveries.configureEndpoint(clientId, 'callback', { url: receiver.url }));
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

beforeEach(() => {
  receiver.respondWith();
  receiver.received.length = 0;
});

const sweeper = supportFunction('sweep-deliveries');
const sender = supportFunction('send-callback');

/** The sweep as the scheduled function runs it at `now`: held to the sweeper's table access. */
const sweepAt = (now = new Date()) => withinInvocation(sweeper, () => m.sweep.sweepDueDeliveries({ now }));

/** A waiting delivery written as a booking's transaction writes it: due at `dueAt`, on the due index. */
async function waitingDelivery(dueAt: string): Promise<{ id: string; payload: string }> {
  const id = randomUUID();
  const payload = JSON.stringify({ event: 'booking.confirmed', created_at: dueAt, hotel_id: clientId, booking: { id: randomUUID() } });
  const record = m.store.newDelivery({ clientId, event: 'booking.confirmed', endpoint: 'callback', payload, at: dueAt });
  await m.batch.batchPut([m.store.newDeliveryItem({ ...record, delivery_id: id })]);
  return { id, payload };
}

/** The delivery's time on the due index, or undefined when it is off the index. */
async function indexTimeOf(id: string): Promise<string | undefined> {
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { Item } = await m.dynamo.db.send(new GetCommand({ TableName: m.dynamo.TABLE, Key: m.keys.keys.delivery(id), ConsistentRead: true }));
  return Item?.gsi1sk === undefined ? undefined : m.keys.keys.deliveryDueEntry(Item.gsi1sk as string).dueAt;
}

const plus = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

async function delivered(id: string) {
  return waitFor('the delivery delivered', async () => {
    const delivery = await m.store.getDelivery(id);
    return delivery?.status === 'delivered' ? delivery : undefined;
  });
}

/** Every request the receiver got came under this delivery id, with these bytes, signed with the client's secret. */
function expectSameDelivery(id: string, payload: string) {
  for (const request of receiver.received) {
    expect(request.headers['x-service-delivery']).toBe(id);
    expect(request.rawBody.toString('utf8')).toBe(payload);
    expect(verifySignature(request.rawBody, request.headers['x-service-signature'] as string, secret)).toBe(true);
  }
}

describe('a delivery whose queue message is gone', () => {
  it('is sent by the sweeper after its resend-after time, under the same delivery id with the same bytes, and not before', async () => {
    receiver.respondWith(503);
    const { id, payload } = await waitingDelivery(new Date().toISOString());
    // Handed to the queue as the booking's use case does; the first attempt fails.
    await m.deliveries.dispatch(id, (await m.store.getDelivery(id))!.due_at);
    const retrying = await waitFor('the retry handed to the queue', async () => {
      const delivery = await m.store.getDelivery(id);
      const indexedAt = await indexTimeOf(id);
      return delivery?.status === 'retrying' && indexedAt && indexedAt > delivery.due_at ? { delivery, indexedAt } : undefined;
    });
    expect(retrying.delivery.attempts.map((a) => a.status_code)).toEqual([503]);
    // On the queue with its 3 s delay, and on the due index one visibility timeout and the grace later.
    const window = m.resend.resendWindowMs();
    expect(window).toBe(60_000);
    expect(retrying.indexedAt).toBe(plus(retrying.delivery.due_at, window));
    // Steady state: the message will be received in time, so the sweeper sends nothing.
    expect(await sweepAt()).toMatchObject({ enqueued: 0, notEnqueued: 0 });

    const { PurgeQueueCommand } = await import('@aws-sdk/client-sqs');
    await stack.sqs.send(new PurgeQueueCommand({ QueueUrl: stack.info.callbackQueueUrl }));
    // The retry's time passes and nothing comes: the message is gone.
    await new Promise((r) => setTimeout(r, Date.parse(retrying.delivery.due_at) + 1500 - Date.now()));
    expect(receiver.received).toHaveLength(1);
    expect(await m.store.getDelivery(id)).toMatchObject({ status: 'retrying', attempts: [expect.objectContaining({ status_code: 503 })] });

    // The sweeper leaves it alone until its resend-after time, and sends it then.
    expect(await sweepAt(new Date(Date.parse(retrying.indexedAt) - 1))).toMatchObject({ enqueued: 0 });
    expect(await sweepAt(new Date(retrying.indexedAt))).toMatchObject({ enqueued: 1, notEnqueued: 0 });
    const done = await delivered(id);
    expect(done.attempts.map((a) => a.status_code)).toEqual([503, 200]);
    expect(receiver.received).toHaveLength(2);
    expectSameDelivery(id, payload);
    // Finished: off the due index, so no later run sends it again.
    expect(await indexTimeOf(id)).toBeUndefined();
    expect(await sweepAt(new Date(Date.now() + 24 * 3600_000))).toMatchObject({ enqueued: 0 });
  });

  it('whose attempt died holding its lease is sent again at the resend-after time of its hand-off', async () => {
    const window = m.resend.resendWindowMs();
    // Handed to the queue (the entry moves to its resend-after time); its message was received
    // within the grace, and the attempt that leased it died before recording anything. The
    // message is gone with it.
    const handedAt = new Date(Date.now() - window - 10_000);
    const { id, payload } = await waitingDelivery(new Date(handedAt.getTime() - 60_000).toISOString());
    await m.store.markEnqueued(id, (await m.store.getDelivery(id))!.due_at, m.resend.resendAfter(handedAt.getTime()));
    const leasedAt = new Date(handedAt.getTime() + 5_000);
    const lease = await withinInvocation(sender, () => m.store.leaseDelivery(id, leasedAt, m.resend.LEASE_MS));
    expect(lease.leased?.delivery_id).toBe(id);
    // The lease leaves the entry where the hand-off put it: past the lease's end.
    const indexedAt = (await indexTimeOf(id))!;
    expect(indexedAt).toBe(plus(handedAt.toISOString(), window));
    expect(Date.parse(indexedAt)).toBeGreaterThan(Date.parse(lease.leased!.lease_until!));

    expect(await sweepAt(new Date(Date.parse(indexedAt) - 1))).toMatchObject({ enqueued: 0 });
    expect(await sweepAt()).toMatchObject({ enqueued: 1 });
    const done = await delivered(id);
    expect(done.attempts.map((a) => a.status_code)).toEqual([200]);
    expect(receiver.received).toHaveLength(1);
    expectSameDelivery(id, payload);
  });

  it('received more than the grace late, and handed out again by the sweeper during its attempt: the new message is a skipped duplicate', async () => {
    const window = m.resend.resendWindowMs();
    // A backlog: handed to the queue more than the window ago, its message received only now.
    const handedAt = new Date(Date.now() - window - 1_000);
    const { id } = await waitingDelivery(new Date(handedAt.getTime() - 1_000).toISOString());
    await m.store.markEnqueued(id, (await m.store.getDelivery(id))!.due_at, m.resend.resendAfter(handedAt.getTime()));
    const attemptAt = new Date();
    const held = await withinInvocation(sender, () => m.store.leaseDelivery(id, attemptAt, m.resend.LEASE_MS));
    expect(held.leased?.delivery_id).toBe(id);

    // Its entry's time has passed: the sweeper puts it on the queue again, and moves the entry on.
    expect(await sweepAt()).toMatchObject({ enqueued: 1 });
    expect(Date.parse((await indexTimeOf(id))!)).toBeGreaterThan(Date.now() + window - 10_000);
    // An attempt for that message finds the lease held: nothing is sent.
    expect(await withinInvocation(sender, () => m.deliveries.attemptDelivery(id))).toBe('skipped');
    // The attempt holding the lease ends; the sender's run of the new message sent nothing.
    await m.store.recordAttempt(id, { at: attemptAt.toISOString(), status_code: 200, duration_ms: 5, error: null }, { status: 'delivered', onDueIndex: false });
    const { GetQueueAttributesCommand } = await import('@aws-sdk/client-sqs');
    await waitFor('the callback queue empty', async () => {
      const { Attributes = {} } = await stack.sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: stack.info.callbackQueueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
      );
      return Attributes.ApproximateNumberOfMessages === '0' && Attributes.ApproximateNumberOfMessagesNotVisible === '0';
    });
    expect(receiver.received).toHaveLength(0);
    expect(await m.store.getDelivery(id)).toMatchObject({ status: 'delivered' });
    expect(await indexTimeOf(id)).toBeUndefined();
  });
});
