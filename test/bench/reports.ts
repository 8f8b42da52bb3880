/**
 * Reports cost vs history (docs/behaviour.md "Reports"): a hotel of 100 rooms with about six stays
 * a room in June 2027; a staff operator, signed in on cognito-local, opens the Reports page for
 * the month (GET /dashboard/reports?from=&to=, every table and the chart). Measured with the
 * month's bookings alone, then beside 20,000 bookings outside it (100 a room before the month,
 * walking back from its first night, and 100 a room after it, so the month before the range,
 * which the nights index reads, is as full as any month).
 */
import { randomUUID } from 'node:crypto';
import { batchPut } from '../../shared/store/batch';
import { bookingItem, type BookingRecord } from '../../shared/store/booking-store';
import { DashboardClient, OPERATOR_PASSWORD } from '../support/dashboard-client';
import { formatCommands } from './lib/capacity';
import { addDays, rooms, SOURCE } from './lib/fixtures';
import { expectStatus } from './lib/http';
import type { BenchStack } from './lib/stack';
import { median, ms, percentile, ratio, round, x } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const ROOMS = 100;
const MONTH = { from: '2027-06-01', to: '2027-06-30' };
const TARGET_MS = 2_000;
const STATUSES: BookingRecord['status'][] = ['checked_out', 'checked_out', 'checked_out', 'confirmed', 'cancelled', 'no_show', 'checked_out'];

/** Stays of one room walking from `start` (forward, or back with `direction` -1), `count` of them. */
function stays(clientRoom: { id: string; external_room_id: string }, r: number, start: string, count: number, direction: 1 | -1, tag: string): BookingRecord[] {
  const created = '2027-01-01T00:00:00.000Z';
  const out: BookingRecord[] = [];
  let edge = start;
  for (let k = 0; k < count; k++) {
    const n = r * count + k;
    const nights = 1 + ((n * 31) % 7);
    const gap = (n * 13) % 3;
    const checkIn = direction === 1 ? addDays(edge, gap) : addDays(edge, -gap - nights);
    const checkOut = addDays(checkIn, nights);
    const status = STATUSES[n % STATUSES.length]!;
    out.push({
      id: randomUUID(),
      origin: 'sync',
      room_id: clientRoom.id,
      external_source: SOURCE,
      external_booking_id: `${tag}-${r}-${k}`,
      external_room_id: clientRoom.external_room_id,
      guest_name: `Guest ${tag} ${n}`,
      guests: 1 + (n % 3),
      check_in_date: checkIn,
      check_out_date: checkOut,
      total_amount: 95 * nights + (n % 4) * 5,
      status,
      payment_status: 'paid',
      content_hash: `${tag}-${n}`,
      created_at: created,
      updated_at: created,
    });
    edge = direction === 1 ? checkOut : checkIn;
  }
  return out;
}

/** Stays filling the month: from its first night (or a few days before, crossing the edge) until past its last. */
function monthStays(roomList: readonly { id: string; external_room_id: string }[]): BookingRecord[] {
  return roomList.flatMap((room, r) => stays(room, r, addDays(MONTH.from, -(r % 3)), 6, 1, 'month').filter((b) => b.check_in_date <= MONTH.to));
}

