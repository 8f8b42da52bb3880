/**
 * Availability priced on rate plans (docs/behaviour.md "Rates and restrictions per date"): each
 * room and category of a category with plans carries `rate_plans` (nights, total, bookable,
 * blocked_by), a room whose plans are all blocked is not offered, a category without plans is sold
 * exactly as before, the plan filter, and bookings the PMS syncs are never refused for restrictions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, rateSync, weekdayAhead } from '../support/rate-fixtures';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const BASE = '/api/v1/property-sync';
const SOURCE = 'pms';

let stack: TestStack;
let tenant: Tenant;
let key: string;

/** A Friday a few weeks ahead: the stays below start there. */
const FRI = weekdayAhead(5, 21);
const SAT = addDays(FRI, 1);
const SUN = addDays(FRI, 2);
const MON = addDays(FRI, 3);

let put: Awaited<ReturnType<typeof rateSync>>['put'];

async function availability(params: Record<string, string | number>) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await stack.request('GET', `${BASE}/availability?${query}`, { key });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  ({ key, put } = await rateSync(stack, tenant.clientId));
  await put('room-categories', {
    external_source: SOURCE,
    categories: [
      { external_category_id: 'dbl', name: 'Double', base_price: 100 },
      { external_category_id: 'twn', name: 'Twin' },
      { external_category_id: 'plain', name: 'Plain', base_price: 60 },
    ],
  });
  await put('rooms', {
    external_source: SOURCE,
    rooms: [
      { external_room_id: 'D1', room_number: '11', room_type: 'double', price: 95, max_occupancy: 2, external_category_id: 'dbl' },
      { external_room_id: 'T1', room_number: '21', room_type: 'twin', price: 70, max_occupancy: 2, external_category_id: 'twn' },
      { external_room_id: 'P1', room_number: '31', room_type: 'plain', price: 55, max_occupancy: 2, external_category_id: 'plain' },
    ],
  });
  await put('rate-plans', {
    external_source: SOURCE,
    rate_plans: [
      { external_rate_plan_id: 'BAR', external_category_id: 'dbl', name: 'Flexible' },
      { external_rate_plan_id: 'NR', external_category_id: 'dbl', name: 'Non-refundable' },
      { external_rate_plan_id: 'TW', external_category_id: 'twn', name: 'Twin rate' },
      { external_rate_plan_id: 'OLD', external_category_id: 'twn', name: 'Withdrawn', active: false },
    ],
  });
  await put('rates', {
    external_source: SOURCE,
    updates: [
      { external_rate_plan_id: 'BAR', date_from: FRI, date_to: MON, price: 120 },
      { external_rate_plan_id: 'BAR', date: FRI, min_stay_arrival: 2, price: 150 },
      { external_rate_plan_id: 'NR', date: SAT, price: 90 },
      { external_rate_plan_id: 'NR', date: SUN, closed_to_departure: true },
      { external_rate_plan_id: 'TW', date_from: FRI, date_to: SAT, stop_sell: true },
    ],
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe('availability on rate plans', () => {
  it('prices each plan by night (pushed, else the base price), lists why one is refused, and sells a category without plans as before', async () => {
    const body = await availability({ check_in_date: FRI, check_out_date: SAT, guests: 2 });
    expect(body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['11', '31']);
    const [double, plain] = body.available_rooms;
    expect(double).toMatchObject({ room_number: '11', price: 95 });
    expect(double.rate_plans).toEqual([
      { external_rate_plan_id: 'NR', name: 'Non-refundable', bookable: true, total: 100, nights: [{ date: FRI, price: 100 }], blocked_by: [] },
      {
        external_rate_plan_id: 'BAR',
        name: 'Flexible',
        bookable: false,
        total: 150,
        nights: [{ date: FRI, price: 150 }],
        blocked_by: [{ date: FRI, restriction: 'min_stay_arrival' }],
      },
    ]);
    // The twin's one active plan is stopped on Friday: not offered. The plain room: no plans, as before.
    expect(plain).not.toHaveProperty('rate_plans');
    expect(body.categories).toEqual([
      { external_category_id: 'dbl', name: 'Double', base_price: 100, available_count: 1, rate_plans: double.rate_plans },
      { external_category_id: 'plain', name: 'Plain', base_price: 60, available_count: 1 },
    ]);
  });

  it('sums a stay of several nights and checks the check-out day', async () => {
    const body = await availability({ check_in_date: FRI, check_out_date: SUN, guests: 1, external_category_id: 'dbl' });
    expect(body.available_rooms[0].rate_plans).toEqual([
      { external_rate_plan_id: 'NR', name: 'Non-refundable', bookable: false, total: 190, nights: [{ date: FRI, price: 100 }, { date: SAT, price: 90 }], blocked_by: [{ date: SUN, restriction: 'closed_to_departure' }] },
      { external_rate_plan_id: 'BAR', name: 'Flexible', bookable: true, total: 270, nights: [{ date: FRI, price: 150 }, { date: SAT, price: 120 }], blocked_by: [] },
    ].sort((a, b) => Number(b.bookable) - Number(a.bookable)));
    // Sunday to Monday: the twin sells again (its base price is missing: the room's price), its withdrawn plan is not shown.
    const twin = await availability({ check_in_date: SUN, check_out_date: MON, guests: 1, external_category_id: 'twn' });
    expect(twin.available_rooms[0].rate_plans).toEqual([
      { external_rate_plan_id: 'TW', name: 'Twin rate', bookable: true, total: 70, nights: [{ date: SUN, price: 70 }], blocked_by: [] },
    ]);
  });

  it('narrows to one plan with external_rate_plan_id: rooms of other categories are left out', async () => {
    const body = await availability({ check_in_date: FRI, check_out_date: SUN, guests: 1, external_rate_plan_id: 'BAR' });
    expect(body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['11']);
    expect(body.available_rooms[0].rate_plans.map((p: { external_rate_plan_id: string }) => p.external_rate_plan_id)).toEqual(['BAR']);
    const refused = await availability({ check_in_date: FRI, check_out_date: SAT, guests: 1, external_rate_plan_id: 'BAR' });
    expect(refused.available_rooms).toEqual([]);
    expect(refused.categories).toEqual([]);
  });

  it('records a booking the PMS syncs on a closed night: restrictions govern our sales only', async () => {
    const body = await put('bookings', {
      external_source: SOURCE,
      bookings: [
        { external_booking_id: 'PMS-1', external_room_id: 'T1', guest_name: 'Walk In', guests: 1, check_in_date: FRI, check_out_date: SAT, status: 'confirmed' },
      ],
    });
    expect(body).toMatchObject({ created: 1 });
    const after = await availability({ check_in_date: SUN, check_out_date: MON, guests: 1, external_category_id: 'twn' });
    expect(after.available_rooms).toHaveLength(1);
  });
});
