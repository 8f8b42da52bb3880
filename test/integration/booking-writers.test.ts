/**
 * Two writers of one booking (docs/data-model.md, "Who writes which booking attributes"): PUT
 * bookings (the PMS's booking fields, and status and room when the PMS changes them) and PUT
 * checkins (activity: status, times, room). Each writes only what changed, under the version it
 * read, so neither reverts the other: raced at random over many rounds, and forced into the
 * worst interleaving (one reads, the other writes, then the first writes). An unchanged re-sync
 * makes no conflict query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningFunction } from '../../infra/local/lambda-runtime';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const SOURCE = 'pms';
let stack: TestStack;
let store: typeof import('../../shared/store/booking-store');
let client: typeof import('../../shared/store/dynamo')['dynamoClient'];

beforeAll(async () => {
  stack = await startTestStack();
  store = await import('../../shared/store/booking-store');
  client = (await import('../../shared/store/dynamo')).dynamoClient;
});

afterAll(() => stack?.stop());

const put = (tenant: Tenant, what: 'rooms' | 'bookings' | 'checkins', body: unknown) =>
  stack.request('PUT', `/api/v1/property-sync/${what}`, { key: tenant.syncKey, body: { external_source: SOURCE, ...(body as object) } });

const room = (id: string) => ({ external_room_id: id, room_number: id, room_type: 'double', price: 100, max_occupancy: 2 });

function booking(id: string, overrides: Record<string, unknown> = {}) {
  return {
    external_booking_id: id,
    external_room_id: 'R1',
    guest_name: 'Ada Guest',
    guest_email: 'ada@example.com',
    guests: 2,
    check_in_date: '2027-05-10',
    check_out_date: '2027-05-14',
    total_amount: 400,
    status: 'confirmed',
    payment_status: 'unpaid',
    ...overrides,
  };
}

const checkin = (id: string, bookingId: string, event: 'check_in' | 'check_out', occurredAt: string, extra: Record<string, unknown> = {}) => ({
  external_checkin_id: id,
  external_booking_id: bookingId,
  event,
  occurred_at: occurredAt,
  ...extra,
});

async function newHotel(rooms = ['R1', 'R2']): Promise<{ tenant: Tenant; roomIds: Record<string, string> }> {
  const tenant = await stack.createTenant();
  const response = await put(tenant, 'rooms', { rooms: rooms.map(room) });
  expect(response.status, response.text).toBe(200);
  return { tenant, roomIds: Object.fromEntries(response.body.items.map((i: { external_room_id: string; id: string }) => [i.external_room_id, i.id])) };
}

async function sync(tenant: Tenant, bookings: unknown[]) {
  const response = await put(tenant, 'bookings', { bookings });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function activity(tenant: Tenant, checkins: unknown[]) {
  const response = await put(tenant, 'checkins', { checkins });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Stored bookings by external id, with their index attributes (read straight from the table). */
