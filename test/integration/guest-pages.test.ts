/**
 * The guest booking pages over plain HTTP (docs/behaviour.md "Guest booking and the reception QR
 * code"): the search form and its results, every input rule answered by the form again with the
 * message next to the field (400), an unknown hotel 404, nothing echoed unescaped, the checkout
 * opened through a payment order (303 to the provider), pay at the hotel only where the hotel
 * allows it (confirmed by its e-mail's link), a confirmation link that works for its own hotel only, a repeated submit of one form
 * (its attempt id) landing on the same checkout or confirmation, the QR code as SVG, the page's
 * weight; and the dashboard's Guest booking section with its printable QR sheet and the
 * pay-at-property setting (audited). The whole flow in a browser: test/browser/guest-booking.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedInOperator, textOf } from '../support/dashboard-client';
import { postForm } from '../support/form-post';
import { emailsTo, emailTo, linkIn } from '../support/inbox';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let tenant: Tenant;
let other: Tenant;
/** A hotel whose name is markup: it must show as text. */
let markupHotel: { clientId: string; name: string };
const rooms = new Map<string, string>();

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** A stay's date as the pages write it: `Sat, 28 Nov 2026`. */
const written = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

interface Page {
  status: number;
  headers: Headers;
  html: string;
  location?: string;
}

async function get(path: string): Promise<Page> {
  const response = await fetch(`${stack.url}${path}`, { redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

/**
 * Each test is a guest of its own, on a loopback address of its own (127.0.0.<10 + n>): the
 * page counts open holds per source address (at most 3 per hotel, test/integration/guest-abuse.test.ts).
 */
let guestAddress = '127.0.0.10';
let guests = 10;
beforeEach(() => {
  guests += 1;
  guestAddress = `127.0.0.${guests}`;
});

async function post(path: string, form: Record<string, string>, origin = stack.url): Promise<Page> {
  return postForm(`${stack.url}${path}`, form, { origin, from: guestAddress });
}

const search = (clientId: string, stay: Record<string, string>) => get(`/book/${clientId}?${new URLSearchParams(stay)}`);

/** The message shown next to a field (its error element, which the input names in aria-describedby). */
function fieldError(html: string, name: string): string | undefined {
  const input = new RegExp(`<input[^>]*id="f-${name}"[^>]*>`).exec(html)?.[0];
  const message = new RegExp(`<small id="f-${name}-error" class="field-error">([^<]*)</small>`).exec(html)?.[1];
  if (message === undefined) return undefined;
  expect(input, name).toContain('aria-invalid="true"');
  expect(input, name).toMatch(new RegExp(`aria-describedby="[^"]*f-${name}-error`));
  return message;
}

const roomIdOf = (number: string) => rooms.get(number)!;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const attemptOf = (html: string) => /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(html)?.[1];

/** The guest details form of a room type and stay as the page renders it: the hidden fields, its attempt id included. */
async function detailsForm(stay: Record<string, string>, type: 'double' | 'suite'): Promise<Record<string, string>> {
  const page = await get(`/book/${tenant.clientId}/details?${new URLSearchParams({ ...stay, offer: type })}`);
  expect(page.status).toBe(200);
  const attempt = attemptOf(page.html);
  expect(attempt).toMatch(UUID);
  return { ...stay, room_type: type, attempt: attempt! };
}

/** The guest paying on the sandbox checkout, then the provider's redirect to verify: the page the guest lands on. */
async function payAndReturn(checkoutUrl: string): Promise<Page> {
  const paid = await fetch(checkoutUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
  expect(paid.status).toBe(303);
  const verify = await fetch(new URL(paid.headers.get('location')!, stack.url), { redirect: 'manual' });
  expect(verify.status).toBe(303);
  const landed = new URL(verify.headers.get('location')!);
  return get(`${landed.pathname}${landed.search}`);
}

beforeAll(async () => {
  stack = await startTestStack();
  [tenant, other] = await Promise.all([stack.createTenant(), stack.createTenant()]);
  const { createClientAccount } = await import('../../shared/domain/clients');
  const name = '<b>"Grand" & <script>alert(1)</script></b>';
  markupHotel = { clientId: (await createClientAccount({ name, plan: 'premium' })).client_id, name };
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R102', room_number: '102', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R201', room_number: '201', room_type: 'suite', price: 250.5, max_occupancy: 4 },
      ],
    },
  });
  expect(put.status).toBe(200);
  for (const item of put.body.items as { id: string; external_room_id: string }[]) rooms.set(item.external_room_id.slice(1), item.id);
});

afterAll(async () => {
  await stack?.stop();
});

