/**
 * Availability cost vs history: a hotel of 200 rooms, availability for a fixed week with 2,000
 * and then 50,000 past bookings; latency through the gateway and the read capacity each request
 * consumed. A control hotel with the same rooms and 2,000 past bookings is measured in the same
 * windows, interleaved request by request, so the 50,000 figure also has a baseline taken at the
 * same moment (machine noise cancels out).
 */
import { MAX_STAY_NIGHTS } from '../../shared/schemas/common';
import { batchPut, queryAll } from '../../shared/store/batch';
import { keys, SHORT_STAY_NIGHTS } from '../../shared/store/keys';
import { bookingItem, type BookingRecord } from '../../shared/store/booking-store';
import { formatCommands } from './lib/capacity';
import { addDays, bookings, categories, history, rooms, SOURCE, WEEK } from './lib/fixtures';
import { expectStatus } from './lib/http';
import type { BenchStack, Tenant } from './lib/stack';
import { median, ms, percentile, ratio, round, x } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const ROOMS = 200;
const MAX_RATIO = 1.2;

interface Sample {
  ms: number;
  rcu: number;
  calls: number;
  itemsRead: number;
  byCommand: Record<string, number>;
  available: number;
}

interface Hotel {
  tenant: Tenant;
  history: BookingRecord[][];
}

function summary(samples: Sample[]) {
  return {
    requests: samples.length,
    median_ms: round(median(samples.map((s) => s.ms))),
    p95_ms: round(percentile(samples.map((s) => s.ms), 95)),
    rcu_median: round(median(samples.map((s) => s.rcu)), 3),
    rcu_max: round(Math.max(...samples.map((s) => s.rcu)), 3),
    items_read_median: median(samples.map((s) => s.itemsRead)),
    calls_median: median(samples.map((s) => s.calls)),
    commands: samples[Math.floor(samples.length / 2)]?.byCommand ?? {},
    available_rooms: [...new Set(samples.map((s) => s.available))],
  };
}

