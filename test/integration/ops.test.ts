/**
 * The operator CLI as operators run it: a child process against a stack found through its
 * stack file (here the test stack's, via OPS_STACK_FILE).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_SCOPES } from '../../definitions/routes';
import { startTestStack, type TestStack } from '../support/stack';
import { type OpsRun, runOps } from '../support/ops-cli';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LISTED_KEY_FIELDS = ['created_at', 'key_id', 'kind', 'last_used_at', 'name', 'origins', 'revoked_at', 'scopes'];

let stack: TestStack;
let dir: string;
let stackFile: string;

// The run's bundle of bin/ops.ts; `via: 'tsx'` as `npm run ops` runs it (at least one test does).
const ops = (args: string[], env: Record<string, string> = {}, via?: 'tsx'): Promise<OpsRun> => runOps(stackFile, args, env, { via });

/** Runs with --json and expects success: stdout must be exactly one JSON object. */
async function opsJson<T = any>(args: string[], via?: 'tsx'): Promise<T> {
  const run = await ops([...args, '--json'], {}, via);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.endsWith('}\n')).toBe(true);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  const parsed = JSON.parse(run.stdout) as T;
  expect(parsed).toBeTypeOf('object');
  expect(Array.isArray(parsed)).toBe(false);
  return parsed;
}

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'ops-test-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
});

afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('plans', () => {
  it('a client is standard by default, refused a payment key with PLAN_REQUIRED, and listed with its plan', async () => {
    const created = await opsJson(['clients', 'create', '--name', 'Plain Hotel']);
    expect(created).toEqual({ client_id: expect.stringMatching(UUID), plan: 'standard', time_zone: 'UTC' });
    const refused = await ops(['keys', 'create', '--client', created.client_id, '--kind', 'payment', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toEqual({ error: { code: 'PLAN_REQUIRED', message: expect.stringMatching(/premium/) } });
    const listed = await opsJson<{ clients: { client_id: string; plan: string; name: string }[] }>(['clients', 'list']);
    expect(listed.clients).toContainEqual(expect.objectContaining({ client_id: created.client_id, plan: 'standard', name: 'Plain Hotel' }));
  });

  it('set-plan moves a client; moving to standard revokes its payment keys, and the API refuses them', async () => {
    const { client_id: id } = await opsJson(['clients', 'create', '--name', 'Moving Hotel', '--plan', 'premium']);
    const payment = await opsJson(['keys', 'create', '--client', id, '--kind', 'payment']);
    const sync = await opsJson(['keys', 'create', '--client', id, '--kind', 'sync']);
    const moved = await opsJson(['clients', 'set-plan', '--client', id, '--plan', 'standard']);
    expect(moved).toEqual({ client_id: id, plan: 'standard', revoked_keys: [payment.key_id] });
    const lookup = await stack.request('GET', '/api/v1/payments/payment-orders/PO-AAAAAAAAAAAA', { key: payment.key });
    expect(lookup.status).toBe(401);
    expect(lookup.body.error.code).toBe('INVALID_API_KEY');
    const stillSync = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2031-01-01&check_out_date=2031-01-02&guests=1', { key: sync.key });
    expect(stillSync.status).toBe(200);
    const back = await opsJson(['clients', 'set-plan', '--client', id, '--plan', 'premium']);
    expect(back).toEqual({ client_id: id, plan: 'premium', revoked_keys: [] });
    expect((await ops(['keys', 'create', '--client', id, '--kind', 'payment', '--json'])).code).toBe(0);
  });

  it('refuses an unknown plan as a usage error', async () => {
    const run = await ops(['clients', 'create', '--name', 'X', '--plan', 'gold']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--plan must be one of standard, premium/);
  });
});

describe('clients and keys', () => {
  let clientId: string;
  let syncKey: { key_id: string; key: string };
  let paymentKey: { key_id: string; key: string };

  it('creates a client on a plan', async () => {
    // Through tsx, as `npm run ops` runs it.
    const created = await opsJson(['clients', 'create', '--name', 'Ops Test Hotel', '--plan', 'premium'], 'tsx');
    expect(created).toEqual({ client_id: expect.stringMatching(UUID), plan: 'premium', time_zone: 'UTC' });
    clientId = created.client_id;
  });

  it('issues a sync key with every scope when none are given', async () => {
    const issued = await opsJson(['keys', 'create', '--client', clientId, '--kind', 'sync', '--name', 'pms']);
    expect(issued).toEqual({ key_id: expect.stringMatching(UUID), key: expect.stringMatching(/^svc_sync_/), kind: 'sync', scopes: [...SYNC_SCOPES], origins: [] });
    syncKey = issued;
  });

  it('issues a payment key with allowed origins', async () => {
    const issued = await opsJson([
      'keys', 'create', '--client', clientId, '--kind', 'payment', '--origins', 'https://shop.example.com,https://www.example.com/checkout',
    ]);
    expect(issued).toEqual({
      key_id: expect.stringMatching(UUID),
      key: expect.stringMatching(/^svc_pay_/),
      kind: 'payment',
      scopes: [],
      origins: ['https://shop.example.com', 'https://www.example.com'],
    });
    paymentKey = issued;
  });

  it('says in the readable form that the key is shown once', async () => {
    const run = await ops(['keys', 'create', '--client', clientId, '--kind', 'sync', '--scopes', 'rooms:write']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/key: svc_sync_\S+/);
    expect(run.stdout).toMatch(/shown only this once/);
  });

  it('lists keys without the keys or their hashes', async () => {
    const listed = await opsJson<{ keys: Record<string, unknown>[] }>(['keys', 'list', '--client', clientId]);
    expect(Object.keys(listed)).toEqual(['keys']);
    expect(listed.keys).toHaveLength(3);
    for (const key of listed.keys) expect(Object.keys(key).sort()).toEqual(LISTED_KEY_FIELDS);
    expect(listed.keys).toContainEqual(
      expect.objectContaining({ key_id: syncKey.key_id, kind: 'sync', scopes: [...SYNC_SCOPES], name: 'pms', revoked_at: null }),
    );
    expect(listed.keys).toContainEqual(
      expect.objectContaining({ key_id: paymentKey.key_id, kind: 'payment', origins: ['https://shop.example.com', 'https://www.example.com'] }),
    );

    const readable = await ops(['keys', 'list', '--client', clientId]);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain(syncKey.key_id);
    for (const output of [JSON.stringify(listed), readable.stdout, readable.stderr]) {
      expect(output).not.toMatch(/svc_(sync|pay)_/);
      expect(output).not.toMatch(/[0-9a-f]{64}/); // a SHA-256 hex digest
      expect(output).not.toMatch(/hash/i);
    }
  });

  it('revokes a key so the API rejects it', async () => {
    // A key this process never presented, so no authorizer cache entry hides the revocation.
    const issued = await opsJson(['keys', 'create', '--client', clientId, '--kind', 'sync']);
    const revoked = await opsJson(['keys', 'revoke', issued.key_id]);
    expect(revoked).toEqual({ key_id: issued.key_id, revoked_at: expect.any(String) });
    expect(Number.isNaN(Date.parse(revoked.revoked_at))).toBe(false);

    // The authorizer's decision itself, then the answer the API gives for it.
    const { authorizeRequest } = await import('../../shared/auth/authorize');
    expect(await authorizeRequest({ authorization: `Bearer ${issued.key}` }, { kind: 'sync', scope: 'availability:read' })).toEqual({
      effect: 'invalid',
    });
    const response = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2027-01-10&check_out_date=2027-01-12&guests=2', {
      key: issued.key,
    });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('INVALID_API_KEY');

    const listed = await opsJson(['keys', 'list', '--client', clientId]);
    expect(listed.keys).toContainEqual(expect.objectContaining({ key_id: issued.key_id, revoked_at: revoked.revoked_at }));
  });
});