describe('the booking page', () => {
  it('serves the form with labelled fields, its own stylesheet under a CSP without scripts', async () => {
    const page = await get(`/book/${tenant.clientId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('script-src');
    // Its booking form is answered with a redirect to the provider's checkout, which Chromium holds
    // to form-action: Stripe's origin and the sandbox's (its own port here) are named.
    expect(csp).toContain(`form-action 'self' https://checkout.stripe.com ${stack.sandboxUrl};`);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.html).toMatch(/^<!doctype html><html lang="en">/);
    expect(page.html).not.toContain('<script');
    expect(page.html).not.toContain(' style=');
    for (const [label, name] of [
      ['Check-in', 'check_in'],
      ['Check-out', 'check_out'],
      ['Guests', 'guests'],
    ]) {
      expect(page.html).toContain(`<label for="f-${name}">${label}</label>`);
    }
    expect(page.html).toMatch(/<button type="submit" class="wide">Search<\/button>/);
    expect(page.html).toContain('<link rel="stylesheet" href="/book/style.css"/>');
    for (const landmark of ['<header', '<main', '<footer', '<h1>Book a room</h1>']) expect(page.html).toContain(landmark);

    const css = await get('/book/style.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.html).toContain('.field-error');
  });

  it('lists the free room types with the stay\'s total (price x nights) and a Book button each', async () => {
    const page = await search(tenant.clientId, { check_in: day(30), check_out: day(33), guests: '2' });
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('3 nights, 2 guests');
    // The price a night and the stay's total, with the currency; no word on taxes from a hotel that has not said.
    // Each type once (two double rooms free: "2 left"), never a room's number.
    expect(text).toContain('double 2 left Up to 2 guests 120.00 USD a night 360.00 USD for 3 nights');
    expect(text).toContain('suite 1 left Up to 4 guests 250.50 USD a night 751.50 USD for 3 nights');
    expect(text).not.toMatch(/Room 10\d/);
    expect(text).not.toMatch(/tax/i);
    expect(page.html.match(/>Book<\/button>/g)).toHaveLength(2);
    for (const type of ['double', 'suite']) expect(page.html).toContain(`name="offer" value="${type}"`);
    // Grouped by category (here the room type, no categories synced), the cheapest first.
    const heading = (name: string) => page.html.search(new RegExp(`<h3 id="t\\d+n">${name}</h3>`));
    expect(heading('double')).toBeGreaterThan(0);
    expect(heading('double')).toBeLessThan(heading('suite'));

    const four = await search(tenant.clientId, { check_in: day(30), check_out: day(31), guests: '4' });
    expect(four.html.match(/>Book<\/button>/g)).toHaveLength(1);
    const none = await search(tenant.clientId, { check_in: day(30), check_out: day(31), guests: '5' });
    expect(none.status).toBe(200);
    expect(textOf(none.html)).toContain('No room is free for these dates');
  });

  it.each([
    ['a date that is not real', { check_in: '2031-02-30', check_out: '2031-03-02', guests: '1' }, 'check_in'],
    ['a check-in in the past', { check_in: day(-1), check_out: day(2), guests: '1' }, 'check_in'],
    ['a check-out not after the check-in', { check_in: day(5), check_out: day(5), guests: '1' }, 'check_out'],
    ['more than 30 nights', { check_in: day(5), check_out: day(36), guests: '1' }, 'check_out'],
    ['guests under 1', { check_in: day(5), check_out: day(6), guests: '0' }, 'guests'],
    ['guests not a number', { check_in: day(5), check_out: day(6), guests: 'two' }, 'guests'],
  ])('answers %s with the form again, the message next to the field, status 400', async (_, stay, field) => {
    const page = await search(tenant.clientId, stay);
    expect(page.status).toBe(400);
    expect(fieldError(page.html, field)).toBeTruthy();
    for (const otherField of ['check_in', 'check_out', 'guests'].filter((f) => f !== field)) expect(fieldError(page.html, otherField), otherField).toBeUndefined();
    // What the guest typed is kept in the form.
    expect(page.html).toContain(`value="${stay[field as keyof typeof stay]}"`);
    expect(page.html).not.toContain('>Book</button>');
  });

  it('shows every problem at once, and thirty nights are fine', async () => {
    const page = await search(tenant.clientId, { check_in: 'tomorrow', check_out: '', guests: '-1' });
    expect(page.status).toBe(400);
    for (const field of ['check_in', 'check_out', 'guests']) expect(fieldError(page.html, field), field).toBeTruthy();
    expect((await search(tenant.clientId, { check_in: day(5), check_out: day(35), guests: '1' })).status).toBe(200);
  });

  it('answers an unknown hotel (or a malformed id) with a 404 page of its own', async () => {
    for (const path of ['/book/00000000-0000-4000-8000-000000000000', '/book/not-a-hotel', '/book/00000000-0000-4000-8000-000000000000/qr.svg']) {
      const page = await get(path);
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(page.html, path).toContain('<h1>Page not found</h1>');
      expect(page.html, path).not.toContain('/dashboard');
    }
  });

  it('never echoes input or a hotel name unescaped', async () => {
    const home = await get(`/book/${markupHotel.clientId}`);
    expect(home.status).toBe(200);
    expect(home.html).not.toContain('<script>');
    expect(home.html).toContain('&lt;b>&quot;Grand&quot; &amp; &lt;script>alert(1)&lt;/script>&lt;/b>');
    expect(textOf(home.html)).toContain(markupHotel.name);

    const injected = '"><script>alert(1)</script>';
    const page = await search(tenant.clientId, { check_in: injected, check_out: day(3), guests: '1' });
    expect(page.status).toBe(400);
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('value="&quot;>&lt;script>alert(1)&lt;/script>"');
  });

  it('serves the QR code of the booking page as image/svg+xml', async () => {
    const qr = await get(`/book/${tenant.clientId}/qr.svg`);
    expect(qr.status).toBe(200);
    expect(qr.headers.get('content-type')).toBe('image/svg+xml');
    expect(qr.html).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* viewBox="0 0 \d+ \d+"/);
    expect(qr.html).not.toMatch(/<script|on\w+=/i);
  });

  it('keeps the results of 200 rooms (four types) under 50 KB with the stylesheet', async () => {
    const { createClientAccount } = await import('../../shared/domain/clients');
    const big = await createClientAccount({ name: 'Big hotel', plan: 'premium' });
    const key = await stack.issueKey(big.client_id, 'sync');
    const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key: key.key,
      body: {
        external_source: 'pms',
        rooms: Array.from({ length: 200 }, (_, i) => ({ external_room_id: `R${i}`, room_number: String(100 + i), room_type: ['double', 'twin', 'suite', 'single'][i % 4], price: 80 + (i % 4) * 20, max_occupancy: 4 })),
      },
    });
    expect(put.status).toBe(200);
    const page = await search(big.client_id, { check_in: day(10), check_out: day(12), guests: '2' });
    expect(page.html.match(/>Book<\/button>/g)).toHaveLength(4);
    const css = await get('/book/style.css');
    expect(Buffer.byteLength(page.html) + Buffer.byteLength(css.html)).toBeLessThan(50 * 1024);
  });
});

