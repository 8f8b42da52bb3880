/**
 * The dashboard's search over HTTP (docs/behaviour.md, "Dashboard search"): the header's box on
 * every page, and its results page finding a booking by the guest's name (any word, its start,
 * case and accents aside) or e-mail, booking reference, confirmation code, room number, external
 * booking id and order reference, only within the operator's client; a renamed guest or a moved
 * booking is found by what it is now, never by what it was; at most 20 results, the latest stays
 * first; an empty or too long search answered with the error summary (400).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { runOps } from '../support/ops-cli';
import { orderStatus, paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

interface Hotel {
  tenant: Tenant;
  rooms: Map<string, string>;
  staff: DashboardClient;
}

async function hotel(): Promise<Hotel> {
  const tenant = await stack.createTenant();
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ['101', '102', '103', 'A7'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 100, max_occupancy: 2 })) },
  });
  expect(put.status).toBe(200);
  const rooms = new Map<string, string>(put.body.items.map((item: { external_room_id: string; id: string }) => [item.external_room_id.slice(1), item.id]));
  return { tenant, rooms, staff: await signedInOperator(stack, tenant.clientId, 'staff') };
}

async function syncBookings(tenant: Tenant, bookings: Record<string, unknown>[]): Promise<string[]> {
  const put = await stack.request('PUT', '/api/v1/property-sync/bookings', { key: tenant.syncKey, body: { external_source: 'pms', bookings } });
  expect(put.status, put.text).toBe(200);
  return put.body.items.map((item: { id: string }) => item.id);
}

interface Row {
  id: string;
  text: string;
}

/** The results table's rows: the booking each links to and what it says. */
function rowsOf(html: string): Row[] {
  return [...html.matchAll(/<tr>(?:(?!<\/tr>)[\s\S])*?href="\/dashboard\/bookings\/([0-9a-f-]{36})"[\s\S]*?<\/tr>/g)].map((m) => ({ id: m[1]!, text: textOf(m[0]) }));
}

async function search(staff: DashboardClient, q: string) {
  const page = await staff.get(`/dashboard/search?q=${encodeURIComponent(q)}`);
  return { ...page, rows: rowsOf(page.text), words: textOf(page.text) };
}

const zoe = {
  external_booking_id: 'PMS-4711',
  external_room_id: 'R101',
  guest_name: 'Zoë Ångström-Noël',
  guest_email: 'Zoe.Angstrom@Example.com',
  guests: 1,
  check_in_date: '2030-01-10',
  check_out_date: '2030-01-12',
  status: 'confirmed',
};