async function storedBookings(tenant: Tenant, ids: string[]) {
  const { syncedBookingId } = await import('../../shared/domain/property-sync/sync-bookings');
  const { db, TABLE } = await import('../../shared/store/dynamo');
  const { BatchGetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { keys } = await import('../../shared/store/keys');
  const result = new Map<string, Record<string, any>>();
  for (let i = 0; i < ids.length; i += 100) {
    const { Responses } = await db.send(
      new BatchGetCommand({
        RequestItems: { [TABLE]: { Keys: ids.slice(i, i + 100).map((id) => keys.booking(tenant.clientId, syncedBookingId(tenant.clientId, SOURCE, id))), ConsistentRead: true } },
      }),
    );
    for (const item of Responses?.[TABLE] ?? []) result.set(item.external_booking_id, item);
  }
  return result;
}

/** The stay-index attributes follow the stored status and room: present exactly while active. */
function expectIndexMatches(item: Record<string, any>) {
  const active = ['pending', 'confirmed', 'checked_in'].includes(item.status);
  expect(item.gsi2pk, `${item.external_booking_id} ${item.status}`).toBe(active ? `ROOM#${item.room_id}#STAYS` : undefined);
  expect(item.gsi1pk === undefined, `${item.external_booking_id} ${item.status}`).toBe(!active);
}

/**
 * Holds the first booking write of one function's invocation until `release` is called;
 * `held` resolves once that write is waiting (it has read the booking already).
 */
function holdFirstBookingWrite(functionName: string) {
  let release!: () => void;
  let signal!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const held = new Promise<void>((r) => (signal = r));
  let holding = true;
  const name = `hold-${functionName}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: { sk?: string }; Item?: { sk?: string } };
      const sk = input.Key?.sk ?? input.Item?.sk;
      const write = context.commandName === 'UpdateItemCommand' || context.commandName === 'PutItemCommand';
      if (holding && write && runningFunction()?.name === functionName && sk?.startsWith('BOOKING#')) {
        holding = false;
        signal();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return { held, release: () => (release(), client.middlewareStack.remove(name)) };
}

describe('who writes what', () => {
  it('a re-sync that repeats the status keeps a check-in; a changed status or room from the PMS applies', async () => {
    const { tenant, roomIds } = await newHotel();
    await sync(tenant, [booking('B1')]);
    await activity(tenant, [checkin('C1', 'B1', 'check_in', '2027-05-10T14:00:00Z')]);

    // The PMS still says confirmed (it has not seen the check-in) but changed the guest's name.
    expect((await sync(tenant, [booking('B1', { guest_name: 'Ada Lovelace' })])).items[0].action).toBe('updated');
    let b1 = (await storedBookings(tenant, ['B1'])).get('B1')!;
    expect(b1).toMatchObject({ status: 'checked_in', guest_name: 'Ada Lovelace', checked_in_at: '2027-05-10T14:00:00.000Z', room_id: roomIds.R1 });
    expectIndexMatches(b1);

    // A check-in that moves the guest to R2 is kept by a re-sync that still names R1.
    await activity(tenant, [checkin('C2', 'B1', 'check_in', '2027-05-10T15:00:00Z', { external_room_id: 'R2' })]);
    await sync(tenant, [booking('B1', { guest_name: 'Ada Lovelace', total_amount: 450 })]);
    b1 = (await storedBookings(tenant, ['B1'])).get('B1')!;
    expect(b1).toMatchObject({ status: 'checked_in', room_id: roomIds.R2, external_room_id: 'R2', total_amount: 450 });
    expectIndexMatches(b1);

    // The PMS cancels: its new status applies; the check-in history stays.
    await sync(tenant, [booking('B1', { guest_name: 'Ada Lovelace', total_amount: 450, status: 'cancelled' })]);
    b1 = (await storedBookings(tenant, ['B1'])).get('B1')!;
    expect(b1).toMatchObject({ status: 'cancelled', checked_in_at: '2027-05-10T15:00:00.000Z', last_activity_at: '2027-05-10T15:00:00.000Z' });
    expectIndexMatches(b1);

    // The PMS reinstates the booking in R2, then moves it back to R1: both apply.
    await sync(tenant, [booking('B1', { guest_name: 'Ada Lovelace', total_amount: 450, status: 'confirmed', external_room_id: 'R2' })]);
    b1 = (await storedBookings(tenant, ['B1'])).get('B1')!;
    expect(b1).toMatchObject({ status: 'confirmed', room_id: roomIds.R2 });
    expect(b1.synced).toEqual({ status: 'confirmed', room_id: roomIds.R2, external_room_id: 'R2' });
    expectIndexMatches(b1);
    await sync(tenant, [booking('B1', { guest_name: 'Ada Lovelace', total_amount: 450, status: 'confirmed', external_room_id: 'R1' })]);
    b1 = (await storedBookings(tenant, ['B1'])).get('B1')!;
    expect(b1).toMatchObject({ status: 'confirmed', room_id: roomIds.R1, external_room_id: 'R1' });
    expectIndexMatches(b1);
  });

  it('an update writes only the attributes that changed and bumps the version', async () => {
    const { tenant } = await newHotel();
    await sync(tenant, [booking('B1')]);
    const updates: Record<string, unknown>[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'UpdateItemCommand' && runningFunction()?.name === 'PutBookings') updates.push(args.input as Record<string, unknown>);
        return next(args);
      },
      { step: 'initialize', name: 'recordUpdates' },
    );
    try {
      await sync(tenant, [booking('B1', { guest_phone: '+14155550123', guest_email: undefined })]);
    } finally {
      client.middlewareStack.remove('recordUpdates');
    }
    expect(updates).toHaveLength(1);
    const names = [...new Set(Object.values(updates[0]!.ExpressionAttributeNames as Record<string, string>))].sort();
    expect(names).toEqual(['content_hash', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk', 'guest_email', 'guest_phone', 'updated_at', 'version']);
    expect(updates[0]!.ConditionExpression).toContain('= :read');
    const b1 = (await storedBookings(tenant, ['B1'])).get('B1')!;
    expect(b1).toMatchObject({ version: 2, guest_phone: '+14155550123' });
    expect(b1.guest_email).toBeUndefined();
  });
});

describe('concurrent PUT bookings and PUT checkins', () => {
  it('never revert each other: the worst interleaving, both ways', async () => {
    const { tenant } = await newHotel();
    await sync(tenant, [booking('B1'), booking('B2')]);

    // PUT bookings reads B1, then PUT checkins checks the guest in, then PUT bookings writes.
    const bookingsHeld = holdFirstBookingWrite('PutBookings');
    const resync = put(tenant, 'bookings', { bookings: [booking('B1', { guest_name: 'Late Name' })] });
    await bookingsHeld.held;
    await activity(tenant, [checkin('C1', 'B1', 'check_in', '2027-05-10T14:00:00Z')]);
    bookingsHeld.release();
    expect((await resync).body.items[0].action).toBe('updated');

    // PUT checkins reads B2, then PUT bookings renames the guest, then PUT checkins writes.
    const checkinsHeld = holdFirstBookingWrite('PutCheckins');
    const arrival = put(tenant, 'checkins', { checkins: [checkin('C2', 'B2', 'check_in', '2027-05-10T14:00:00Z')] });
    await checkinsHeld.held;
    await sync(tenant, [booking('B2', { guest_name: 'Renamed' })]);
    checkinsHeld.release();
    expect((await arrival).status).toBe(200);

    const stored = await storedBookings(tenant, ['B1', 'B2']);
    expect(stored.get('B1')).toMatchObject({ status: 'checked_in', guest_name: 'Late Name', version: 3 });
    expect(stored.get('B2')).toMatchObject({ status: 'checked_in', guest_name: 'Renamed', version: 3 });
    for (const item of stored.values()) expectIndexMatches(item);
  });

  it('keep both writers’ changes over many raced rounds', async () => {
    const { tenant } = await newHotel(['R1', 'R2', 'R3', 'R4']);
    const ids = Array.from({ length: 20 }, (_, i) => `RACE-${i}`);
    const rooms = ['R1', 'R2', 'R3', 'R4'];
    const version = (round: number) => (id: string, i: number) =>
      booking(id, { external_room_id: rooms[i % rooms.length], guest_name: `Guest ${round}`, total_amount: 100 + round, check_in_date: '2027-06-01', check_out_date: '2027-06-03' });
    await sync(tenant, ids.map(version(0)));

    const ROUNDS = 12;
    for (let round = 1; round <= ROUNDS; round++) {
      const event = round % 2 ? 'check_in' : 'check_out';
      const at = `2027-06-01T${String(8 + round).padStart(2, '0')}:00:00Z`;
      const responses = await Promise.all([
        put(tenant, 'bookings', { bookings: ids.map(version(round)) }),
        put(tenant, 'checkins', { checkins: ids.map((id) => checkin(`${id}-${round}`, id, event, at)) }),
        put(tenant, 'bookings', { bookings: ids.map(version(round)) }),
      ]);
      for (const response of responses) expect(response.status, response.text).toBe(200);

      const stored = await storedBookings(tenant, ids);
      for (const [i, id] of ids.entries()) {
        const item = stored.get(id)!;
        // The PMS's fields of this round and the check-in activity of this round, together.
        expect(item, `round ${round} ${id}`).toMatchObject({
          guest_name: `Guest ${round}`,
          total_amount: 100 + round,
          external_room_id: rooms[i % rooms.length],
          status: event === 'check_in' ? 'checked_in' : 'checked_out',
          last_activity_at: new Date(at).toISOString(),
        });
        expectIndexMatches(item);
      }
    }
  }, 120_000);
});

describe('conflict queries', () => {
  /** gsi2 queries (each room's active stays) made while `fn` runs. */
  async function conflictQueries(fn: () => Promise<unknown>): Promise<number> {
    let count = 0;
    client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'QueryCommand' && (args.input as { IndexName?: string }).IndexName === 'gsi2') count++;
        return next(args);
      },
      { step: 'initialize', name: 'countConflictQueries' },
    );
    try {
      await fn();
    } finally {
      client.middlewareStack.remove('countConflictQueries');
    }
    return count;
  }

  it('an unchanged re-sync makes none; a changed booking queries its room only', async () => {
    const { tenant, roomIds } = await newHotel(['R1', 'R2', 'R3']);
    const bookings = [
      booking('A', { external_room_id: 'R1' }),
      booking('B', { external_room_id: 'R1', check_in_date: '2027-05-12', check_out_date: '2027-05-16' }),
      booking('C', { external_room_id: 'R2' }),
      booking('D', { external_room_id: 'R3' }),
    ];
    let body: any;
    expect(await conflictQueries(async () => (body = await sync(tenant, bookings)))).toBe(3);
    expect(body.conflicts).toHaveLength(2);

    expect(await conflictQueries(async () => (body = await sync(tenant, bookings)))).toBe(0);
    expect(body).toMatchObject({ unchanged: 4, conflicts: [] });

    // Only C changes: its room is read; its overlap with nothing is reported as none.
    const changed = bookings.map((b) => (b.external_booking_id === 'C' ? { ...b, guests: 1 } : b));
    expect(await conflictQueries(async () => (body = await sync(tenant, changed)))).toBe(1);
    expect(body).toMatchObject({ updated: 1, unchanged: 3, conflicts: [] });

    // B changes: its overlap with A (unchanged, in the same request) is reported again.
    const moved = changed.map((b) => (b.external_booking_id === 'B' ? { ...b, guests: 1 } : b));
    expect(await conflictQueries(async () => (body = await sync(tenant, moved)))).toBe(1);
    expect(body.conflicts).toEqual([{ external_booking_id: 'B', room_id: roomIds.R1, overlapping_booking_id: expect.any(String) }]);
  });
});
