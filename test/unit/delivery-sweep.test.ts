/**
 * The sharded due index's keys and the sweeper's backlog metric, without a table: which shard a
 * delivery waits in, what an index entry names, how the oldest due age is computed, and that
 * every run publishes it.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SWEEPER_METRICS } from '../../definitions/metrics';
import { DELIVERY_DUE_SHARDS, keys } from '../../shared/store/keys';

process.env.STAGE = 'unit';
process.env.TABLE_NAME = 'unit-test-table';
process.env.AWS_REGION = 'us-east-1';

describe('the due index keys', () => {
  it('put a delivery in one of DELIVERY_DUE_SHARDS partitions, the same whatever its due time', () => {
    const id = randomUUID();
    const a = keys.deliveryDue('2027-01-01T00:00:00.000Z', id);
    const b = keys.deliveryDue('2027-06-01T12:30:00.000Z', id);
    expect(a.gsi1pk).toBe(b.gsi1pk);
    expect(a.gsi1pk).toMatch(/^DELIVERIES#DUE#\d+$/);
    expect(Number(a.gsi1pk.split('#')[2])).toBeLessThan(DELIVERY_DUE_SHARDS);
    expect(a.gsi1sk).toBe(`2027-01-01T00:00:00.000Z#${id}`);
  });

  it('spread random ids over every shard, none with more than twice its share', () => {
    const count = 3200;
    const perShard = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const { gsi1pk } = keys.deliveryDue('', randomUUID());
      perShard.set(gsi1pk, (perShard.get(gsi1pk) ?? 0) + 1);
    }
    expect(perShard.size).toBe(DELIVERY_DUE_SHARDS);
    expect(Math.max(...perShard.values())).toBeLessThan((2 * count) / DELIVERY_DUE_SHARDS);
  });

  it('list every shard and then the partition of versions before sharding, once each', () => {
    expect(keys.deliveryDuePartitions).toHaveLength(DELIVERY_DUE_SHARDS + 1);
    expect(new Set(keys.deliveryDuePartitions).size).toBe(DELIVERY_DUE_SHARDS + 1);
    expect(keys.deliveryDuePartitions.at(-1)).toBe('DELIVERIES#DUE');
    const id = randomUUID();
    expect(keys.deliveryDuePartitions).toContain(keys.deliveryDue('x', id).gsi1pk);
  });

  it('name the delivery and its due time in the sort key alone, and bound what is due at a time', () => {
    const id = randomUUID();
    const { gsi1sk } = keys.deliveryDue('2027-03-04T05:06:07.089Z', id);
    expect(keys.deliveryDueEntry(gsi1sk)).toEqual({ dueAt: '2027-03-04T05:06:07.089Z', deliveryId: id });
    expect(gsi1sk <= keys.deliveryDueUntil('2027-03-04T05:06:07.089Z')).toBe(true);
    expect(gsi1sk <= keys.deliveryDueUntil('2027-03-04T05:06:07.088Z')).toBe(false);
  });
});

describe('the oldest due age', () => {
  it('is the whole seconds since the earliest due time, 0 when nothing or only the future is due', async () => {
    const { oldestDueAgeSeconds } = await import('../../shared/domain/callbacks/sweep');
    const now = new Date('2027-01-01T12:00:00.000Z');
    expect(oldestDueAgeSeconds([], now)).toBe(0);
    expect(oldestDueAgeSeconds(['2027-01-01T11:59:30.000Z', '2027-01-01T11:55:00.500Z', '2027-01-01T11:59:59.000Z'], now)).toBe(299);
    expect(oldestDueAgeSeconds(['2027-01-01T12:00:00.000Z'], now)).toBe(0);
    expect(oldestDueAgeSeconds(['2027-01-01T12:00:05.000Z'], now)).toBe(0);
  });
});

describe('the sweeper function', () => {
  afterEach(() => {
    vi.doUnmock('../../shared/domain/callbacks/sweep');
    vi.restoreAllMocks();
    vi.resetModules();
  });

  const context = { getRemainingTimeInMillis: () => 60_000 } as Context;
  const result = { enqueued: 3, notEnqueued: 0, pages: 17, drained: true, failedPartitions: 0, oldestDueAgeSeconds: 42 };

  async function load(sweep: () => Promise<typeof result>) {
    const sweepDueDeliveries = vi.fn((_options: { stopAt?: number }) => sweep());
    vi.doMock('../../shared/domain/callbacks/sweep', () => ({ sweepDueDeliveries }));
    const { handler } = await import('../../functions/sweep-deliveries');
    const { logger, metrics } = await import('../../shared/observability');
    vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    return { handler, sweepDueDeliveries, addMetric: vi.spyOn(metrics, 'addMetric'), publish: vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => metrics) };
  }

  it('publishes OldestDueDeliveryAgeSeconds in seconds on every run, and stops 15 s before its timeout', async () => {
    const { handler, sweepDueDeliveries, addMetric, publish } = await load(async () => result);
    const before = Date.now();
    await expect(handler({}, context)).resolves.toEqual(result);
    expect(addMetric).toHaveBeenCalledWith(SWEEPER_METRICS.oldestDueAgeSeconds, 'Seconds', 42);
    expect(publish).toHaveBeenCalledOnce();
    const stopAt = sweepDueDeliveries.mock.calls[0]![0].stopAt!;
    expect(stopAt - before).toBeGreaterThanOrEqual(45_000 - 50);
    expect(stopAt - before).toBeLessThanOrEqual(45_000 + 50);
  });

  it('publishes 0 when nothing is due, and still publishes before failing a run whose partitions could not all be read', async () => {
    const { handler, addMetric, publish } = await load(async () => ({ ...result, enqueued: 0, oldestDueAgeSeconds: 0, failedPartitions: 2 }));
    await expect(handler({}, context)).rejects.toThrow('2 due-index partitions could not be read');
    expect(addMetric).toHaveBeenCalledWith('OldestDueDeliveryAgeSeconds', 'Seconds', 0);
    expect(publish).toHaveBeenCalledOnce();
  });
});
