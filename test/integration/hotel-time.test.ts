/**
 * A hotel's own time through the local stack: its time zone set with the operator CLI (create,
 * set-time-zone, settings; UTC by default), and its today on the guest booking page, on the
 * reception's "New booking" and in `ops bookings create`: the hotel's local today is accepted,
 * its local yesterday refused with the form again (400, the message beside the check-in), the
 * booking horizon counted from the local today.
 *
 * The server's clock is the real one, so the hotel is put where the date differs from UTC's right
 * now: Pacific/Kiritimati (UTC+14, no DST) when UTC's hour is 10 or later (there it is already
 * tomorrow), else Pacific/Pago_Pago (UTC-11, no DST: there it is still yesterday). The expected
 * dates come from those fixed offsets, not from the code under test.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDate } from '../../shared/dashboard/format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/schemas/common';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { postForm } from '../support/form-post';
import { type OpsRun, runOps } from '../support/ops-cli';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const AHEAD = new Date().getUTCHours() >= 10;
/** Where the hotel's date is not UTC's now. */
const ZONE = AHEAD ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
const OFFSET_HOURS = AHEAD ? 14 : -11;
const utcToday = () => new Date().toISOString().slice(0, 10);
/** The hotel's date now, from its zone's fixed offset. */
const localToday = () => new Date(Date.now() + OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);

let stack: TestStack;
let dir: string;
let stackFile: string;

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'hotel-time-test-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
});

afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Each run of the CLI is a process of its own (node and tsx starting): seconds on a busy machine. */
const CLI_TIMEOUT = 180_000;

const ops = (args: string[]): Promise<OpsRun> => runOps(stackFile, args);

async function opsJson<T = any>(args: string[]): Promise<T> {
  const run = await ops([...args, '--json']);
  expect(run.stderr, run.stdout).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** A refusal's `--json` error object (exit code 1). */
async function opsError(args: string[]): Promise<{ code: string; message: string }> {
  const run = await ops([...args, '--json']);
  expect(run.code, run.stdout + run.stderr).toBe(1);
  return (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
}

interface Page {
  status: number;
  html: string;
  location?: string;
}

async function get(path: string): Promise<Page> {
  const response = await fetch(`${stack.url}${path}`, { redirect: 'manual' });
  return { status: response.status, html: await response.text(), location: response.headers.get('location') ?? undefined };
}

/** The message shown beside a form field (its error element), if any. */
const fieldError = (html: string, name: string) => new RegExp(`id="f-${name}-error"[^>]*>([^<]*)<`).exec(html)?.[1];

interface Hotel {
  tenant: Tenant;
  /** Room number to room id. */
  rooms: Map<string, string>;
}

/** A client with rooms 101 to 103 (double, 100.00), in `zone` when given. */
async function hotel(zone?: string): Promise<Hotel> {
  const tenant = await stack.createTenant();
  if (zone) {
    const { setClientSettings } = await import('../../shared/domain/clients');
    expect((await setClientSettings(tenant.clientId, { time_zone: zone })).time_zone).toBe(zone);
  }
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 100, max_occupancy: 2 })) },
  });
  expect(put.status, put.text).toBe(200);
  return { tenant, rooms: new Map(put.body.items.map((item: { external_room_id: string; id: string }) => [item.external_room_id.slice(1), item.id])) };
}

const stayFrom = (checkIn: string, nights = 2) => ({ check_in: checkIn, check_out: addDays(checkIn, nights), guests: '1' });
const search = (clientId: string, stay: Record<string, string>) => get(`/book/${clientId}?${new URLSearchParams(stay)}`);

it(`the hotel of this run (${ZONE}) is on another date than UTC`, () => {
  expect(localToday()).not.toBe(utcToday());
  expect(localToday()).toBe(AHEAD ? addDays(utcToday(), 1) : addDays(utcToday(), -1));
});

