/**
 * The operator CLI's booking changes and refunds, as operators run it (a child process against
 * the test stack's stack file): `bookings modify`, `bookings cancel [--refund]`, `orders refund`
 * and `clients settings --free-cancellation-hours`, each finding the client by the booking or
 * order and leaving its entry on the client's Audit page as the operator CLI.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OpsRun, runOps } from '../support/ops-cli';
import { orderStatus, paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';
import { type HotelWithRooms, hotelWithRooms } from '../support/hotel-rooms';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let stack: TestStack;
let receiver: Receiver;
let dir: string;
let stackFile: string;
let domain: {
  reception: typeof import('../../shared/domain/bookings/reception-bookings');
  deliveries: typeof import('../../shared/domain/callbacks/deliveries');
  audit: typeof import('../../shared/domain/audit');
  store: typeof import('../../shared/store/booking-store');
};

const ops = (args: string[]): Promise<OpsRun> => runOps(stackFile, args);

/** Runs with --json and expects success: stdout is exactly one JSON object. */
async function opsJson<T = any>(args: string[]): Promise<T> {
  const run = await ops([...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as T;
}

/** Runs with --json and expects a failure: its exit code and `{error: {code, message}}` on stdout. */
async function opsRefusal(args: string[]): Promise<{ exit: number | null; code: string; message: string }> {
  const run = await ops([...args, '--json']);
  const { error } = JSON.parse(run.stdout) as { error: { code: string; message: string } };
  return { exit: run.code, code: error.code, message: error.message };
}

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  dir = mkdtempSync(join(tmpdir(), 'ops-booking-changes-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
  domain = {
    reception: await import('../../shared/domain/bookings/reception-bookings'),
    deliveries: await import('../../shared/domain/callbacks/deliveries'),
    audit: await import('../../shared/domain/audit'),
    store: await import('../../shared/store/booking-store'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  receiver.received.length = 0;
});

type Hotel = HotelWithRooms;

/** A client with synced rooms 101 and 102, its callbacks going to the receiver. */
const hotel = (): Promise<Hotel> => hotelWithRooms(stack, { callbackUrl: receiver.url });

async function book(h: Hotel, room: string, checkIn: string, checkOut: string) {
  const { booking } = await domain.reception.createReceptionBooking(h.tenant.clientId, h.rooms.get(room)!, {
    check_in_date: checkIn,
    check_out_date: checkOut,
    guests: 2,
    guest_name: 'Ada Guest',
    guest_email: `guest-${randomUUID()}@example.com`,
  });
  return booking;
}

async function available(h: Hotel, checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, { key: h.tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

/** The client's audit entries about `target`, oldest first: [action, operator]. */
async function auditOf(h: Hotel, target: string) {
  const { entries } = await domain.audit.listAudit(h.tenant.clientId, { target });
  return entries.reverse();
}

describe('bookings modify and bookings cancel', () => {
  it('change a stay under the availability rules, cancel it freeing the room, and tell the callback URL each time', async () => {
    const h = await hotel();
    const booking = await book(h, '101', '2029-03-10', '2029-03-12');
    await book(h, '102', '2029-03-14', '2029-03-16');

    const longer = await opsJson(['bookings', 'modify', booking.id, '--check-out', '2029-03-13']);
    expect(longer).toMatchObject({ booking_id: booking.id, status: 'confirmed', room_number: '101', check_in_date: '2029-03-10', check_out_date: '2029-03-13', delivery_id: expect.stringMatching(UUID) });
    expect(await available(h, '2029-03-12', '2029-03-13')).toEqual(['102']);

    // Into room 102 over the other booking's nights: refused, nothing changed.
    const clash = await opsRefusal(['bookings', 'modify', booking.id, '--room', h.rooms.get('102')!, '--check-out', '2029-03-15']);
    expect(clash).toMatchObject({ exit: 1, code: 'ROOM_NOT_AVAILABLE' });
    expect(await domain.store.getBooking(h.tenant.clientId, booking.id)).toMatchObject({ room_id: h.rooms.get('101'), check_out_date: '2029-03-13' });
    expect(await opsRefusal(['bookings', 'modify', booking.id])).toMatchObject({ exit: 2, code: 'USAGE_ERROR', message: expect.stringMatching(/--check-in/) });

    const cancelled = await opsJson(['bookings', 'cancel', booking.id, '--reason', 'Guest fell ill']);
    expect(cancelled).toMatchObject({
      booking_id: booking.id,
      status: 'cancelled',
      cancellation_reason: 'Guest fell ill',
      cancelled_by: 'staff',
      cancelled_at: expect.any(String),
      room_id: h.rooms.get('101'),
      repeated: false,
      delivery_id: expect.stringMatching(UUID),
      refund: null,
      refund_error: null,
    });
    expect(await available(h, '2029-03-10', '2029-03-13')).toEqual(['101', '102']);

    // Again, for people: the same booking, nothing more sent.
    const again = await ops(['bookings', 'cancel', booking.id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/status:\s+cancelled \(already: nothing changed\)/);
    expect(again.stdout).toMatch(/reason:\s+Guest fell ill/);

    const events = await waitFor('the three events of the booking', async () => {
      const mine = receiver.received.map((r) => JSON.parse(r.rawBody.toString())).filter((b) => b.booking?.id === booking.id);
      return mine.length >= 3 ? mine : undefined;
    });
    expect(events.map((e) => [e.event, e.booking.sequence]).sort((a, b) => a[1] - b[1])).toEqual([
      ['booking.confirmed', 1],
      ['booking.modified', 2],
      ['booking.cancelled', 3],
    ]);
    expect(events.find((e) => e.event === 'booking.cancelled')!.booking.cancellation_reason).toBe('Guest fell ill');

    const audit = await auditOf(h, booking.id);
    expect(audit.map((e) => [e.action, e.operator])).toEqual([
      ['booking.modify', 'operator CLI'],
      ['booking.cancel', 'operator CLI'],
      ['booking.cancel', 'operator CLI'],
    ]);
    expect(audit[0]).toMatchObject({ changes: { check_out_date: '2029-03-13' }, previous: { check_out_date: '2029-03-12' } });
    expect(audit[1]!.changes).toMatchObject({ status: 'cancelled', cancellation_reason: 'Guest fell ill', repeated: false });
    expect(audit[2]!.changes).toMatchObject({ repeated: true });

    expect(await opsRefusal(['bookings', 'cancel', randomUUID()])).toMatchObject({ exit: 1, code: 'NOT_FOUND' });
    expect(await opsRefusal(['bookings', 'cancel', booking.id, '--refund', 'lots'])).toMatchObject({ exit: 2, code: 'USAGE_ERROR' });
  }, 120_000);
});

describe('refunds', () => {
  it('bookings cancel --refund full refunds the paid order once, however often the cancel is repeated', async () => {
    const h = await hotel();
    const paid = await paidRoomBooking(stack, h.tenant, { check_in_date: '2029-04-01', check_out_date: '2029-04-03', serviceRoomId: h.rooms.get('101') });
    const bookingId = paid.sync.booking_id;

    const cancelled = await opsJson(['bookings', 'cancel', bookingId, '--reason', 'Hotel closed', '--refund', 'full']);
    expect(cancelled).toMatchObject({
      booking_id: bookingId,
      status: 'cancelled',
      payment_order_reference: paid.orderReference,
      refund: { refund_id: expect.any(String), amount_minor: 24000, currency: 'USD', status: 'succeeded' },
      refund_error: null,
    });
    expect(await available(h, '2029-04-01', '2029-04-03')).toEqual(['101', '102']);

    const repeated = await opsJson(['bookings', 'cancel', bookingId, '--refund', 'full']);
    expect(repeated).toMatchObject({ repeated: true, refund: { refund_id: cancelled.refund.refund_id, amount_minor: 24000 } });
    const order = await orderStatus(stack, h.tenant, paid.orderReference);
    expect(order.body).toMatchObject({ status: 'refunded', amount_refunded_minor: 24000 });
    expect(order.body.refunds).toHaveLength(1);

    const [entry] = await auditOf(h, bookingId);
    expect(entry!.changes).toMatchObject({ refund_requested: 'full', refund_id: cancelled.refund.refund_id, refund_amount_minor: 24000, refund_status: 'succeeded' });
  }, 120_000);

  it('orders refund refunds part, then what is left, then refuses more', async () => {
    const h = await hotel();
    const paid = await paidRoomBooking(stack, h.tenant, { check_in_date: '2029-05-01', check_out_date: '2029-05-02' }, { amountMinor: 20000 });

    const part = await opsJson(['orders', 'refund', paid.orderReference, '--amount', '5000', '--reason', 'Minibar charged twice']);
    expect(part).toMatchObject({ order_reference: paid.orderReference, refund_id: expect.any(String), amount_minor: 5000, currency: 'USD', status: 'succeeded' });
    expect((await orderStatus(stack, h.tenant, paid.orderReference)).body).toMatchObject({ status: 'partially_refunded', amount_refunded_minor: 5000 });

    const rest = await opsJson(['orders', 'refund', paid.orderReference]);
    expect(rest).toMatchObject({ amount_minor: 15000, status: 'succeeded' });
    expect(rest.refund_id).not.toBe(part.refund_id);
    expect((await orderStatus(stack, h.tenant, paid.orderReference)).body).toMatchObject({ status: 'refunded', amount_refunded_minor: 20000 });
    // The booking stays as it was: a refund cancels nothing.
    expect((await domain.store.getBooking(h.tenant.clientId, paid.sync.booking_id))!.status).toBe('confirmed');

    expect(await opsRefusal(['orders', 'refund', paid.orderReference, '--amount', '1'])).toMatchObject({ exit: 1, code: 'REFUND_EXCEEDS_PAYMENT' });
    expect(await opsRefusal(['orders', 'refund', 'PO-AAAAAAAAAAAA'])).toMatchObject({ exit: 1, code: 'PAYMENT_ORDER_NOT_FOUND' });
    expect(await opsRefusal(['orders', 'refund', paid.orderReference, '--amount', '12.50'])).toMatchObject({ exit: 2, code: 'USAGE_ERROR' });

    const audit = await auditOf(h, paid.orderReference);
    expect(audit.map((e) => [e.action, e.operator, e.changes.refund_amount_minor])).toEqual([
      ['order.refund', 'operator CLI', 5000],
      ['order.refund', 'operator CLI', 15000],
    ]);
  }, 120_000);
});

describe('clients settings --free-cancellation-hours', () => {
  it('shows the default of 48, sets the hours, and refuses what is no whole number', async () => {
    const { tenant } = await hotel();
    expect(await opsJson(['clients', 'settings', '--client', tenant.clientId])).toMatchObject({ free_cancellation_hours: 48 });
    expect(await opsJson(['clients', 'settings', '--client', tenant.clientId, '--free-cancellation-hours', '24'])).toMatchObject({ free_cancellation_hours: 24 });
    expect(await opsRefusal(['clients', 'settings', '--client', tenant.clientId, '--free-cancellation-hours', 'soon'])).toMatchObject({
      exit: 1,
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/free_cancellation_hours/),
    });
  }, 60_000);
});
