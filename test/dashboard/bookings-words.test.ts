/**
 * The Bookings list as a receptionist reads it (docs/behaviour.md "The hotel's own time, and pages
 * people can rely on"): statuses, origins and payments in words, totals with the hotel's currency,
 * rooms by number and category, and no internal id shown as text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The rows of a table part of the page, as text, keyed by nothing: the caller finds its guest. */
const rowsOf = (html: string) => [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!);
const part = (html: string, from: string, to?: string) => {
  const start = html.indexOf(from);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, to ? html.indexOf(to, start) : html.length);
};
const rowOf = (rows: string[], guest: string) => {
  const found = rows.filter((row) => textOf(row).includes(guest));
  expect(found, `one row for ${guest}`).toHaveLength(1);
  return found[0]!;
};
/** A row's cells as text, in column order. */
const cellsOf = (row: string) => [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => textOf(m[1]!));

describe('the bookings list in words', () => {
  let tenant: Tenant;
  let staff: DashboardClient;
  let rooms: Map<string, string>;

  beforeAll(async () => {
    // A hotel that charges in euros, so a total shown in dollars (or in no currency) would show.
    const { createClientAccount } = await import('../../shared/domain/clients');
    const client = await createClientAccount({ name: 'Hotel Euro', plan: 'premium', currency: 'EUR' });
    const [sync, payment] = await Promise.all([stack.issueKey(client.client_id, 'sync'), stack.issueKey(client.client_id, 'payment')]);
    tenant = { clientId: client.client_id, syncKey: sync.key, syncKeyId: sync.key_id, paymentKey: payment.key, paymentKeyId: payment.key_id };

    const put = (path: string, body: Record<string, unknown>) => stack.request('PUT', `/api/v1/property-sync/${path}`, { key: tenant.syncKey, body: { external_source: 'pms', ...body } });
    expect((await put('room-categories', { categories: [{ external_category_id: 'DLX', name: 'Deluxe Double', base_price: 180 }] })).status).toBe(200);
    const synced = await put('rooms', {
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', price: 180, max_occupancy: 2, external_category_id: 'DLX' },
        { external_room_id: 'R102', room_number: '102', room_type: 'Twin', price: 100, max_occupancy: 2 },
      ],
    });
    expect(synced.status).toBe(200);
    rooms = new Map(synced.body.items.map((item: { external_room_id: string; id: string }) => [item.external_room_id, item.id]));
    const bookings = await put('bookings', {
      bookings: [
        {
          external_booking_id: 'PMS-881',
          external_room_id: 'R101',
          guest_name: 'Grace Hopper',
          guests: 2,
          check_in_date: '2029-05-01',
          check_out_date: '2029-05-03',
          status: 'checked_in',
          payment_status: 'partially_paid',
          total_amount: 360.5,
        },
      ],
    });
    expect(bookings.status).toBe(200);
    // Paid online: one on room 102, one recorded for manual assignment (awaiting a room).
    await paidRoomBooking(stack, tenant, { check_in_date: '2029-05-10', check_out_date: '2029-05-12', serviceRoomId: rooms.get('R102') }, { amountMinor: 24000, currency: 'EUR' });
    const awaiting = await paidRoomBooking(stack, tenant, { check_in_date: '2029-05-20', check_out_date: '2029-05-21' }, { amountMinor: 9950, currency: 'EUR' });
    expect(awaiting.sync.room_id).toBeNull();
    staff = await signedInOperator(stack, tenant.clientId, 'staff');
  });

  it('names status, origin and payment in words, totals with the euro, rooms by number and category', async () => {
    const page = await staff.get('/dashboard/bookings');
    expect(page.status).toBe(200);
    const list = part(page.text, '<h2>All bookings</h2>');
    const head = [...list.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
    const column = (name: string) => {
      const at = head.indexOf(name);
      expect(at, `a "${name}" column`).toBeGreaterThan(-1);
      return at;
    };
    const rows = rowsOf(list);

    const pms = cellsOf(rowOf(rows, 'Grace Hopper'));
    expect(pms[column('Room')]).toBe('101 (Deluxe Double)');
    expect(pms[column('Status')]).toBe('Checked in');
    expect(pms[column('Origin')]).toBe('From your PMS');
    expect(pms[column('Payment')]).toBe('Partly paid');
    expect(pms[column('Total')]).toBe('360.50 EUR');
    expect(pms[column('Reference')]).toBe('pms PMS-881');

    const [paidOnRoom, paidAwaiting] = rows.filter((row) => textOf(row).includes('Ada Lovelace')).map(cellsOf);
    // Check-in order: the stay on room 102 (May 10) before the one awaiting its room (May 20).
    expect(paidOnRoom![column('Check-in')]).toBe('Thu 10 May 2029');
    expect(paidOnRoom![column('Room')]).toBe('102 (Twin)');
    expect(paidOnRoom![column('Status')]).toBe('Confirmed');
    expect(paidOnRoom![column('Origin')]).toBe('Paid online');
    expect(paidOnRoom![column('Payment')]).toBe('Paid');
    expect(paidOnRoom![column('Total')]).toBe('240.00 EUR');
    expect(paidOnRoom![column('Reference')]).toMatch(/^\S+$/);
    expect(paidAwaiting![column('Room')]).toBe('Awaiting a room');
    expect(paidAwaiting![column('Total')]).toBe('99.50 EUR');

    // Nothing internal as text: no raw code, no internal id (the room ids, booking ids, the client).
    const shown = rows.map(textOf).join('\n');
    for (const raw of ['checked_in', 'partially_paid', 'sandbox', 'payment ', ' sync', 'USD']) expect(shown).not.toContain(raw);
    expect(shown).not.toMatch(UUID);
  });

  it('shows what was paid, with the currency, for a booking awaiting its room', async () => {
    const page = await staff.get('/dashboard/bookings');
    const awaiting = part(page.text, '<h2>Awaiting a room</h2>', '<h2>All bookings</h2>');
    const row = textOf(rowOf(rowsOf(awaiting), 'Ada Lovelace'));
    expect(row).toContain('Sun 20 May 2029');
    expect(row).toContain('99.50 EUR');
    expect(row).not.toMatch(UUID);
  });
});
