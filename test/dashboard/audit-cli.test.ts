/**
 * The operator CLI's actions on the dashboard's Audit page: `ops deliveries retry`, `rooms
 * create`, `bookings create`, `keys create` and `revoke`, `clients settings` and
 * `set-time-zone`, `callbacks set`, `webhooks set` and `providers set` go through the same use
 * cases as the dashboard's pages, so the hotel's staff see them, named as the operator CLI, in
 * the same words (and the retried delivery's entry under its booking).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { runOps } from '../support/ops-cli';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: Receiver;
let tenant: Tenant;
let staff: DashboardClient;
let dir: string;
let stackFile: string;
let domain: {
  audit: typeof import('../../shared/domain/audit');
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
};

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  dir = mkdtempSync(join(tmpdir(), 'audit-cli-test-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
  domain = {
    audit: await import('../../shared/domain/audit'),
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
  };
  tenant = await stack.createTenant();
  staff = await signedInOperator(stack, tenant.clientId, 'staff');
  await domain.callbacks.configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A reception booking whose callback the receiver refuses with 422: needs_review; its delivery id. */
async function needsReview(): Promise<string> {
  receiver.respondWith(422);
  const confirmed = await domain.bookings.confirmServiceBooking(tenant.clientId, {
    origin: 'reception',
    requireRoom: false,
    guest_name: 'Ada Lovelace',
    guests: 1,
    check_in_date: '2027-09-01',
    check_out_date: '2027-09-02',
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  const id = confirmed.delivery_id!;
  await waitFor(`delivery ${id} needs_review`, async () => ((await domain.callbacks.showDelivery(id)).status === 'needs_review' ? true : undefined));
  return id;
}

/** `ops <args> --json`, expected to succeed. */
async function opsJson<T>(args: string[]): Promise<T> {
  const run = await runOps(stackFile, [...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** The body rows of the audit table, as text. */
function rows(html: string): string[] {
  const body = html.split('<tbody>')[1]?.split('</tbody>')[0] ?? '';
  return body
    .split('<tr>')
    .slice(1)
    .map((row) => textOf(row.split('</tr>')[0]!));
}

const TIME = '\\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d\\d:\\d\\d';

describe('Audit of the operator CLI', () => {
  it('lists `ops deliveries retry` of one delivery and of a status, by the operator CLI, in words', async () => {
    const one = await needsReview();
    const retried = await opsJson<{ retried: { delivery_id: string; status: string }[] }>(['deliveries', 'retry', one]);
    expect(retried.retried).toEqual([expect.objectContaining({ delivery_id: one, status: 'pending' })]);
    // Delivered before the receiver is told to refuse the next one.
    await waitFor('the retried delivery', async () => ((await domain.callbacks.showDelivery(one)).status === 'delivered' ? true : undefined));
    const refused = await needsReview();
    const bulk = await opsJson<{ queued: number }>(['deliveries', 'retry', '--client', tenant.clientId, '--status', 'needs_review']);
    expect(bulk.queued).toBe(1);
    expect((await domain.callbacks.showDelivery(refused)).status).not.toBe('needs_review');
    // A retry refused (the delivery is not failed or needs_review) records nothing.
    const notRetryable = await runOps(stackFile, ['deliveries', 'retry', one, '--json']);
    expect(notRetryable.code).toBe(1);

    const page = await staff.get('/dashboard/audit');
    expect(page.status).toBe(200);
    const [all, single, ...older] = rows(page.text);
    expect(older).toEqual([]);
    expect(all).toMatch(new RegExp(`^${TIME} operator CLI Sent every refused notification again: 1 queued —$`));
    expect(single).toMatch(new RegExp(`^${TIME} operator CLI Sent a notification to your PMS again \\(it had been refused\\) Booking BK-[A-Z0-9]{8} · Ada Lovelace Entries about it$`));

    // The audit query says the same: who, what, about which delivery.
    const { entries } = await domain.audit.listAudit(tenant.clientId);
    expect(entries.map(({ operator, action, target, changes }) => ({ operator, action, target, changes }))).toEqual([
      { operator: 'operator CLI', action: 'delivery.retry_all', target: null, changes: { count: 1, failed: 0, needs_review: 1, status: 'needs_review' } },
      { operator: 'operator CLI', action: 'delivery.retry', target: one, changes: { event: 'booking.confirmed', status: 'pending', was: 'needs_review' } },
    ]);
    expect(rows((await staff.get(`/dashboard/audit?target=${one}`)).text)).toEqual([single]);
  }, 120_000);

  it('lists rooms, reception bookings, keys, settings, addresses and the provider set with the CLI, by the operator CLI, in words', async () => {
    const hotel = await stack.createTenant();
    const hotelStaff = await signedInOperator(stack, hotel.clientId, 'staff');
    const client = ['--client', hotel.clientId];

    const { room_id: roomId } = await opsJson<{ room_id: string }>(['rooms', 'create', ...client, '--room-number', '501', '--room-type', 'suite', '--price', '180', '--max-occupancy', '3']);
    const booked = await opsJson<{ booking_id: string }>([
      'bookings', 'create', ...client, '--room', roomId, '--guest-name', 'Grace Hopper', '--guest-email', 'grace@example.com',
      '--check-in', '2027-10-01', '--check-out', '2027-10-03', '--guests', '2', '--total-amount', '360',
    ]);
    const key = await opsJson<{ key_id: string }>(['keys', 'create', ...client, '--kind', 'sync', '--scopes', 'rooms:write', '--name', 'Channel manager']);
    await opsJson(['keys', 'revoke', key.key_id]);
    await opsJson(['clients', 'settings', ...client, '--time-zone', 'Europe/Lisbon', '--booking-horizon-days', '200']);
    // Nothing changed: nothing recorded.
    await opsJson(['clients', 'settings', ...client]);
    await opsJson(['clients', 'set-time-zone', ...client, '--time-zone', 'Asia/Tokyo']);
    await opsJson(['callbacks', 'set', ...client, '--url', `${receiver.url}/first`]);
    await opsJson(['callbacks', 'set', ...client, '--url', `${receiver.url}/second`]);
    await opsJson(['webhooks', 'set', ...client, '--url', `${receiver.url}/paid`, '--secret', 'a-secret-of-enough-length']);
    await opsJson(['providers', 'set', ...client, '--provider', 'sandbox']);
    // A command refused records nothing.
    expect((await runOps(stackFile, ['keys', 'revoke', '00000000-0000-4000-8000-000000000000', '--json'])).code).toBe(1);

    const page = await hotelStaff.get('/dashboard/audit');
    expect(page.status).toBe(200);
    const listed = rows(page.text);
    const by = (sentence: string) => new RegExp(`^${TIME} operator CLI ${sentence}$`);
    const url = receiver.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const expected = [
      by('Chose where payments go: Sandbox \\(test payments\\) —'),
      by(`Set the address for payment notifications to your website to ${url}/paid \\(it was not set\\), with a signing secret the operator gave —`),
      by(`Set the address for notifications to your PMS to ${url}/second \\(it was ${url}/first\\), with a new signing secret —`),
      by(`Set the address for notifications to your PMS to ${url}/first \\(it was not set\\) —`),
      by('Hotel settings: set \\(time zone: Asia/Tokyo\\) —'),
      by('Hotel settings: set \\(booking horizon days: 200, time zone: Europe/Lisbon\\) —'),
      by('Revoked a sync key Sync key Entries about it'),
      by('Created a sync key "Channel manager" for rooms:write Sync key "Channel manager" Entries about it'),
      by('Made a reception booking for Grace Hopper, room 501 \\(suite\\), Fri 1 Oct 2027 to Sun 3 Oct 2027 Booking BK-[A-Z0-9]{8} · Grace Hopper Entries about it'),
      by('Added room 501 \\(suite\\), 180\\.00 USD a night, for up to 3 guests Room 501 Entries about it'),
    ];
    // Each row as it reads when it does not read as expected.
    expect(listed.map((row, i) => (expected[i]?.test(row) ? 'as expected' : row))).toEqual(expected.map(() => 'as expected'));

    // The audit query says the same: the operator CLI, each action about its record, as the pages record it.
    const { entries } = await domain.audit.listAudit(hotel.clientId);
    expect(entries.every((entry) => entry.operator === 'operator CLI')).toBe(true);
    expect(entries.map(({ action, target }) => ({ action, target })).reverse()).toEqual([
      { action: 'room.create', target: roomId },
      { action: 'booking.create', target: booked.booking_id },
      { action: 'key.create', target: key.key_id },
      { action: 'key.revoke', target: key.key_id },
      { action: 'hotel_settings.set', target: null },
      { action: 'hotel_settings.set', target: null },
      { action: 'callback.set_url', target: null },
      { action: 'callback.set_url', target: null },
      { action: 'webhook.set_url', target: null },
      { action: 'provider.set', target: null },
    ]);
    expect(entries.find((entry) => entry.action === 'hotel_settings.set')).toMatchObject({ changes: { time_zone: 'Asia/Tokyo' }, previous: { time_zone: 'Europe/Lisbon' } });
    expect(rows((await hotelStaff.get(`/dashboard/audit?target=${key.key_id}`)).text)).toEqual([listed[6], listed[7]]);
  }, 180_000);
});
