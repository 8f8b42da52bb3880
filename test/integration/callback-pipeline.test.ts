/**
 * The callback pipeline under a backlog: the sharded due index swept in full (every shard,
 * page after page, the pre-sharding partition too), enqueue failures that lose nothing,
 * duplicate messages that never send twice, the local poller's concurrent batches, and the
 * sweeper's backlog metric. The file has its own table, so no other file's sweeper reads its
 * due index, and its own sweeper runs only when a test calls it.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { callbackQueue } from '../../definitions/queues';
import { invoke, supportFunction, withinInvocation } from '../../infra/local/lambda-runtime';
import { withEnv } from '../support/env';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let clientId: string;

type Modules = {
  keys: typeof import('../../shared/store/keys');
  store: typeof import('../../shared/store/delivery-store');
  batch: typeof import('../../shared/store/batch');
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  sweep: typeof import('../../shared/domain/callbacks/sweep');
  dynamo: typeof import('../../shared/store/dynamo');
  observability: typeof import('../../shared/observability');
};
let m: Modules;

beforeAll(async () => {
  stack = await startTestStack({ tableName: 'hotel-integration-test-callback-pipeline', sweepIntervalMs: 60 * 60_000 });
  // The tests sweep themselves: the stack's run at start must not take their deliveries.
  await stack.sweeperSettled();
  receiver = await startReceiver();
  // Loaded only now: the store reads the table name from the environment serve() set.
  m = {
    keys: await import('../../shared/store/keys'),
    store: await import('../../shared/store/delivery-store'),
    batch: await import('../../shared/store/batch'),
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    sweep: await import('../../shared/domain/callbacks/sweep'),
    dynamo: await import('../../shared/store/dynamo'),
    observability: await import('../../shared/observability'),
  };
  clientId = (await stack.createTenant()).clientId;
  await m.deliveries.configureEndpoint(clientId, 'callback', { url: receiver.url });
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

/** The sweep as the sweeper function runs it: held to the sweeper's declared table access. */
const sweep = (options: Parameters<Modules['sweep']['sweepDueDeliveries']>[0] = {}) => withinInvocation(sweeper, () => m.sweep.sweepDueDeliveries(options));

/** Random delivery ids, `perShard` for every shard of the due index. */
function idsInEveryShard(perShard: number): string[] {
  const byShard = new Map<string, string[]>();
  while (byShard.size < m.keys.DELIVERY_DUE_SHARDS || [...byShard.values()].some((ids) => ids.length < perShard)) {
    const id = randomUUID();
    const shard = m.keys.keys.deliveryDue('', id).gsi1pk;
    const ids = byShard.get(shard) ?? [];
    if (ids.length < perShard) byShard.set(shard, [...ids, id]);
  }
  return [...byShard.values()].flat();
}

/**
 * Waiting deliveries written straight to the table, as a booking's transaction writes them
 * (due, on the due index, not yet on the queue): what an enqueue that failed leaves.
 */
async function dueDeliveries(ids: readonly string[], dueAt: string, item = (record: Record<string, unknown>) => record): Promise<string[]> {
  const items = ids.map((id) => {
    const record = m.store.newDelivery({ clientId, event: 'booking.confirmed', endpoint: 'callback', payload: JSON.stringify({ event: 'booking.confirmed', id }), at: dueAt });
    return item(m.store.newDeliveryItem({ ...record, delivery_id: id }));
  });
  await m.batch.batchPut(items);
  return [...ids];
}

/** Everything on the due index that is due now, over every partition. */
async function stillDue(): Promise<string[]> {
  const due: string[] = [];
  for (const partition of m.store.dueIndexPartitions) {
    let cursor;
    do {
      const page = await m.store.findDueDeliveries(partition, new Date().toISOString(), { limit: 100, cursor });
      due.push(...page.due.map((d) => d.delivery_id));
      cursor = page.cursor;
    } while (cursor);
  }
  return due;
}

/** The functions' warnings, kept out of the test output for the test to check. */
function quietWarnings() {
  const messages: unknown[] = [];
  const spy = vi.spyOn(m.observability.logger, 'warn').mockImplementation((...[message]) => {
    messages.push(message);
  });
  return { messages, restore: () => spy.mockRestore() };
}

