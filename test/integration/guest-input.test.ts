/**
 * What partners and guests may type (docs/reliability.md "Only the guest holds a guest's booking"), over
 * HTTP on the local stack: an order reference starting `guest:` is the guest page's own (400
 * VALIDATION_ERROR, path `reference`); a guest's name carries no control character and no web
 * address on the APIs that take one (payment orders, PMS bookings) and on the booking page's form
 * (the form again, the message beside the field, nothing held); one address gets at most 3
 * "Confirm your booking" e-mails an hour (a 4th booking: the form again, the message beside the
 * e-mail field, nothing held or sent), whatever source address the bookings come from.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../support/dashboard-client';
import { pagesOf, postForm } from '../support/form-post';
import { emailsTo } from '../support/inbox';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const address = (who: string) => `${who}-${randomUUID().slice(0, 8)}@guest.example`;
const BAD_NAMES = ['Ada\nBcc: victim@example.com', 'Ada\rLovelace', 'Ada\u0007', 'Ada\u2028Lovelace', 'Win at https://evil.example', 'see http://evil.example', 'www.evil.example'];

interface Hotel {
  clientId: string;
  syncKey: string;
  paymentKey: string;
  rooms: string[];
}

async function hotel(): Promise<Hotel> {
  const { createClientAccount } = await import('../../shared/domain/clients');
  const clientId = (await createClientAccount({ name: `Hotel Input ${randomUUID().slice(0, 4)}`, plan: 'premium', currency: 'EUR' })).client_id;
  const [sync, payment] = await Promise.all([stack.issueKey(clientId, 'sync'), stack.issueKey(clientId, 'payment')]);
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: sync.key,
    body: { external_source: 'pms', rooms: ['101', '102', '103', '104', '105'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 100, max_occupancy: 2 })) },
  });
  expect(put.status, put.text).toBe(200);
  return { clientId, syncKey: sync.key, paymentKey: payment.key, rooms: (put.body.items as { id: string }[]).map((i) => i.id) };
}

const order = (h: Hotel, body: Record<string, unknown>) =>
  stack.request('POST', '/api/v1/payments/payment-orders', {
    key: h.paymentKey,
    headers: { 'Idempotency-Key': randomUUID() },
    body: { reference: `P-${randomUUID().slice(0, 8)}`, amount_minor: 5000, currency: 'EUR', customer: { email: address('p') }, success_url: 'https://partner.example/ok', cancel_url: 'https://partner.example/no', ...body },
  });

/** The booking page's form for a room, from a guest at `from` (a loopback address: each its own source). */
async function book(h: Hotel, room: number, guest: { name: string; email: string }, pay: 'checkout' | 'at_property', from = '127.0.0.1') {
  const stay = { check_in: day(20), check_out: day(21), guests: '1' };
  const details = await pagesOf(stack.url).get(`/book/${h.clientId}/details?${new URLSearchParams({ ...stay, room_id: h.rooms[room]! })}`);
  expect(details.status, details.html).toBe(200);
  const attempt = /<input type="hidden" name="attempt" value="([^"]*)"\/>/.exec(details.html)![1]!;
  return postForm(`${stack.url}/book/${h.clientId}/bookings`, { ...stay, room_id: h.rooms[room]!, attempt, ...guest, pay }, { origin: stack.url, from });
}

/** The message the form shows beside a field (the GOV.UK pattern: an error message inside the field's group). */
const besideField = (html: string, field: string) => new RegExp(`id="f-${field}-error"[^>]*>([^<]+)`).exec(html)?.[1]?.replaceAll('&quot;', '"');

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

describe('order references', () => {
  it('`guest:` is the guest page\'s own: 400 VALIDATION_ERROR at `reference`, nothing created', async () => {
    const h = await hotel();
    for (const reference of ['guest:anything', 'guest:']) {
      const refused = await order(h, { reference });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'reference' })] });
    }
    // Only the exact prefix is reserved.
    expect((await order(h, { reference: 'Guest-1' })).status).toBe(201);
  });
});

describe("a guest's name", () => {
  it('refuses control characters and web addresses on the payment order and PMS booking APIs', async () => {
    const h = await hotel();
    for (const name of BAD_NAMES) {
      const refused = await order(h, { customer: { email: address('n'), name } });
      expect(refused.status, `${JSON.stringify(name)}: ${refused.text}`).toBe(400);
      expect(refused.body.error.details).toEqual([expect.objectContaining({ path: 'customer.name' })]);
      const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
        key: h.syncKey,
        body: {
          external_source: 'pms',
          bookings: [{ external_booking_id: `B-${randomUUID().slice(0, 6)}`, external_room_id: 'R101', guest_name: name, guests: 1, check_in_date: day(5), check_out_date: day(6), status: 'confirmed' }],
        },
      });
      expect(synced.status, `${JSON.stringify(name)}: ${synced.text}`).toBe(400);
      expect(JSON.stringify(synced.body.error.details)).toContain('guest_name');
    }
    expect((await order(h, { customer: { email: address('n'), name: "Ada O'Brien-Lovelace, Jr." } })).status).toBe(201);
  });

  it('on the booking form: the form again with the message beside the name, nothing held', async () => {
    const h = await hotel();
    for (const name of ['Ada\nBcc: victim@example.com', 'Visit www.evil.example']) {
      const refused = await book(h, 0, { name, email: address('form') }, 'checkout');
      expect(refused.status, refused.html).toBe(400);
      expect(besideField(refused.html, 'name')).toMatch(/^Name must not contain (line breaks|a web address)/);
    }
    // Nothing was held: the room is still offered, and a proper name books it.
    expect((await book(h, 0, { name: 'Ada Lovelace', email: address('form') }, 'checkout')).status).toBe(303);
  });
});

describe('"Confirm your booking" e-mails', () => {
  it('at most 3 an hour to one address, from any source: the 4th booking is refused beside the e-mail field, nothing held or sent', async () => {
    const h = await hotel();
    const { setPayAtProperty } = await import('../../shared/domain/guest-booking/guest-bookings');
    await setPayAtProperty(h.clientId, true);
    const email = address('target');
    for (let i = 0; i < 3; i++) {
      const booked = await book(h, i, { name: 'Ada Lovelace', email }, 'at_property', `127.0.0.${i + 2}`);
      expect(booked.status, booked.html).toBe(303);
    }
    const fourth = await book(h, 3, { name: 'Ada Lovelace', email: email.toUpperCase() }, 'at_property', '127.0.0.9');
    expect(fourth.status, fourth.html).toBe(429);
    expect(besideField(fourth.html, 'email')).toContain('This address was sent 3 "Confirm your booking" e-mails in the last hour already');
    const { searchRooms } = await import('../../shared/domain/guest-booking/guest-bookings');
    const offered = await searchRooms(h.clientId, { check_in: day(20), check_out: day(21), guests: 1 }, new Date());
    expect(offered.categories.flatMap((c) => c.rooms.map((r) => r.room_number))).toContain('104');
    // Three e-mails were sent, no fourth; another address is not held back.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await emailsTo(email)).filter((e) => e.subject.startsWith('Confirm your booking'))).toHaveLength(3);
    expect((await book(h, 3, { name: 'Ada Lovelace', email: address('other') }, 'at_property', '127.0.0.9')).status).toBe(303);
  }, 60_000);
});
