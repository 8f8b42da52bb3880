/**
 * Rate plans on the pages people use (docs/behaviour.md "Rates and restrictions per date"), over
 * plain HTTP: the guest page shows each room's bookable plans with each night's price and the
 * total (cheapest first), says in words why a room type cannot take the stay, and charges the
 * chosen plan's total, the plan named on the order (the rate check's); the reception desk offers a
 * choice per plan and fills the total from it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOperator, textOf } from '../support/dashboard-client';
import { postForm } from '../support/form-post';
import { paidRoomBooking } from '../support/paid-orders';
import { addDays, rateSync, weekdayAhead } from '../support/rate-fixtures';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let clientId: string;
let roomId: string;

const FRI = weekdayAhead(5, 14);
const SAT = addDays(FRI, 1);
const SUN = addDays(FRI, 2);
const long = (date: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`)).replace(',', '');
const short = (date: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`)).replace(',', '');

async function get(path: string) {
  const response = await fetch(`${stack.url}${path}`, { redirect: 'manual' });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: `Rates hotel ${randomUUID().slice(0, 6)}`, plan: 'premium', currency: 'USD' });
  clientId = client.client_id;
  const { put } = await rateSync(stack, clientId);
  await put('room-categories', {
    external_source: 'pms',
    categories: [
      { external_category_id: 'dbl', name: 'Double', base_price: 100 },
      { external_category_id: 'sgl', name: 'Single', base_price: 60 },
    ],
  });
  const rooms = await put('rooms', {
    external_source: 'pms',
    rooms: [
      { external_room_id: 'D', room_number: '11', room_type: 'double', price: 95, max_occupancy: 2, external_category_id: 'dbl' },
      { external_room_id: 'S', room_number: '21', room_type: 'single', price: 55, max_occupancy: 2, external_category_id: 'sgl' },
    ],
  });
  roomId = rooms.items[0].id;
  await put('rate-plans', {
    external_source: 'pms',
    rate_plans: [
      { external_rate_plan_id: 'BAR', external_category_id: 'dbl', name: 'Flexible' },
      { external_rate_plan_id: 'NR', external_category_id: 'dbl', name: 'Non-refundable' },
      { external_rate_plan_id: 'SG', external_category_id: 'sgl', name: 'Single rate' },
    ],
  });
  await put('rates', {
    external_source: 'pms',
    updates: [
      { external_rate_plan_id: 'BAR', date_from: FRI, date_to: SUN, price: 150 },
      { external_rate_plan_id: 'NR', date_from: FRI, date_to: SUN, price: 110 },
      { external_rate_plan_id: 'NR', date: SAT, price: 130 },
      { external_rate_plan_id: 'SG', date: FRI, min_stay_arrival: 3 },
      // The reception desk's weekend (a week later): NR at 90.00, BAR at the base price.
      { external_rate_plan_id: 'NR', date_from: addDays(FRI, 7), date_to: addDays(FRI, 9), price: 90 },
    ],
  });
});

afterAll(async () => {
  await stack?.stop();
});

describe('the guest page', () => {
  const stay = { check_in: FRI, check_out: SUN, guests: '2' };

  it('shows each bookable plan with its nights and total, cheapest first, and why a room type cannot take the stay', async () => {
    const page = await get(`/book/${clientId}?${new URLSearchParams(stay)}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain(`Non-refundable ${short(FRI)}: 110.00 USD, ${short(SAT)}: 130.00 USD 240.00 USD in total`);
    expect(text).toContain(`Flexible ${short(FRI)}: 150.00 USD, ${short(SAT)}: 150.00 USD 300.00 USD in total`);
    expect(text.indexOf('Non-refundable')).toBeLessThan(text.indexOf('Flexible'));
    expect(text).toContain(`Single: Stays arriving on ${long(FRI)} are at least 3 nights.`);
    expect(page.html).toContain('name="offer" value="Double~NR"');
  });

  it('carries the chosen plan to the details page and charges its total, fixed on the order with the plan named', async () => {
    const details = await get(`/book/${clientId}/details?${new URLSearchParams({ ...stay, offer: 'Double~BAR' })}`);
    expect(details.status).toBe(200);
    const text = textOf(details.html);
    expect(text).toContain('Rate Flexible');
    expect(text).toContain('Book and pay 300.00 USD');
    expect(details.html).toContain('<input type="hidden" name="rate_plan" value="BAR"/>');
    const attempt = /name="attempt" value="([^"]*)"/.exec(details.html)![1]!;
    const posted = await postForm(
      `${stack.url}/book/${clientId}/bookings`,
      { ...stay, room_type: 'Double', rate_plan: 'BAR', attempt, name: 'Rate Guest', email: 'rate@example.com', pay: 'checkout' },
      { origin: stack.url, from: '127.0.0.41' },
    );
    expect(posted.status, textOf(posted.html).slice(0, 300)).toBe(303);
    const { clientOrdersPage } = await import('../../shared/store/payment-store');
    const { orders } = await clientOrdersPage(clientId, { limit: 5 });
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ amount_minor: 30_000, currency: 'USD', context: { external_rate_plan_id: 'BAR', service_room_id: roomId } });

    // Declined on the checkout: "Try again" keeps the plan (and its total), not the cheapest one.
    const left = await fetch(posted.location!, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=failed' });
    const verify = await fetch(new URL(left.headers.get('location')!, stack.url), { redirect: 'manual' });
    const landed = new URL(verify.headers.get('location')!);
    const declined = await get(`${landed.pathname}${landed.search}`);
    expect(textOf(declined.html)).toContain('Try again 300.00 USD for 2 nights');
    expect(declined.html).toContain('<input type="hidden" name="rate_plan" value="BAR"/>');
  });

  it('refuses a plan that does not take the stay: the rooms again, with a notice', async () => {
    const oneNight = { check_in: FRI, check_out: SAT, guests: '1' };
    const page = await get(`/book/${clientId}/details?${new URLSearchParams({ ...oneNight, offer: 'Double~GHOST' })}`);
    expect(page.status).toBe(409);
  });
});

describe('the reception desk', () => {
  it('offers the room once per plan that takes the stay and fills the total from the plan chosen', async () => {
    const staff = await signedInOperator(stack, clientId, 'staff');
    const stay = { check_in_date: addDays(FRI, 7), check_out_date: addDays(FRI, 9), guests: '2' };
    const rooms = await staff.get(`/dashboard/bookings/new?${new URLSearchParams(stay)}`);
    expect(rooms.status).toBe(200);
    expect(rooms.text).toContain(`value="${roomId}~BAR"`);
    expect(rooms.text).toContain(`value="${roomId}~NR"`);
    const chosen = await staff.get(`/dashboard/bookings/new?${new URLSearchParams({ ...stay, step: 'details', room_id: `${roomId}~NR` })}`);
    expect(chosen.status).toBe(200);
    expect(textOf(chosen.text)).toContain('Rate Non-refundable');
    expect(chosen.text).toMatch(/name="total_amount"[^>]*value="180.00"/);

    // BAR has nothing pushed that weekend: the category's base price, 200.00 for two nights.
    const created = await staff.request('POST', '/dashboard/bookings', { ...stay, room_id: `${roomId}~BAR`, guest_name: 'Desk Guest', guest_email: 'desk@example.com', guest_phone: '', total_amount: '' });
    expect(created.status, textOf(created.text).slice(0, 300)).toBe(303);
    const id = created.location!.match(/([0-9a-f-]{36})$/)![1]!;
    const { getBooking } = await import('../../shared/store/booking-store');
    expect(await getBooking(clientId, id)).toMatchObject({ total_amount: 200, room_id: roomId });
  });
});

describe('assigning a room to a booking already sold', () => {
  it('offers a free room whatever its plans say: rules of stay govern sales, not a paid booking', async () => {
    const staff = await signedInOperator(stack, clientId, 'staff');
    const { key: paymentKey } = await stack.issueKey(clientId, 'payment');
    // One night from Friday: the single's plan wants 3 nights arriving then, so it is not sold...
    const oneNight = { check_in_date: FRI, check_out_date: SAT };
    const offered = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${FRI}&check_out_date=${SAT}&guests=1&external_category_id=sgl`, {
      key: (await rateSync(stack, clientId)).key,
    });
    expect(offered.body.available_rooms).toEqual([]);
    // ...but a paid booking awaiting a room may be given it.
    const { sync } = await paidRoomBooking(stack, { clientId, syncKey: '', syncKeyId: '', paymentKey, paymentKeyId: '' }, oneNight, { amountMinor: 6_000, currency: 'USD' });
    expect(sync.room_assignment).toBe('manual');
    const form = await staff.get(`/dashboard/bookings/${sync.booking_id}/assign`);
    expect(form.status).toBe(200);
    expect(textOf(form.text)).toContain('21');
    const single = (await import('../../shared/store/room-store')).listRooms;
    const rooms = await single(clientId);
    expect(form.text).toContain(`value="${rooms.find((r) => r.room_number === '21')!.id}"`);
  });
});