describe('the time zone in the operator CLI', () => {
  it('clients create takes --time-zone and says UTC when none is given', async () => {
    const zoned = await opsJson(['clients', 'create', '--name', 'Tokyo Inn', '--time-zone', 'Asia/Tokyo']);
    expect(zoned).toMatchObject({ plan: 'standard', time_zone: 'Asia/Tokyo' });
    const { getClient } = await import('../../shared/store/api-key-store');
    expect((await getClient(zoned.client_id))?.time_zone).toBe('Asia/Tokyo');

    const plain = await opsJson(['clients', 'create', '--name', 'Plain Inn']);
    expect(plain.time_zone).toBe('UTC');
    expect((await opsJson(['clients', 'settings', '--client', plain.client_id])).time_zone).toBe('UTC');
    // The guests' language (docs/behaviour.md "The guest's language"): English until set, one of the seven.
    expect((await opsJson(['clients', 'settings', '--client', plain.client_id])).language).toBe('en');
    expect((await opsJson(['clients', 'settings', '--client', plain.client_id, '--language', 'fr'])).language).toBe('fr');
    expect((await ops(['clients', 'settings', '--client', plain.client_id, '--language', 'nl'])).code).not.toBe(0);

    const human = await ops(['clients', 'create', '--name', 'Lima Inn', '--time-zone', 'America/Lima']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/time_zone:?\s+America\/Lima/);
  }, CLI_TIMEOUT);

  it('refuses a time zone that is not one, and creates no client', async () => {
    const { listClientAccounts } = await import('../../shared/domain/clients');
    const named = async () => (await listClientAccounts()).filter((c) => c.name === 'Nowhere Inn').length;
    // Offsets and unknown names (the unit tests go through every kind of name).
    for (const zone of ['Mars/Olympus', '+02:00']) {
      const error = await opsError(['clients', 'create', '--name', 'Nowhere Inn', '--time-zone', zone]);
      expect(error.code, zone).toBe('VALIDATION_ERROR');
      expect(error.message, zone).toBe('time_zone: must be a time zone name such as Europe/London or America/New_York');
    }
    expect(await named()).toBe(0);
  }, CLI_TIMEOUT);

  it('set-time-zone and clients settings --time-zone change it; a bad one changes nothing', async () => {
    const { createClientAccount } = await import('../../shared/domain/clients');
    const { getClient } = await import('../../shared/store/api-key-store');
    const { client_id: id } = await createClientAccount({ name: 'Moving Inn' });
    const zoneOf = async () => (await getClient(id))?.time_zone;
    expect(await opsJson(['clients', 'set-time-zone', '--client', id, '--time-zone', 'America/New_York'])).toEqual({ client_id: id, time_zone: 'America/New_York' });
    expect(await zoneOf()).toBe('America/New_York');
    expect((await opsError(['clients', 'set-time-zone', '--client', id, '--time-zone', 'New York'])).code).toBe('VALIDATION_ERROR');
    expect(await zoneOf()).toBe('America/New_York');
    expect(await opsJson(['clients', 'settings', '--client', id, '--time-zone', 'Europe/Lisbon'])).toMatchObject({ client_id: id, time_zone: 'Europe/Lisbon', booking_horizon_days: 365 });
    expect((await opsError(['clients', 'settings', '--client', id, '--time-zone', 'Lisbon'])).code).toBe('VALIDATION_ERROR');
    expect(await zoneOf()).toBe('Europe/Lisbon');
    expect((await opsError(['clients', 'set-time-zone', '--client', '00000000-0000-4000-8000-000000000000', '--time-zone', 'UTC'])).code).toBe('NOT_FOUND');
  }, CLI_TIMEOUT);
});

describe('the rules on a stay, at the edges of a day', () => {
  it('a New York hotel at 20:00 local (UTC already the next day) takes a stay from its today and refuses its yesterday', async () => {
    const { checkStay } = await import('../../shared/domain/guest-booking/guest-bookings');
    const now = new Date('2026-11-26T01:00:00Z');
    const stay = (checkIn: string) => ({ check_in: checkIn, check_out: addDays(checkIn, 1), guests: 1 });
    expect(checkStay(stay('2026-11-25'), now, 365, 'America/New_York').check_in).toBe('2026-11-25');
    expect(() => checkStay(stay('2026-11-24'), now, 365, 'America/New_York')).toThrow(/check_in: cannot be in the past/);
    // The same instant in a UTC hotel: the 25th is already past.
    expect(() => checkStay(stay('2026-11-25'), now, 365, 'UTC')).toThrow(/cannot be in the past/);
    // The horizon counts from the local today: 30 days from the 25th.
    expect(checkStay(stay('2026-12-25'), now, 30, 'America/New_York').check_in).toBe('2026-12-25');
    expect(() => checkStay(stay('2026-12-26'), now, 30, 'America/New_York')).toThrow('can be at most 30 days from today (2026-12-25 at the latest)');
  });

  it('a Tokyo hotel at 01:00 local (UTC still the day before) refuses UTC\'s today, its yesterday', async () => {
    const { checkStay } = await import('../../shared/domain/guest-booking/guest-bookings');
    const now = new Date('2026-11-25T16:00:00Z');
    const stay = (checkIn: string) => ({ check_in: checkIn, check_out: addDays(checkIn, 1), guests: 1 });
    expect(checkStay(stay('2026-11-26'), now, 365, 'Asia/Tokyo').check_in).toBe('2026-11-26');
    expect(() => checkStay(stay('2026-11-25'), now, 365, 'Asia/Tokyo')).toThrow(/cannot be in the past/);
    expect(checkStay(stay('2026-12-26'), now, 30, 'Asia/Tokyo').check_in).toBe('2026-12-26');
    expect(() => checkStay(stay('2026-12-27'), now, 30, 'Asia/Tokyo')).toThrow('(2026-12-26 at the latest)');
  });

  it('a reception booking in New York at 20:00 local: its today is the first check-in', async () => {
    const { receptionStay, receptionDesk } = await import('../../shared/domain/bookings/reception-bookings');
    const stay = (checkIn: string) => ({ check_in_date: checkIn, check_out_date: addDays(checkIn, 1), guests: '1' });
    expect(receptionStay(stay('2026-11-25'), '2026-11-25').stay?.check_in_date).toBe('2026-11-25');
    expect(receptionStay(stay('2026-11-24'), '2026-11-25').details).toEqual([{ path: 'check_in_date', message: expect.stringMatching(/past.*2026-11-25/) }]);
    const { tenant } = await hotel('America/New_York');
    expect(await receptionDesk(tenant.clientId, new Date('2026-11-26T01:00:00Z'))).toMatchObject({ time_zone: 'America/New_York', today: '2026-11-25' });
    const { tenant: tokyo } = await hotel('Asia/Tokyo');
    expect((await receptionDesk(tokyo.clientId, new Date('2026-11-25T16:00:00Z'))).today).toBe('2026-11-26');
  });
});