export async function reports(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { http, meter, log } = { ...stack, log: config.log };
  const outside = config.quick ? 2_000 : 20_000;
  const samples = config.quick ? 5 : 15;
  const warmup = 3;

  const tenant = await stack.createTenant('Reports');
  const put = await http.send('PUT', '/api/v1/property-sync/rooms', { key: tenant.syncKey, body: { external_source: SOURCE, rooms: rooms(ROOMS) } });
  expectStatus(put, 200);
  const roomList = (put.body.items as { external_room_id: string; id: string }[]).map((i) => ({ id: i.id, external_room_id: i.external_room_id }));
  const inMonth = monthStays(roomList);
  await batchPut(inMonth.map((b) => bookingItem(tenant.clientId, b)));

  const { createOperator } = await import('../../shared/domain/operators');
  const email = `bench-reports-${Date.now()}@hotel.example`;
  await createOperator({ clientId: tenant.clientId, email, role: 'staff', password: OPERATOR_PASSWORD });
  const staff = new DashboardClient(stack, email);
  const signedIn = await staff.signIn();
  if (signedIn.status !== 200) throw new Error(`sign-in answered ${signedIn.status}`);

  const path = `/dashboard/reports?from=${MONTH.from}&to=${MONTH.to}`;
  async function measure() {
    for (let i = 0; i < warmup; i++) await staff.get(path);
    const times: number[] = [];
    let used = { rcu: 0, itemsRead: 0, byCommand: {} as Record<string, number> };
    let sold = '';
    for (let i = 0; i < samples; i++) {
      const before = meter.snapshot();
      const t = performance.now();
      const page = await staff.get(path);
      times.push(performance.now() - t);
      if (page.status !== 200) throw new Error(`Reports answered ${page.status}`);
      if (i === Math.floor(samples / 2)) used = meter.since(before);
      sold = /<th scope="row">Total<\/th><td class="num">[\d,]+<\/td><td class="num">([\d,]+)</.exec(page.text)?.[1] ?? '?';
    }
    return { median_ms: round(median(times)), p95_ms: round(percentile(times, 95)), rcu: round(used.rcu, 3), items_read: used.itemsRead, commands: used.byCommand, rooms_sold: sold };
  }

  log(`${inMonth.length} bookings in ${MONTH.from}..${MONTH.to}; measuring the month's report`);
  const alone = await measure();
  const perRoom = outside / ROOMS / 2;
  const history = roomList.flatMap((room, r) => [...stays(room, r, addDays(MONTH.from, -3), perRoom, -1, 'before'), ...stays(room, r, addDays(MONTH.to, 5), perRoom, 1, 'after')]);
  const t = performance.now();
  await batchPut(history.map((b) => bookingItem(tenant.clientId, b)));
  log(`loaded ${history.length} bookings outside the month in ${((performance.now() - t) / 1000).toFixed(1)} s; measuring again`);
  const beside = await measure();

  const n = (v: number) => v.toLocaleString('en-US');
  const rows: Row[] = [
    { figure: `A month's report, ${n(inMonth.length)} bookings in it alone: median (p95)`, value: `${ms(alone.median_ms)} (p95 ${ms(alone.p95_ms)})`, target: 'reference' },
    {
      figure: `A month's report beside ${n(history.length)} bookings outside it: median (p95)`,
      value: `${ms(beside.median_ms)} (p95 ${ms(beside.p95_ms)})`,
      baseline: ms(alone.median_ms),
      ratio: x(ratio(beside.median_ms, alone.median_ms)),
      target: `<= ${n(TARGET_MS)} ms`,
      met: beside.p95_ms <= TARGET_MS,
    },
    { figure: 'Read capacity per report', value: `${beside.rcu} RCU`, baseline: `${alone.rcu} RCU`, ratio: x(ratio(beside.rcu, alone.rcu)) },
    { figure: 'Items read per report (DynamoDB calls)', value: `${beside.items_read} (${formatCommands(beside.commands)})`, baseline: `${alone.items_read} (${formatCommands(alone.commands)})` },
    { figure: 'Room nights sold in the month (same answer)', value: beside.rooms_sold, baseline: alone.rooms_sold, target: 'equal', met: beside.rooms_sold === alone.rooms_sold && alone.rooms_sold !== '?' },
  ];
  return {
    id: 'reports',
    title: 'Reports cost vs history',
    method:
      `A hotel of ${ROOMS} rooms with ${n(inMonth.length)} bookings in ${MONTH.from}..${MONTH.to} (every state: checked out, confirmed, cancelled, no-show); ` +
      `a staff operator's GET of the Reports page for the month (all three tables and the chart) through the local gateway, ${samples} requests after ${warmup} warm-ups, ` +
      `first with the month's bookings alone, then beside ${n(history.length)} bookings outside it (${perRoom} a room before the month, ending up to 3 days before it, and ${perRoom} a room after it), ` +
      'loaded directly with BatchWriteItem. Read capacity from ReturnConsumedCapacity=TOTAL on every call of the request.',
    rows,
    notes: ['The nights index (gsi4) is read from a month before the range (the short stays that can reach it): those entries are dropped by their sort key, not read from the table.'],
    data: { rooms: ROOMS, month: MONTH, in_month: inMonth.length, outside: history.length, alone, beside },
    seconds: (performance.now() - started) / 1000,
  };
}