describe('booking', () => {
  const stay = () => ({ check_in: day(40), check_out: day(42), guests: '2' });

  it('shows the chosen room and stay with the guest fields, and no pay-at-hotel button unless the hotel allows it', async () => {
    const page = await get(`/book/${tenant.clientId}/details?${new URLSearchParams({ ...stay(), offer: 'double' })}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('Room double');
    expect(page.html).toContain('<input type="hidden" name="room_type" value="double"/>');
    expect(text).toContain('Per night 120.00 USD Total 240.00 USD for 2 nights');
    for (const [label, name] of [
      ['Name', 'name'],
      ['Email', 'email'],
      ['Phone', 'phone'],
    ]) {
      expect(page.html).toContain(`<label for="f-${name}">${label}</label>`);
    }
    expect(text).toContain('Book and pay 240.00 USD');
    expect(text).not.toContain('pay at the hotel');
  });

  it('answers bad guest details with the form again, the messages next to the fields, status 400', async () => {
    const page = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_id: roomIdOf('102'), name: '', email: 'not-an-email', phone: '12', pay: 'checkout' });
    expect(page.status).toBe(400);
    for (const field of ['name', 'email', 'phone']) expect(fieldError(page.html, field), field).toBeTruthy();
    expect(page.html).toContain('value="not-an-email"');

    const injected = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_id: roomIdOf('102'), name: '<img src=x onerror=alert(1)>', email: 'x', pay: 'checkout' });
    expect(injected.status).toBe(400);
    expect(injected.html).toContain('value="&lt;img src=x onerror=alert(1)>"');
    expect(injected.html).not.toContain('<img src=x');

    const badStay = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), check_in: day(-3), room_id: roomIdOf('102'), name: 'Ada', email: 'ada@example.com' });
    expect(badStay.status).toBe(400);
    expect(fieldError(badStay.html, 'check_in')).toBeTruthy();
  });

  it('refuses a form posted from another site (403); a room that is not offered goes back to the results (409)', async () => {
    const forged = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_id: roomIdOf('102'), name: 'Ada', email: 'ada@example.com' }, 'https://evil.example');
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('was not sent from the booking page');
    // Room 101's id with its last digit changed (to 0, or to 1 if it is 0): a well-formed id of no room.
    const room101 = rooms.get('101')!;
    const notOffered = room101.slice(0, -1) + (room101.endsWith('0') ? '1' : '0');
    const unknown = await get(`/book/${tenant.clientId}/details?${new URLSearchParams({ ...stay(), room_id: notOffered })}`);
    expect(unknown.status).toBe(409);
    expect(textOf(unknown.html)).toContain('that room is no longer available');
  });

  it('opens the checkout (303 to the provider); the held room is offered to no one else; a second try is sent back to the results', async () => {
    const opened = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_id: roomIdOf('101'), name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', pay: 'checkout' });
    expect(opened.status).toBe(303);
    // The checkout on the sandbox's own origin, which the page's form-action names.
    expect(opened.location).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/sbx_`));
    expect(opened.headers.get('content-security-policy')).toContain(`form-action 'self' https://checkout.stripe.com ${new URL(opened.location!).origin};`);

    // The double type is still offered (room 102), one left.
    const results = await search(tenant.clientId, stay());
    expect(textOf(results.html)).toContain('double 1 left');
    // The API's availability treats the held room as taken too.
    const available = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${stay().check_in}&check_out_date=${stay().check_out}&guests=1`, { key: tenant.syncKey });
    expect(available.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['102', '201']);

    // A link or form naming room 101 (a page from before room types) books its type: the guest
    // pages never let a guest choose the room, so the service takes 102, the double still free.
    const details = await get(`/book/${tenant.clientId}/details?${new URLSearchParams({ ...stay(), room_id: roomIdOf('101') })}`);
    expect(details.status).toBe(200);
    expect(details.html).toContain('<input type="hidden" name="room_type" value="double"/>');
    expect(details.html).not.toContain('name="room_id"');
    const second = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_id: roomIdOf('101'), name: 'Grace Hopper', email: 'grace@example.com', pay: 'checkout' });
    expect(second.status, second.html).toBe(303);
    const left = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${stay().check_in}&check_out_date=${stay().check_out}&guests=1`, { key: tenant.syncKey });
    expect(left.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['201']);
    // No double left: a third try goes back to the results, which no longer offer the type.
    const again = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_type: 'double', name: 'Alan Turing', email: 'alan@example.com', pay: 'checkout' });
    expect(again.status).toBe(409);
    expect(textOf(again.html)).toContain('that room is no longer available');
    expect(textOf(again.html)).not.toContain('double 1 left');
    expect(textOf(again.html)).toContain('suite');
  });

  it('books to pay at the hotel only where the hotel allows it, confirmed by its e-mail link; its page works for that hotel only', async () => {
    const refused = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_id: roomIdOf('201'), name: 'Ada', email: 'ada@example.com', pay: 'at_property' });
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain('online payment only');

    const { setPayAtProperty } = await import('../../shared/domain/guest-booking/guest-bookings');
    await setPayAtProperty(tenant.clientId, true);
    try {
      const details = await get(`/book/${tenant.clientId}/details?${new URLSearchParams({ ...stay(), room_id: roomIdOf('201') })}`);
      expect(textOf(details.html)).toContain('Confirm and pay at the hotel');
      const email = `grace-${randomUUID().slice(0, 8)}@example.com`;
      const booked = await post(`/book/${tenant.clientId}/bookings`, { ...stay(), room_id: roomIdOf('201'), name: 'Grace <Hopper>', email, pay: 'at_property' });
      expect(booked.status).toBe(303);
      const path = booked.location!;
      expect(path).toMatch(new RegExp(`^/book/${tenant.clientId}/confirmation/[A-Za-z0-9_-]{43}$`));
      const pending = await get(path);
      expect(pending.status).toBe(200);
      expect(textOf(pending.html)).toContain('Check your e-mail to confirm');
      expect(pending.html).toContain('Grace &lt;Hopper>');
      // The guest confirms with the e-mail's link (test/integration/guest-email.test.ts tells the whole story).
      const link = new URL(linkIn(await emailTo(email, /^Confirm your booking/), 'Confirm your booking'));
      expect((await post(link.pathname, {})).location).toBe(path);

      const page = await get(path);
      expect(page.status).toBe(200);
      const text = textOf(page.html);
      expect(text).toContain('Booking confirmed');
      expect(text).toMatch(/Booking reference \S+ Confirmation code \S+/);
      expect(text).toContain('Payment To pay at the hotel');
      expect(page.html).toContain('Grace &lt;Hopper>');

      const token = path.split('/').pop()!;
      for (const elsewhere of [`/book/${other.clientId}/confirmation/${token}`, `/book/${tenant.clientId}/confirmation/${token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`, `/book/${tenant.clientId}/confirmation/nope`]) {
        const answer = await get(elsewhere);
        expect(answer.status, elsewhere).toBe(404);
        expect(answer.html, elsewhere).not.toContain('Grace');
      }
    } finally {
      await setPayAtProperty(tenant.clientId, false);
    }
  });
});

