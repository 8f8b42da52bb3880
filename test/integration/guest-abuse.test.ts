/**
 * The booking page against abuse and against a checkout that outlives its hold (docs/behaviour.md
 * "Guest booking and the reception QR code", Abuse; "Sandbox payment provider"): at most 3 open
 * holds per source address per client (a 4th: 429 "Too many bookings in progress" with
 * Retry-After; a hold that ends gives the slot back); check-in at most `booking_horizon_days`
 * ahead; a sandbox checkout expires with its hold, cannot be paid after that, and frees the room.
 * Over HTTP through the local gateway, whose caller is 127.0.0.1 for every request here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/schemas/common';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

interface Page {
  status: number;
  headers: Headers;
  html: string;
  location?: string;
}

async function get(url: string): Promise<Page> {
  const response = await fetch(new URL(url, stack.url), { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

async function post(url: string, form: Record<string, string>, origin = stack.url): Promise<Page> {
  const response = await fetch(new URL(url, stack.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

const today = () => new Date().toISOString().slice(0, 10);
const stayIn = (from: number, nights = 2) => ({ check_in: addDays(today(), from), check_out: addDays(today(), from + nights), guests: '1' });

/** A hotel with rooms 101 to 105 (double, 120.00). */
async function hotel(): Promise<{ tenant: Tenant; rooms: Map<string, string> }> {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: ['101', '102', '103', '104', '105'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(put.status, put.text).toBe(200);
  return { tenant, rooms: new Map((put.body.items as { id: string; external_room_id: string }[]).map((i) => [i.external_room_id.slice(1), i.id])) };
}

/** The guest's "Book and pay" for a room and stay, as the details form sends it: the page's answer. */
async function bookAndPay(clientId: string, roomId: string, stay: Record<string, string>, email = 'guest@example.com'): Promise<Page> {
  const details = await get(`/book/${clientId}/details?${new URLSearchParams({ ...stay, room_id: roomId })}`);
  expect(details.status, details.html).toBe(200);
  const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(details.html)?.[1];
  expect(attempt).toBeDefined();
  return post(`/book/${clientId}/bookings`, { ...stay, room_id: roomId, attempt: attempt!, name: 'Guest', email });
}

/** The room numbers free for the stay, as availability (and so the guest page's room types) counts them. */
async function freeRooms(tenant: Tenant, stay: { check_in: string; check_out: string }): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${stay.check_in}&check_out_date=${stay.check_out}&guests=1`, { key: tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

describe('open holds per source address', () => {
  it('answers a 4th open checkout from one address with 429 "Too many bookings in progress" and Retry-After; the client\'s other guests are not affected', async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(20);
    const checkouts: string[] = [];
    for (const n of ['101', '102', '103']) {
      const page = await bookAndPay(tenant.clientId, rooms.get(n)!, stay, `guest${n}@example.com`);
      expect(page.status, page.html).toBe(303);
      checkouts.push(page.location!);
    }
    const fourth = await bookAndPay(tenant.clientId, rooms.get('104')!, stay);
    expect(fourth.status).toBe(429);
    expect(fourth.html).toContain('Too many bookings in progress');
    expect(fourth.html).toContain('You already have 3 bookings in progress at this hotel');
    // Until the first of the three holds ends: 30 minutes from now, give or take the test's own time.
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(29 * 60);
    expect(retryAfter).toBeLessThanOrEqual(30 * 60);
    // Nothing was held for the 4th: room 104 is still offered.
    expect(await freeRooms(tenant, stay)).toContain('104');
    expect(await freeRooms(tenant, stay)).not.toContain('101');

    // Another hotel's page counts on its own.
    const other = await hotel();
    expect((await bookAndPay(other.tenant.clientId, other.rooms.get('101')!, stay)).status).toBe(303);

    // A checkout the guest cancels ends its hold, and with it its place among the three.
    const cancelled = await post(checkouts[0]!, { outcome: 'cancelled' }, new URL(checkouts[0]!).origin);
    expect(cancelled.status).toBe(303);
    expect((await get(cancelled.location!)).status).toBe(303);
    const again = await bookAndPay(tenant.clientId, rooms.get('104')!, stay);
    expect(again.status, again.html).toBe(303);
    expect((await bookAndPay(tenant.clientId, rooms.get('105')!, stay)).status).toBe(429);
  });

  it('lets a repeated submit of one form through: it is the same hold, not a 4th', async () => {
    const { tenant, rooms } = await hotel();
    const stay = stayIn(40);
    for (const n of ['101', '102']) expect((await bookAndPay(tenant.clientId, rooms.get(n)!, stay, `g${n}@example.com`)).status).toBe(303);
    const details = await get(`/book/${tenant.clientId}/details?${new URLSearchParams({ ...stay, offer: 'double' })}`);
    const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(details.html)![1]!;
    const form = { ...stay, room_type: 'double', attempt, name: 'Guest', email: 'guest@example.com' };
    const first = await post(`/book/${tenant.clientId}/bookings`, form);
    const repeat = await post(`/book/${tenant.clientId}/bookings`, form);
    expect([first.status, repeat.status]).toEqual([303, 303]);
    expect(repeat.location).toBe(first.location);
  });
});

describe('the booking horizon', () => {
  it('refuses a check-in more than booking_horizon_days ahead on the form (400, message next to the field), as the client sets it', async () => {
    const { tenant, rooms } = await hotel();
    const far = stayIn(400);
    const search = await get(`/book/${tenant.clientId}?${new URLSearchParams(far)}`);
    expect(search.status).toBe(400);
    // The last day as the guest reads it, not ISO.
    const last = addDays(today(), 365);
    expect(search.html).toContain(`can be at most 365 days from today (${new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${last}T00:00:00Z`))} at the latest)`);
    expect(search.html).toMatch(/<input[^>]*id="f-check_in"[^>]*aria-invalid="true"/);
    const booked = await bookAndPay(tenant.clientId, rooms.get('101')!, far).catch(() => undefined);
    // The details page itself refuses the stay, so no form with an attempt is ever rendered for it.
    expect(booked).toBeUndefined();
    const direct = await post(`/book/${tenant.clientId}/bookings`, { ...far, room_id: rooms.get('101')!, name: 'Guest', email: 'guest@example.com' });
    expect(direct.status).toBe(400);

    expect((await get(`/book/${tenant.clientId}?${new URLSearchParams(stayIn(365))}`)).status).toBe(200);

    const { setClientSettings } = await import('../../shared/domain/clients');
    expect(await setClientSettings(tenant.clientId, { booking_horizon_days: 500 })).toMatchObject({ booking_horizon_days: 500, below_rate_orders: 'lock', time_zone: 'UTC' });
    expect((await get(`/book/${tenant.clientId}?${new URLSearchParams(far)}`)).status).toBe(200);
    await setClientSettings(tenant.clientId, { booking_horizon_days: 30 });
    expect((await get(`/book/${tenant.clientId}?${new URLSearchParams(stayIn(31))}`)).status).toBe(400);
    await expect(setClientSettings(tenant.clientId, { booking_horizon_days: 0 })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

describe('a checkout that outlives its hold', () => {
  it('cannot be paid after its hold ended: the sandbox refuses, the order ends expired and the room is offered again', async () => {
    const { tenant, rooms } = await hotel();
    const stay = { check_in: addDays(today(), 60), check_out: addDays(today(), 62), guests: 1 };
    const guest = await import('../../shared/domain/guest-booking/guest-bookings');
    // Opened 31 minutes ago: its hold and its checkout ended a minute ago.
    const opened = new Date(Date.now() - 31 * 60_000);
    const { checkout_url } = await guest.startCheckout(tenant.clientId, { room_id: rooms.get('101')!, stay, guest: { name: 'Late', email: 'late@example.com' } }, stack.url, opened);

    const page = await get(checkout_url);
    expect(page.status).toBe(200);
    expect(page.html).toContain('This checkout is expired.');
    expect(page.html).not.toContain('name="outcome"');

    const paid = await post(checkout_url, { outcome: 'paid' }, new URL(checkout_url).origin);
    expect(paid.status).toBe(303);
    const verify = await get(paid.location!);
    expect(verify.status).toBe(303);
    expect(new URL(verify.location!).searchParams.get('payment')).toBe('failed');
    const reference = new URL(verify.location!).searchParams.get('payment_order')!;
    const status = await stack.request('GET', `/api/v1/payments/payment-orders/${reference}`, { key: tenant.paymentKey });
    expect(status.body).toMatchObject({ status: 'expired', paid_at: null, service_booking_sync: { status: 'not_applicable' } });
    expect(await freeRooms(tenant, stay)).toContain('101');
  });

  it('is created to expire when its hold ends', async () => {
    const { tenant, rooms } = await hotel();
    const stay = { check_in: addDays(today(), 70), check_out: addDays(today(), 71), guests: 1 };
    const guest = await import('../../shared/domain/guest-booking/guest-bookings');
    const { getSandboxSession } = await import('../../shared/payments/sandbox');
    const { getRoomHolds } = await import('../../shared/store/service-booking-store');
    const now = new Date();
    const { checkout_url } = await guest.startCheckout(tenant.clientId, { room_id: rooms.get('102')!, stay, guest: { name: 'On time', email: 'ontime@example.com' } }, stack.url, now);
    const session = await getSandboxSession(new URL(checkout_url).pathname.split('/').pop()!);
    const { holds } = await getRoomHolds(tenant.clientId, rooms.get('102')!);
    expect(holds).toHaveLength(1);
    expect(session!.expires_at).toBe(new Date(now.getTime() + 30 * 60_000).toISOString());
    expect(holds[0]!.expires_at).toBe(session!.expires_at);
    // The checkout names the hotel and the stay, never the order's internal reference.
    const page = await get(checkout_url);
    // The stay's dates as the guest's language (English) writes them.
    const written = (d: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${d}T00:00:00Z`));
    expect(page.html).toContain(`room 102, 1 night, ${written(stay.check_in)} to ${written(stay.check_out)}`);
    expect(page.html).toMatch(/Test hotel/);
    expect(page.html).not.toContain('guest:');
  });
});
