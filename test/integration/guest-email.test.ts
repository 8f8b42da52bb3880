/**
 * E-mail to guests (docs/behaviour.md "Guest booking and the reception QR code"), read back from the
 * SES v2 emulator's `GET /store`: a paid guest booking's confirmation e-mail (hotel, dates, room
 * type, total, booking reference, confirmation code, a working link), staff seeing it sent; pay at
 * the hotel pending, unseen by the PMS until the "Confirm your booking" link's button (its GET
 * changes nothing), then booking.confirmed and the confirmation e-mail; one left unconfirmed
 * cancelled with its hold, the room free and nothing sent to the PMS; its hold counted among the
 * address's open holds until it is confirmed; a send that fails leaves the
 * booking confirmed, shows staff "failed, will retry" and is sent by the sweeper, or given up after
 * its last try; and a stage without a sender, where pay at the hotel cannot be turned on.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/ports';
import { type LocalFunction, supportFunction, withinInvocation } from '../../infra/local/lambda-runtime';
import { signedInOperator, textOf } from '../support/dashboard-client';
import { withEnv } from '../support/env';
import { emailsTo, emailTo, linkIn } from '../support/inbox';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
/** The function serving the guest pages, as the local stack runs it: only its declared table access. */
let pages: LocalFunction;
const asPages = <T>(work: () => Promise<T>): Promise<T> => withinInvocation(pages, work);
const asSweeper = <T>(work: () => Promise<T>): Promise<T> => withinInvocation(supportFunction('sweep-deliveries'), work);

