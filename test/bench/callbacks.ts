/**
 * Callback pipeline: a hotel with a callback URL on a loopback receiver; 500 reception bookings
 * (confirmServiceBooking, 10 at a time, distinct room-nights) each emit booking.confirmed, which
 * goes through the table, the queue, the poller and the sender. Time from the first booking to
 * the last delivery received, deliveries per second, and a check that every delivery arrived
 * with its own id and ended `delivered`.
 */
import { confirmServiceBooking } from '../../shared/domain/bookings/service-bookings';
import { configureEndpoint, listDeliveries } from '../../shared/domain/callbacks/deliveries';
import { syncRooms } from '../../shared/domain/property-sync/sync-rooms';
import { mapConcurrent } from '../../shared/store/batch';
import { addDays, rooms, SOURCE } from './lib/fixtures';
import { startCallbackReceiver, waitUntil } from './lib/receiver';
import type { BenchStack } from './lib/stack';
import { ms, percentile, round } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

export async function callbacks(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { meter } = stack;
  const count = config.quick ? 100 : 500;
  const roomCount = 200;
  const concurrency = 10;
  const receiver = await startCallbackReceiver();
  try {
    const tenant = await stack.createTenant('Callbacks');
    const synced = await syncRooms(tenant.clientId, { external_source: SOURCE, rooms: rooms(roomCount, { prefix: 'cb' }) });
    const roomIds = synced.items.map((i) => i.id);
    await configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });

    // Distinct room-nights: stay k of every room (3 nights, k = 0, 1, 2), in that order.
    const stays = Array.from({ length: count }, (_, n) => {
      const k = Math.floor(n / roomCount);
      const checkIn = addDays('2027-09-01', 5 * k);
      return { roomId: roomIds[n % roomCount]!, check_in_date: checkIn, check_out_date: addDays(checkIn, 3), n };
    });

    const confirmedAt = new Map<string, number>();
    const before = meter.snapshot();
    const t0 = performance.now();
    await mapConcurrent(stays, concurrency, async (stay) => {
      const result = await confirmServiceBooking(tenant.clientId, {
        origin: 'reception',
        roomId: stay.roomId,
        requireRoom: true,
        guest_name: `Walk-in ${stay.n + 1}`,
        guest_email: `walkin${stay.n + 1}@example.com`,
        guests: 1,
        check_in_date: stay.check_in_date,
        check_out_date: stay.check_out_date,
        payment_status: 'unpaid',
        payment_method: 'cash',
      });
      if (!result.delivery_id) throw new Error('a reception booking made no delivery');
      confirmedAt.set(result.delivery_id, performance.now());
    });
    const bookedMs = performance.now() - t0;
    config.log(`${count} bookings confirmed in ${(bookedMs / 1000).toFixed(1)} s; waiting for the deliveries`);
    await waitUntil(`${count} deliveries`, () => receiver.arrivals.size >= count, 120_000);
    const allReceivedMs = receiver.lastAt() - t0;
    await waitUntil('every delivery recorded as delivered', async () => (await listDeliveries(tenant.clientId, 'delivered')).length >= count, 30_000, 200);
    // Late duplicates, if any, would arrive now.
    await new Promise((r) => setTimeout(r, 500));
    const used = meter.since(before);
    const deliveries = await listDeliveries(tenant.clientId);

    const ids = [...receiver.arrivals.keys()];
    const duplicates = [...receiver.arrivals.values()].reduce((n, list) => n + list.length - 1, 0);
    const unknown = ids.filter((id) => !confirmedAt.has(id));
    const statuses: Record<string, number> = {};
    for (const d of deliveries) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
    const latencies = ids.filter((id) => confirmedAt.has(id)).map((id) => receiver.arrivals.get(id)![0]! - confirmedAt.get(id)!);
    const perSecond = count / (allReceivedMs / 1000);
    const lastBooking = Math.max(...confirmedAt.values());
    const receivedByLastBooking = [...receiver.arrivals.values()].filter((list) => list[0]! <= lastBooking).length;
    const tailMs = receiver.lastAt() - lastBooking;
    const allGood = ids.length === count && unknown.length === 0 && statuses.delivered === count && deliveries.length === count;

    const rows: Row[] = [
      { figure: `${count} reception bookings confirmed (${concurrency} at a time)`, value: `${ms(bookedMs)} (${round(count / (bookedMs / 1000), 1)} bookings/s)` },
      { figure: 'Time from the first booking to the last delivery received', value: ms(allReceivedMs) },
      { figure: 'Deliveries per second (end to end)', value: String(round(perSecond, 1)) },
      {
        figure: 'Delivered while bookings were still being made / after the last one',
        value: `${receivedByLastBooking} / ${count - receivedByLastBooking}, the rest in ${ms(tailMs)} (${round((count - receivedByLastBooking) / Math.max(0.001, tailMs / 1000), 1)}/s)`,
      },
      { figure: 'Booking confirmed → callback received: p50 / p99', value: `${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 99))}` },
      {
        figure: 'Deliveries: distinct ids received / recorded delivered',
        value: `${ids.length} / ${statuses.delivered ?? 0} of ${count} (duplicates ${duplicates}, unknown ${unknown.length}; statuses ${JSON.stringify(statuses)})`,
        target: `${count} / ${count}`,
        met: allGood,
      },
      {
        figure: 'DynamoDB per booking, including its delivery',
        value: `${round(used.calls / count, 1)} calls, ${round(used.rcu / count, 2)} RCU, ${round(used.wcu / count, 2)} WCU`,
      },
    ];
    return {
      id: 'callbacks',
      title: 'Callback pipeline',
      method:
        `A hotel of ${roomCount} rooms with its callback URL on a loopback receiver; ${count} reception bookings through confirmServiceBooking ` +
        `(${concurrency} at a time, ${roomCount} rooms × up to 3 stays, no two on the same room-night). Each writes its booking.confirmed delivery ` +
        'in the booking transaction and enqueues it; the local queue poller (batches of 10, up to 10 at once, as the event source mapping) runs the sender, ' +
        'which signs and POSTs it. Timed from the first booking to the last delivery received.',
      rows,
      notes: [],
      data: {
        bookings: count,
        concurrency,
        booked_ms: round(bookedMs),
        all_received_ms: round(allReceivedMs),
        deliveries_per_second: round(perSecond, 2),
        received_before_last_booking: receivedByLastBooking,
        tail_ms: round(tailMs),
        latency_ms: { p50: round(percentile(latencies, 50)), p90: round(percentile(latencies, 90)), p99: round(percentile(latencies, 99)) },
        received_distinct: ids.length,
        duplicates,
        unknown: unknown.length,
        statuses,
        dynamodb: used,
      },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await receiver.close();
  }
}