const receivedIds = () => receiver.received.map((r) => r.headers['x-service-delivery'] as string);

async function allDelivered(ids: readonly string[]) {
  await waitFor(
    `${ids.length} deliveries delivered`,
    async () => {
      const statuses = await Promise.all(ids.map(async (id) => (await m.store.getDelivery(id))?.status));
      return statuses.every((s) => s === 'delivered') ? true : undefined;
    },
    30_000,
  );
}

describe('the sweeper', () => {
  it('finds and sends deliveries in every shard, reading more than one page of each, and drains the pre-sharding partition', async () => {
    const dueAt = new Date(Date.now() - 60_000).toISOString();
    const sharded = await dueDeliveries(idsInEveryShard(3), dueAt);
    // A delivery a version before sharding left on the single partition.
    const [legacy] = await dueDeliveries([randomUUID()], dueAt, (item) => ({ ...item, gsi1pk: 'DELIVERIES#DUE' }));
    expect(new Set((await stillDue()).map((id) => m.keys.keys.deliveryDue('', id).gsi1pk)).size).toBe(m.keys.DELIVERY_DUE_SHARDS);

    const result = await sweep({ pageSize: 2 });
    // 3 per shard at 2 a page: 2 pages per shard; the old partition's single entry: 1.
    expect(result).toMatchObject({ enqueued: 16 * 3 + 1, notEnqueued: 0, drained: true, failedPartitions: 0, pages: 16 * 2 + 1 });
    expect(await stillDue()).toEqual([]);

    const all = [...sharded, legacy!];
    await allDelivered(all);
    expect(receivedIds().sort()).toEqual([...all].sort());
  });

  it('stops at its deadline with the rest still due, and the next run sends it', async () => {
    const ids = await dueDeliveries(idsInEveryShard(1), new Date().toISOString());
    const stopped = await sweep({ stopAt: Date.now() - 1 });
    expect(stopped).toMatchObject({ enqueued: 0, pages: 0, drained: false });
    expect((await stillDue()).sort()).toEqual([...ids].sort());

    expect(await sweep()).toMatchObject({ enqueued: ids.length, drained: true });
    await allDelivered(ids);
    expect(receivedIds().sort()).toEqual([...ids].sort());
  });

  it('loses nothing when the enqueue fails: the deliveries stay due and a later run sends each once', async () => {
    const ids = await dueDeliveries(idsInEveryShard(2), new Date().toISOString());
    const warnings = quietWarnings();
    const failed = await withEnv({ CALLBACK_QUEUE_URL: `${process.env.CALLBACK_QUEUE_URL}-missing` }, () => sweep()).finally(warnings.restore);
    expect(failed).toMatchObject({ enqueued: 0, notEnqueued: ids.length, drained: true });
    expect(warnings.messages).toContain('enqueue failed; the sweeper will retry');
    expect((await stillDue()).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await m.store.getDelivery(id))?.status).toBe('pending');

    expect(await sweep()).toMatchObject({ enqueued: ids.length, notEnqueued: 0 });
    await allDelivered(ids);
    expect(receivedIds().sort()).toEqual([...ids].sort());
  });

  it('an enqueued delivery whose move on the due index fails is sent again later, and received once', async () => {
    const [id] = await dueDeliveries([randomUUID()], new Date().toISOString());
    // markEnqueued's UpdateItem fails (after the SDK's retries) for this run only.
    let failing = true;
    const name = 'failMarkEnqueued';
    const warnings = quietWarnings();
    m.dynamo.dynamoClient.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { UpdateExpression?: string };
        if (failing && context.commandName === 'UpdateItemCommand' && input.UpdateExpression === 'SET gsi1pk = :duePk, gsi1sk = :dueSk') {
          throw Object.assign(new Error('injected InternalServerError'), { name: 'InternalServerError', $fault: 'server', $metadata: {} });
        }
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      expect(await sweep()).toMatchObject({ enqueued: 1 });
      // Still due: the next run puts it on the queue again, racing the first message.
      failing = false;
      await sweep();
    } finally {
      m.dynamo.dynamoClient.middlewareStack.remove(name);
      warnings.restore();
    }
    expect(warnings.messages).toContain('enqueued deliveries stay on the due index; a later run sends them again');
    await allDelivered([id!]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receivedIds()).toEqual([id]);
    expect(await stillDue()).toEqual([]);
  });

  it('publishes the age of the oldest due delivery: its seconds since due, 0 when none is due', async () => {
    const { SWEEPER_METRICS } = await import('../../definitions/metrics');
    expect(SWEEPER_METRICS.oldestDueAgeSeconds).toBe('OldestDueDeliveryAgeSeconds');
    const ids = [
      ...(await dueDeliveries([randomUUID()], new Date(Date.now() - 300_000).toISOString())),
      ...(await dueDeliveries(idsInEveryShard(1), new Date(Date.now() - 20_000).toISOString())),
    ];
    // The real function, as the schedule invokes it.
    const run = (await invoke(sweeper, {}, 60_000)) as { oldestDueAgeSeconds: number; enqueued: number };
    expect(run.enqueued).toBe(ids.length);
    expect(run.oldestDueAgeSeconds).toBeGreaterThanOrEqual(300);
    expect(run.oldestDueAgeSeconds).toBeLessThan(330);
    await allDelivered(ids);
    expect(((await invoke(sweeper, {}, 60_000)) as { oldestDueAgeSeconds: number }).oldestDueAgeSeconds).toBe(0);
  });
});

