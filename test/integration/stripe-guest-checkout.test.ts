/**
 * The guest booking page on Stripe (docs/behaviour.md "Guest booking and the reception QR code"): the
 * Checkout Session is created to expire when the room hold ends (Stripe refuses a session shorter
 * than 30 minutes, as the stand-in does); Stripe's `checkout.session.expired` frees the room at
 * once; and a Stripe that hangs never outlives the function: the page answers 503 with
 * Retry-After within the client's budget, and the hold is released. The real SDK against a
 * loopback stand-in of Stripe's API (test/support/stripe-standin.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/schemas/common';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-standin';

const WEBHOOK_SECRET = 'whsec_standin_guest_0123456789abcdef0123456789';
const ACCOUNT = 'acct_1GuestHotelStandIn';

let stack: TestStack;
let stripe: StripeStandIn;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  process.env.STRIPE_API_BASE = stripe.url;
  process.env.STRIPE_SECRET_KEY = stripe.secretKey;
  process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
  await stripe?.close();
});

const today = () => new Date().toISOString().slice(0, 10);

/** A USD hotel on Stripe (its connected account) with rooms 101 and 102. */
async function stripeHotel(): Promise<{ tenant: Tenant; rooms: Map<string, string> }> {
  const tenant = await stack.createTenant();
  const { putProviderSettings } = await import('../../shared/store/payment-store');
  await putProviderSettings(tenant.clientId, { provider: 'stripe', account: ACCOUNT });
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ['101', '102'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 99, max_occupancy: 2 })) },
  });
  expect(put.status, put.text).toBe(200);
  return { tenant, rooms: new Map((put.body.items as { id: string; external_room_id: string }[]).map((i) => [i.external_room_id.slice(1), i.id])) };
}

async function bookAndPay(clientId: string, roomId: string, stay: Record<string, string>, language: Record<string, string> = {}) {
  const details = await fetch(`${stack.url}/book/${clientId}/details?${new URLSearchParams({ ...stay, room_id: roomId })}`, { headers: language });
  const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(await details.text())?.[1];
  expect(attempt).toBeDefined();
  const started = Date.now();
  const response = await fetch(`${stack.url}/book/${clientId}/bookings`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded', ...language },
    body: new URLSearchParams({ ...stay, room_id: roomId, attempt: attempt!, name: 'Guest', email: 'guest@example.com' }).toString(),
  });
  return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get('location'), ms: Date.now() - started };
}

/** Whether room 101 is among the rooms the guest page offers for the stay (its room types count them). */
const offered = async (clientId: string, stay: Record<string, string>) => {
  const { searchRooms } = await import('../../shared/domain/guest-booking/guest-bookings');
  const found = await searchRooms(clientId, { check_in: stay.check_in!, check_out: stay.check_out!, guests: Number(stay.guests) }, new Date());
  return found.categories.some((c) => c.rooms.some((r) => r.room_number === '101'));
};

describe('a guest checkout on Stripe', () => {
  it("speaks the guest's language: the session's locale and its line (docs/behaviour.md \"The guest's language\")", async () => {
    const { tenant, rooms } = await stripeHotel();
    const stay = { check_in: addDays(today(), 40), check_out: addDays(today(), 41), guests: '1' };
    const page = await bookAndPay(tenant.clientId, rooms.get('102')!, stay, { 'accept-language': 'ja-JP,ja;q=0.9' });
    expect(page.status, page.html).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => page.location!.endsWith(s.id))!;
    expect(session.locale).toBe('ja');
    const ja = (d: string) => new Intl.DateTimeFormat('ja-JP', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${d}T12:00:00Z`));
    // The form names room 102; the guest books its type, and the service picks the first free room of it.
    expect(session.line_items[0].price_data.product_data.name).toMatch(new RegExp(`：10[12]号室、1泊、${ja(stay.check_in).replace(/[()]/g, '\\$&')}〜`));
  });

  it('is a Checkout Session expiring when the room hold ends; checkout.session.expired frees the room at once', async () => {
    const { tenant, rooms } = await stripeHotel();
    const stay = { check_in: addDays(today(), 30), check_out: addDays(today(), 32), guests: '1' };
    const before = Math.floor(Date.now() / 1000);
    const page = await bookAndPay(tenant.clientId, rooms.get('101')!, stay);
    expect(page.status, page.html).toBe(303);
    expect(page.location).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const session = [...stripe.sessions.values()].find((s) => page.location!.endsWith(s.id))!;
    const { getRoomHolds } = await import('../../shared/store/service-booking-store');
    const { holds } = await getRoomHolds(tenant.clientId, rooms.get('101')!);
    const holdEnd = Math.floor(Date.parse(holds[0]!.expires_at!) / 1000);
    // The hold lasts exactly as long as the session (Stripe's shortest: 30 minutes and 10 s from
    // its call), so no payment can come after the hold ends; nor much longer than that.
    expect(Date.parse(holds[0]!.expires_at!)).toBe(session.expires_at * 1000);
    expect(session.expires_at - before).toBeGreaterThanOrEqual(30 * 60 + 10);
    expect(session.expires_at - before).toBeLessThanOrEqual(30 * 60 + 40);
    expect(await offered(tenant.clientId, stay)).toBe(false);
    // What the guest reads on Stripe's page: the hotel and the stay.
    // What the guest reads on Stripe's page: the hotel and the stay, dates as the guest's language writes them; Stripe's page in that language.
    const written = (date: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
    expect(session.line_items[0].price_data.product_data.name).toMatch(new RegExp(`^Test hotel \\w+: room 101, 2 nights, ${written(stay.check_in)} to ${written(stay.check_out)}$`));
    expect(session.locale).toBe('en');

    const expired = stripe.expire(session.id);
    const { payload, signature } = stripe.signedEvent('checkout.session.expired', expired, WEBHOOK_SECRET);
    const reply = await fetch(`${stack.url}/api/v1/payments/provider-webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    expect(reply.status).toBe(200);
    expect(await offered(tenant.clientId, stay)).toBe(true);
    expect((await getRoomHolds(tenant.clientId, rooms.get('101')!)).holds).toEqual([]);
  });

  it('answers 503 with Retry-After when Stripe hangs, within the client\'s budget, and holds nothing', async () => {
    const { tenant, rooms } = await stripeHotel();
    const stay = { check_in: addDays(today(), 40), check_out: addDays(today(), 41), guests: '1' };
    const calls = stripe.requests.length;
    stripe.hangNext(2);
    const page = await bookAndPay(tenant.clientId, rooms.get('101')!, stay);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('1');
    expect(page.html).toContain('did not answer in time');
    // Two tries of 3 s and the SDK's wait between them, well inside the function's 10 s.
    expect(page.ms).toBeGreaterThan(6_000);
    expect(page.ms).toBeLessThan(9_500);
    expect(stripe.requests.length - calls).toBe(2);
    expect(await offered(tenant.clientId, stay)).toBe(true);
    // Stripe back: the same guest books the room.
    expect((await bookAndPay(tenant.clientId, rooms.get('101')!, stay)).status).toBe(303);
  }, 30_000);
});
