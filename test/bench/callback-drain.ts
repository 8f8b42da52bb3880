/**
 * Callback backlog drain: 5,000 booking.confirmed deliveries made due at once (written straight
 * to the table as a booking's transaction writes them, none on the queue: what an SQS outage or
 * a burst of long retries leaves), then one run of the real sweeper function, as the schedule
 * invokes it. Time from that run's start to the last callback received by a loopback receiver,
 * the rate, and a check that every delivery arrived once and ended `delivered`.
 */
import { randomUUID } from 'node:crypto';
import { callbackQueue } from '../../definitions/queues';
import { sweepOnce } from '../../infra/local/delivery-sweeper';
import { configureEndpoint, listDeliveries } from '../../shared/domain/callbacks/deliveries';
import type { SweepResult } from '../../shared/domain/callbacks/sweep';
import { batchPut } from '../../shared/store/batch';
import { newDelivery, newDeliveryItem } from '../../shared/store/delivery-store';
import { DELIVERY_DUE_SHARDS } from '../../shared/store/keys';
import { cpuRows, cpuSnapshot, cpuUse } from './lib/cpu';
import { startCallbackReceiver, waitUntil } from './lib/receiver';
import type { BenchStack } from './lib/stack';
import { ms, round } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const TARGET_MS = 60_000;
/** The sweeper before sharding: one Query page of 100 per run, one run a minute. */
const UNSHARDED_PER_MINUTE = 100;

/** A booking.confirmed body of the usual size (about 700 bytes). */
function payload(clientId: string, n: number, at: string): string {
  return JSON.stringify({
    event: 'booking.confirmed',
    created_at: at,
    hotel_id: clientId,
    booking: {
      id: randomUUID(),
      booking_reference: `BK-${String(n).padStart(6, '0')}`,
      confirmation_code: `C${String(n).padStart(7, '0')}`,
      guest_name: `Guest ${n}`,
      guest_email: `guest${n}@example.com`,
      guest_phone: '+442071234567',
      guests: 2,
      check_in_date: '2027-09-01',
      check_out_date: '2027-09-04',
      total_amount: 360,
      status: 'confirmed',
      payment_status: 'paid',
      payment_method: 'sandbox',
      gateway_reference: `sbx_${n}`,
    },
    room: { id: randomUUID(), room_number: String(100 + (n % 200)), room_type: 'double', external_source: 'bench-pms', external_room_id: `R${n % 200}`, external_category_id: 'DBL' },
  });
}