describe('a repeated submit of the booking form (a double click, a resubmit)', () => {
  const bookings = () => `/book/${tenant.clientId}/bookings`;
  const ordersOf = async (email: string) => {
    const { listClientOrders } = await import('../../shared/domain/payments/list-orders');
    return (await listClientOrders(tenant.clientId)).orders.filter((o) => o.customer_email === email);
  };
  const bookingsOf = async (email: string) => {
    const { listBookings } = await import('../../shared/store/booking-store');
    return (await listBookings(tenant.clientId)).filter((b) => b.guest_email === email);
  };
  /** The double rooms' hold entries for the stay, and their open checkout markers for it. */
  const DOUBLES = () => [roomIdOf('101'), roomIdOf('102')];
  const holdsOf = async (stay: { check_in: string; check_out: string }) => {
    const { getRoomHolds } = await import('../../shared/store/service-booking-store');
    const { openCheckoutHolds } = await import('../../shared/store/guest-booking-store');
    const holds = (await Promise.all(DOUBLES().map((id) => getRoomHolds(tenant.clientId, id)))).flatMap((read) => read.holds);
    const markers = await openCheckoutHolds(tenant.clientId, { checkIn: stay.check_in, checkOut: stay.check_out }, new Date());
    return { entries: holds.filter((h) => h.check_in_date === stay.check_in), markers: markers.filter((m) => DOUBLES().includes(m.room_id)) };
  };

  it('lands on the same checkout, twice in a row or twice at once: one order, one hold; paid, the confirmation shows the booking', async () => {
    const inRow = { check_in: day(100), check_out: day(102), guests: '2' };
    const form = { ...(await detailsForm(inRow, 'double')), name: 'Ada Lovelace', email: 'in-a-row@example.com', pay: 'checkout' };
    const first = await post(bookings(), form);
    expect(first.status).toBe(303);
    expect(first.location).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/`));
    const second = await post(bookings(), form);
    expect(second.status, second.html).toBe(303);
    expect(second.location).toBe(first.location);
    expect(await ordersOf('in-a-row@example.com')).toHaveLength(1);
    const held = await holdsOf(inRow);
    expect(held.entries).toHaveLength(1);
    expect(held.markers, JSON.stringify(held)).toHaveLength(1);

    // A double click sends both before either answers.
    const atOnce = { check_in: day(104), check_out: day(105), guests: '1' };
    const twin = { ...(await detailsForm(atOnce, 'double')), name: 'Grace Hopper', email: 'at-once@example.com', pay: 'checkout' };
    // Four at once, for a type of two free rooms: each twin lands on the one checkout, one room held.
    const both = await Promise.all([1, 2, 3, 4].map(() => post(bookings(), twin)));
    expect(both.map((p) => p.status)).toEqual([303, 303, 303, 303]);
    expect(new Set(both.map((p) => p.location)).size).toBe(1);
    expect(both[0]!.location).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/`));
    expect(await ordersOf('at-once@example.com')).toHaveLength(1);
    expect((await holdsOf(atOnce)).entries).toHaveLength(1);

    // The order's return URL carries a token that leads to the booking.
    const landed = await payAndReturn(both[0]!.location!);
    expect(landed.status).toBe(200);
    const text = textOf(landed.html);
    expect(text).toContain('Booking confirmed');
    expect(text).toMatch(/Booking reference BK-\S+ Confirmation code \S+/);
    expect(text).toContain('Grace Hopper');
    const paid = await bookingsOf('at-once@example.com');
    expect(paid).toMatchObject([{ payment_status: 'paid' }]);
    expect(DOUBLES()).toContain(paid[0]!.room_id);
  });

  it('is another booking with another room; a malformed attempt shows the form again (400); a form without one books as before', async () => {
    const stay = { check_in: day(110), check_out: day(111), guests: '1' };
    const form = { ...(await detailsForm(stay, 'double')), name: 'Ada Lovelace', email: 'two-rooms@example.com', pay: 'checkout' };
    const one = await post(bookings(), form);
    expect(one.status).toBe(303);
    // The guest went back and chose another room type: the same attempt id, other choices.
    const other = await post(bookings(), { ...form, room_type: 'suite' });
    expect(other.status, other.html).toBe(303);
    expect(other.location).not.toBe(one.location);
    expect(await ordersOf('two-rooms@example.com')).toHaveLength(2);

    const later = { check_in: day(112), check_out: day(113), guests: '1' };
    const damaged = await post(bookings(), { ...(await detailsForm(later, 'double')), attempt: 'not-an-attempt', name: 'Ada Lovelace', email: 'damaged@example.com', pay: 'checkout' });
    expect(damaged.status).toBe(400);
    expect(textOf(damaged.html)).toContain('This form could not be read. Please check your details and press the button again.');
    expect(damaged.html).toContain('value="damaged@example.com"');
    // The form again, with an attempt id of its own.
    expect(attemptOf(damaged.html)).toMatch(UUID);
    expect(await ordersOf('damaged@example.com')).toEqual([]);
    expect(textOf((await search(tenant.clientId, later)).html)).toContain('double 2 left');

    // A page rendered before the attempt field existed: each submit is a booking of its own, so
    // the second holds the other double, and the third finds none left (from an address of its
    // own: this one has two bookings in progress, of the three an address may have).
    guestAddress = `127.0.1.${guests}`;
    const { attempt: _attempt, ...oldForm }: Record<string, string> = { ...(await detailsForm(later, 'double')), name: 'Ada Lovelace', email: 'old-form@example.com', pay: 'checkout' };
    const oldFirst = await post(bookings(), oldForm);
    expect(oldFirst.status).toBe(303);
    expect(oldFirst.location).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/`));
    const oldSecond = await post(bookings(), oldForm);
    expect(oldSecond.status).toBe(303);
    expect(oldSecond.location).not.toBe(oldFirst.location);
    expect((await post(bookings(), oldForm)).status).toBe(409);
    expect(await ordersOf('old-form@example.com')).toHaveLength(2);
  });

  it('paying at the hotel, twice in a row or twice at once: the same pending booking, one hold, one e-mail; confirmed, one booking', async () => {
    const { setPayAtProperty } = await import('../../shared/domain/guest-booking/guest-bookings');
    await setPayAtProperty(tenant.clientId, true);
    try {
      const inRow = { check_in: day(120), check_out: day(121), guests: '1' };
      const inRowEmail = `desk-in-a-row-${randomUUID().slice(0, 8)}@example.com`;
      const form = { ...(await detailsForm(inRow, 'double')), name: 'Ada Lovelace', email: inRowEmail, pay: 'at_property' };
      const first = await post(bookings(), form);
      expect(first.status).toBe(303);
      expect(first.location).toMatch(new RegExp(`^/book/${tenant.clientId}/confirmation/[A-Za-z0-9_-]{43}$`));
      const second = await post(bookings(), form);
      expect(second.status, second.html).toBe(303);
      expect(second.location).toBe(first.location);
      // Pending until its e-mail link is confirmed: held once, no booking yet.
      expect((await holdsOf(inRow)).entries).toHaveLength(1);
      expect(await bookingsOf(inRowEmail)).toEqual([]);
      await emailTo(inRowEmail, /^Confirm your booking/);

      const atOnce = { check_in: day(122), check_out: day(123), guests: '1' };
      const atOnceEmail = `desk-at-once-${randomUUID().slice(0, 8)}@example.com`;
      const twin = { ...(await detailsForm(atOnce, 'double')), name: 'Grace Hopper', email: atOnceEmail, pay: 'at_property' };
      const both = await Promise.all([1, 2, 3, 4].map(() => post(bookings(), twin)));
      expect(both.map((p) => p.status)).toEqual([303, 303, 303, 303]);
      expect(new Set(both.map((p) => p.location)).size).toBe(1);
      expect((await holdsOf(atOnce)).entries).toHaveLength(1);
      const request = await emailTo(atOnceEmail, /^Confirm your booking/);
      expect(await emailsTo(atOnceEmail)).toHaveLength(1);
      const link = new URL(linkIn(request, 'Confirm your booking'));
      const confirmed = await Promise.all([post(link.pathname, {}), post(link.pathname, {})]);
      expect(confirmed.map((p) => p.location)).toEqual([both[0]!.location, both[0]!.location]);
      const confirmedBookings = await bookingsOf(atOnceEmail);
      expect(confirmedBookings).toMatchObject([{ payment_status: 'unpaid' }]);
      expect(DOUBLES()).toContain(confirmedBookings[0]!.room_id);
      const page = await get(both[0]!.location!);
      expect(page.status).toBe(200);
      expect(textOf(page.html)).toContain('Booking confirmed');
    } finally {
      await setPayAtProperty(tenant.clientId, false);
    }
  });
});

/** The hidden fields of the page's form that posts to `action` (the values unescaped as a browser reads them). */
function hiddenFieldsOf(html: string, action: string): Record<string, string> {
  const form = new RegExp(`<form method="post" action="${action.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}">([\\s\\S]*?)</form>`).exec(html)?.[1];
  expect(form, `a form posting to ${action}`).toBeDefined();
  const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  return Object.fromEntries([...form!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, unescape(m[2]!)]));
}

/** The links of a page whose text is `text`. */
const linksTo = (html: string, text: string) => [...html.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].filter((m) => m[2] === text).map((m) => m[1]!.replace(/&amp;/g, '&'));

/** The guest choosing an outcome on the sandbox checkout, then the provider's redirect to verify: the page the guest lands on. */
async function leaveCheckout(checkoutUrl: string, outcome: 'paid' | 'cancelled' | 'failed'): Promise<Page & { path: string }> {
  const left = await fetch(checkoutUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}` });
  expect(left.status).toBe(303);
  const verify = await fetch(new URL(left.headers.get('location')!, stack.url), { redirect: 'manual' });
  expect(verify.status).toBe(303);
  const landed = new URL(verify.headers.get('location')!);
  return { ...(await get(`${landed.pathname}${landed.search}`)), path: landed.pathname };
}