const MINUTE = 60_000;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** Weekday, day, month and year, as the e-mails write a date. */
const written = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@guest.example`;

interface Hotel {
  clientId: string;
  name: string;
  rooms: Map<string, string>;
}

/** A hotel whose name is markup (it must show as text) with rooms 101 (double, 120) and 201 (suite, 250.50). */
async function hotel(): Promise<Hotel> {
  const { createClientAccount } = await import('../../shared/domain/clients');
  const name = `Grand <b>"Lake"</b> & Spa ${randomUUID().slice(0, 4)}`;
  const clientId = (await createClientAccount({ name, plan: 'premium' })).client_id;
  const { key } = await stack.issueKey(clientId, 'sync');
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R201', room_number: '201', room_type: 'suite', price: 250.5, max_occupancy: 4 },
      ],
    },
  });
  expect(put.status, put.text).toBe(200);
  const rooms = new Map((put.body.items as { id: string; external_room_id: string }[]).map((item) => [item.external_room_id.slice(1), item.id]));
  return { clientId, name, rooms };
}

async function receiveCallbacks(clientId: string): Promise<void> {
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  await configureEndpoint(clientId, 'callback', { url: receiver.url });
}

const callbacksOf = (clientId: string) =>
  receiver.received.filter((r) => r.headers['x-service-client'] === clientId).map((r) => JSON.parse(r.rawBody.toString('utf8')) as { event: string; booking: Record<string, unknown> });

async function get(path: string) {
  const response = await fetch(new URL(path, stack.url), { redirect: 'manual' });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

async function post(path: string, form: Record<string, string> = {}) {
  const response = await fetch(new URL(path, stack.url), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: stack.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

/** The guest details form of a room and stay as the page renders it (its attempt id included), filled in. */
async function bookingForm(h: Hotel, stay: Record<string, string>, roomNumber: string, guest: { name: string; email: string }, pay: 'checkout' | 'at_property') {
  const page = await get(`/book/${h.clientId}/details?${new URLSearchParams({ ...stay, room_id: h.rooms.get(roomNumber)! })}`);
  expect(page.status, page.html).toBe(200);
  const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(page.html)![1]!;
  return { ...stay, room_id: h.rooms.get(roomNumber)!, attempt, ...guest, pay };
}

/** Books and pays on the sandbox checkout, then follows the provider's redirect: the confirmation page's path. */
async function bookAndPay(h: Hotel, stay: Record<string, string>, guest: { name: string; email: string }): Promise<string> {
  const opened = await post(`/book/${h.clientId}/bookings`, await bookingForm(h, stay, '101', guest, 'checkout'));
  expect(opened.status, opened.html).toBe(303);
  const paid = await fetch(opened.location!, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=paid' });
  expect(paid.status).toBe(303);
  const verify = await fetch(new URL(paid.headers.get('location')!, stack.url), { redirect: 'manual' });
  expect(verify.status).toBe(303);
  const landed = new URL(verify.headers.get('location')!);
  return landed.pathname;
}

const codesOf = (html: string) => {
  const match = /Booking reference (BK-\S+) Confirmation code (\S+)/.exec(textOf(html));
  expect(match, textOf(html)).not.toBeNull();
  return { reference: match![1]!, code: match![2]! };
};

const bookingsOf = async (clientId: string, email: string) => {
  const { listBookings } = await import('../../shared/store/booking-store');
  return (await listBookings(clientId)).filter((b) => b.guest_email === email);
};

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  const { guestBookingTableAccess } = await import('../../definitions/guest-booking-access');
  pages = { name: 'GuestBookingTest', handler: 'guest-booking', tableAccess: guestBookingTableAccess };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('a paid guest booking', () => {
  it('gets its confirmation e-mail: hotel, dates, room type, total, reference, code and a working link; staff see it sent', async () => {
    const h = await hotel();
    const guest = { name: 'Ada <Lovelace>', email: address('paid') };
    const stay = { check_in: day(30), check_out: day(32), guests: '2' };
    const landed = await bookAndPay(h, stay, guest);
    const page = await get(landed);
    expect(textOf(page.html)).toContain('Booking confirmed');
    const { reference, code } = codesOf(page.html);

    const email = await emailTo(guest.email, /^Booking confirmed/);
    expect(email.from).toMatch(/<bookings@hotel-integration\.example>$/);
    expect(email.subject).toBe(`Booking confirmed: ${h.name}, ${written(stay.check_in)} (${reference})`);
    const text = email.body.text!;
    for (const line of [
      h.name,
      `Dear ${guest.name},`,
      `Booking reference: ${reference}`,
      `Confirmation code: ${code}`,
      `Check-in: ${written(stay.check_in)}`,
      `Check-out: ${written(stay.check_out)}`,
      'Room: 101, double',
      'Total: 240.00 USD',
      'Payment: Paid',
    ]) {
      expect(text).toContain(line);
    }
    // The HTML part says the same, every value escaped by the renderer.
    const html = email.body.html!;
    expect(html).toContain(reference);
    expect(html).toContain(code);
    expect(html).toContain('Ada &lt;Lovelace>');
    expect(html).not.toContain('<b>"Lake"</b>');
    expect(html).not.toContain('<Lovelace>');

    // Its link is the booking's confirmation page.
    const link = linkIn(email, 'See your booking');
    expect(new URL(link).pathname).toBe(landed);
    expect(html).toContain(`href="${link}"`);
    const opened = await get(link);
    expect(opened.status).toBe(200);
    expect(codesOf(opened.html)).toEqual({ reference, code });

    const [booking] = await bookingsOf(h.clientId, guest.email);
    const admin = await signedInOperator(stack, h.clientId, 'staff');
    const detail = textOf((await admin.get(`/dashboard/bookings/${booking!.id}`)).text);
    expect(detail).toMatch(new RegExp(`Confirmation e-mail sent at \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2} to ${guest.email}`));
    expect(await emailsTo(guest.email)).toHaveLength(1);
  });
});

describe('pay at the hotel', () => {
  it('stays pending and unseen by the PMS until the e-mail link is confirmed; then booking.confirmed and the confirmation e-mail', async () => {
    const h = await hotel();
    await receiveCallbacks(h.clientId);
    const { setPayAtProperty } = await import('../../shared/domain/guest-booking/guest-bookings');
    await setPayAtProperty(h.clientId, true);
    const guest = { name: 'Grace Hopper', email: address('desk') };
    const stay = { check_in: day(40), check_out: day(41), guests: '1' };

    const booked = await post(`/book/${h.clientId}/bookings`, await bookingForm(h, stay, '201', guest, 'at_property'));
    expect(booked.status, booked.html).toBe(303);
    const pagePath = booked.location!;
    expect(pagePath).toMatch(new RegExp(`^/book/${h.clientId}/confirmation/[A-Za-z0-9_-]{43}$`));
    const pending = textOf((await get(pagePath)).html);
    expect(pending).toContain('Check your e-mail to confirm');
    expect(pending).not.toContain('Booking reference');

    // Held: not offered to anyone else; nothing is booked, nothing is on its way to the PMS.
    expect((await get(`/book/${h.clientId}?${new URLSearchParams(stay)}`)).html).not.toContain(h.rooms.get('201'));
    const { listDeliveries } = await import('../../shared/store/delivery-listings');
    expect(await bookingsOf(h.clientId, guest.email)).toEqual([]);
    expect(await listDeliveries(h.clientId)).toEqual([]);

    const request = await emailTo(guest.email, /^Confirm your booking/);
    expect(request.subject).toBe(`Confirm your booking at ${h.name}`);
    expect(request.body.text).toContain('Room: 201, suite');
    expect(request.body.text).toContain('Total: 250.50 USD');
    const link = linkIn(request, 'Confirm your booking');
    expect(new URL(link).pathname).toMatch(new RegExp(`^/book/${h.clientId}/confirm/[A-Za-z0-9_-]{43}$`));
    // The link is not the booking page's token: only the e-mail's reader can confirm.
    expect(link).not.toContain(pagePath.split('/').pop()!);

    // Opening the link (a mail scanner fetching it, twice) shows the button and changes nothing.
    for (let i = 0; i < 2; i++) {
      const opened = await get(link);
      expect(opened.status).toBe(200);
      expect(textOf(opened.html)).toContain('Confirm your booking');
      expect(opened.html).toMatch(/<form method="post" action="[^"]*\/confirm\/[A-Za-z0-9_-]{43}"><button type="submit" class="wide">Confirm booking<\/button><\/form>/);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(await bookingsOf(h.clientId, guest.email)).toEqual([]);
    expect(await listDeliveries(h.clientId)).toEqual([]);
    expect(callbacksOf(h.clientId)).toEqual([]);

    // The button: confirmed, then the booking's page.
    const confirmed = await post(new URL(link).pathname);
    expect(confirmed.status, confirmed.html).toBe(303);
    expect(confirmed.location).toBe(pagePath);
    const page = await get(pagePath);
    expect(textOf(page.html)).toContain('Booking confirmed');
    expect(textOf(page.html)).toContain('Payment To pay at the hotel');
    const { reference, code } = codesOf(page.html);

    const [callback] = await waitFor('booking.confirmed', async () => (callbacksOf(h.clientId).length ? callbacksOf(h.clientId) : undefined));
    expect(callback).toMatchObject({
      event: 'booking.confirmed',
      booking: { booking_reference: reference, confirmation_code: code, payment_status: 'unpaid', payment_method: 'pay_at_property', total_amount: 250.5 },
    });
    const confirmation = await emailTo(guest.email, /^Booking confirmed/);
    expect(confirmation.body.text).toContain(`Booking reference: ${reference}`);
    expect(confirmation.body.text).toContain(`Confirmation code: ${code}`);
    expect(confirmation.body.text).toContain('Payment: To pay at the hotel');
    expect(new URL(linkIn(confirmation, 'See your booking')).pathname).toBe(pagePath);

    // Confirming again (a double click, the link opened later) changes nothing.
    expect((await post(new URL(link).pathname)).location).toBe(pagePath);
    expect((await get(link)).location).toBe(pagePath);
    expect(await bookingsOf(h.clientId, guest.email)).toHaveLength(1);
    expect(await listDeliveries(h.clientId)).toHaveLength(1);
    expect((await emailsTo(guest.email)).map((e) => e.subject.split(' ')[0])).toEqual(['Confirm', 'Booking']);
  });

  it('unconfirmed when its hold ends: cancelled, the room free again, nothing sent to the PMS; its link confirms nothing', async () => {
    const h = await hotel();
    await receiveCallbacks(h.clientId);
    const guest = await import('../../shared/domain/guest-booking/guest-bookings');
    const desk = await import('../../shared/domain/guest-booking/pay-at-property');
    await guest.setPayAtProperty(h.clientId, true);
    const who = { name: 'Alan Turing', email: address('late') };
    const stay = { check_in: day(50), check_out: day(52), guests: 1 };
    const now = new Date();
    const at = (minutes: number) => new Date(now.getTime() + minutes * MINUTE);
    const { token } = await asPages(() => desk.bookPayAtProperty(h.clientId, { room_id: h.rooms.get('101')!, stay, guest: who, attempt: guest.newBookingAttempt() }, stack.url, now));
    const secret = linkIn(await emailTo(who.email, /^Confirm your booking/), 'Confirm your booking').split('/').pop()!;

    const offered = async (when: Date) => (await asPages(() => guest.searchRooms(h.clientId, stay, when))).categories.flatMap((c) => c.rooms.map((r) => r.room_number));
    expect(await asPages(() => guest.guestBookingOf(h.clientId, token, at(29)))).toMatchObject({ state: 'awaiting_confirmation', confirm_by: at(30).toISOString() });
    expect(await offered(at(29))).not.toContain('101');

    expect(await asPages(() => guest.guestBookingOf(h.clientId, token, at(30)))).toMatchObject({ state: 'cancelled', booking_reference: null });
    expect(await offered(at(31))).toContain('101');
    expect(await asPages(() => desk.confirmPayAtProperty(h.clientId, secret, stack.url, at(31)))).toEqual({ token, outcome: 'ended' });
    expect(await asPages(() => desk.payAtPropertyLink(h.clientId, secret, at(31)))).toMatchObject({ token, view: { state: 'cancelled' } });

    // Another guest books the freed room; the late one's link still confirms nothing.
    const other = { name: 'Joan Clarke', email: address('next') };
    await asPages(() => desk.bookPayAtProperty(h.clientId, { room_id: h.rooms.get('101')!, stay, guest: other }, stack.url, at(31)));
    expect(await asPages(() => desk.confirmPayAtProperty(h.clientId, secret, stack.url, at(32)))).toEqual({ token, outcome: 'ended' });
    expect(await bookingsOf(h.clientId, who.email)).toEqual([]);
    const { listDeliveries } = await import('../../shared/store/delivery-listings');
    expect(await listDeliveries(h.clientId)).toEqual([]);
    expect(callbacksOf(h.clientId)).toEqual([]);
    // Links of another hotel, or made up, lead nowhere.
    const elsewhere = (await hotel()).clientId;
    expect(await asPages(() => desk.payAtPropertyLink(elsewhere, secret, at(1)))).toBeUndefined();
    expect(await asPages(() => desk.confirmPayAtProperty(h.clientId, 'x'.repeat(43), stack.url, at(1)))).toBeUndefined();
    expect((await get(`/book/${h.clientId}/confirm/${'x'.repeat(43)}`)).status).toBe(404);
  });
});

describe('pay at the hotel and the per-address limit', () => {
  it("counts a pending booking's hold among the address's open holds; a confirmed one gives its place back", async () => {
    const h = await hotel();
    const guest = await import('../../shared/domain/guest-booking/guest-bookings');
    const desk = await import('../../shared/domain/guest-booking/pay-at-property');
    await guest.setPayAtProperty(h.clientId, true);
    const source = '203.0.113.7';
    const book = async (roomNumber: string, from: number) => {
      const email = address('many');
      const stay = { check_in: day(from), check_out: day(from + 1), guests: 1 };
      const { token } = await asPages(() => desk.bookPayAtProperty(h.clientId, { room_id: h.rooms.get(roomNumber)!, stay, guest: { name: 'Mallory', email }, source }, stack.url, new Date()));
      return { token, email };
    };
    const first = await book('101', 80);
    await book('101', 82);
    await book('201', 84);
    await expect(book('201', 86)).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // The first guest confirms: its hold is a booking now, and the address may hold another room.
    const secret = linkIn(await emailTo(first.email, /^Confirm your booking/), 'Confirm your booking').split('/').pop()!;
    expect(await asPages(() => desk.confirmPayAtProperty(h.clientId, secret, stack.url, new Date()))).toEqual({ token: first.token, outcome: 'confirmed' });
    await book('201', 86);
  });
});

describe('a send that fails', () => {
  it('leaves the booking confirmed, shows staff "failed, will retry", and the sweeper sends it; with no try left it is given up', async () => {
    const h = await hotel();
    const guest = { name: 'Katherine Johnson', email: address('retry') };
    const closed = `http://127.0.0.1:${await freePort()}`;
    const landed = await withEnv({ SES_ENDPOINT: closed }, () => bookAndPay(h, { check_in: day(60), check_out: day(61), guests: '1' }, guest));
    const page = await get(landed);
    expect(textOf(page.html)).toContain('Booking confirmed');
    const { reference } = codesOf(page.html);

    const [booking] = await bookingsOf(h.clientId, guest.email);
    const { confirmationEmailOf } = await import('../../shared/domain/guest-email/outbox');
    const failed = (await confirmationEmailOf(h.clientId, booking!.id))!;
    expect(failed).toMatchObject({ status: 'retrying', attempts: 1, last_error: expect.stringMatching(/\S/), to: guest.email });
    expect(await emailsTo(guest.email)).toEqual([]);
    const admin = await signedInOperator(stack, h.clientId, 'staff');
    expect(textOf((await admin.get(`/dashboard/bookings/${booking!.id}`)).text)).toContain('Confirmation e-mail failed, will retry at');

    // Not yet due: the sweeper leaves it; once due, it sends it.
    const { sweepDueEmails } = await import('../../shared/domain/guest-email/outbox');
    await asSweeper(() => sweepDueEmails({ now: new Date(Date.parse(failed.due_at!) - 1000) }));
    expect(await emailsTo(guest.email)).toEqual([]);
    await asSweeper(() => sweepDueEmails({ now: new Date(Date.parse(failed.due_at!) + 1000) }));
    const sent = await emailTo(guest.email, /^Booking confirmed/, 2_000);
    expect(sent.body.text).toContain(`Booking reference: ${reference}`);
    expect(await confirmationEmailOf(h.clientId, booking!.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect((await confirmationEmailOf(h.clientId, booking!.id))!.html).toBeUndefined();
    expect(textOf((await admin.get(`/dashboard/bookings/${booking!.id}`)).text)).toContain('Confirmation e-mail sent at');

    // SES down for good: every try fails, then it is given up and staff see so.
    const unlucky = { name: 'Dorothy Vaughan', email: address('given-up') };
    await withEnv({ SES_ENDPOINT: closed }, async () => {
      await bookAndPay(h, { check_in: day(62), check_out: day(63), guests: '1' }, unlucky);
      const [lost] = await bookingsOf(h.clientId, unlucky.email);
      for (let tries = 1; ; tries++) {
        const email = (await confirmationEmailOf(h.clientId, lost!.id))!;
        if (email.status === 'failed') {
          expect(email.attempts).toBe(7);
          expect(tries).toBe(7);
          break;
        }
        expect(email.status).toBe('retrying');
        await asSweeper(() => sweepDueEmails({ now: new Date(Date.parse(email.due_at!) + 1000) }));
      }
      expect(textOf((await admin.get(`/dashboard/bookings/${lost!.id}`)).text)).toMatch(/Confirmation e-mail failed after 7 tries to \S+, not retried/);
    });
    expect(await emailsTo(unlucky.email)).toEqual([]);
  });
});

