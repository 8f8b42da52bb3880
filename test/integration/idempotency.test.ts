/**
 * Idempotency-Key on the Area A writes through the local gateway (docs/behaviour.md
 * "Idempotency-Key"): replay, reuse with another body, a duplicate in flight, scoping, and
 * which outcomes are kept.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const BASE = '/api/v1/property-sync';
const SOURCE = 'pms';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

function put(route: string, key: string, body: unknown, idempotencyKey?: string) {
  return stack.request('PUT', `${BASE}/${route}`, { key, body, headers: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} });
}

function putRaw(route: string, key: string, rawBody: string, idempotencyKey: string) {
  return stack.request('PUT', `${BASE}/${route}`, {
    key,
    rawBody,
    headers: { 'Idempotency-Key': idempotencyKey, 'Content-Type': 'application/json' },
  });
}

async function roomNumbers(key: string): Promise<string[]> {
  const response = await stack.request('GET', `${BASE}/availability?check_in_date=2027-01-10&check_out_date=2027-01-11&guests=1`, { key });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

function room(id: string, number: string, overrides: Record<string, unknown> = {}) {
  return { external_room_id: id, room_number: number, room_type: 'double', price: 100, max_occupancy: 2, ...overrides };
}

const replayed = (response: { headers: Headers }) => response.headers.get('idempotent-replayed');

describe('replay', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await stack.createTenant();
  });

  it('replays the stored response for the same key and body without running the request again', async () => {
    const key = randomUUID();
    const body = { external_source: SOURCE, rooms: [room('R1', '1'), room('R2', '2')] };
    const first = await put('rooms', tenant.syncKey, body, key);
    expect(first.status).toBe(200);
    expect(replayed(first)).toBeNull();
    expect(first.body).toMatchObject({ created: 2, unchanged: 0 });

    const second = await put('rooms', tenant.syncKey, body, key);
    expect(second.status).toBe(200);
    expect(replayed(second)).toBe('true');
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    // The first outcome, byte for byte: a second run would have reported the rooms unchanged.
    expect(second.text).toBe(first.text);
    expect(await roomNumbers(tenant.syncKey)).toEqual(['1', '2']);

    // Without the key the same body runs again.
    const fresh = await put('rooms', tenant.syncKey, body);
    expect(replayed(fresh)).toBeNull();
    expect(fresh.body).toMatchObject({ created: 0, unchanged: 2 });
  });

  it('replays for the same body written differently (canonical JSON)', async () => {
    const key = randomUUID();
    const first = await putRaw('rooms', tenant.syncKey, JSON.stringify({ external_source: SOURCE, rooms: [room('C1', '31')] }), key);
    expect(first.status).toBe(200);
    const reordered = `{
      "rooms": [{"max_occupancy": 2, "price": 100, "room_type": "double", "room_number": "31", "external_room_id": "C1"}],
      "external_source": "${SOURCE}"
    }`;
    const second = await putRaw('rooms', tenant.syncKey, reordered, key);
    expect(second.status, second.text).toBe(200);
    expect(replayed(second)).toBe('true');
    expect(second.text).toBe(first.text);
  });

  it('is kept per client, not per API key', async () => {
    const key = randomUUID();
    const body = { external_source: SOURCE, rooms: [room('K1', '41')] };
    const first = await put('rooms', tenant.syncKey, body, key);
    expect(first.body).toMatchObject({ created: 1 });
    const otherKey = await stack.issueKey(tenant.clientId, 'sync');
    const second = await put('rooms', otherKey.key, body, key);
    expect(replayed(second)).toBe('true');
    expect(second.text).toBe(first.text);
  });

  it('is kept per route: the same key on another route runs that request', async () => {
    const key = randomUUID();
    const rooms = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('P1', '51')] }, key);
    expect(rooms.body).toMatchObject({ created: 1 });
    const categories = await put('room-categories', tenant.syncKey, { external_source: SOURCE, categories: [{ external_category_id: 'p', name: 'P' }] }, key);
    expect(categories.status).toBe(200);
    expect(replayed(categories)).toBeNull();
    expect(categories.body).toMatchObject({ created: 1, items: [expect.objectContaining({ external_category_id: 'p' })] });
  });

  it('is kept per client: another client with the same key and body runs its own request', async () => {
    const key = randomUUID();
    const body = { external_source: SOURCE, rooms: [room('T1', '61')] };
    const mine = await put('rooms', tenant.syncKey, body, key);
    expect(mine.body).toMatchObject({ created: 1 });
    const other = await stack.createTenant();
    const theirs = await put('rooms', other.syncKey, body, key);
    expect(theirs.status).toBe(200);
    expect(replayed(theirs)).toBeNull();
    expect(theirs.body.items[0].id).not.toBe(mine.body.items[0].id);
    expect(await roomNumbers(other.syncKey)).toEqual(['61']);
  });

  it('replays on every sync route', async () => {
    const own = await stack.createTenant();
    await put('rooms', own.syncKey, { external_source: SOURCE, rooms: [room('E1', '1')] });
    const requests: [string, unknown][] = [
      ['room-categories', { external_source: SOURCE, categories: [{ external_category_id: 'c', name: 'C' }] }],
      ['rooms', { external_source: SOURCE, rooms: [room('E2', '2')] }],
      [
        'bookings',
        {
          external_source: SOURCE,
          bookings: [
            { external_booking_id: 'B', external_room_id: 'E1', guest_name: 'G', guests: 1, check_in_date: '2027-02-01', check_out_date: '2027-02-03', status: 'confirmed' },
          ],
        },
      ],
      ['checkins', { external_source: SOURCE, checkins: [{ external_checkin_id: 'I', external_booking_id: 'B', event: 'check_in', occurred_at: '2027-02-01T15:00:00Z' }] }],
    ];
    for (const [route, body] of requests) {
      const key = randomUUID();
      const first = await put(route, own.syncKey, body, key);
      expect(first.status, `${route}: ${first.text}`).toBe(200);
      expect(first.body.created).toBe(1);
      const second = await put(route, own.syncKey, body, key);
      expect(replayed(second), route).toBe('true');
      expect(second.text).toBe(first.text);
    }
  });
});

describe('reuse and stored outcomes', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await stack.createTenant();
  });

  it('refuses the same key with another body with 422 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
    const key = randomUUID();
    const first = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('R1', '1')] }, key);
    expect(first.status).toBe(200);
    const other = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('R1', '1'), room('R2', '2')] }, key);
    expect(other.status).toBe(422);
    expect(other.body.error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', request_id: other.headers.get('x-request-id') });
    expect(replayed(other)).toBeNull();
    expect(await roomNumbers(tenant.syncKey)).toEqual(['1']);
    // The original outcome is still there.
    const again = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('R1', '1')] }, key);
    expect(replayed(again)).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('keeps a 4xx outcome and replays it', async () => {
    const key = randomUUID();
    const body = { external_source: SOURCE, rooms: [room('U1', '11', { external_category_id: 'later' })] };
    const first = await put('rooms', tenant.syncKey, body, key);
    expect(first.status).toBe(422);
    expect(first.body.error.code).toBe('UNKNOWN_REFERENCE');
    await put('room-categories', tenant.syncKey, { external_source: SOURCE, categories: [{ external_category_id: 'later', name: 'Later' }] });
    const second = await put('rooms', tenant.syncKey, body, key);
    expect(second.status).toBe(422);
    expect(replayed(second)).toBe('true');
    // The stored error again, naming the request that replayed it (as its X-Request-Id does).
    expect({ ...second.body.error, request_id: undefined }).toEqual({ ...first.body.error, request_id: undefined });
    expect(second.body.error.request_id).toBe(second.headers.get('x-request-id'));
    expect(second.body.error.request_id).not.toBe(first.body.error.request_id);
    expect(await roomNumbers(tenant.syncKey)).not.toContain('11');
    // A new key runs it, now that the category exists.
    const retried = await put('rooms', tenant.syncKey, body, randomUUID());
    expect(retried.body).toMatchObject({ created: 1 });
  });

  it('does not keep a request refused by validation: the corrected body may use the key', async () => {
    const key = randomUUID();
    const invalid = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('V1', '21', { price: 'free' })] }, key);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('VALIDATION_ERROR');
    const corrected = await put('rooms', tenant.syncKey, { external_source: SOURCE, rooms: [room('V1', '21')] }, key);
    expect(corrected.status, corrected.text).toBe(200);
    expect(replayed(corrected)).toBeNull();
    expect(corrected.body).toMatchObject({ created: 1 });
  });

  it('accepts a key of 255 characters and refuses a longer one', async () => {
    const body = { external_source: SOURCE, rooms: [room('L1', '31')] };
    const tooLong = await put('rooms', tenant.syncKey, body, 'k'.repeat(256));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('VALIDATION_ERROR');
    expect(await roomNumbers(tenant.syncKey)).not.toContain('31');
    const longest = 'k'.repeat(255);
    const ok = await put('rooms', tenant.syncKey, body, longest);
    expect(ok.status).toBe(200);
    expect(replayed(await put('rooms', tenant.syncKey, body, longest))).toBe('true');
  });
});

describe('a duplicate in flight', () => {
  it('answers 409 IDEMPOTENCY_REQUEST_IN_PROGRESS (or the replay) and runs the request once', async () => {
    const tenant = await stack.createTenant();
    const key = randomUUID();
    const body = { external_source: SOURCE, rooms: Array.from({ length: 500 }, (_, i) => room(`R${i}`, String(1000 + i))) };

    const first = put('rooms', tenant.syncKey, body, key);
    await new Promise((r) => setTimeout(r, 40));
    const second = put('rooms', tenant.syncKey, body, key);
    const responses = await Promise.all([first, second]);

    const fresh = responses.filter((r) => r.status === 200 && replayed(r) === null);
    const duplicates = responses.filter((r) => !fresh.includes(r));
    expect(fresh, responses.map((r) => `${r.status} ${r.text.slice(0, 200)}`).join('\n')).toHaveLength(1);
    expect(fresh[0]!.body).toMatchObject({ received: 500, created: 500, updated: 0, unchanged: 0 });
    const duplicate = duplicates[0]!;
    if (duplicate.status === 409) {
      expect(duplicate.body.error).toMatchObject({ code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS', request_id: duplicate.headers.get('x-request-id') });
      expect(duplicate.headers.get('retry-after')).toBeTruthy();
    } else {
      expect(duplicate.status).toBe(200);
      expect(replayed(duplicate)).toBe('true');
      expect(duplicate.text).toBe(fresh[0]!.text);
    }

    // Once finished, the key replays the one outcome; the rooms exist once.
    const later = await put('rooms', tenant.syncKey, body, key);
    expect(later.status).toBe(200);
    expect(replayed(later)).toBe('true');
    expect(later.text).toBe(fresh[0]!.text);
    const listed = await roomNumbers(tenant.syncKey);
    expect(listed).toHaveLength(500);
    expect(new Set(listed).size).toBe(500);
  });
});