describe('what guests compare (a hotel that says what it offers, taxes, cancellations, check-in time and address)', () => {
  const POLICY = 'Free cancellation until 48 hours before arrival.\nAfter that, the first night is charged.';
  const ADDRESS = 'Hotel Lumen\nRua das Flores 12\n1200-195 Lisboa';
  let lumen: { clientId: string; rooms: Map<string, string> };
  const stay = () => ({ check_in: day(60), check_out: day(63), guests: '2' });

  beforeAll(async () => {
    const { createClientAccount, setClientSettings } = await import('../../shared/domain/clients');
    const client = await createClientAccount({ name: 'Hotel Lumen', plan: 'premium', currency: 'EUR' });
    const key = (await stack.issueKey(client.client_id, 'sync')).key;
    const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
      key,
      body: {
        external_source: 'pms',
        categories: [
          { external_category_id: 'DBL', name: 'Double room', description: 'A quiet room over the garden, 18 m².', amenities: ['Free Wi-Fi', 'Air conditioning', 'Rain shower'] },
          { external_category_id: 'STE', name: 'Suite' },
        ],
      },
    });
    expect(categories.status, categories.text).toBe(200);
    const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key,
      body: {
        external_source: 'pms',
        rooms: [
          { external_room_id: 'R11', external_category_id: 'DBL', room_number: '11', room_type: 'double', price: 1120, max_occupancy: 2 },
          { external_room_id: 'R12', external_category_id: 'DBL', room_number: '12', room_type: 'double', price: 1120, max_occupancy: 2 },
          { external_room_id: 'R21', external_category_id: 'STE', room_number: '21', room_type: 'suite', price: 1890.5, max_occupancy: 4 },
        ],
      },
    });
    expect(rooms.status, rooms.text).toBe(200);
    await setClientSettings(client.client_id, { taxes_included: true, cancellation_policy: POLICY, check_in_time: '15:00', address: ADDRESS });
    lumen = { clientId: client.client_id, rooms: new Map((rooms.body.items as { id: string; external_room_id: string }[]).map((r) => [r.external_room_id.slice(1), r.id])) };
  });

  it('asks for the dates with the browser\'s date picker, and still checks them: "28/11/2026" is the form again with a summary on top', async () => {
    const form = await get(`/book/${lumen.clientId}`);
    expect(form.html).toMatch(/<input id="f-check_in" name="check_in" type="date"/);
    expect(form.html).toMatch(/<input id="f-check_out" name="check_out" type="date"/);

    const typed = await search(lumen.clientId, { check_in: '28/11/2026', check_out: day(3), guests: '2' });
    expect(typed.status).toBe(400);
    expect(fieldError(typed.html, 'check_in')).toBe('Check-in must be a real date, written year-month-day, like 2026-11-28');
    expect(typed.html).toContain('value="28/11/2026"');
    // The error summary on top links to the field; the page's title says there is a problem.
    expect(typed.html).toMatch(/<div class="error-summary" role="alert"[^>]*>.*<a href="#f-check_in">Check-in must be a real date/);
    expect(typed.html).toContain('<title>Error: Book a room · Hotel Lumen</title>');

    const past = await search(lumen.clientId, { check_in: day(-2), check_out: day(33), guests: '2' });
    expect(fieldError(past.html, 'check_in')).toBe('Check-in cannot be in the past');
    expect(fieldError(past.html, 'check_out')).toBe('Check-out must be at most 30 nights after check-in');
  });

  it('shows each category\'s description and amenities, the price a night and the total with the currency, and that taxes are included', async () => {
    const page = await search(lumen.clientId, stay());
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('A quiet room over the garden, 18 m². Free Wi-Fi Air conditioning Rain shower Up to 2 guests');
    expect(page.html).toMatch(/<ul class="amenities" aria-label="Amenities: Double room"[^>]*><li>Free Wi-Fi<\/li><li>Air conditioning<\/li><li>Rain shower<\/li><\/ul>/);
    expect(text).toContain('Up to 2 guests 1,120.00 EUR a night 3,360.00 EUR for 3 nights');
    expect(text).toContain('Up to 4 guests 1,890.50 EUR a night 5,671.50 EUR for 3 nights');
    expect(text).toContain('Each room type shows its price a night and the total for your 3 nights, in EUR. Taxes included.');
    // A category the PMS says nothing more of: its name and price only.
    expect(text).toMatch(/Suite (\d left )?Up to 4 guests/);

    const { setClientSettings } = await import('../../shared/domain/clients');
    await setClientSettings(lumen.clientId, { taxes_included: false });
    try {
      expect(textOf((await search(lumen.clientId, stay())).html)).toContain('in EUR. Taxes not included.');
    } finally {
      await setClientSettings(lumen.clientId, { taxes_included: true });
    }
  });

  it('states the cancellation policy on the details page before the guest pays; a hotel without one tells the guest to ask', async () => {
    const page = await get(`/book/${lumen.clientId}/details?${new URLSearchParams({ ...stay(), room_id: lumen.rooms.get('11')! })}`);
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain('Room Double room');
    expect(text).toContain('Per night 1,120.00 EUR Total 3,360.00 EUR for 3 nights Taxes Included in the price');
    // The hotel's 15:00 as English writes it.
    expect(text).toContain(`Check-in ${written(stay().check_in)}, from 3:00 PM`);
    expect(text).toContain('Cancellation policy Free cancellation until 48 hours before arrival. After that, the first night is charged.');
    expect(page.html.indexOf('Free cancellation until 48 hours')).toBeLessThan(page.html.indexOf('Book and pay 3,360.00 EUR'));

    const plain = textOf((await get(`/book/${tenant.clientId}/details?${new URLSearchParams({ ...stay(), room_id: roomIdOf('101') })}`)).html);
    expect(plain).toContain('Cancellation policy The hotel has not published a cancellation policy here. Please ask the hotel about cancelling before you pay.');
    expect(plain).not.toMatch(/tax/i);
  });

  it('answers bad guest details with an error summary linking to each field, plain words beside it, what was typed kept', async () => {
    const page = await post(`/book/${lumen.clientId}/bookings`, { ...stay(), room_id: lumen.rooms.get('12')!, name: '', email: 'ada@', phone: '0044 12', pay: 'checkout' });
    expect(page.status).toBe(400);
    expect(fieldError(page.html, 'name')).toBe('Enter your name');
    expect(fieldError(page.html, 'email')).toBe('Enter an e-mail address in the right format, like name@example.com');
    expect(fieldError(page.html, 'phone')).toBe('Enter a phone number in international format, like +44 20 7946 0958');
    for (const field of ['name', 'email', 'phone']) expect(page.html).toContain(`<a href="#f-${field}">`);
    expect(page.html).toContain('value="ada@"');
    expect(page.html).toContain('value="0044 12"');
    expect(page.html).toContain('<title>Error: Your details · Hotel Lumen</title>');
  });

  it('says on the confirmation what happens next: the e-mail, check-in time, the address, the payment and the policy', async () => {
    const email = `next-${randomUUID().slice(0, 8)}@example.com`;
    const opened = await post(`/book/${lumen.clientId}/bookings`, { ...(await lumenForm('Double room', { ...stay(), check_in: day(70), check_out: day(72) })), name: 'Ada Lovelace', email, pay: 'checkout' });
    expect(opened.status, opened.html).toBe(303);
    const landed = await leaveCheckout(opened.location!, 'paid');
    expect(landed.status).toBe(200);
    const text = textOf(landed.html);
    expect(text).toContain('Booking confirmed');
    expect(text).toContain(`What happens next We are sending a confirmation e-mail with these details to ${email}.`);
    expect(text).toContain(`Check-in is from 3:00 PM on ${written(day(70))}: give your booking reference or confirmation code at the reception desk.`);
    expect(text).toContain("The hotel's address: Hotel Lumen Rua das Flores 12 1200-195 Lisboa");
    expect(landed.html).toContain('<span class="address">Hotel Lumen\nRua das Flores 12\n1200-195 Lisboa</span>');
    expect(text).toContain('Your payment of 2,240.00 EUR is done.');
    expect(text).toContain('Cancellation policy: Free cancellation until 48 hours before arrival.');
    expect(text).toContain('Total 2,240.00 EUR, taxes included');
    expect(text).not.toContain('guest:');
  });

  /** The details form of a Lumen room type as the page renders it (its attempt id included). */
  async function lumenForm(type: 'Double room' | 'Suite', at: Record<string, string>): Promise<Record<string, string>> {
    const page = await get(`/book/${lumen.clientId}/details?${new URLSearchParams({ ...at, offer: type })}`);
    expect(page.status).toBe(200);
    return { ...at, room_type: type, attempt: attemptOf(page.html)! };
  }

  it.each(['failed', 'cancelled'] as const)('after a %s payment: the room held (not "assigned by the hotel"), "Try again" with the same room type and details, which pays', async (outcome) => {
    const at = { check_in: day(outcome === 'failed' ? 80 : 84), check_out: day(outcome === 'failed' ? 82 : 86), guests: '2' };
    const email = `again-${outcome}-${randomUUID().slice(0, 8)}@example.com`;
    const opened = await post(`/book/${lumen.clientId}/bookings`, { ...(await lumenForm('Double room', at)), name: 'Grace "Amazing" Hopper', email, phone: '+351 21 000 0000', pay: 'checkout' });
    expect(opened.status, opened.html).toBe(303);
    const declined = await leaveCheckout(opened.location!, outcome);
    expect(declined.status).toBe(200);
    const text = textOf(declined.html);
    expect(text).toContain('Payment not confirmed');
    expect(text).toContain('Your payment did not go through, so the room is not booked.');
    expect(text).not.toContain('assigned by the hotel');
    // The service picked the first free double, room 11.
    expect(text).toContain(`The stay you chose Room 11 Check-in ${written(at.check_in)}, from 3:00 PM Check-out ${written(at.check_out)} Guests 2 Guest Grace "Amazing" Hopper`);
    expect(text).toMatch(/Try again A Double room is still free\. You can pay for it again with the same details until (?:\w{3}, \d{1,2} \w{3,4} \d{4}, )?\d{1,2}:\d\d [AP]M hotel time, without typing anything again\. Try again 2,240\.00 EUR for 2 nights/);
    expect(text).not.toContain('guest:');

    // The button posts the same room type, stay and details, with an attempt of its own.
    const action = `/book/${lumen.clientId}/bookings`;
    const fields = hiddenFieldsOf(declined.html, action);
    expect(fields).toEqual({ room_type: 'Double room', ...at, name: 'Grace "Amazing" Hopper', email, phone: '+351210000000', attempt: expect.stringMatching(UUID) });
    const again = await post(action, { ...fields, pay: 'checkout' });
    expect(again.status, again.html).toBe(303);
    expect(again.location).toMatch(new RegExp(`^${stack.sandboxUrl}/checkout/`));
    expect(again.location).not.toBe(opened.location);
    // Held again meanwhile: one double is left to anyone else.
    expect(textOf((await search(lumen.clientId, at)).html)).toContain('Double room 1 left');
    const paid = await leaveCheckout(again.location!, 'paid');
    expect(textOf(paid.html)).toContain('Booking confirmed');
    expect(textOf(paid.html)).toContain('Room 11');
    expect(textOf(paid.html)).toContain(email);
  });

  it('after a declined payment whose room type someone else took, or whose half hour is over: the free rooms for the same dates and guests', async () => {
    const at = { check_in: day(90), check_out: day(91), guests: '1' };
    const opened = await post(`/book/${lumen.clientId}/bookings`, { ...(await lumenForm('Double room', at)), name: 'Ada', email: 'ada@example.com', pay: 'checkout' });
    const declined = await leaveCheckout(opened.location!, 'failed');
    expect(textOf(declined.html)).toContain('Try again');

    // Other guests open checkouts for both doubles meanwhile.
    guestAddress = '127.0.0.250';
    for (const email of ['grace@example.com', 'alan@example.com']) {
      const other = await post(`/book/${lumen.clientId}/bookings`, { ...(await lumenForm('Double room', at)), name: 'Other', email, pay: 'checkout' });
      expect(other.status).toBe(303);
    }
    const taken = await get(declined.path);
    const takenText = textOf(taken.html);
    expect(takenText).toContain('Book again Sorry, no Double room can be booked for these dates any more: someone else has booked the last one meanwhile.');
    expect(taken.html).not.toContain('>Try again</button>');
    expect(linksTo(taken.html, 'See the free rooms for these dates')).toEqual([`/book/${lumen.clientId}?${new URLSearchParams(at)}`]);

    // Half an hour after the checkout opened, its hold would have ended: no "Try again" any more.
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const { keys } = await import('../../shared/store/keys');
    const { tokenHash } = await import('../../shared/domain/guest-booking/guest-bookings');
    const token = declined.path.split('/').pop()!;
    await db.send(
      new UpdateCommand({ TableName: TABLE, Key: keys.guestBooking(tokenHash(token)), UpdateExpression: 'SET created_at = :at', ExpressionAttributeValues: { ':at': new Date(Date.now() - 31 * 60_000).toISOString() } }),
    );
    const over = await get(declined.path);
    const overText = textOf(over.html);
    expect(overText).toMatch(/Book again The room was kept for you for 30 minutes, until (?:\w{3}, \d{1,2} \w{3,4} \d{4}, )?\d{1,2}:\d\d [AP]M hotel time\. That time is over, so it is no longer held for you\./);
    expect(over.html).not.toContain('>Try again</button>');
    expect(linksTo(over.html, 'See the free rooms for these dates')).toEqual([`/book/${lumen.clientId}?${new URLSearchParams(at)}`]);
    expect(overText).not.toContain('assigned by the hotel');
  });

  it('the sandbox checkout names the hotel and the stay, with the amount and its currency, never a guest: reference', async () => {
    const at = { check_in: day(95), check_out: day(98), guests: '2' };
    const opened = await post(`/book/${lumen.clientId}/bookings`, { ...(await lumenForm('Suite', at)), name: 'Ada', email: 'ada@example.com', pay: 'checkout' });
    const checkout = await fetch(opened.location!);
    const html = await checkout.text();
    // Dates and the amount as the guest's language writes them (English here), no ISO date.
    expect(textOf(html)).toContain(`Hotel Lumen: room 21, 3 nights, ${written(at.check_in)} to ${written(at.check_out)} 5,671.50 EUR`);
    expect(html).toContain('Pay 5,671.50 EUR');
    expect(html).not.toContain('guest:');
  });
});

