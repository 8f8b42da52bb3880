/**
 * Sync throughput: a fresh hotel; PUT 500 rooms (all new), the same 500 again (unchanged), then
 * 500 bookings over those rooms (and, for reference, the same 500 bookings again). Wall time
 * through the gateway, DynamoDB calls by command and the capacity each request consumed.
 */
import { formatCommands } from './lib/capacity';
import { bookings, rooms, SOURCE, WEEK, addDays } from './lib/fixtures';
import { expectStatus } from './lib/http';
import type { BenchStack } from './lib/stack';
import { ms, round } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const WRITE_COMMANDS = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];

export async function syncThroughput(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { http, meter } = stack;
  const count = config.quick ? 100 : 500;
  const tenant = await stack.createTenant('Sync throughput');
  const key = tenant.syncKey;

  // One request first, so the authorizer's key lookup (cached 30 s) and its last-used update are
  // not counted in the first measured sync.
  expectStatus(await http.send('PUT', '/api/v1/property-sync/rooms', { key, body: { external_source: SOURCE, rooms: [] } }), 200);

  const roomList = rooms(count, { prefix: 'sync' });
  const stays = bookings(roomList.map((r) => r.external_room_id), addDays(WEEK.check_in_date, 60), 4, 'sync');
  const steps = [
    { name: `PUT ${count} rooms (new)`, path: '/api/v1/property-sync/rooms', body: { external_source: SOURCE, rooms: roomList }, expect: { created: count } },
    { name: `PUT the same ${count} rooms (unchanged)`, path: '/api/v1/property-sync/rooms', body: { external_source: SOURCE, rooms: roomList }, expect: { unchanged: count }, noWrites: true },
    { name: `PUT ${count} bookings (new)`, path: '/api/v1/property-sync/bookings', body: { external_source: SOURCE, bookings: stays }, expect: { created: count } },
    { name: `PUT the same ${count} bookings (unchanged)`, path: '/api/v1/property-sync/bookings', body: { external_source: SOURCE, bookings: stays }, expect: { unchanged: count }, noWrites: true },
  ];

  const results = [];
  for (const step of steps) {
    const before = meter.snapshot();
    const t = performance.now();
    const response = await http.send('PUT', step.path, { key, body: step.body });
    const elapsed = performance.now() - t;
    const used = meter.since(before);
    expectStatus(response, 200);
    for (const [field, want] of Object.entries(step.expect)) {
      if (response.body[field] !== want) throw new Error(`${step.name}: expected ${field} ${want}, got ${JSON.stringify(response.body).slice(0, 300)}`);
    }
    const writeCalls = WRITE_COMMANDS.reduce((n, c) => n + (used.byCommand[c] ?? 0), 0);
    results.push({
      step: step.name,
      ms: round(elapsed),
      items_per_second: round(count / (elapsed / 1000), 1),
      calls: used.calls,
      commands: used.byCommand,
      write_calls: writeCalls,
      rcu: used.rcu,
      wcu: used.wcu,
      no_writes_expected: !!step.noWrites,
    });
  }

  const rows: Row[] = [];
  for (const r of results) {
    rows.push({
      figure: r.step,
      value: `${ms(r.ms)} (${r.items_per_second} items/s); ${r.calls} calls: ${formatCommands(r.commands)}; ${r.rcu} RCU, ${r.wcu} WCU`,
      ...(r.no_writes_expected ? { target: '0 WCU, reads only', met: r.wcu === 0 && r.write_calls === 0 } : {}),
    });
  }
  const [created, unchanged] = results;
  rows.push({
    figure: 'Unchanged room re-sync vs first sync: time',
    value: ms(unchanged!.ms),
    baseline: ms(created!.ms),
    ratio: `${(unchanged!.ms / created!.ms).toFixed(2)}x`,
  });
  return {
    id: 'sync',
    title: 'Sync throughput',
    method:
      `A fresh hotel; each step is one PUT of ${count} items through the local gateway (after one warm-up request for the key). ` +
      'DynamoDB calls and capacity from the SDK middleware on the functions’ client (ReturnConsumedCapacity=TOTAL).',
    rows,
    notes: [],
    data: { items: count, steps: results },
    seconds: (performance.now() - started) / 1000,
  };
}