describe(`the guest booking page of a hotel in ${ZONE}`, () => {
  let h: Hotel;
  beforeAll(async () => {
    h = await hotel(ZONE);
  });

  it('offers rooms from its local today and refuses its local yesterday with the form again, the message beside the check-in', async () => {
    const today = await search(h.tenant.clientId, stayFrom(localToday()));
    expect(today.status, textOf(today.html).slice(0, 400)).toBe(200);
    expect(today.html).toContain('<button name="offer" value="double"');
    expect(fieldError(today.html, 'check_in')).toBeUndefined();

    const yesterday = addDays(localToday(), -1);
    const refused = await search(h.tenant.clientId, stayFrom(yesterday));
    expect(refused.status).toBe(400);
    expect(fieldError(refused.html, 'check_in')).toMatch(/past/);
    expect(fieldError(refused.html, 'check_out')).toBeUndefined();
    expect(refused.html).toMatch(new RegExp(`<input[^>]*id="f-check_in"[^>]*value="${yesterday}"`));
    expect(refused.html).not.toContain('name="offer"');
    // The date picker starts at the hotel's today.
    expect(refused.html).toMatch(new RegExp(`<input[^>]*id="f-check_in"[^>]*min="${localToday()}"`));
  });

  it('opens the checkout for a stay from its local today, and refuses one from its local yesterday', async () => {
    const from = '127.0.0.61';
    const stay = stayFrom(localToday(), 1);
    const details = await get(`/book/${h.tenant.clientId}/details?${new URLSearchParams({ ...stay, room_id: h.rooms.get('102')! })}`);
    expect(details.status, textOf(details.html).slice(0, 400)).toBe(200);
    const attempt = /name="attempt" value="([^"]*)"/.exec(details.html)?.[1];
    expect(attempt).toBeDefined();
    const booked = await postForm(
      `${stack.url}/book/${h.tenant.clientId}/bookings`,
      { ...stay, room_id: h.rooms.get('102')!, attempt: attempt!, name: 'Tonight Guest', email: 'tonight@example.com' },
      { origin: stack.url, from },
    );
    expect(booked.status, textOf(booked.html).slice(0, 400)).toBe(303);

    const past = stayFrom(addDays(localToday(), -1), 2);
    const refusedDetails = await get(`/book/${h.tenant.clientId}/details?${new URLSearchParams({ ...past, room_id: h.rooms.get('103')! })}`);
    expect(refusedDetails.status).toBe(400);
    const refused = await postForm(
      `${stack.url}/book/${h.tenant.clientId}/bookings`,
      { ...past, room_id: h.rooms.get('103')!, name: 'Late Guest', email: 'late@example.com' },
      { origin: stack.url, from },
    );
    expect(refused.status).toBe(400);
    expect(textOf(refused.html)).toMatch(/past/);
  });

  it('counts the booking horizon from its local today', async () => {
    const { tenant } = await hotel(ZONE);
    const { setClientSettings } = await import('../../shared/domain/clients');
    await setClientSettings(tenant.clientId, { booking_horizon_days: 30 });
    const last = addDays(localToday(), 30);
    expect((await search(tenant.clientId, stayFrom(last))).status).toBe(200);
    const beyond = await search(tenant.clientId, stayFrom(addDays(last, 1)));
    expect(beyond.status).toBe(400);
    expect(fieldError(beyond.html, 'check_in')).toMatch(`at most 30 days from today (${new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${last}T00:00:00Z`))} at the latest)`);
  });
});

describe('a client that never set a time zone', () => {
  it('lives in UTC: the guest page takes UTC\'s today and refuses UTC\'s yesterday', async () => {
    const { tenant } = await hotel();
    const { guestBookingClient } = await import('../../shared/domain/guest-booking/guest-bookings');
    expect((await guestBookingClient(tenant.clientId)).time_zone).toBe('UTC');
    const today = await search(tenant.clientId, stayFrom(utcToday()));
    expect(today.status).toBe(200);
    expect(today.html).toContain('<button name="offer" value="double"');
    const yesterday = await search(tenant.clientId, stayFrom(addDays(utcToday(), -1)));
    expect(yesterday.status).toBe(400);
    expect(fieldError(yesterday.html, 'check_in')).toMatch(/past/);
  });
});

describe(`the reception of a hotel in ${ZONE}`, () => {
  let h: Hotel;
  let staff: DashboardClient;
  beforeAll(async () => {
    h = await hotel(ZONE);
    staff = await signedInOperator(stack, h.tenant.clientId, 'staff');
  });

  const newBooking = (checkIn: string, nights = 2) =>
    staff.get(`/dashboard/bookings/new?${new URLSearchParams({ check_in_date: checkIn, check_out_date: addDays(checkIn, nights), guests: '1' })}`);

  it('"New booking" offers rooms from its local today and refuses its local yesterday, the message beside the check-in', async () => {
    const first = await staff.get('/dashboard/bookings/new');
    expect(first.status).toBe(200);
    expect(textOf(first.text)).toContain(localToday());
    expect(textOf(first.text)).toContain(ZONE);

    const today = await newBooking(localToday());
    expect(today.status, textOf(today.text).slice(0, 600)).toBe(200);
    expect(today.text).toContain(`value="${h.rooms.get('101')}"`);

    const yesterday = addDays(localToday(), -1);
    const refused = await newBooking(yesterday);
    expect(refused.status).toBe(400);
    expect(fieldError(refused.text, 'check_in_date')).toMatch(new RegExp(`past.*${localToday()}`));
    expect(refused.text).toMatch(new RegExp(`<input[^>]*id="f-check_in_date"[^>]*value="${yesterday}"`));
    expect(refused.text).not.toContain(`value="${h.rooms.get('101')}"`);
  });

  it('creates a booking from its local today, and refuses one from its local yesterday posted anyway', async () => {
    const checkIn = localToday();
    const form = { check_in_date: checkIn, check_out_date: addDays(checkIn, 1), guests: '1', room_id: h.rooms.get('102')!, guest_name: 'Walk In', guest_email: 'walk.in@example.com', total_amount: '100' };
    const created = await staff.request('POST', '/dashboard/bookings', form);
    expect(created.status, textOf(created.text).slice(0, 600)).toBe(303);
    expect(created.location).toMatch(/^\/dashboard\/bookings\/[0-9a-f-]{36}$/);
    const page = await staff.get(created.location!);
    expect(textOf(page.text)).toContain(`Check-in ${formatDate(checkIn)}`);

    const past = { ...form, room_id: h.rooms.get('103')!, check_in_date: addDays(checkIn, -1), check_out_date: checkIn };
    const refused = await staff.request('POST', '/dashboard/bookings', past);
    expect(refused.status).toBe(400);
    expect(fieldError(refused.text, 'check_in_date')).toMatch(/past/);
  });

  it('ops bookings create takes the local today and refuses the local yesterday', async () => {
    const args = (checkIn: string, room: string) => [
      'bookings', 'create', '--client', h.tenant.clientId, '--room', h.rooms.get(room)!, '--guest-name', 'Desk Guest', '--guest-email', 'desk@example.com',
      '--check-in', checkIn, '--check-out', addDays(checkIn, 1), '--guests', '1', '--total-amount', '100',
    ];
    const refused = await opsError(args(addDays(localToday(), -1), '101'));
    expect(refused.code).toBe('VALIDATION_ERROR');
    expect(refused.message).toMatch(new RegExp(`past.*${localToday()}`));
    const made = await opsJson<{ booking_id: string }>(args(localToday(), '101'));
    expect(made.booking_id).toMatch(/^[0-9a-f-]{36}$/);
  }, CLI_TIMEOUT);
});