describe('the dashboard\'s Guest booking section', () => {
  it('shows the booking URL and its QR code, a printable sheet, and saves pay at property with an audit entry', async () => {
    const admin = await signedInOperator(stack, tenant.clientId, 'admin');
    const url = `${stack.url}/book/${tenant.clientId}`;
    const page = await admin.get('/dashboard/integrations');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="${url}" class="url">${url}</a>`);
    expect(page.text).toContain(`<img class="qr" src="/book/${tenant.clientId}/qr.svg" alt="QR code of the booking page ${url}"`);
    expect(page.text).toMatch(/<input type="checkbox" name="pay_at_property" value="on"\/>/);

    const sheet = await admin.get('/dashboard/qr-sheet');
    expect(sheet.status).toBe(200);
    expect(sheet.text).toContain(`src="/book/${tenant.clientId}/qr.svg"`);
    expect(textOf(sheet.text)).toContain(url);

    const on = await admin.submit('/dashboard/integrations/guest-booking/pay-at-property', { pay_at_property: 'on' });
    expect(textOf(on.text)).toContain('Guests may now confirm a booking and pay at the hotel.');
    expect(on.text).toMatch(/<input type="checkbox" name="pay_at_property" value="on" checked\/>/);
    const { guestBookingClient } = await import('../../shared/domain/guest-booking/guest-bookings');
    expect((await guestBookingClient(tenant.clientId)).pay_at_property).toBe(true);
    const off = await admin.submit('/dashboard/integrations/guest-booking/pay-at-property', {});
    expect(textOf(off.text)).toContain('Guests now pay online when they book.');
    expect((await guestBookingClient(tenant.clientId)).pay_at_property).toBe(false);

    const audit = textOf((await admin.get('/dashboard/audit')).text);
    expect(audit).toContain('Let guests book on the booking page and pay at the hotel');
    expect(audit).toContain(admin.email);
  });
});
