/**
 * Rate plans and prices and restrictions per date through the local gateway (docs/behaviour.md
 * "Rates and restrictions per date"): scopes, the plans' sync, deltas, ranges with weekdays, last
 * wins, sequences, the whole request refused with every problem, nothing written on a refusal,
 * unchanged pushes writing nothing, racing pushes to one month, and reading back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_SCOPES, SYNC_SCOPES } from '../../definitions/scopes';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const BASE = '/api/v1/property-sync';
const SOURCE = 'pms';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: TestStack;

/** A date `days` after today (UTC: the tenants' hotels keep the default zone). */
const fromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** The first Monday at least `days` from today, on the first of a month's first week if possible. */
function mondayFrom(days: number): string {
  let date = fromToday(days);
  while (new Date(`${date}T00:00:00Z`).getUTCDay() !== 1) date = addDays(date, 1);
  return date;
}
/** The first day of a month at least `days` away. */
function monthStartFrom(days: number): string {
  const date = fromToday(days);
  return date.endsWith('-01') ? date : addDays(`${date.slice(0, 7)}-01`, 40).slice(0, 7) + '-01';
}

interface RateTenant extends Tenant {
  rateKey: string;
}

async function rateTenant(): Promise<RateTenant> {
  const tenant = await stack.createTenant();
  const { key } = await stack.issueKey(tenant.clientId, 'sync', { scopes: [...SYNC_SCOPES, ...RATE_SCOPES] });
  const categories = await stack.request('PUT', `${BASE}/room-categories`, {
    key: tenant.syncKey,
    body: {
      external_source: SOURCE,
      categories: [
        { external_category_id: 'dbl', name: 'Double', base_price: 100 },
        { external_category_id: 'sgl', name: 'Single' },
      ],
    },
  });
  expect(categories.status, categories.text).toBe(200);
  const plans = await stack.request('PUT', `${BASE}/rate-plans`, {
    key,
    body: {
      external_source: SOURCE,
      rate_plans: [
        { external_rate_plan_id: 'BAR', external_category_id: 'dbl', name: 'Best available' },
        { external_rate_plan_id: 'NR', external_category_id: 'dbl', name: 'Non-refundable' },
        { external_rate_plan_id: 'SGL', external_category_id: 'sgl', name: 'Single rate' },
      ],
    },
  });
  expect(plans.status, plans.text).toBe(200);
  return { ...tenant, rateKey: key };
}

const push = (tenant: RateTenant, body: unknown, headers?: Record<string, string>) => stack.request('PUT', `${BASE}/rates`, { key: tenant.rateKey, body, headers });

async function read(tenant: RateTenant, from: string, to: string, plan?: string) {
  const query = new URLSearchParams({ external_source: SOURCE, date_from: from, date_to: to, ...(plan ? { external_rate_plan_id: plan } : {}) });
  const response = await stack.request('GET', `${BASE}/rates?${query}`, { key: tenant.rateKey });
  expect(response.status, response.text).toBe(200);
  return response.body.rate_plans as Record<string, Record<string, Record<string, unknown>>>;
}

async function storedMonths(tenant: Tenant) {
  const { listRatePlans, getRateMonths } = await import('../../shared/store/rate-store');
  const plans = await listRatePlans(tenant.clientId);
  const months = Array.from({ length: 26 }, (_, i) => {
    const d = new Date(Date.now());
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() + i);
    return d.toISOString().slice(0, 7);
  });
  const found = await getRateMonths(tenant.clientId, plans.map((p) => p.id), months);
  return [...found.values()].map((m) => ({ plan: plans.find((p) => p.id === m.rate_plan_id)!.external_rate_plan_id, month: m.month, version: m.version, days: m.days }));
}

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