describe('clients link-stripe-account', () => {
  it("links connected accounts to a client, once each, as the only ones its admins may choose", async () => {
    const { client_id: id } = await opsJson(['clients', 'create', '--name', 'Linked Hotel', '--plan', 'premium']);
    const first = await opsJson(['clients', 'link-stripe-account', '--client', id, '--account', 'acct_1OpsLinkB']);
    expect(first).toEqual({ client_id: id, account: 'acct_1OpsLinkB', linked_at: expect.stringMatching(/Z$/), linked_accounts: ['acct_1OpsLinkB'] });
    const second = await opsJson(['clients', 'link-stripe-account', '--client', id, '--account', 'acct_1OpsLinkA']);
    expect(second.linked_accounts).toEqual(['acct_1OpsLinkA', 'acct_1OpsLinkB']);
    // Linking again changes nothing: the first link stands.
    const again = await opsJson(['clients', 'link-stripe-account', '--client', id, '--account', 'acct_1OpsLinkB']);
    expect(again).toEqual({ ...first, linked_accounts: ['acct_1OpsLinkA', 'acct_1OpsLinkB'] });
    const { linkedStripeAccounts } = await import('../../shared/domain/payments/provider-accounts');
    expect((await linkedStripeAccounts(id)).map((a) => a.account)).toEqual(['acct_1OpsLinkA', 'acct_1OpsLinkB']);

    const readable = await ops(['clients', 'link-stripe-account', '--client', id, '--account', 'acct_1OpsLinkA']);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain('linked accounts: acct_1OpsLinkA, acct_1OpsLinkB');
  });

  it('refuses an id that is not acct_... (usage error, exit 2) and an unknown client (NOT_FOUND, exit 1)', async () => {
    for (const account of ['acct_1a-b', 'pk_live_123']) {
      const run = await ops(['clients', 'link-stripe-account', '--client', 'x', '--account', account, '--json']);
      expect(run.code, account).toBe(2);
      expect(JSON.parse(run.stdout)).toEqual({ error: { code: 'USAGE_ERROR', message: `--account must be a Stripe account id (acct_...), not ${account}` } });
    }
    const missing = await ops(['clients', 'link-stripe-account', '--client', '00000000-0000-4000-8000-000000000000', '--account', 'acct_1OpsLink', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringMatching(/^No client 00000000-/) } });
    const noAccount = await ops(['clients', 'link-stripe-account', '--client', 'x']);
    expect(noAccount.code).toBe(2);
    expect(noAccount.stderr).toContain("required option '--account <acct_...>' not specified");
  });
});

describe('errors', () => {
  it('reports a domain error on stderr with exit 1; with --json also as one error object on stdout', async () => {
    const args = ['keys', 'create', '--client', '00000000-0000-4000-8000-000000000000', '--kind', 'sync'];
    const run = await ops(args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: No client 00000000-0000-4000-8000-000000000000/);
    const json = await ops([...args, '--json']);
    expect(json.code).toBe(1);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'NOT_FOUND', message: expect.stringMatching(/^No client 00000000-/) } });
  });

  it('exits 2 with the usage on a usage error; with --json also as one USAGE_ERROR object on stdout', async () => {
    const run = await ops(['keys', 'create', '--client', 'x', '--kind', 'sync', '--bogus', 'y']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("unknown option '--bogus'");
    expect(run.stderr).toContain('Usage: npm run ops -- keys create');
    const json = await ops(['keys', 'create', '--client', 'x', '--kind', 'sync', '--bogus', 'y', '--json']);
    expect(json.code).toBe(2);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'USAGE_ERROR', message: "unknown option '--bogus'" } });
    expect(json.stderr).toContain('Usage: npm run ops -- keys create');
  });

  it('answers an unknown command with a usage error listing the commands, and prints help per command', async () => {
    const unknown = await ops(['rooms', 'burn', '--json']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: { code: 'USAGE_ERROR', message: "unknown command 'burn'" } });
    expect(unknown.stderr).toContain('rooms list');
    expect(unknown.stderr).toContain('rooms create');
    const help = await ops(['rooms', 'create', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run ops -- rooms create /);
    expect(help.stdout).toContain('--max-occupancy <M>');
    expect(help.stderr).toBe('');
  });

  it('exits 1 when there is no local stack', async () => {
    const missing = join(dir, 'missing', 'stack.json');
    const run = await ops(['keys', 'list', '--client', 'x'], { OPS_STACK_FILE: missing });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`no local stack found at ${missing}; start it with npm start`);
    expect(run.stderr).toContain('LOCAL_DATA_DIR');
  });
});

describe('rooms', () => {
  it('lists a client\'s rooms in natural room-number order with their external ids', async () => {
    const tenant = await stack.createTenant();
    const other = await stack.createTenant();
    const rooms = ['10', '2', '1'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 90, max_occupancy: 2 }));
    const put = await stack.request('PUT', '/api/v1/property-sync/rooms', { key: tenant.syncKey, body: { external_source: 'pms', rooms } });
    expect(put.status).toBe(200);
    await stack.request('PUT', '/api/v1/property-sync/rooms', { key: other.syncKey, body: { external_source: 'pms', rooms: [rooms[0]] } });

    const listed = await opsJson<{ rooms: { room_number: string; external_source: string; external_room_id: string; id: string }[] }>([
      'rooms',
      'list',
      '--client',
      tenant.clientId,
    ]);
    expect(listed.rooms.map((r) => r.room_number)).toEqual(['1', '2', '10']);
    expect(listed.rooms[0]).toMatchObject({ external_source: 'pms', external_room_id: 'R1', id: expect.stringMatching(UUID) });

    const unknown = await ops(['rooms', 'list', '--client', '00000000-0000-4000-8000-000000000000', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe('NOT_FOUND');
    expect(unknown.stderr).toContain('NOT_FOUND');
  });
});

