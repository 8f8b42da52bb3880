/**
 * The booking page as a storefront (docs/behaviour.md "The guest's booking page as a storefront"),
 * on the local stack: many guests booking the last rooms of a type at once (each room held once,
 * the rest told it is gone), the hotel's slug (CLI, page, duplicates and bad ones refused, the old
 * one freed), taxes shown, charged and left out of the revenue, the hotel's contact and Reply-To on
 * the e-mail with the policy and the deadline, https pictures only, the landing page and robots.txt.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalFunction, withinInvocation } from '../../infra/local/lambda-runtime';
import { addDays } from '../../shared/schemas/common';
import { signedInOperator, textOf } from '../support/dashboard-client';
import { emailTo } from '../support/inbox';
import { runOps } from '../support/ops-cli';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let dir: string;
let stackFile: string;
let pages: LocalFunction;
let guest: typeof import('../../shared/domain/guest-booking/guest-bookings');

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'storefront-test-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
  guest = await import('../../shared/domain/guest-booking/guest-bookings');
  const { guestBookingTableAccess } = await import('../../definitions/guest-booking-access');
  pages = { name: 'GuestBookingTest', handler: 'guest-booking', tableAccess: guestBookingTableAccess };
});

afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const asPages = <T>(work: () => Promise<T>): Promise<T> => withinInvocation(pages, work);
const today = () => new Date().toISOString().slice(0, 10);
const stayIn = (from: number, nights: number, guests = 1) => ({ check_in: addDays(today(), from), check_out: addDays(today(), from + nights), guests });
const unique = (who: string) => `${who}-${Math.random().toString(36).slice(2, 10)}@example.com`;
const settings = async (clientId: string, change: Record<string, unknown>) => (await import('../../shared/domain/clients')).setClientSettings(clientId, change);

/** A hotel with four Garden rooms (120 a night, category GDN, a picture) and one Suite (300). */
async function hotel(): Promise<Tenant> {
  const tenant = await stack.createTenant();
  const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      categories: [
        { external_category_id: 'GDN', name: 'Garden Queen', description: 'Quiet, on the garden', amenities: ['wifi', 'balcony'], image_url: 'https://images.example.com/garden.jpg' },
        { external_category_id: 'STE', name: 'Ocean Suite' },
      ],
    },
  });
  expect(categories.status, categories.text).toBe(200);
  const room = (n: string, category: string, price: number) => ({ external_room_id: `R${n}`, room_number: n, room_type: category === 'GDN' ? 'queen' : 'suite', price, max_occupancy: 2, external_category_id: category });
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: [room('101', 'GDN', 120), room('102', 'GDN', 120), room('103', 'GDN', 120), room('104', 'GDN', 120), room('201', 'STE', 300)] },
  });
  expect(rooms.status, rooms.text).toBe(200);
  return tenant;
}

const ops = (args: string[]) => runOps(stackFile, [...args, '--json']);