describe('scopes', () => {
  it('keeps existing keys to their scopes: a key made without --scopes cannot use the rates routes', async () => {
    const tenant = await stack.createTenant();
    for (const [method, path] of [
      ['PUT', `${BASE}/rate-plans`],
      ['PUT', `${BASE}/rates`],
      ['GET', `${BASE}/rates?external_source=pms&date_from=2030-01-01&date_to=2030-01-02`],
    ] as const) {
      const response = await stack.request(method, path, { key: tenant.syncKey, body: method === 'PUT' ? { external_source: SOURCE } : undefined });
      expect(response.status, path).toBe(403);
      expect(response.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('gives rates:read only what it says: reading, not writing', async () => {
    const tenant = await rateTenant();
    const { key } = await stack.issueKey(tenant.clientId, 'sync', { scopes: ['rates:read'] });
    const query = `external_source=${SOURCE}&date_from=${fromToday(1)}&date_to=${fromToday(2)}`;
    expect((await stack.request('GET', `${BASE}/rates?${query}`, { key })).status).toBe(200);
    const write = await stack.request('PUT', `${BASE}/rates`, { key, body: { external_source: SOURCE, updates: [] } });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toContain('rates:write');
  });
});

describe('rate plans', () => {
  it('creates, leaves identical plans unchanged and updates changed ones', async () => {
    const tenant = await rateTenant();
    const again = await stack.request('PUT', `${BASE}/rate-plans`, {
      key: tenant.rateKey,
      body: {
        external_source: SOURCE,
        rate_plans: [
          { external_rate_plan_id: 'BAR', external_category_id: 'dbl', name: 'Best available' },
          { external_rate_plan_id: 'NR', external_category_id: 'dbl', name: 'Non-refundable, breakfast' },
          { external_rate_plan_id: 'NEW', external_category_id: 'sgl', name: 'New', active: false },
        ],
      },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({
      external_source: SOURCE,
      received: 3,
      created: 1,
      updated: 1,
      unchanged: 1,
      items: [
        { external_rate_plan_id: 'BAR', id: expect.stringMatching(UUID), action: 'unchanged' },
        { external_rate_plan_id: 'NR', id: expect.stringMatching(UUID), action: 'updated' },
        { external_rate_plan_id: 'NEW', id: expect.stringMatching(UUID), action: 'created' },
      ],
    });
  });

  it('refuses a plan of a category not synced with 422 UNKNOWN_REFERENCE, and a bad item with its path; writes nothing', async () => {
    const tenant = await rateTenant();
    const unknown = await stack.request('PUT', `${BASE}/rate-plans`, {
      key: tenant.rateKey,
      body: {
        external_source: SOURCE,
        rate_plans: [
          { external_rate_plan_id: 'X1', external_category_id: 'dbl', name: 'Fine' },
          { external_rate_plan_id: 'X2', external_category_id: 'nope', name: 'Lost' },
        ],
      },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({ code: 'UNKNOWN_REFERENCE', details: [{ path: 'rate_plans[1].external_category_id' }] });
    const invalid = await stack.request('PUT', `${BASE}/rate-plans`, {
      key: tenant.rateKey,
      body: { external_source: SOURCE, rate_plans: [{ external_rate_plan_id: 'X3', external_category_id: 'dbl', name: 'Ok' }, { external_rate_plan_id: 'X4', external_category_id: 'dbl' }] },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.map((d: { path: string }) => d.path)).toEqual(['rate_plans[1].name']);
    const { listRatePlans } = await import('../../shared/store/rate-store');
    expect((await listRatePlans(tenant.clientId)).map((p) => p.external_rate_plan_id).sort()).toEqual(['BAR', 'NR', 'SGL']);
  });
});

describe('pushing prices and restrictions', () => {
  it('applies a year then the weekends in one request (last wins, days narrows), as deltas, and reads every date back', async () => {
    const tenant = await rateTenant();
    const monday = mondayFrom(10);
    const sunday = addDays(monday, 6);
    const first = await push(tenant, {
      external_source: SOURCE,
      updates: [
        { external_rate_plan_id: 'BAR', date_from: monday, date_to: addDays(monday, 13), price: 120 },
        { external_rate_plan_id: 'BAR', date_from: monday, date_to: addDays(monday, 13), days: ['fr', 'sa'], price: 150, min_stay_arrival: 2 },
        { external_rate_plan_id: 'BAR', date: addDays(monday, 2), stop_sell: true },
      ],
    });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ external_source: SOURCE, received: 3, days_changed: 14, days_unchanged: 0, days_stale: 0 });

    // A delta: only max_stay on Monday; its price stays.
    const delta = await push(tenant, { external_source: SOURCE, updates: [{ external_rate_plan_id: 'BAR', date: monday, max_stay: 7 }] });
    expect(delta.body).toMatchObject({ days_changed: 1, days_unchanged: 0 });

    const plans = await read(tenant, monday, sunday);
    expect(Object.keys(plans).sort()).toEqual(['BAR', 'NR', 'SGL']);
    const neutral = { min_stay_arrival: 1, min_stay_through: 1, max_stay: 0, closed_to_arrival: false, closed_to_departure: false, stop_sell: false };
    expect(plans.BAR).toEqual({
      [monday]: { price: 120, price_source: 'rate', ...neutral, max_stay: 7 },
      [addDays(monday, 1)]: { price: 120, price_source: 'rate', ...neutral },
      [addDays(monday, 2)]: { price: 120, price_source: 'rate', ...neutral, stop_sell: true },
      [addDays(monday, 3)]: { price: 120, price_source: 'rate', ...neutral },
      [addDays(monday, 4)]: { price: 150, price_source: 'rate', ...neutral, min_stay_arrival: 2 },
      [addDays(monday, 5)]: { price: 150, price_source: 'rate', ...neutral, min_stay_arrival: 2 },
      [sunday]: { price: 120, price_source: 'rate', ...neutral },
    });
    // NR has nothing pushed: the category's base price, neutral rules, every date.
    expect(Object.values(plans.NR!)).toEqual(Array(7).fill({ price: 100, price_source: 'base', ...neutral }));
    // One plan asked for; a category without a base price answers null.
    const single = await read(tenant, monday, monday, 'SGL');
    expect(single).toEqual({ SGL: { [monday]: { price: null, price_source: 'base', ...neutral } } });
  });

  it('writes nothing for the same push again, and counts days whose values end as stored as unchanged', async () => {
    const tenant = await rateTenant();
    const start = monthStartFrom(20);
    const body = { external_source: SOURCE, updates: [{ external_rate_plan_id: 'NR', date_from: start, date_to: addDays(start, 9), price: 90, closed_to_arrival: true }] };
    expect((await push(tenant, body)).body).toMatchObject({ days_changed: 10, days_unchanged: 0 });
    const before = await storedMonths(tenant);
    expect(before).toHaveLength(1);
    expect(before[0]!.version).toBe(1);
    const again = await push(tenant, body);
    expect(again.body).toEqual({ external_source: SOURCE, received: 1, days_changed: 0, days_unchanged: 10, days_stale: 0 });
    // Set to something, then back, in one request: the day ends as stored.
    const roundTrip = await push(tenant, {
      external_source: SOURCE,
      updates: [
        { external_rate_plan_id: 'NR', date: start, price: 200 },
        { external_rate_plan_id: 'NR', date: start, price: 90 },
      ],
    });
    expect(roundTrip.body).toMatchObject({ days_changed: 0, days_unchanged: 1 });
    expect(await storedMonths(tenant)).toEqual(before);
  });

  it('never lets a lower sequence bring an old value back, field by field', async () => {
    const tenant = await rateTenant();
    const day = fromToday(30);
    const next = addDays(day, 1);
    expect((await push(tenant, { external_source: SOURCE, sequence: 10, updates: [{ external_rate_plan_id: 'BAR', date: day, price: 130, stop_sell: true }] })).status).toBe(200);
    // A late retry of an older change: its price is stale, its min stay (never set with a sequence) lands, the next day is new.
    const late = await push(tenant, {
      external_source: SOURCE,
      sequence: 7,
      updates: [{ external_rate_plan_id: 'BAR', date_from: day, date_to: next, price: 110 }],
    });
    expect(late.body).toEqual({ external_source: SOURCE, received: 1, days_changed: 1, days_unchanged: 0, days_stale: 1 });
    const partly = await push(tenant, { external_source: SOURCE, sequence: 8, updates: [{ external_rate_plan_id: 'BAR', date: day, price: 115, min_stay_through: 3 }] });
    expect(partly.body).toMatchObject({ days_changed: 1, days_stale: 0 });
    // The same sequence again may set it; a higher one too.
    expect((await push(tenant, { external_source: SOURCE, sequence: 10, updates: [{ external_rate_plan_id: 'BAR', date: day, stop_sell: false }] })).body).toMatchObject({ days_changed: 1 });
    expect((await push(tenant, { external_source: SOURCE, sequence: 11, updates: [{ external_rate_plan_id: 'BAR', date: next, price: 140 }] })).body).toMatchObject({ days_changed: 1 });
    // Without a sequence, arrival order decides.
    expect((await push(tenant, { external_source: SOURCE, updates: [{ external_rate_plan_id: 'BAR', date: day, price: 125 }] })).body).toMatchObject({ days_changed: 1 });
    const plans = await read(tenant, day, next, 'BAR');
    expect(plans.BAR![day]).toMatchObject({ price: 125, min_stay_through: 3, stop_sell: false });
    expect(plans.BAR![next]).toMatchObject({ price: 140 });
    // ... and the sequence a value was set with still holds against a later, lower one.
    expect((await push(tenant, { external_source: SOURCE, sequence: 9, updates: [{ external_rate_plan_id: 'BAR', date: day, price: 99 }] })).body).toMatchObject({ days_stale: 1 });
  });

  it('clamps a range starting before the hotel\'s today to today', async () => {
    const tenant = await rateTenant();
    const response = await push(tenant, { external_source: SOURCE, updates: [{ external_rate_plan_id: 'SGL', date_from: fromToday(-5), date_to: fromToday(2), price: 80 }] });
    expect(response.status, response.text).toBe(200);
    // Today's date is the hotel's (UTC): 3 days, today included; a second may have turned midnight meanwhile.
    expect([3, 2]).toContain(response.body.days_changed);
  });
});

describe('refusals: the whole request, every problem, nothing written', () => {
  let tenant: RateTenant;
  beforeAll(async () => {
    tenant = await rateTenant();
  });

  it('lists every problem of every update with its path', async () => {
    const day = fromToday(5);
    const response = await push(tenant, {
      external_source: SOURCE,
      updates: [
        { external_rate_plan_id: 'BAR', date: day, price: 100 },
        { external_rate_plan_id: 'BAR', date: day, date_from: day, date_to: day, price: 100 },
        { external_rate_plan_id: 'BAR', date_from: addDays(day, 3), date_to: day, price: 100 },
        { external_rate_plan_id: 'BAR', date: day },
        { external_rate_plan_id: 'BAR', date: day, max_stay: 400 },
        { external_rate_plan_id: 'BAR', date: day, min_stay_arrival: 5, max_stay: 3 },
        { external_rate_plan_id: 'BAR', date: day, price: 0, days: ['xx'] },
        { external_rate_plan_id: 'BAR', date: '2031-02-30', closed_to_arrival: 'yes' },
        { external_rate_plan_id: 'BAR', date_from: day, min_stay_through: 0 },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    const paths = response.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'updates[1].date',
        'updates[2].date_to',
        'updates[3]',
        'updates[4].max_stay',
        'updates[5].min_stay_arrival',
        'updates[6].price',
        'updates[6].days[0]',
        'updates[7].date',
        'updates[7].closed_to_arrival',
        'updates[8].date_to',
        'updates[8].min_stay_through',
      ]),
    );
    expect(paths.some((p: string) => p.startsWith('updates[0]'))).toBe(false);
    expect(await storedMonths(tenant)).toEqual([]);
  });

  it('refuses ranges that end before today or reach past 730 days, each at its path', async () => {
    const response = await push(tenant, {
      external_source: SOURCE,
      updates: [
        { external_rate_plan_id: 'BAR', date: fromToday(3), price: 100 },
        { external_rate_plan_id: 'BAR', date: fromToday(-2), price: 100 },
        { external_rate_plan_id: 'BAR', date_from: fromToday(700), date_to: fromToday(740), price: 100 },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toEqual(['updates[1].date', 'updates[2].date_to']);
    expect(await storedMonths(tenant)).toEqual([]);
  });

  it('lists shape problems and date problems of one request together', async () => {
    const response = await push(tenant, {
      external_source: SOURCE,
      updates: [
        { external_rate_plan_id: 'BAR', date: fromToday(-3), price: 100 },
        { external_rate_plan_id: 'BAR', date: fromToday(3), max_stay: -1 },
        { external_rate_plan_id: 'GHOST', date: fromToday(800), price: 100 },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toEqual(['updates[0].date', 'updates[1].max_stay', 'updates[2].date']);
    expect(await storedMonths(tenant)).toEqual([]);
  });

  it('refuses more than 500 updates and more than 20,000 plan-days with TOO_MANY_ITEMS at updates', async () => {
    const update = { external_rate_plan_id: 'BAR', date: fromToday(3), price: 100 };
    const many = await push(tenant, { external_source: SOURCE, updates: Array(501).fill(update) });
    expect(many.status).toBe(400);
    expect(many.body.error).toMatchObject({ code: 'TOO_MANY_ITEMS', details: [{ path: 'updates' }] });
    const range = { external_rate_plan_id: 'BAR', date_from: fromToday(1), date_to: fromToday(700), price: 100 };
    const days = await push(tenant, { external_source: SOURCE, updates: Array(29).fill(range) });
    expect(days.status).toBe(400);
    expect(days.body.error).toMatchObject({ code: 'TOO_MANY_ITEMS', details: [{ path: 'updates' }] });
    expect(await storedMonths(tenant)).toEqual([]);
  });

  it('refuses a plan not synced (or of another source) with 422 UNKNOWN_REFERENCE', async () => {
    const response = await push(tenant, {
      external_source: SOURCE,
      updates: [
        { external_rate_plan_id: 'BAR', date: fromToday(3), price: 100 },
        { external_rate_plan_id: 'GHOST', date: fromToday(3), price: 100 },
      ],
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'UNKNOWN_REFERENCE', details: [{ path: 'updates[1].external_rate_plan_id' }] });
    const other = await stack.request('PUT', `${BASE}/rates`, { key: tenant.rateKey, body: { external_source: 'chan', updates: [{ external_rate_plan_id: 'BAR', date: fromToday(3), price: 1 }] } });
    expect(other.status).toBe(422);
    expect(await storedMonths(tenant)).toEqual([]);
    const unknownRead = await stack.request('GET', `${BASE}/rates?external_source=${SOURCE}&external_rate_plan_id=GHOST&date_from=${fromToday(1)}&date_to=${fromToday(2)}`, { key: tenant.rateKey });
    expect(unknownRead.status).toBe(422);
    const tooLong = await stack.request('GET', `${BASE}/rates?external_source=${SOURCE}&date_from=${fromToday(1)}&date_to=${fromToday(367)}`, { key: tenant.rateKey });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual([expect.objectContaining({ path: 'date_to' })]);
  });
});

describe('racing pushes to one month', () => {
  it('lands every update of parallel pushes, each day and each field', async () => {
    const tenant = await rateTenant();
    const start = monthStartFrom(40);
    const days = Array.from({ length: 24 }, (_, i) => addDays(start, i));
    const responses = await Promise.all([
      ...days.map((date, i) => push(tenant, { external_source: SOURCE, updates: [{ external_rate_plan_id: 'BAR', date, price: 100 + i }] })),
      // The same day, other fields, at the same time.
      push(tenant, { external_source: SOURCE, updates: [{ external_rate_plan_id: 'BAR', date: start, stop_sell: true }] }),
      push(tenant, { external_source: SOURCE, updates: [{ external_rate_plan_id: 'BAR', date: start, min_stay_arrival: 4 }] }),
    ]);
    for (const response of responses) expect(response.status, response.text).toBe(200);
    const plans = await read(tenant, start, days.at(-1)!, 'BAR');
    expect(days.map((date) => plans.BAR![date]!.price)).toEqual(days.map((_, i) => 100 + i));
    expect(plans.BAR![start]).toMatchObject({ stop_sell: true, min_stay_arrival: 4 });
    const [month] = await storedMonths(tenant);
    expect(month!.version).toBe(26);
  });
});

describe('idempotency', () => {
  it('replays a push sent again with its Idempotency-Key', async () => {
    const tenant = await rateTenant();
    const body = { external_source: SOURCE, updates: [{ external_rate_plan_id: 'BAR', date: fromToday(9), price: 101 }] };
    const first = await push(tenant, body, { 'Idempotency-Key': 'rates-1' });
    const again = await push(tenant, body, { 'Idempotency-Key': 'rates-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(first.body.days_changed).toBe(1);
  });
});