describe('callbacks, reception bookings and deliveries', () => {
  it('sets a callback URL, books a room, lists, shows and retries deliveries', async () => {
    const { startReceiver, waitFor } = await import('../support/receiver');
    const receiver = await startReceiver();
    try {
      const tenant = await stack.createTenant();
      await stack.request('PUT', '/api/v1/property-sync/rooms', {
        key: tenant.syncKey,
        body: { external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '1', room_type: 'double', price: 90, max_occupancy: 2 }] },
      });
      const set = await opsJson<{ secret: string; url: string }>(['callbacks', 'set', '--client', tenant.clientId, '--url', receiver.url]);
      expect(set.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const chosen = await opsJson<{ secret: string }>(['webhooks', 'set', '--client', tenant.clientId, '--url', receiver.url, '--secret', 'a-secret-of-enough-length']);
      expect(chosen.secret).toBe('a-secret-of-enough-length');

      const { rooms } = await opsJson<{ rooms: { id: string }[] }>(['rooms', 'list', '--client', tenant.clientId]);
      const bookingArgs = ['bookings', 'create', '--client', tenant.clientId, '--room', rooms[0]!.id, '--guest-name', 'Grace Hopper', '--guest-email', 'grace@example.com', '--check-in', '2027-10-01', '--check-out', '2027-10-03', '--guests', '2', '--total-amount', '180'];
      const booked = await opsJson<{ booking_id: string; booking_reference: string; confirmation_code: string }>(bookingArgs);
      expect(booked.booking_id).toMatch(UUID);
      expect(booked.booking_reference).toMatch(/^BK-[A-Z0-9]{8}$/);
      expect(booked.confirmation_code).toMatch(/^[A-Z0-9]{6}$/);

      const taken = await ops([...bookingArgs, '--json']);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('ROOM_NOT_AVAILABLE');
      const invalid = await ops(bookingArgs.map((arg, i) => (bookingArgs[i - 1] === '--guests' ? '0' : arg)));
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain('VALIDATION_ERROR');

      // This file's stack runs the real sender: the callback arrives.
      await waitFor('the callback', async () => (receiver.received.length ? true : undefined));
      const listed = await waitFor('a delivered delivery', async () => {
        const result = await opsJson<{ deliveries: { delivery_id: string; status: string; attempts: unknown[] }[] }>([
          'deliveries', 'list', '--client', tenant.clientId, '--status', 'delivered',
        ]);
        return result.deliveries.length ? result.deliveries : undefined;
      });
      expect(listed).toHaveLength(1);
      expect(listed[0]!.attempts).toEqual([{ at: expect.any(String), status_code: 200, duration_ms: expect.any(Number), error: null }]);
      const shown = await opsJson<{ delivery_id: string; event: string; booking_id: string }>(['deliveries', 'show', listed[0]!.delivery_id]);
      expect(shown).toMatchObject({ delivery_id: listed[0]!.delivery_id, event: 'booking.confirmed', booking_id: booked.booking_id });

      const notRetryable = await ops(['deliveries', 'retry', listed[0]!.delivery_id, '--json']);
      expect(notRetryable.code).toBe(1);
      expect(notRetryable.stderr).toContain('DELIVERY_NOT_RETRYABLE');
      // Bulk retries hand the deliveries to the sweeper and say how many (docs/behaviour.md "Receivers in control").
      const bulk = await opsJson<{ queued: number }>(['deliveries', 'retry', '--client', tenant.clientId, '--status', 'failed']);
      expect(bulk.queued).toBe(0);
      expect((await ops(['deliveries', 'retry', '--client', tenant.clientId])).code).toBe(2);
      // The secret is never shown again.
      expect(JSON.stringify(listed)).not.toContain(set.secret);
    } finally {
      await receiver.close();
    }
    // A dozen CLI runs, each a process of its own.
  }, 120_000);

  it('refuses a callback or webhook URL that points inside the network', async () => {
    const tenant = await stack.createTenant();
    for (const [kind, url, reason] of [
      ['callbacks', 'http://10.0.0.1/hooks/booking', '10.0.0.1 is a private address'],
      ['webhooks', 'https://[::ffff:169.254.169.254]/latest', '::ffff:a9fe:a9fe is an IPv4-mapped link-local address'],
    ] as const) {
      const run = await ops([kind, 'set', '--client', tenant.clientId, '--url', url, '--json']);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toEqual({ error: { code: 'VALIDATION_ERROR', message: `The URL must not point inside the network: ${reason}` } });
      expect(run.stderr).toBe(`error: The URL must not point inside the network: ${reason} (VALIDATION_ERROR)\n`);
    }
  });
});