export async function availability(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { http, meter } = stack;
  const { log } = config;
  const small = config.quick ? 400 : 2_000;
  const large = config.quick ? 4_000 : 50_000;
  const samples = config.quick ? 10 : 30;
  const warmup = 5;

  async function setUp(name: string): Promise<Hotel> {
    const tenant = await stack.createTenant(`Availability ${name}`);
    const key = tenant.syncKey;
    expectStatus(await http.send('PUT', '/api/v1/property-sync/room-categories', { key, body: { external_source: SOURCE, categories: categories() } }), 200);
    const put = await http.send('PUT', '/api/v1/property-sync/rooms', { key, body: { external_source: SOURCE, rooms: rooms(ROOMS, { withCategories: true }) } });
    expectStatus(put, 200);
    const roomList = (put.body.items as { external_room_id: string; id: string }[]).map((i) => ({ id: i.id, external_room_id: i.external_room_id }));
    // Current bookings, the same in both phases: 20 rooms taken in the week, 20 more the month after.
    const current = [
      ...bookings(roomList.slice(0, 20).map((r) => r.external_room_id), WEEK.check_in_date, 7, 'week'),
      ...bookings(roomList.slice(20, 40).map((r) => r.external_room_id), addDays(WEEK.check_out_date, 10), 5, 'later'),
    ];
    expectStatus(await http.send('PUT', '/api/v1/property-sync/bookings', { key, body: { external_source: SOURCE, bookings: current } }), 200);
    return { tenant, history: history(roomList, large / ROOMS) };
  }

  async function loadHistory(hotel: Hotel, from: number, to: number) {
    const items = hotel.history.flatMap((stays) => stays.slice(from, to)).map((b) => bookingItem(hotel.tenant.clientId, b));
    const t = performance.now();
    const used = await meter.measure(() => batchPut(items));
    return { items: items.length, seconds: (performance.now() - t) / 1000, wcu: used.used.wcu, calls: used.used.calls };
  }

  const path = `/api/v1/property-sync/availability?check_in_date=${WEEK.check_in_date}&check_out_date=${WEEK.check_out_date}&guests=2`;
  async function sample(hotel: Hotel): Promise<Sample> {
    const before = meter.snapshot();
    const t = performance.now();
    const response = await http.send('GET', path, { key: hotel.tenant.syncKey });
    const elapsed = performance.now() - t;
    const used = meter.since(before);
    expectStatus(response, 200);
    return { ms: elapsed, rcu: used.rcu, calls: used.calls, itemsRead: used.itemsRead, byCommand: used.byCommand, available: response.body.available_rooms.length };
  }

  /** Subject and control alternately (order swapped every round). */
  async function measure(subject: Hotel, control: Hotel) {
    for (let i = 0; i < warmup; i++) {
      await sample(subject);
      await sample(control);
    }
    const s: Sample[] = [];
    const c: Sample[] = [];
    for (let i = 0; i < samples; i++) {
      if (i % 2) {
        s.push(await sample(subject));
        c.push(await sample(control));
      } else {
        c.push(await sample(control));
        s.push(await sample(subject));
      }
    }
    return { subject: summary(s), control: summary(c) };
  }

  log(`setting up two hotels of ${ROOMS} rooms`);
  const [subject, control] = await Promise.all([setUp('subject'), setUp('control')]);
  const perRoomSmall = small / ROOMS;
  const loadSmall = await loadHistory(subject, 0, perRoomSmall);
  await loadHistory(control, 0, perRoomSmall);
  log(`measuring with ${small} past bookings`);
  const phase1 = await measure(subject, control);
  log(`adding ${large - small} past bookings`);
  const loadLarge = await loadHistory(subject, perRoomSmall, large / ROOMS);
  log(`loaded ${loadLarge.items} in ${loadLarge.seconds.toFixed(1)} s; measuring with ${large}`);
  const phase2 = await measure(subject, control);

  log('timing each query of the request on its own');
  const perQuery = await timeQueries(subject.tenant.clientId, control.tenant.clientId, config.quick ? 5 : 15);

  const a = phase1.subject;
  const b = phase2.subject;
  const latencyRatio = ratio(b.median_ms, a.median_ms);
  const sameWindowRatio = ratio(b.median_ms, phase2.control.median_ms);
  const rcuRatio = ratio(b.rcu_median, a.rcu_median);
  const fmtLatency = (s: typeof a) => `${ms(s.median_ms)} (p95 ${ms(s.p95_ms)})`;
  const n = (v: number) => v.toLocaleString('en-US');
  const rows: Row[] = [
    { figure: `Latency, ${n(small)} past bookings: median (p95)`, value: fmtLatency(a), target: 'reference' },
    {
      figure: `Latency, ${n(large)} past bookings: median (p95)`,
      value: fmtLatency(b),
      baseline: `${ms(a.median_ms)} (${n(small)})`,
      ratio: x(latencyRatio),
      target: `<= ${MAX_RATIO}x`,
      met: latencyRatio <= MAX_RATIO,
    },
    {
      figure: `Latency, ${n(large)} vs control hotel (${n(small)}) in the same window`,
      value: ms(b.median_ms),
      baseline: ms(phase2.control.median_ms),
      ratio: x(sameWindowRatio),
      target: `<= ${MAX_RATIO}x`,
      met: sameWindowRatio <= MAX_RATIO,
    },
    { figure: `Read capacity per request, ${n(small)} past bookings`, value: `${a.rcu_median} RCU`, target: 'reference' },
    {
      figure: `Read capacity per request, ${n(large)} past bookings`,
      value: `${b.rcu_median} RCU`,
      baseline: `${a.rcu_median} RCU`,
      ratio: x(rcuRatio),
      target: `<= ${MAX_RATIO}x`,
      met: rcuRatio <= MAX_RATIO,
    },
    {
      figure: 'Items read per request (DynamoDB calls)',
      value: `${b.items_read_median} (${formatCommands(b.commands)})`,
      baseline: `${a.items_read_median} (${formatCommands(a.commands)})`,
      ratio: x(ratio(b.items_read_median, a.items_read_median)),
    },
    {
      figure: 'Rooms available in the week (same answer)',
      value: String(b.available_rooms.join('/')),
      baseline: String(a.available_rooms.join('/')),
      target: 'equal',
      met: a.available_rooms.length === 1 && b.available_rooms.length === 1 && a.available_rooms[0] === b.available_rooms[0],
    },
  ];
  for (const q of perQuery) {
    rows.push({
      figure: `Query on its own: ${q.query}, ${n(large)} vs ${n(small)} (median)`,
      value: `${ms(q.subject_ms)}, ${q.items} items`,
      baseline: ms(q.control_ms),
      ratio: x(ratio(q.subject_ms, q.control_ms)),
    });
  }
  return {
    id: 'availability',
    title: 'Availability cost vs history',
    method:
      `A hotel of ${ROOMS} rooms (4 categories, 20 rooms booked in the week and 20 the month after); GET availability for ` +
      `${WEEK.check_in_date}..${WEEK.check_out_date} (2 guests) through the local gateway, ${samples} requests after ${warmup} warm-ups, ` +
      `with ${n(small)} and then ${n(large)} past bookings (stays ending before the week: ${'70% checked out, 12% cancelled, 5% no-show, 13% still confirmed/pending/checked-in'}), ` +
      'loaded directly with BatchWriteItem. Read capacity from ReturnConsumedCapacity=TOTAL on every call of the request. ' +
      `A control hotel with ${n(small)} past bookings is measured interleaved with it in both windows.`,
    rows,
    notes: [
      `History load: ${n(loadSmall.items)} items in ${loadSmall.seconds.toFixed(1)} s, then ${n(loadLarge.items)} items in ${loadLarge.seconds.toFixed(1)} s ` +
        `(${Math.round(loadLarge.items / loadLarge.seconds)} items/s, ${loadLarge.calls} BatchWriteItem calls, ${round(loadLarge.wcu)} WCU).`,
      `Control hotel: ${ms(phase1.control.median_ms)} in the first window, ${ms(phase2.control.median_ms)} in the second.`,
    ],
    data: { rooms: ROOMS, week: WEEK, small, large, phase1, phase2, per_query: perQuery, load: { small: loadSmall, large: loadLarge } },
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The four queries one availability request makes (shared/store/booking-store.ts), each timed
 * on its own for both hotels, interleaved: shows which one, if any, slows down with history.
 */
async function timeQueries(subjectId: string, controlId: string, rounds: number) {
  const window = { from: addDays(WEEK.check_in_date, 1) };
  const queries = (clientId: string) => [
    {
      query: 'rooms (table, pk + begins_with ROOM#)',
      input: { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':p': keys.roomPrefix }, ConsistentRead: true },
    },
    {
      query: 'categories (table, pk + begins_with CATEGORY#)',
      input: { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':p': keys.categoryPrefix }, ConsistentRead: true },
    },
    {
      // Not what the service sends: the same range as a BETWEEN, to tell a partition-size cost
      // from a begins_with cost in DynamoDB Local.
      query: 'categories as sk BETWEEN (diagnostic, not used by the service)',
      input: { KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':a': keys.categoryPrefix, ':b': `${keys.categoryPrefix}~` }, ConsistentRead: true },
    },
    ...(['short', 'long'] as const).map((length) => ({
      query: `active ${length} stays (gsi1, check-out BETWEEN)`,
      input: {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.activeStays(clientId, length),
          ':from': window.from,
          ':to': `${addDays(WEEK.check_out_date, length === 'short' ? SHORT_STAY_NIGHTS : MAX_STAY_NIGHTS)}~`,
        },
      },
    })),
  ];
  const subjectQueries = queries(subjectId);
  const controlQueries = queries(controlId);
  const times = subjectQueries.map(() => ({ subject: [] as number[], control: [] as number[], items: 0 }));
  const run = async (input: (typeof subjectQueries)[number]['input']) => {
    const t = performance.now();
    const items = await queryAll(input);
    return { ms: performance.now() - t, items: items.length };
  };
  for (let r = 0; r <= rounds; r++) {
    for (let q = 0; q < subjectQueries.length; q++) {
      const first = r % 2 ? 'subject' : 'control';
      for (const which of [first, first === 'subject' ? 'control' : 'subject'] as const) {
        const result = await run((which === 'subject' ? subjectQueries : controlQueries)[q]!.input);
        if (r > 0) times[q]![which].push(result.ms);
        times[q]!.items = result.items;
      }
    }
  }
  return subjectQueries.map((q, i) => ({
    query: q.query,
    items: times[i]!.items,
    subject_ms: round(median(times[i]!.subject)),
    control_ms: round(median(times[i]!.control)),
  }));
}