describe('the sender', () => {
  it('never sends twice for duplicate messages handled at once, nor for concurrent attempts', async () => {
    const { SendMessageBatchCommand } = await import('@aws-sdk/client-sqs');
    const [queued, direct] = await dueDeliveries([randomUUID(), randomUUID()], new Date().toISOString());
    // Twenty copies of one message: two full batches, handled in parallel within each and across them.
    for (let n = 0; n < 2; n++) {
      await stack.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: stack.info.callbackQueueUrl,
          Entries: Array.from({ length: 10 }, (_, i) => ({ Id: String(i), MessageBody: JSON.stringify({ delivery_id: queued }) })),
        }),
      );
    }
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => withinInvocation(sender, () => m.deliveries.attemptDelivery(direct!))));
    expect(outcomes.filter((o) => o === 'delivered')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(9);

    await allDelivered([queued!, direct!]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(receivedIds().sort()).toEqual([queued, direct].sort());
    for (const id of [queued!, direct!]) expect((await m.store.getDelivery(id))?.attempts).toHaveLength(1);
  });

  it('runs several batches at once through the local poller, never more than its maximum concurrency', async () => {
    // A receiver that takes 300 ms to answer, counting the requests it holds at once.
    let inFlight = 0;
    let peak = 0;
    const received = new Set<string>();
    const slow = createServer((req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          received.add(req.headers['x-service-delivery'] as string);
          inFlight--;
          res.writeHead(200).end();
        }, 300),
      );
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowClient = (await stack.createTenant()).clientId;
    await m.deliveries.configureEndpoint(slowClient, 'callback', { url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks` });
    try {
      const ids = Array.from({ length: 60 }, () => randomUUID());
      await m.batch.batchPut(
        ids.map((id) => {
          const record = m.store.newDelivery({ clientId: slowClient, event: 'booking.confirmed', endpoint: 'callback', payload: '{}', at: new Date().toISOString() });
          return m.store.newDeliveryItem({ ...record, delivery_id: id });
        }),
      );
      expect(await sweep()).toMatchObject({ enqueued: ids.length });
      await waitFor('60 deliveries received', async () => (received.size === ids.length ? true : undefined), 20_000);
      // More than one batch of 10 at a time; at most maxConcurrency batches of batchSize.
      expect(peak).toBeGreaterThan(callbackQueue.batchSize);
      expect(peak).toBeLessThanOrEqual(callbackQueue.maxConcurrency * callbackQueue.batchSize);
      await allDelivered(ids);
    } finally {
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
});