describe('rooms create', () => {
  it('sets up a room that a later PMS sync with its room number links', async () => {
    const tenant = await stack.createTenant();
    const roomArgs = (number: string, price = '180.5', maxOccupancy = '3') =>
      ['rooms', 'create', '--client', tenant.clientId, '--room-number', number, '--room-type', 'suite', '--price', price, '--max-occupancy', maxOccupancy];
    const created = await opsJson<{ room_id: string }>(roomArgs('301'));
    expect(created).toEqual({ room_id: expect.stringMatching(UUID) });

    const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key: tenant.syncKey,
      body: { external_source: 'pms', rooms: [{ external_room_id: 'R301', room_number: '301', room_type: 'suite', price: 190, max_occupancy: 3 }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.items).toEqual([{ external_room_id: 'R301', id: created.room_id, action: 'linked' }]);
    const { rooms } = await opsJson<{ rooms: { id: string; external_room_id: string }[] }>(['rooms', 'list', '--client', tenant.clientId]);
    expect(rooms).toEqual([expect.objectContaining({ id: created.room_id, external_room_id: 'R301' })]);

    const again = await ops([...roomArgs('301'), '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).error.code).toBe('ROOM_NUMBER_CONFLICT');
    for (const [args, field] of [
      [roomArgs('302', '-5'), 'price'],
      [roomArgs('302', '10', 'two'), 'max_occupancy'],
      [roomArgs('302', '10', '1.5'), 'max_occupancy'],
    ] as const) {
      const invalid = await ops([...args, '--json']);
      expect(invalid.code).toBe(1);
      expect(JSON.parse(invalid.stdout).error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(new RegExp(`^${field}: `)) });
    }
  }, 120_000);
});

describe('bookings list and bookings assign', () => {
  it('lists every origin with filters, and gives a paid booking recorded for manual assignment its room', async () => {
    const { startReceiver, waitFor } = await import('../support/receiver');
    const { orderStatus, paidRoomBooking } = await import('../support/paid-orders');
    const { verifySignature } = await import('../../shared/receiver-kit');
    const receiver = await startReceiver();
    try {
      const tenant = await stack.createTenant();
      const { secret } = await opsJson<{ secret: string }>(['callbacks', 'set', '--client', tenant.clientId, '--url', receiver.url]);
      await stack.request('PUT', '/api/v1/property-sync/rooms', {
        key: tenant.syncKey,
        body: { external_source: 'pms', rooms: ['1', '2'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 90, max_occupancy: 2 })) },
      });
      const sync = await stack.request('PUT', '/api/v1/property-sync/bookings', {
        key: tenant.syncKey,
        body: { external_source: 'pms', bookings: [{ external_booking_id: 'B1', external_room_id: 'R1', guest_name: 'Sync Guest', guests: 1, check_in_date: '2029-01-01', check_out_date: '2029-01-03', status: 'checked_in' }] },
      });
      expect(sync.status).toBe(200);
      const { rooms } = await opsJson<{ rooms: { id: string; room_number: string }[] }>(['rooms', 'list', '--client', tenant.clientId]);
      const room = (n: string) => rooms.find((r) => r.room_number === n)!.id;
      const reception = await opsJson<{ booking_id: string }>([
        'bookings', 'create', '--client', tenant.clientId, '--room', room('2'), '--guest-name', 'Desk Guest', '--guest-email', 'desk@example.com',
        '--check-in', '2029-01-02', '--check-out', '2029-01-04', '--guests', '1', '--total-amount', '180',
      ]);
      const paid = await paidRoomBooking(stack, tenant, { check_in_date: '2029-01-10', check_out_date: '2029-01-12' });
      expect(paid.sync).toMatchObject({ room_id: null, room_assignment: 'manual' });

      type Listed = { bookings: { booking_id: string; origin: string; status: string; room_id: string | null; room_number: string | null; awaiting_room: boolean }[] };
      const all = await opsJson<Listed>(['bookings', 'list', '--client', tenant.clientId]);
      // In check-in order.
      expect(all.bookings.map((b) => [b.origin, b.status, b.room_number, b.awaiting_room])).toEqual([
        ['sync', 'checked_in', '1', false],
        ['reception', 'confirmed', '2', false],
        ['payment', 'confirmed', null, true],
      ]);
      const ids = (listed: Listed) => listed.bookings.map((b) => b.booking_id);
      expect(ids(await opsJson<Listed>(['bookings', 'list', '--client', tenant.clientId, '--origin', 'payment']))).toEqual([paid.sync.booking_id]);
      expect(ids(await opsJson<Listed>(['bookings', 'list', '--client', tenant.clientId, '--status', 'confirmed', '--from', '2029-01-03', '--to', '2029-01-10']))).toEqual([
        reception.booking_id,
        paid.sync.booking_id,
      ]);
      const readable = await ops(['bookings', 'list', '--client', tenant.clientId, '--origin', 'payment']);
      expect(readable.stdout).toContain('AWAITING ROOM');
      const badDate = await ops(['bookings', 'list', '--client', tenant.clientId, '--from', '2029-02-30', '--json']);
      expect(badDate.code).toBe(1);
      expect(JSON.parse(badDate.stdout).error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/^from: /) });

      // Room 1 is in use by the synced stay only until 01-03: free for 01-10..01-12.
      const assigned = await opsJson<{ booking_id: string; room_id: string; room_number: string; awaiting_room: boolean; delivery_id: string }>([
        'bookings', 'assign', paid.sync.booking_id, '--room', room('1'),
      ]);
      expect(assigned).toMatchObject({ booking_id: paid.sync.booking_id, room_id: room('1'), room_number: '1', awaiting_room: false, delivery_id: expect.stringMatching(UUID) });
      const status = await orderStatus(stack, tenant, paid.orderReference);
      expect(status.body.service_booking_sync).toMatchObject({ booking_id: paid.sync.booking_id, room_id: room('1'), room_assignment: 'manual' });
      const availability = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2029-01-11&check_out_date=2029-01-12&guests=1', { key: tenant.syncKey });
      expect(availability.body.available_rooms.map((r: { room_number: string }) => r.room_number)).toEqual(['2']);

      const callbacks = await waitFor('both booking.confirmed callbacks of the paid booking', async () => {
        const mine = receiver.received.filter((c) => JSON.parse(c.rawBody.toString('utf8')).booking.id === paid.sync.booking_id);
        return mine.length === 2 ? mine : undefined;
      });
      const [first, second] = callbacks.map((c) => ({ c, body: JSON.parse(c.rawBody.toString('utf8')) })).sort((a) => (a.body.room ? 1 : -1));
      expect(first!.body.room).toBeNull();
      expect(second!.body.room).toMatchObject({ id: room('1'), room_number: '1', external_room_id: 'R1' });
      expect(second!.c.headers['x-service-delivery']).toBe(assigned.delivery_id);
      expect(second!.c.headers['x-service-delivery']).not.toBe(first!.c.headers['x-service-delivery']);
      expect(verifySignature(second!.c.rawBody, second!.c.headers['x-service-signature'] as string, secret)).toBe(true);

      const again = await ops(['bookings', 'assign', paid.sync.booking_id, '--room', room('2'), '--json']);
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stdout).error.code).toBe('BOOKING_ALREADY_ASSIGNED');
      const unknown = await ops(['bookings', 'assign', '00000000-0000-4000-8000-000000000000', '--room', room('2'), '--json']);
      expect(unknown.code).toBe(1);
      expect(JSON.parse(unknown.stdout).error.code).toBe('NOT_FOUND');
      const noRoom = await ops(['bookings', 'assign', paid.sync.booking_id, '--json']);
      expect(noRoom.code).toBe(2);
      expect(JSON.parse(noRoom.stdout).error).toEqual({ code: 'USAGE_ERROR', message: "required option '--room <ROOM_ID>' not specified" });
    } finally {
      await receiver.close();
    }
    // A dozen CLI runs, each a process of its own.
  }, 120_000);
});
