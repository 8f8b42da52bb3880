/**
 * Paid means the right amount (docs/behaviour.md "Payment orders", rate check): a mirrored booking
 * records its room's rate total (price x nights, the client's currency); paid below it, or in
 * another currency, it says `below_rate: true` (status lookup, `bookings list`), and the client's
 * `below_rate_orders` setting decides whether it locks the room (`lock`, the default) or is left
 * for manual assignment (`manual`, `room_assignment_reason: "below_rate"`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_SCOPES, SYNC_SCOPES } from '../../definitions/scopes';
import { addDays } from '../../shared/schemas/common';
import { runOps } from '../support/ops-cli';
import { paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let dir: string;
let stackFile: string;

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'rate-check-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
});

afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const today = () => new Date().toISOString().slice(0, 10);
let offset = 10;
/** A two-night stay no other test of the file uses. */
const nextStay = () => {
  offset += 3;
  return { check_in_date: addDays(today(), offset), check_out_date: addDays(today(), offset + 2) };
};

/** A USD hotel with rooms 101 and 102 at 120.00 a night: 240.00 for two nights. */
async function hotel(): Promise<{ tenant: Tenant; rooms: Map<string, string> }> {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: ['101', '102'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(put.status, put.text).toBe(200);
  return { tenant, rooms: new Map((put.body.items as { id: string; external_room_id: string }[]).map((i) => [i.external_room_id.slice(1), i.id])) };
}

async function available(tenant: Tenant, stay: { check_in_date: string; check_out_date: string }): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${stay.check_in_date}&check_out_date=${stay.check_out_date}&guests=1`, {
    key: tenant.syncKey,
  });
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

describe('the rate check', () => {
  it('a 1.00 order for a 240.00 stay says below_rate: true, and by default still locks the room', async () => {
    const { tenant, rooms } = await hotel();
    const stay = nextStay();
    const { sync } = await paidRoomBooking(stack, tenant, { ...stay, serviceRoomId: rooms.get('101') }, { amountMinor: 100 });
    expect(sync).toMatchObject({ status: 'synced', room_assignment: 'locked', room_id: rooms.get('101'), below_rate: true, room_assignment_reason: null });
    expect(await available(tenant, stay)).toEqual(['102']);
    const { getBooking } = await import('../../shared/store/booking-store');
    expect(await getBooking(tenant.clientId, sync.booking_id)).toMatchObject({ rate_total: 240, below_rate: true, total_amount: 1 });
  });

  it('the full rate is not below it; nor is more; another currency than the hotel\'s is, whatever the amount', async () => {
    const { tenant, rooms } = await hotel();
    const full = await paidRoomBooking(stack, tenant, { ...nextStay(), serviceRoomId: rooms.get('101') }, { amountMinor: 24_000 });
    expect(full.sync).toMatchObject({ below_rate: false, room_assignment: 'locked' });
    const more = await paidRoomBooking(stack, tenant, { ...nextStay(), serviceRoomId: rooms.get('101') }, { amountMinor: 30_000 });
    expect(more.sync).toMatchObject({ below_rate: false });
    const cents = await paidRoomBooking(stack, tenant, { ...nextStay(), serviceRoomId: rooms.get('101') }, { amountMinor: 23_999 });
    expect(cents.sync).toMatchObject({ below_rate: true });
    const euros = await paidRoomBooking(stack, tenant, { ...nextStay(), serviceRoomId: rooms.get('101') }, { amountMinor: 1_000_000, currency: 'EUR' });
    expect(euros.sync).toMatchObject({ below_rate: true, room_assignment: 'locked' });
    // An order that names no room has no rate to fall below.
    const noRoom = await paidRoomBooking(stack, tenant, nextStay(), { amountMinor: 100 });
    expect(noRoom.sync).toMatchObject({ below_rate: false, room_assignment: 'manual', room_assignment_reason: null });
  });

  it('with below_rate_orders = manual, such a booking is recorded for manual assignment (reason below_rate) and leaves the room free; bookings list says so', async () => {
    const { tenant, rooms } = await hotel();
    const set = await runOps(stackFile, ['clients', 'settings', '--client', tenant.clientId, '--below-rate-orders', 'manual', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ client_id: tenant.clientId, booking_horizon_days: 365, below_rate_orders: 'manual', time_zone: 'UTC' });
    const stay = nextStay();
    const { sync } = await paidRoomBooking(stack, tenant, { ...stay, serviceRoomId: rooms.get('101') }, { amountMinor: 100 });
    expect(sync).toMatchObject({ status: 'synced', room_assignment: 'manual', room_id: null, below_rate: true, room_assignment_reason: 'below_rate' });
    expect(await available(tenant, stay)).toEqual(['101', '102']);
    // Paid in full, the same client's booking locks its room as always.
    const full = await paidRoomBooking(stack, tenant, { ...stay, serviceRoomId: rooms.get('102') }, { amountMinor: 24_000 });
    expect(full.sync).toMatchObject({ room_assignment: 'locked', below_rate: false });

    const list = await runOps(stackFile, ['bookings', 'list', '--client', tenant.clientId, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const listed = JSON.parse(list.stdout).bookings as { booking_id: string; below_rate: boolean; awaiting_room: boolean }[];
    expect(listed.find((b) => b.booking_id === sync.booking_id)).toMatchObject({ below_rate: true, awaiting_room: true });
    expect(listed.find((b) => b.booking_id === full.sync.booking_id)).toMatchObject({ below_rate: false });
    const text = await runOps(stackFile, ['bookings', 'list', '--client', tenant.clientId]);
    expect(text.stdout).toMatch(/AWAITING ROOM.*PAID BELOW RATE/);

    const shown = await runOps(stackFile, ['clients', 'settings', '--client', tenant.clientId, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ below_rate_orders: 'manual' });
    const bad = await runOps(stackFile, ['clients', 'settings', '--client', tenant.clientId, '--below-rate-orders', 'sometimes']);
    expect(bad.code).not.toBe(0);
  });
});

describe('the rate check on rate plans (docs/behaviour.md "Rates and restrictions per date")', () => {
  /** A double at 120.00 in a category with plans BAR (150.00 a night) and NR (110.00 a night). */
  async function plannedHotel(stay: { check_in_date: string; check_out_date: string }) {
    const tenant = await stack.createTenant();
    const { key } = await stack.issueKey(tenant.clientId, 'sync', { scopes: [...SYNC_SCOPES, ...RATE_SCOPES] });
    const put = async (route: string, body: unknown) => {
      const response = await stack.request('PUT', `/api/v1/property-sync/${route}`, { key, body });
      expect(response.status, response.text).toBe(200);
      return response.body;
    };
    await put('room-categories', { external_source: 'pms', categories: [{ external_category_id: 'dbl', name: 'Double', base_price: 100 }] });
    const rooms = await put('rooms', { external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '1', room_type: 'double', price: 120, max_occupancy: 2, external_category_id: 'dbl' }] });
    await put('rate-plans', {
      external_source: 'pms',
      rate_plans: [
        { external_rate_plan_id: 'BAR', external_category_id: 'dbl', name: 'Flexible' },
        { external_rate_plan_id: 'NR', external_category_id: 'dbl', name: 'Non-refundable' },
      ],
    });
    // The file's later stays too (nextStay moves 3 days on each time).
    const range = { date_from: stay.check_in_date, date_to: addDays(stay.check_out_date, 30) };
    await put('rates', {
      external_source: 'pms',
      updates: [
        { external_rate_plan_id: 'BAR', ...range, price: 150 },
        { external_rate_plan_id: 'NR', ...range, price: 110 },
      ],
    });
    return { tenant, roomId: rooms.items[0].id as string, put };
  }

  it('compares with the plan the order names, else with the cheapest bookable plan', async () => {
    const stay = nextStay();
    const { tenant, roomId } = await plannedHotel(stay);
    const cheapest = await paidRoomBooking(stack, tenant, { ...stay, serviceRoomId: roomId }, { amountMinor: 22_000 });
    expect(cheapest.sync).toMatchObject({ below_rate: false });
    const { getBooking } = await import('../../shared/store/booking-store');
    expect(await getBooking(tenant.clientId, cheapest.sync.booking_id)).toMatchObject({ rate_total: 220, below_rate: false });
    const named = await paidRoomBooking(stack, tenant, { ...nextStay(), serviceRoomId: roomId, externalRatePlanId: 'BAR' }, { amountMinor: 22_000 });
    expect(named.sync).toMatchObject({ below_rate: true });
    expect(await getBooking(tenant.clientId, named.sync.booking_id)).toMatchObject({ rate_total: 300 });
  });

  it('names the plan\'s total for a stay it prices, and skips a plan that cannot take the stay when none is named', async () => {
    const stay = nextStay();
    const { tenant, roomId, put } = await plannedHotel(stay);
    const full = await paidRoomBooking(stack, tenant, { ...stay, serviceRoomId: roomId, externalRatePlanId: 'BAR' }, { amountMinor: 30_000 });
    expect(full.sync).toMatchObject({ below_rate: false });
    const { getBooking } = await import('../../shared/store/booking-store');
    expect(await getBooking(tenant.clientId, full.sync.booking_id)).toMatchObject({ rate_total: 300 });
    // NR stopped on the stay's first night: the cheapest bookable plan is BAR.
    const later = nextStay();
    await put('rates', { external_source: 'pms', updates: [{ external_rate_plan_id: 'NR', date: later.check_in_date, stop_sell: true }, { external_rate_plan_id: 'BAR', date_from: later.check_in_date, date_to: later.check_out_date, price: 150 }] });
    const refused = await paidRoomBooking(stack, tenant, { ...later, serviceRoomId: roomId }, { amountMinor: 22_000 });
    expect(refused.sync).toMatchObject({ below_rate: true });
  });
});
