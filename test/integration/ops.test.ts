/**
 * The operator CLI as operators run it: a child process against a stack found through its
 * stack file (here the test stack's, via OPS_STACK_FILE).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_SCOPES } from '../../infra/routes';
import { startTestStack, type TestStack } from '../support/stack';

const root = fileURLToPath(new URL('../..', import.meta.url));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LISTED_KEY_FIELDS = ['created_at', 'key_id', 'kind', 'last_used_at', 'name', 'origins', 'revoked_at', 'scopes'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let stack: TestStack;
let dir: string;
let stackFile: string;

function ops(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/ops.ts', ...args], {
      cwd: root,
      env: { ...process.env, OPS_STACK_FILE: stackFile, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs with --json and expects success: stdout must be exactly one JSON object. */
async function opsJson<T = any>(args: string[]): Promise<T> {
  const run = await ops([...args, '--json']);
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

describe('clients and keys', () => {
  let clientId: string;
  let syncKey: { key_id: string; key: string };
  let paymentKey: { key_id: string; key: string };

  it('creates a client', async () => {
    const created = await opsJson(['clients', 'create', '--name', 'Ops Test Hotel']);
    expect(Object.keys(created)).toEqual(['client_id']);
    expect(created.client_id).toMatch(UUID);
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

describe('errors', () => {
  it('reports a domain error on stderr with exit 1 and nothing on stdout', async () => {
    const run = await ops(['keys', 'create', '--client', '00000000-0000-4000-8000-000000000000', '--kind', 'sync', '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: No client 00000000-0000-4000-8000-000000000000/);
  });

  it('exits 2 with the usage on a usage error', async () => {
    const run = await ops(['keys', 'create', '--client', 'x', '--kind', 'sync', '--bogus', 'y']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown option --bogus');
    expect(run.stderr).toContain('Usage: npm run ops -- keys create');
  });

  it('exits 1 when there is no local stack', async () => {
    const missing = join(dir, 'missing', 'stack.json');
    const run = await ops(['keys', 'list', '--client', 'x'], { OPS_STACK_FILE: missing });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`no local stack found at ${missing}; start it with npm start`);
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
    expect(unknown.stdout).toBe('');
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
      expect(set.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
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
      const bulk = await opsJson<{ retried: unknown[] }>(['deliveries', 'retry', '--client', tenant.clientId, '--status', 'failed']);
      expect(bulk.retried).toEqual([]);
      expect((await ops(['deliveries', 'retry', '--client', tenant.clientId])).code).toBe(2);
      // The secret is never shown again.
      expect(JSON.stringify(listed)).not.toContain(set.secret);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a callback or webhook URL that points inside the network', async () => {
    const tenant = await stack.createTenant();
    for (const [kind, url, reason] of [
      ['callbacks', 'http://10.0.0.1/hooks/booking', '10.0.0.1 is a private address'],
      ['webhooks', 'https://[::ffff:169.254.169.254]/latest', '::ffff:a9fe:a9fe is an IPv4-mapped link-local address'],
    ] as const) {
      const run = await ops([kind, 'set', '--client', tenant.clientId, '--url', url, '--json']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`error: The URL must not point inside the network: ${reason} (VALIDATION_ERROR)\n`);
    }
  });
});