export async function callbackDrain(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const count = config.quick ? 1000 : 5000;
  const receiver = await startCallbackReceiver();
  try {
    const tenant = await stack.createTenant('Backlog');
    await configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
    const dueAt = new Date().toISOString();
    const records = Array.from({ length: count }, (_, n) =>
      newDelivery({ clientId: tenant.clientId, event: 'booking.confirmed', endpoint: 'callback', payload: payload(tenant.clientId, n, dueAt), at: dueAt }),
    );
    await batchPut(records.map(newDeliveryItem));
    const ids = new Set(records.map((r) => r.delivery_id));
    config.log(`${count} deliveries due; running the sweeper`);

    const before = stack.meter.snapshot();
    const cpuBefore = cpuSnapshot(stack.pids);
    const t0 = performance.now();
    // The real sweeper function, as the schedule invokes it; a run that stops at its deadline leaves the rest to the next run.
    const runs: { result: SweepResult; ms: number }[] = [];
    do {
      const runStart = performance.now();
      const result = (await sweepOnce()) as SweepResult;
      runs.push({ result, ms: performance.now() - runStart });
    } while (!runs.at(-1)!.result.drained && runs.length < 5);
    const sweptMs = performance.now() - t0;
    await waitUntil(`${count} deliveries`, () => [...ids].every((id) => receiver.arrivals.has(id)), 180_000, 100);
    const drainMs = receiver.lastAt() - t0;
    const cpu = cpuUse(cpuBefore, cpuSnapshot(stack.pids), count);
    // The last attempts are recorded, and late duplicates, if any, arrive now.
    await new Promise((r) => setTimeout(r, 1000));
    // Before the checks below, whose listing reads would count too.
    const used = stack.meter.since(before);
    let statuses: Record<string, number> = {};
    await waitUntil(
      'every delivery recorded as delivered',
      async () => {
        statuses = {};
        for (const d of await listDeliveries(tenant.clientId)) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
        return statuses.delivered === count;
      },
      120_000,
      1000,
    );

    const received = [...receiver.arrivals.keys()].filter((id) => ids.has(id)).length;
    const duplicates = [...receiver.arrivals.values()].reduce((n, list) => n + list.length - 1, 0);
    const enqueued = runs.reduce((n, r) => n + r.result.enqueued, 0);
    const pages = runs.reduce((n, r) => n + r.result.pages, 0);
    const perSecond = count / (drainMs / 1000);
    const unshardedMinutes = count / UNSHARDED_PER_MINUTE;
    const allGood = received === count && statuses.delivered === count && duplicates === 0;

    const rows: Row[] = [
      {
        figure: `${count} deliveries due at once: first sweeper run → last callback received`,
        value: `${ms(drainMs)} (${round(perSecond, 1)} deliveries/s)`,
        baseline: `≈ ${unshardedMinutes} min (${round(UNSHARDED_PER_MINUTE / 60, 1)}/s) before sharding, by construction`,
        target: `< ${TARGET_MS / 1000} s`,
        met: drainMs < TARGET_MS && allGood,
      },
      {
        figure: `Sweeper: runs / pages read (${DELIVERY_DUE_SHARDS} shards + the pre-sharding partition) / enqueued`,
        value: `${runs.length} / ${pages} / ${enqueued} in ${ms(sweptMs)} (${round(enqueued / (sweptMs / 1000), 0)}/s)`,
        target: '1 run',
        met: runs.length === 1,
      },
      {
        figure: 'Deliveries: distinct ids received / recorded delivered',
        value: `${received} / ${statuses.delivered ?? 0} of ${count} (duplicates ${duplicates}; statuses ${JSON.stringify(statuses)})`,
        target: `${count} / ${count}`,
        met: allGood,
      },
      {
        figure: 'DynamoDB per delivery (sweep, attempt, record)',
        value: `${round(used.calls / count, 1)} calls, ${round(used.rcu / count, 2)} RCU, ${round(used.wcu / count, 2)} WCU`,
      },
      ...cpuRows('CPU from the sweeper run to the last callback (/proc)', cpu),
    ];
    return {
      id: 'drain',
      title: 'Callback backlog drain',
      method:
        `${count} booking.confirmed deliveries for one hotel, written straight to the table due at the same instant and not on the queue ` +
        `(what an SQS outage or a burst of long retries leaves), spread by id over the ${DELIVERY_DUE_SHARDS} shards of the due index; ` +
        'then the real sweeper function, invoked once as the schedule invokes it (more runs only if one stops at its deadline). ' +
        `It reads every shard page after page and enqueues with SendMessageBatch; the local queue poller runs the sender, up to ${callbackQueue.maxConcurrency} ` +
        `batches of ${callbackQueue.batchSize} at once as the event source's maximum concurrency allows, against a loopback receiver answering 200 at once. ` +
        'Timed from the start of the sweeper run to the last callback received. The baseline is the sweeper before sharding: one page of 100 per run, one run a minute.',
      rows,
      notes: [],
      data: {
        deliveries: count,
        shards: DELIVERY_DUE_SHARDS,
        drain_ms: round(drainMs),
        deliveries_per_second: round(perSecond, 2),
        sweeper_runs: runs.map((r) => ({ ...r.result, ms: round(r.ms) })),
        swept_ms: round(sweptMs),
        sender_batches_at_once: callbackQueue.maxConcurrency,
        batch_size: callbackQueue.batchSize,
        received_distinct: received,
        duplicates,
        statuses,
        unsharded_minutes: unshardedMinutes,
        dynamodb: used,
        cpu,
      },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await receiver.close();
  }
}