describe('the search box', () => {
  let h: Hotel;
  let other: Hotel;
  const ids = { zoe: '', smith: '', desk: '', paid: '', otherZoe: '' };
  let desk: { reference: string; code: string };
  let paid: { orderReference: string; partnerReference: string };

  beforeAll(async () => {
    [h, other] = await Promise.all([hotel(), hotel()]);
    const synced = await syncBookings(h.tenant, [
      zoe,
      { external_booking_id: 'PMS-4712', external_room_id: 'R102', guest_name: "Jan O'Smith", guests: 2, check_in_date: '2030-01-15', check_out_date: '2030-01-17', status: 'confirmed' },
    ]);
    ids.zoe = synced[0]!;
    ids.smith = synced[1]!;
    // The other hotel has a guest of the same name, e-mail and PMS id, in its own room 101.
    ids.otherZoe = (await syncBookings(other.tenant, [{ ...zoe, check_in_date: '2030-02-10', check_out_date: '2030-02-12' }]))[0]!;

    const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
    const made = await createReceptionBooking(h.tenant.clientId, h.rooms.get('103')!, {
      guest_name: 'Desk Guest',
      guest_email: 'desk@example.com',
      check_in_date: '2030-03-01',
      check_out_date: '2030-03-03',
      guests: 1,
      total_amount: 200,
    });
    ids.desk = made.booking.id;
    desk = { reference: made.booking.booking_reference!, code: made.booking.confirmation_code! };

    const order = await paidRoomBooking(stack, h.tenant, { check_in_date: '2030-04-01', check_out_date: '2030-04-03' });
    ids.paid = order.sync.booking_id;
    paid = { orderReference: order.orderReference, partnerReference: (await orderStatus(stack, h.tenant, order.orderReference)).body.external_reference };
  });

  it('is on every page, labelled "Search", with the hotel\'s name in the header', async () => {
    const { getClient } = await import('../../shared/store/api-key-store');
    const name = (await getClient(h.tenant.clientId))!.name;
    for (const path of ['/dashboard', '/dashboard/rooms', '/dashboard/bookings', `/dashboard/bookings/${ids.zoe}`, '/dashboard/payments', '/dashboard/deliveries', '/dashboard/audit', '/dashboard/security']) {
      const page = await h.staff.get(path);
      expect(page.status, path).toBe(200);
      const header = page.text.slice(page.text.indexOf('<header'), page.text.indexOf('</header>'));
      expect(header, path).toContain('<form method="get" action="/dashboard/search" role="search" class="search"><label for="header-search">Search</label><input id="header-search" name="q" type="search"');
      expect(header, path).toContain('<button type="submit">Search</button>');
      expect(textOf(header), path).toContain(name);
    }
  });

  it("finds a booking by any word of the guest's name, its start, in any case, with or without accents", async () => {
    for (const q of ['angstrom', 'Ångström', 'ZOE', 'zoë ångs', 'noel', 'Ångström-Noël', '  zoe   angstrom  ']) {
      const found = await search(h.staff, q);
      expect(found.status, q).toBe(200);
      expect(found.rows.map((r) => r.id), q).toEqual([ids.zoe]);
      expect(found.rows[0]!.text, q).toContain('Zoë Ångström-Noël');
      expect(found.rows[0]!.text, q).toContain('Guest name');
    }
    // Every word must match: Zoë's surname with Jan's first name finds nobody.
    expect((await search(h.staff, 'jan angstrom')).rows).toEqual([]);
    // An apostrophe is no word break: O'Smith is found as "osmith" and as typed.
    for (const q of ["o'smith", 'osmith', 'Jan']) expect((await search(h.staff, q)).rows.map((r) => r.id), q).toEqual([ids.smith]);
  });

  it('finds a booking by e-mail, whole or its start, in any case', async () => {
    for (const q of ['zoe.angstrom@example.com', 'ZOE.ANGSTROM@EXAMPLE.COM', 'zoe.angstrom@']) {
      const found = await search(h.staff, q);
      expect(found.rows.map((r) => r.id), q).toEqual([ids.zoe]);
      expect(found.rows[0]!.text, q).toContain('E-mail');
    }
  });

  it('finds a booking by booking reference and confirmation code, as typed or in lower case', async () => {
    for (const [q, by] of [
      [desk.reference, 'Booking reference'],
      [desk.reference.toLowerCase(), 'Booking reference'],
      [desk.code, 'Confirmation code'],
      [desk.code.toLowerCase(), 'Confirmation code'],
    ] as const) {
      const found = await search(h.staff, q);
      expect(found.rows.map((r) => r.id), q).toEqual([ids.desk]);
      expect(found.rows[0]!.text, q).toContain(by);
      expect(found.rows[0]!.text, q).toContain('Desk Guest');
    }
  });

  it('finds the bookings of a room by its number, latest stay first, with their status in words', async () => {
    const found = await search(h.staff, '101');
    expect(found.rows.map((r) => r.id)).toEqual([ids.zoe]);
    expect(found.rows[0]!.text).toContain('Room number');
    expect(found.rows[0]!.text).toContain('Confirmed');
    expect(found.rows[0]!.text).toContain('Thu 10 Jan 2030');
    // A number typed in lower case finds room A7, which has no booking yet.
    expect(found.words).not.toContain("Jan O'Smith");
    expect((await search(h.staff, 'a7')).words).toContain('No booking matches “a7”');
  });

  it('finds a booking by its external booking id and by its order reference (ours or the partner\'s)', async () => {
    for (const q of ['PMS-4711', 'pms-4711']) {
      const found = await search(h.staff, q);
      expect(found.rows.map((r) => r.id), q).toEqual([ids.zoe]);
      expect(found.rows[0]!.text, q).toContain('External booking id');
    }
    for (const q of [paid.orderReference, paid.partnerReference]) {
      const found = await search(h.staff, q);
      expect(found.rows.map((r) => r.id), q).toEqual([ids.paid]);
      expect(found.rows[0]!.text, q).toContain('Ada Lovelace');
      expect(found.rows[0]!.text, q).toContain('Order reference');
      expect(found.rows[0]!.text, q).toContain('Awaiting a room');
    }
  });

  it('finds a booking by the room staff gave it', async () => {
    expect((await search(h.staff, '102')).rows.map((r) => r.id)).toEqual([ids.smith]);
    const assigned = await h.staff.request('POST', `/dashboard/bookings/${ids.paid}/assign`, { room_id: h.rooms.get('102')! });
    expect(assigned.status, assigned.text.slice(0, 300)).toBe(303);
    // Latest stay first: the paid booking (April) before Jan's (January).
    expect((await search(h.staff, '102')).rows.map((r) => r.id)).toEqual([ids.paid, ids.smith]);
  });

  it("never finds another client's booking, by any key", async () => {
    for (const q of ['zoe', 'zoe.angstrom@example.com', 'PMS-4711', '101', ids.otherZoe]) {
      // Its own Zoë only, never the first hotel's.
      expect((await search(other.staff, q)).rows.map((r) => r.id), q).toEqual([ids.otherZoe]);
    }
    for (const q of [desk.reference, desk.code, paid.orderReference, paid.partnerReference, 'Desk', 'ada@example.com', ids.zoe]) {
      const found = await search(other.staff, q);
      expect(found.rows, q).toEqual([]);
      expect(found.words, q).toContain(`No booking matches “${q}”`);
    }
  });

  it('finds a renamed guest and a moved booking by what they are now, never by what they were', async () => {
    await syncBookings(h.tenant, [{ ...zoe, guest_name: 'Zoë Berg', guest_email: 'zoe.berg@example.com', external_room_id: 'R103' }]);
    expect((await search(h.staff, 'berg')).rows.map((r) => r.id)).toEqual([ids.zoe]);
    expect((await search(h.staff, 'zoe.berg@')).rows.map((r) => r.id)).toEqual([ids.zoe]);
    for (const q of ['angstrom', 'zoe.angstrom@example.com', '101']) expect((await search(h.staff, q)).rows, q).toEqual([]);
    const room103 = await search(h.staff, '103');
    expect(room103.rows.map((r) => r.id)).toEqual([ids.desk, ids.zoe]);
    // A check-in moved by the PMS: still found, with its new dates.
    await syncBookings(h.tenant, [{ ...zoe, guest_name: 'Zoë Berg', guest_email: 'zoe.berg@example.com', external_room_id: 'R103', check_in_date: '2030-01-08' }]);
    const moved = await search(h.staff, 'berg');
    expect(moved.rows.map((r) => r.id)).toEqual([ids.zoe]);
    expect(moved.rows[0]!.text).toContain('Tue 8 Jan 2030');
  });

  it('shows at most 20 bookings, the latest stays first, and says more match', async () => {
    const many = Array.from({ length: 23 }, (_, i) => ({
      external_booking_id: `MANY-${i}`,
      external_room_id: 'RA7',
      guest_name: `Guest Lindqvist ${i}`,
      guests: 1,
      check_in_date: `2031-${String(1 + Math.floor(i / 2)).padStart(2, '0')}-${i % 2 ? '15' : '01'}`,
      check_out_date: `2031-${String(1 + Math.floor(i / 2)).padStart(2, '0')}-${i % 2 ? '16' : '02'}`,
      status: 'confirmed',
    }));
    const manyIds = await syncBookings(h.tenant, many);
    const found = await search(h.staff, 'lindqvist');
    expect(found.status).toBe(200);
    expect(found.rows.map((r) => r.id)).toEqual(manyIds.slice(-20).reverse());
    expect(found.words).toContain('The 20 latest stays matching “lindqvist” are shown, and more bookings may match');
    const few = await search(h.staff, 'lindqvist 22');
    expect(few.rows.map((r) => r.id)).toEqual([manyIds[22]]);
    expect(few.words).toContain('1 booking matches “lindqvist 22”');
  });

  it('says so when nothing matches, and answers an empty or too long search with the error summary (400)', async () => {
    const none = await search(h.staff, 'Nobody Here');
    expect(none.status).toBe(200);
    expect(none.words).toContain('No booking matches “Nobody Here”');
    expect(none.text).toContain('value="Nobody Here"');

    for (const [q, message] of [
      ['', "Enter a guest's name or e-mail, a booking reference, confirmation code or room number"],
      ['   ', "Enter a guest's name or e-mail, a booking reference, confirmation code or room number"],
      ['x'.repeat(101), 'Enter 100 characters or fewer'],
    ] as const) {
      const refused = await search(h.staff, q);
      expect(refused.status, q).toBe(400);
      expect(refused.text).toContain('<h2 id="error-summary-title">There is a problem</h2>');
      expect(refused.text).toContain(`<a href="#f-q">${message}</a>`);
      expect(refused.text).toContain(`id="f-q-error" class="field-error">${message}<`);
      expect(refused.rows).toEqual([]);
    }
    // Opened without a search: the form alone.
    const blank = await h.staff.get('/dashboard/search');
    expect(blank.status).toBe(200);
    expect(blank.text).toContain('<label for="f-q">Search</label>');
    expect(blank.text).not.toContain('There is a problem');
  });
});