describe('room types', () => {
  it('lists each type once with "N left", and many guests booking the last rooms of a type at once hold each room once', async () => {
    const tenant = await hotel();
    const stay = stayIn(40, 2);
    // One Garden room is taken by the PMS: three are left.
    const pms = await stack.request('PUT', '/api/v1/property-sync/bookings', {
      key: tenant.syncKey,
      body: { external_source: 'pms', bookings: [{ external_booking_id: 'B1', external_room_id: 'R104', guest_name: 'PMS', guests: 1, check_in_date: stay.check_in, check_out_date: stay.check_out, status: 'confirmed' }] },
    });
    expect(pms.status).toBe(200);
    const results = await stack.request('GET', `/book/${tenant.clientId}?check_in=${stay.check_in}&check_out=${stay.check_out}&guests=1`);
    expect(results.status).toBe(200);
    expect(results.text.match(/<h3 id="t\d+n">Garden Queen<\/h3>/g)).toHaveLength(1);
    expect(results.text).toContain('3 left');
    expect(results.text).toContain('1 left');
    expect(results.text).not.toMatch(/Room 10\d/);
    expect(results.text).toContain('<img class="type-image" src="https://images.example.com/garden.jpg" alt="Garden Queen" width="640" height="360"');
    expect(results.headers.get('content-security-policy')).toContain("img-src 'self' data: https:");

    const now = new Date();
    const all = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        asPages(() => guest.startCheckout(tenant.clientId, { room_type: 'Garden Queen', stay, guest: { name: `Guest ${i}`, email: `g${i}@example.com` }, source: `198.51.100.${i + 1}` }, stack.url, now)),
      ),
    );
    const won = all.filter((r) => r.status === 'fulfilled');
    const lost = all.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(3);
    expect(lost.map((r) => (r.reason as { status: number; code: string }).code)).toEqual(Array(9).fill('ROOM_NOT_AVAILABLE'));
    const { getRoomHolds } = await import('../../shared/store/service-booking-store');
    const { listRooms } = await import('../../shared/store/room-store');
    const garden = (await listRooms(tenant.clientId)).filter((r) => r.room_number !== '201' && r.room_number !== '104');
    const holds = await Promise.all(garden.map((r) => getRoomHolds(tenant.clientId, r.id)));
    // Each free Garden room held exactly once, by a different booking.
    expect(holds.map((h) => h.holds.length)).toEqual([1, 1, 1]);
    expect(new Set(holds.map((h) => h.holds[0]!.booking_id)).size).toBe(3);

    // The next guest, through the pages: a clear "no longer available" page.
    const form = new URLSearchParams({ room_type: 'Garden Queen', check_in: stay.check_in, check_out: stay.check_out, guests: '1', name: 'Late Guest', email: 'late@example.com', pay: 'checkout' });
    const late = await fetch(`${stack.url}/book/${tenant.clientId}/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: stack.url },
      body: form.toString(),
      redirect: 'manual',
    });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain('no longer available');
    const after = await stack.request('GET', `/book/${tenant.clientId}?check_in=${stay.check_in}&check_out=${stay.check_out}&guests=1`);
    expect(after.text).not.toContain('Garden Queen</h3>');
    expect(after.text).toContain('Ocean Suite');
  });
});

describe('the hotel slug', () => {
  it('set by the CLI serves /book/<slug>, the id address still works, duplicates and bad slugs are refused, a new slug frees the old one', async () => {
    const a = await hotel();
    const b = await hotel();
    const slug = `hale-kai-${Math.random().toString(36).slice(2, 8)}`;
    const set = await ops(['clients', 'set-slug', '--client', a.clientId, '--slug', slug]);
    expect(set.code, set.stdout + set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ client_id: a.clientId, slug, booking_page: `/book/${slug}` });

    const bySlug = await stack.request('GET', `/book/${slug}`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.text).toContain('Garden Queen');
    expect(bySlug.text).toContain(`action="/book/${slug}"`);
    expect((await stack.request('GET', `/book/${a.clientId}`)).status).toBe(200);
    expect((await stack.request('GET', `/book/${slug}x-unknown`)).status).toBe(404);

    const taken = await ops(['clients', 'set-slug', '--client', b.clientId, '--slug', slug]);
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stdout).error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('already the booking page address of another hotel') });
    for (const bad of ['Hale Kai', 'ab', 'hale_kai', 'x'.repeat(61)]) {
      const refused = await ops(['clients', 'set-slug', '--client', b.clientId, '--slug', bad]);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('3 to 60 lowercase letters, digits and hyphens') });
    }

    // A's new slug frees the old one: B may take it.
    expect((await ops(['clients', 'set-slug', '--client', a.clientId, '--slug', `${slug}-new`])).code).toBe(0);
    expect((await stack.request('GET', `/book/${slug}-new`)).status).toBe(200);
    expect((await ops(['clients', 'set-slug', '--client', b.clientId, '--slug', slug])).code).toBe(0);
    const nowB = await stack.request('GET', `/book/${slug}`);
    expect(nowB.status).toBe(200);
    expect(nowB.text).toContain(`action="/book/${slug}"`);
  });
});

describe('a booking held twice', () => {
  it("keeps the room its first submit held: a twin on another room of the type is refused its record (HeldByTwin), the same room puts it again", async () => {
    const { guestRecordItem, HeldByTwin } = await import('../../shared/domain/guest-booking/checkout-holds');
    const { transactWrite } = await import('../../shared/store/transactions');
    const record = (roomId: string) => ({ client_id: randomUUID(), booking_id: 'b-1', room_id: roomId }) as never;
    const hash = randomUUID().replace(/-/g, '');
    await asPages(async () => transactWrite([await guestRecordItem(hash, record('room-a'))]));
    await expect(asPages(() => guestRecordItem(hash, record('room-b')))).rejects.toBeInstanceOf(HeldByTwin);
    await expect(asPages(async () => transactWrite([await guestRecordItem(hash, record('room-a'))]))).resolves.toBeUndefined();
  });
});

describe('taxes, contact and e-mails', () => {
  it('adds the taxes on the details page, charges them, keeps them out of the revenue, and e-mails the contact, policy and deadline with Reply-To', async () => {
    const tenant = await hotel();
    const hotelEmail = unique('desk');
    await settings(tenant.clientId, { tax_percent: 10, phone: '+18085550123', email: hotelEmail, cancellation_policy: 'Free cancellation up to 48 hours before arrival.', check_in_time: '15:00' });
    const stay = stayIn(20, 2);
    const details = await stack.request('GET', `/book/${tenant.clientId}/details?check_in=${stay.check_in}&check_out=${stay.check_out}&guests=1&offer=Garden%20Queen`);
    expect(details.status).toBe(200);
    expect(details.text).toContain('Room price');
    expect(details.text).toContain('240.00 USD');
    expect(details.text).toContain('Taxes (10%)');
    expect(details.text).toContain('24.00 USD');
    expect(details.text).toContain('264.00 USD for 2 nights');
    expect(details.text).toContain('Book and pay 264.00 USD');

    const email = unique('taxed');
    const started = await asPages(() => guest.startCheckout(tenant.clientId, { room_type: 'Garden Queen', stay, guest: { name: 'Tax Payer', email } }, stack.url, new Date()));
    const { clientOrdersPage } = await import('../../shared/store/payment-store');
    const [order] = (await clientOrdersPage(tenant.clientId, { limit: 10 })).orders;
    expect(order).toMatchObject({ amount_minor: 26400, currency: 'USD', context: expect.objectContaining({ taxes_minor: 2400 }) });
    const { readSandboxSession } = await import('../../shared/store/sandbox-store');
    const session = await readSandboxSession(new URL(started.checkout_url).pathname.split('/').pop()!);
    expect(session).toMatchObject({ amount_minor: 26400, lines: [expect.objectContaining({ amount_minor: 24000 }), { name: 'Taxes (10%)', amount_minor: 2400 }] });
    const checkoutPage = await (await fetch(started.checkout_url)).text();
    expect(checkoutPage).toContain('Taxes (10%)');

    // Paid: the booking's revenue is the room price, without the taxes.
    const paid = await fetch(started.checkout_url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid', redirect: 'manual' });
    expect(paid.status).toBe(303);
    const verify = await fetch(new URL(paid.headers.get('location')!, stack.url), { redirect: 'manual' });
    expect(verify.status).toBe(303);
    const page = await asPages(() => guest.guestBookingOf(tenant.clientId, started.token));
    expect(page).toMatchObject({ state: 'confirmed', total: 264, taxes: { amount: 24, included: false, percent: 10 } });
    const { reportOf } = await import('../../shared/domain/reports/reports');
    const report = await reportOf(tenant.clientId, { from: stay.check_in, to: stay.check_in });
    expect(report.total.revenue_minor).toBe(12000);
    // The front desk reads what the guest paid: the room price, its taxes and the total, nothing due.
    const { paidOrderBookingId } = await import('../../shared/domain/payments/mirror-paid-booking');
    const staff = await signedInOperator(stack, tenant.clientId, 'staff');
    const desk = textOf((await staff.get(`/dashboard/bookings/${paidOrderBookingId(tenant.clientId, order!.order_reference)}`)).text);
    expect(desk).toContain('Room price 240.00 USD');
    expect(desk).toContain('Taxes 24.00 USD');
    expect(desk).toContain('Total 264.00 USD');
    expect(desk).toContain('Balance due 0.00 USD');
    const confirmation = await stack.request('GET', `/book/${tenant.clientId}/confirmation/${started.token}`);
    expect(confirmation.text).toContain('Taxes (10%)');
    expect(confirmation.text).toContain('264.00 USD');

    const mail = await emailTo(email, /Booking confirmed/);
    expect((mail as unknown as { replyTo?: string[] }).replyTo).toEqual([hotelEmail]);
    expect(mail.body.text).toContain('+18085550123');
    expect(mail.body.text).toContain(hotelEmail);
    expect(mail.body.text).toContain('Free cancellation up to 48 hours before arrival.');
    expect(mail.body.text).toMatch(/cancel free of charge until .*, 3:00 PM hotel time|cancel free of charge until .*15:00 hotel time/);
    expect(mail.body.text).toContain('24.00 USD');
    expect(mail.body.html).toContain(hotelEmail);
  });

  it('shows taxes included as part of the price, in whole yen', async () => {
    const tenant = await hotel();
    const { setClientSettings } = await import('../../shared/domain/clients');
    await setClientSettings(tenant.clientId, { tax_percent: 10, taxes_included: true });
    const { stayPrice } = await import('../../shared/domain/bookings/stay-price');
    expect(stayPrice(11000, { tax_percent: 10, taxes_included: true }, 'JPY')).toMatchObject({ room: 11000, taxes: 1000, total: 11000, revenue: 10000 });
    expect(stayPrice(999, { tax_percent: 8 }, 'JPY')).toMatchObject({ taxes: 80, total: 1079 });
    const stay = stayIn(25, 1);
    const details = await stack.request('GET', `/book/${tenant.clientId}/details?check_in=${stay.check_in}&check_out=${stay.check_out}&guests=1&offer=Garden%20Queen`);
    expect(details.text).toContain('Taxes included (10%)');
    expect(details.text).toContain('10.91 USD');
    expect(details.text).toContain('Book and pay 120.00 USD');
  });
});

/** A Garden Queen stay booked and paid on the guest page (the sandbox checkout, then verify): the booking's id. */
async function paidGuestBooking(tenant: Tenant, stay: ReturnType<typeof stayIn>, email: string): Promise<string> {
  const started = await asPages(() => guest.startCheckout(tenant.clientId, { room_type: 'Garden Queen', stay, guest: { name: 'Tax Payer', email } }, stack.url, new Date()));
  const paid = await fetch(started.checkout_url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid', redirect: 'manual' });
  expect(paid.status).toBe(303);
  expect((await fetch(new URL(paid.headers.get('location')!, stack.url), { redirect: 'manual' })).status).toBe(303);
  expect(await asPages(() => guest.guestBookingOf(tenant.clientId, started.token))).toMatchObject({ state: 'confirmed' });
  const [{ clientOrdersPage }, { paidOrderBookingId }] = await Promise.all([import('../../shared/store/payment-store'), import('../../shared/domain/payments/mirror-paid-booking')]);
  const [order] = (await clientOrdersPage(tenant.clientId, { limit: 1 })).orders;
  return paidOrderBookingId(tenant.clientId, order!.order_reference);
}

describe('a staff change of a taxed booking', () => {
  it('reprices its taxes with it: "Recalculate the total" adds the hotel\'s taxes, an amount given is what the guest pays in all, "Keep the total" keeps both', async () => {
    const tenant = await hotel();
    await settings(tenant.clientId, { tax_percent: 10 });
    const stay = stayIn(30, 2);
    const bookingId = await paidGuestBooking(tenant, stay, unique('change'));
    const staff = await signedInOperator(stack, tenant.clientId, 'staff');
    const path = `/dashboard/bookings/${bookingId}`;
    const longer = addDays(stay.check_out, 1);
    // Three nights at 120: 360, taxes 36; what the guest pays now, 264 with its taxes, is the total kept.
    const form = textOf((await staff.get(`${path}/change?check_in_date=${stay.check_in}&check_out_date=${longer}&guests=1`)).text);
    expect(form).toContain('Recalculate the total: 396.00 USD');
    expect(form).toContain("3 nights at the chosen room's rates, with the hotel's taxes");
    expect(form).toContain('Keep the total: 264.00 USD');
    const changed = textOf((await staff.submit(`${path}/change`, { check_in_date: stay.check_in, check_out_date: longer, room_id: '', guests: '1', total: 'recalculate' })).text);
    expect(changed).toContain('Total 396.00 USD.');
    expect(changed).toContain('Room price 360.00 USD');
    expect(changed).toContain('Taxes 36.00 USD');
    expect(changed).toContain('Balance due 132.00 USD');

    // An amount from the CLI is the total the guest pays: 330.00 is 300.00 and 30.00 of taxes.
    const set = await ops(['bookings', 'modify', bookingId, '--check-out', addDays(longer, 1), '--total', '330.00']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ total_amount: 300, taxes_amount: 30 });
    const kept = await ops(['bookings', 'modify', bookingId, '--check-out', longer, '--total', 'keep']);
    expect(JSON.parse(kept.stdout)).toMatchObject({ check_out_date: longer, total_amount: 300, taxes_amount: 30, currency: 'USD' });
    // As people read it: what the guest pays, with its currency.
    const said = await runOps(stackFile, ['bookings', 'modify', bookingId, '--check-out', addDays(longer, 1), '--total', 'keep']);
    expect(said.stdout).toMatch(/^total: +330\.00 USD \(taxes 30\.00 USD\)$/m);
    const desk = textOf((await staff.get(path)).text);
    expect(desk).toContain('Total 330.00 USD');
    expect(desk).toContain('Balance due 66.00 USD');
  });
});

describe('the landing page, pictures and robots.txt', () => {
  it('shows the hotel before a search: its types with "from" prices, check-in, contact and policy', async () => {
    const tenant = await hotel();
    await settings(tenant.clientId, { address: '1 Beach Road, Honolulu', check_in_time: '15:00', phone: '+18085550123', cancellation_policy: 'No refunds after arrival.' });
    const landing = await stack.request('GET', `/book/${tenant.clientId}`);
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('Our rooms');
    expect(landing.text).toContain('from 120.00 USD a night');
    expect(landing.text).toContain('from 300.00 USD a night');
    expect(landing.text).toContain('1 Beach Road, Honolulu');
    expect(landing.text).toContain('From 3:00 PM');
    expect(landing.text).toContain('+18085550123');
    expect(landing.text).toContain('No refunds after arrival.');
    expect(landing.text).toContain('loading="lazy"');
    expect(landing.text).not.toContain('Pacific/Honolulu');
  });

  it('refuses a category picture that is not https', async () => {
    const tenant = await stack.createTenant();
    const put = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
      key: tenant.syncKey,
      body: { external_source: 'pms', categories: [{ external_category_id: 'X', name: 'X', image_url: 'http://images.example.com/x.jpg' }] },
    });
    expect(put.status).toBe(400);
    expect(put.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'categories[0].image_url', message: expect.stringContaining('https') }] });
  });

  it('serves a real robots.txt: the guest pages allowed, the dashboard and the API not', async () => {
    const robots = await fetch(`${stack.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await robots.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Allow: \/book\/$/m);
    expect(text).toMatch(/^Disallow: \/dashboard\/$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
  });
});
