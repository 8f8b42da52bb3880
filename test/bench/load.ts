/**
 * Load: autocannon in its own process against the local stack, at a fixed concurrency, for
 * availability (the 200-room hotel) and for payment order creation (a unique `reference` per
 * request). Afterwards every order the API answered 201 for is read back through the status
 * lookup: an order that cannot be read is a lost write.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { mapConcurrent } from '../../shared/store/batch';
import { categories, rooms, SOURCE, WEEK } from './lib/fixtures';
import { expectStatus } from './lib/http';
import type { BenchStack } from './lib/stack';
import { round } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

interface LoadResult {
  requests_per_second: { mean: number; stddev: number };
  latency_ms: { p50: number; p90: number; p99: number; max: number; mean: number };
  total: number;
  ok_2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  status_codes: Record<string, { count: number }>;
  duration_s: number;
  sent: number;
  orders: string[];
}

function runWorker(config: BenchConfig, options: Record<string, unknown>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = join(config.repoRoot, 'test/bench/fixtures/load-worker.mjs');
    const child = spawn(process.execPath, [worker, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load worker exited with ${code}: ${err.slice(0, 1000)}`));
      resolve(JSON.parse(out) as LoadResult);
    });
  });
}

export async function load(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { http, meter, url } = stack;
  const hotel = await stack.createTenant('Load');
  expectStatus(await http.send('PUT', '/api/v1/property-sync/room-categories', { key: hotel.syncKey, body: { external_source: SOURCE, categories: categories() } }), 200);
  expectStatus(await http.send('PUT', '/api/v1/property-sync/rooms', { key: hotel.syncKey, body: { external_source: SOURCE, rooms: rooms(200, { withCategories: true }) } }), 200);
  const availabilityPath = `/api/v1/property-sync/availability?check_in_date=${WEEK.check_in_date}&check_out_date=${WEEK.check_out_date}&guests=2`;
  const ordersPath = '/api/v1/payments/payment-orders';
  const common = { url, connections: config.loadConnections, duration: config.loadSeconds };

  config.log(`availability: ${config.loadConnections} connections for ${config.loadSeconds} s`);
  const before1 = meter.snapshot();
  const availability = await runWorker(config, { ...common, mode: 'availability', path: availabilityPath, key: hotel.syncKey });
  const availabilityUsed = meter.since(before1);

  config.log(`payment orders: ${config.loadConnections} connections for ${config.loadSeconds} s`);
  const before2 = meter.snapshot();
  const orders = await runWorker(config, { ...common, mode: 'orders', path: ordersPath, key: hotel.paymentKey, runId: `load-${randomUUID().slice(0, 8)}` });
  const ordersUsed = meter.since(before2);

  config.log(`reading back ${orders.orders.length} created orders`);
  const missing: string[] = [];
  const mismatched: string[] = [];
  await mapConcurrent(orders.orders, 8, async (reference) => {
    const r = await http.send('GET', `${ordersPath}/${reference}`, { key: hotel.paymentKey });
    if (r.status === 404) missing.push(reference);
    else if (r.status !== 200 || r.body.order_reference !== reference) mismatched.push(`${reference}: ${r.status}`);
  });
  const unique = new Set(orders.orders).size;

  const rowsFor = (name: string, r: LoadResult): Row[] => [
    { figure: `${name}: requests/s (mean)`, value: `${round(r.requests_per_second.mean, 1)} (${r.total} requests)` },
    { figure: `${name}: latency p50 / p99`, value: `${r.latency_ms.p50} ms / ${r.latency_ms.p99} ms (max ${r.latency_ms.max} ms)` },
    {
      figure: `${name}: errors (non-2xx, socket errors, timeouts)`,
      value: `${r.non2xx + r.errors + r.timeouts} (${r.non2xx}, ${r.errors}, ${r.timeouts})`,
      target: '0',
      met: r.non2xx + r.errors + r.timeouts === 0,
    },
  ];
  const rows: Row[] = [
    ...rowsFor('Availability', availability),
    {
      figure: 'Availability: DynamoDB per request',
      value: `${round(availabilityUsed.calls / Math.max(1, availability.total), 2)} calls, ${round(availabilityUsed.rcu / Math.max(1, availability.total), 2)} RCU`,
    },
    ...rowsFor('Payment order creation', orders),
    {
      figure: 'Payment order creation: DynamoDB per request',
      value: `${round(ordersUsed.calls / Math.max(1, orders.total), 2)} calls, ${round(ordersUsed.rcu / Math.max(1, orders.total), 2)} RCU, ${round(ordersUsed.wcu / Math.max(1, orders.total), 2)} WCU`,
    },
    {
      figure: 'Lost writes: created orders not readable afterwards',
      value: `${missing.length + mismatched.length} of ${orders.orders.length} (${unique} distinct references)`,
      target: '0',
      met: missing.length + mismatched.length === 0 && unique === orders.orders.length && orders.orders.length > 0,
    },
  ];
  return {
    id: 'load',
    title: 'Load',
    method:
      `autocannon (separate process) with ${config.loadConnections} connections for ${config.loadSeconds} s against GET availability ` +
      '(200 rooms) and POST payment-orders (sandbox provider, a unique reference per request, payment key); afterwards every order ' +
      'answered 201 is read back with GET payment-orders/{order_reference}.',
    rows,
    notes: [],
    data: {
      connections: config.loadConnections,
      seconds: config.loadSeconds,
      availability: { ...availability, dynamodb: availabilityUsed },
      orders: { ...orders, orders: orders.orders.length, dynamodb: ordersUsed, missing, mismatched },
    },
    seconds: (performance.now() - started) / 1000,
  };
}