describe('bookings written before the search', () => {
  it('are found, and listed in check-in order, once `ops bookings reindex` has run', async () => {
    const h = await hotel();
    const [old] = await syncBookings(h.tenant, [{ ...zoe, guest_name: 'Olga Oldversion', guest_email: 'olga@example.com', external_booking_id: 'OLD-1' }]);
    // As a version before wrote it: no check-in or nights index attributes, no search entries.
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const { QueryCommand, UpdateCommand, DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    const { keys } = await import('../../shared/store/keys');
    await db.send(new UpdateCommand({ TableName: TABLE, Key: keys.booking(h.tenant.clientId, old!), UpdateExpression: 'REMOVE gsi3pk, gsi3sk, gsi4pk, gsi4sk' }));
    for (const partition of ['N#o', 'E#o']) {
      const { Items = [] } = await db.send(new QueryCommand({ TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `SEARCH#${h.tenant.clientId}#${partition}` } }));
      for (const item of Items) await db.send(new DeleteCommand({ TableName: TABLE, Key: { pk: item.pk, sk: item.sk } }));
    }
    expect((await search(h.staff, 'olga')).rows).toEqual([]);
    expect((await search(h.staff, 'olga@example.com')).rows).toEqual([]);
    expect(linkedIdsOfList((await h.staff.get('/dashboard/bookings?limit=10')).text)).toEqual([]);

    const dir = mkdtempSync(join(tmpdir(), 'search-ops-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const stackFile = join(dir, 'stack.json');
    writeFileSync(stackFile, JSON.stringify(stack.info));
    const run = await runOps(stackFile, ['bookings', 'reindex', '--client', h.tenant.clientId, '--json']);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ clients: 1, bookings: 1, reindexed: 1 });

    expect((await search(h.staff, 'olga')).rows.map((r) => r.id)).toEqual([old]);
    expect((await search(h.staff, 'olga@example.com')).rows.map((r) => r.id)).toEqual([old]);
    expect(linkedIdsOfList((await h.staff.get('/dashboard/bookings?limit=10')).text)).toEqual([old]);
    const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
    const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.booking(h.tenant.clientId, old!), ConsistentRead: true }));
    expect([Item?.gsi4pk, Item?.gsi4sk]).toEqual([keys.bookingNights(h.tenant.clientId, 'short'), keys.bookingNightsSortKey(Item?.check_in_date, Item?.check_out_date, old!)]);
    // Again: nothing left to index.
    expect(JSON.parse((await runOps(stackFile, ['bookings', 'reindex', '--client', h.tenant.clientId, '--json'])).stdout)).toMatchObject({ reindexed: 0 });
  });
});

/** The bookings the "All bookings" list links to. */
function linkedIdsOfList(html: string): string[] {
  const list = html.slice(html.indexOf('<h2>All bookings</h2>'));
  return [...list.matchAll(/href="\/dashboard\/bookings\/([0-9a-f-]{36})"/g)].map((m) => m[1]!);
}