describe('a stage without a sender', () => {
  it('sends no e-mail, and pay at the hotel cannot be turned on (the dashboard says so)', async () => {
    const h = await hotel();
    const { guestBookingClient, setPayAtProperty } = await import('../../shared/domain/guest-booking/guest-bookings');
    await setPayAtProperty(h.clientId, true);
    await withEnv({ SENDER_EMAIL: undefined }, async () => {
      await expect(setPayAtProperty(h.clientId, true)).rejects.toMatchObject({ status: 409, code: 'EMAIL_NOT_CONFIGURED' });
      // A hotel that had it on: its guests are not offered it.
      expect((await guestBookingClient(h.clientId)).pay_at_property).toBe(false);
      const details = await get(`/book/${h.clientId}/details?${new URLSearchParams({ check_in: day(70), check_out: day(71), guests: '1', room_id: h.rooms.get('101')! })}`);
      expect(textOf(details.html)).not.toContain('pay at the hotel');
      const admin = await signedInOperator(stack, h.clientId, 'admin');
      const integrations = textOf((await admin.get('/dashboard/integrations')).text);
      expect(integrations).toContain('Pay at the hotel Not available: this service sends no e-mail');

      const guest = { name: 'No Mail', email: address('no-sender') };
      await bookAndPay(h, { check_in: day(72), check_out: day(73), guests: '1' }, guest);
      const [booking] = await bookingsOf(h.clientId, guest.email);
      const { confirmationEmailOf } = await import('../../shared/domain/guest-email/outbox');
      expect(await confirmationEmailOf(h.clientId, booking!.id)).toBeUndefined();
    });
    await setPayAtProperty(h.clientId, false);
  });
});
