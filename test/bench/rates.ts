/**
 * Rates per date (issue #40): a year of prices and restrictions for 10 plans in one PUT rates
 * (3,650 plan-days) against the function's timeout, with its DynamoDB writes counted (target: at
 * most one item write per plan-month); the same push again (target: no write); and availability
 * for a 7-night stay over a category with 5 plans against the same hotel's rooms without plans,
 * interleaved in the same run (target: at most 1.3x).
 */
import { MAX_ROUTE_TIMEOUT_SECONDS } from '../../definitions/routes';
import { RATE_SCOPES, SYNC_SCOPES } from '../../definitions/scopes';
import { formatCommands } from './lib/capacity';
import { addDays, SOURCE } from './lib/fixtures';
import { expectStatus } from './lib/http';
import type { BenchStack } from './lib/stack';
import { median, ms, percentile, ratio, round, x } from './lib/stats';
import type { BenchConfig, Row, Section } from './lib/types';

const PLANS = 10;
const STAY_PLANS = 5;
const ROOMS = 20;
const MAX_RATIO = 1.3;
const WRITE_COMMANDS = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];

export async function rates(config: BenchConfig, stack: BenchStack): Promise<Section> {
  const started = performance.now();
  const { http, meter, log } = { ...stack, log: config.log };
  const samples = config.quick ? 10 : 30;
  const tenant = await stack.createTenant('Rates');
  const { issueApiKey } = await import('../../shared/domain/clients');
  const { key } = await issueApiKey({ clientId: tenant.clientId, kind: 'sync', scopes: [...SYNC_SCOPES, ...RATE_SCOPES] });
  const put = async (route: string, body: unknown) => expectStatus(await http.send('PUT', `/api/v1/property-sync/${route}`, { key, body }), 200);

  // Two categories of the same rooms: `plans` sold on 5 plans (of the 10 pushed), `bare` without.
  await put('room-categories', {
    external_source: SOURCE,
    categories: [
      { external_category_id: 'plans', name: 'With plans', base_price: 100 },
      { external_category_id: 'bare', name: 'Without plans', base_price: 100 },
    ],
  });
  const room = (i: number, category: string) => ({ external_room_id: `${category}-${i}`, room_number: `${category}-${i}`, room_type: category, price: 100, max_occupancy: 2, external_category_id: category });
  await put('rooms', { external_source: SOURCE, rooms: Array.from({ length: ROOMS }, (_, i) => [room(i, 'plans'), room(i, 'bare')]).flat() });
  const planIds = Array.from({ length: PLANS }, (_, i) => `P${i + 1}`);
  await put('rate-plans', {
    external_source: SOURCE,
    rate_plans: planIds.map((id, i) => ({ external_rate_plan_id: id, external_category_id: i < STAY_PLANS ? 'plans' : 'bare', name: `Plan ${id}`, active: i < STAY_PLANS })),
  });

  const from = addDays(new Date().toISOString().slice(0, 10), 1);
  const to = addDays(from, 364);
  const months = new Set(Array.from({ length: 365 }, (_, i) => addDays(from, i).slice(0, 7))).size;
  const year = {
    external_source: SOURCE,
    sequence: 1,
    updates: planIds.flatMap((id, i) => [
      { external_rate_plan_id: id, date_from: from, date_to: to, price: 100 + i, max_stay: 28 },
      { external_rate_plan_id: id, date_from: from, date_to: to, days: ['fr', 'sa'], price: 130 + i, min_stay_arrival: 2 },
      { external_rate_plan_id: id, date_from: addDays(from, 60), date_to: addDays(from, 66), stop_sell: true },
    ]),
  };

  async function pushYear(name: string) {
    const before = meter.snapshot();
    const t = performance.now();
    const response = await http.send('PUT', '/api/v1/property-sync/rates', { key, body: year });
    const elapsed = performance.now() - t;
    const used = meter.since(before);
    expectStatus(response, 200);
    const writes = WRITE_COMMANDS.reduce((n, c) => n + (used.byCommand[c] ?? 0), 0);
    log(`${name}: ${ms(elapsed)}, ${writes} writes, ${JSON.stringify(response.body)}`);
    return { ms: round(elapsed), writes, calls: used.calls, commands: used.byCommand, wcu: round(used.wcu), rcu: round(used.rcu), answer: response.body };
  }
  const first = await pushYear('a year for 10 plans');
  const again = await pushYear('the same push again');

  // A 7-night stay: the planned category's rooms against the bare one's, interleaved.
  const checkIn = addDays(from, 30);
  const path = (category: string) => `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${addDays(checkIn, 7)}&guests=2&external_category_id=${category}`;
  async function sample(category: string) {
    const before = meter.snapshot();
    const t = performance.now();
    const response = await http.send('GET', path(category), { key });
    const elapsed = performance.now() - t;
    const used = meter.since(before);
    expectStatus(response, 200);
    if (response.body.available_rooms.length !== ROOMS) throw new Error(`${category}: ${response.body.available_rooms.length} rooms, expected ${ROOMS}`);
    return { ms: elapsed, rcu: used.rcu, calls: used.calls, commands: used.byCommand };
  }
  for (let i = 0; i < 5; i++) await Promise.all([sample('plans'), sample('bare')].map((p) => p));
  const planned: Awaited<ReturnType<typeof sample>>[] = [];
  const bare: Awaited<ReturnType<typeof sample>>[] = [];
  for (let i = 0; i < samples; i++) {
    if (i % 2) {
      planned.push(await sample('plans'));
      bare.push(await sample('bare'));
    } else {
      bare.push(await sample('bare'));
      planned.push(await sample('plans'));
    }
  }
  const medianOf = (list: typeof planned) => round(median(list.map((s) => s.ms)));
  const p95Of = (list: typeof planned) => round(percentile(list.map((s) => s.ms), 95));
  const availabilityRatio = ratio(medianOf(planned), medianOf(bare));
  const planMonths = PLANS * months;

  const rows: Row[] = [
    {
      figure: `PUT rates: a year for ${PLANS} plans in one request (${PLANS * 365} plan-days, ${year.updates.length} updates)`,
      value: `${ms(first.ms)}; ${first.calls} calls: ${formatCommands(first.commands)}; ${first.wcu} WCU`,
      target: `< ${MAX_ROUTE_TIMEOUT_SECONDS} s (the function's timeout)`,
      met: first.ms < MAX_ROUTE_TIMEOUT_SECONDS * 1000,
    },
    {
      figure: 'Its item writes (plan-months touched)',
      value: `${first.writes} writes`,
      baseline: `${planMonths} plan-months`,
      target: '<= 1 write a plan-month',
      met: first.writes <= planMonths,
    },
    {
      figure: 'The same push again',
      value: `${ms(again.ms)}; ${again.writes} writes; ${formatCommands(again.commands)}; days_unchanged ${again.answer.days_unchanged}`,
      target: '0 writes',
      met: again.writes === 0,
    },
    {
      figure: `Availability, 7 nights, category with ${STAY_PLANS} plans (${ROOMS} rooms): median (p95)`,
      value: `${ms(medianOf(planned))} (p95 ${ms(p95Of(planned))}); ${formatCommands(planned[0]!.commands)}`,
      baseline: `${ms(medianOf(bare))} (p95 ${ms(p95Of(bare))}) without plans; ${formatCommands(bare[0]!.commands)}`,
      ratio: x(availabilityRatio),
      target: `<= ${MAX_RATIO}x`,
      met: availabilityRatio <= MAX_RATIO,
    },
  ];
  return {
    id: 'rates',
    title: 'Rates per date',
    method:
      `One hotel, ${ROOMS} rooms in a category sold on ${STAY_PLANS} plans and ${ROOMS} in one without plans (its ${PLANS - STAY_PLANS} plans inactive). ` +
      `PUT rates of a year (prices, a weekend minimum stay and price, a closed week) for ${PLANS} plans in one request through the local gateway, then the same request again. ` +
      `Then GET availability of a 7-night stay for each category, ${samples} requests each after 5 warm-ups, interleaved. DynamoDB calls from the SDK middleware on the functions' client.`,
    rows,
    notes: [`The year spans ${months} months: ${planMonths} plan-months.`],
    data: { plans: PLANS, months, first, again, availability: { planned: { median_ms: medianOf(planned), p95_ms: p95Of(planned) }, bare: { median_ms: medianOf(bare), p95_ms: p95Of(bare) } } },
    seconds: (performance.now() - started) / 1000,
  };
}
