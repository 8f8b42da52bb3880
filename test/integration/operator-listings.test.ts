/**
 * The operators' listings (docs/data-model.md, patterns 26 to 32), called as the dashboard calls
 * them (client id given): the audit trail, a client's payment orders (all, paid on a day, one
 * with its history), a client's deliveries page by page and those needing attention, and the
 * overview and rooms grid read from the stay index. Every page is a Query or BatchGetItem, and a
 * cursor is honoured only in the partition of the client it was made for.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withinInvocation } from '../../infra/local/lambda-runtime';
import { takeTableRefusals } from '../../infra/local/table-guard';
import type { TableAccess } from '../../definitions/table-access';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const ORDERS = '/api/v1/payments/payment-orders';

let stack: TestStack;
let receiver: Receiver;
let domain: {
  audit: typeof import('../../shared/domain/audit');
  orders: typeof import('../../shared/domain/payments/list-orders');
  deliveries: typeof import('../../shared/domain/callbacks/delivery-views');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
  overview: typeof import('../../shared/domain/overview');
  bookings: typeof import('../../shared/domain/bookings/list-bookings');
  service: typeof import('../../shared/domain/bookings/service-bookings');
  deliveryStore: typeof import('../../shared/store/delivery-store');
  roomStore: typeof import('../../shared/store/room-store');
  dynamo: typeof import('../../shared/store/dynamo');
};

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  domain = {
    audit: await import('../../shared/domain/audit'),
    orders: await import('../../shared/domain/payments/list-orders'),
    deliveries: await import('../../shared/domain/callbacks/delivery-views'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
    overview: await import('../../shared/domain/overview'),
    bookings: await import('../../shared/domain/bookings/list-bookings'),
    service: await import('../../shared/domain/bookings/service-bookings'),
    deliveryStore: await import('../../shared/store/delivery-store'),
    roomStore: await import('../../shared/store/room-store'),
    dynamo: await import('../../shared/store/dynamo'),
  };
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** The AppError a call rejects with, as {status, code, message, details}. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: { status?: number; code?: string; message: string; details?: unknown }) => e,
  );
  return { status: error.status, code: error.code, message: error.message, details: error.details };
}

const cursorRefusal = { status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'cursor', message: 'is not a cursor of this list' }] };

/** A cursor as a forger writes one: base64url JSON of any key. */
const forge = (key: Record<string, string>) => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
const decoded = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, string>;

/** Every page of a listing, following next_cursor; fails if it never ends. */
async function allPages<T>(page: (cursor?: string) => Promise<{ items: T[]; next_cursor?: string }>): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 50; pages++) {
    const next = await page(cursor);
    items.push(...next.items);
    if (next.next_cursor === undefined) return { items, pages };
    cursor = next.next_cursor;
  }
  throw new Error('the listing did not end');
}

/**
 * Runs a listing as a function declaring only `access` would (the local table guard refuses
 * anything else, as IAM would): the declarations reported for the dashboard's functions.
 */
const withAccess = <T>(access: TableAccess, work: () => Promise<T>) => withinInvocation({ name: 'ListingUnderTest', handler: 'none', tableAccess: access }, work);

const day = (offset: number, from = new Date()) => new Date(from.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

describe('audit entries', () => {
  let tenant: Tenant;
  let other: Tenant;
  const base = Date.parse('2027-03-01T10:00:00.000Z');
  const at = (minute: number) => new Date(base + minute * 60_000);

  beforeAll(async () => {
    [tenant, other] = await Promise.all([stack.createTenant(), stack.createTenant()]);
    for (let i = 0; i < 7; i++) {
      await domain.audit.recordAudit(
        tenant.clientId,
        { operator: 'ada@example.com', action: i % 2 ? 'booking.assign_room' : 'room.create', ...(i % 2 ? { target: 'BOOKING-1' } : {}), changes: { step: i, ok: true, note: null, name: `n${i}` } },
        at(i),
      );
    }
    // Two entries of one millisecond are two entries.
    await domain.audit.recordAudit(tenant.clientId, { operator: 'bob@example.com', action: 'delivery.retry', target: 'D-1', changes: {} }, at(7));
    await domain.audit.recordAudit(tenant.clientId, { operator: 'bob@example.com', action: 'delivery.retry', target: 'D-2', changes: {} }, at(7));
    await domain.audit.recordAudit(other.clientId, { operator: 'eve@example.com', action: 'room.create', target: 'BOOKING-1', changes: {} }, at(3));
  });

  it('lists every entry once, newest first, over pages', async () => {
    const { items, pages } = await allPages(async (cursor) => {
      const page = await domain.audit.listAudit(tenant.clientId, { limit: 2, cursor });
      expect(page.entries.length).toBeLessThanOrEqual(2);
      return { items: page.entries, next_cursor: page.next_cursor };
    });
    expect(pages).toBe(5);
    expect(items).toHaveLength(9);
    expect(new Set(items.map((e) => e.id)).size).toBe(9);
    expect(items.map((e) => e.at)).toEqual([...items.map((e) => e.at)].sort().reverse());
    expect(items.at(-1)).toEqual({
      id: expect.any(String),
      at: at(0).toISOString(),
      operator: 'ada@example.com',
      action: 'room.create',
      target: null,
      changes: { step: 0, ok: true, note: null, name: 'n0' },
    });
    // A page that ends the list carries no cursor; one page of everything is the same list.
    const whole = await domain.audit.listAudit(tenant.clientId);
    expect(whole.next_cursor).toBeUndefined();
    expect(whole.entries.map((e) => e.id)).toEqual(items.map((e) => e.id));
  });

  it('lists the entries about one record, page by page', async () => {
    const { items } = await allPages(async (cursor) => {
      const page = await domain.audit.listAudit(tenant.clientId, { limit: 1, cursor, target: 'BOOKING-1' });
      return { items: page.entries, next_cursor: page.next_cursor };
    });
    expect(items.map((e) => e.changes.step)).toEqual([5, 3, 1]);
    expect(items.every((e) => e.target === 'BOOKING-1' && e.action === 'booking.assign_room')).toBe(true);
    expect((await domain.audit.listAudit(other.clientId, { target: 'BOOKING-1' })).entries.map((e) => e.operator)).toEqual(['eve@example.com']);
    expect((await domain.audit.listAudit(tenant.clientId, { target: 'nobody' })).entries).toEqual([]);
  });

  it("refuses a cursor of another client's partition, however it is made", async () => {
    const theirs = await domain.audit.listAudit(other.clientId, { limit: 1 });
    const ours = await domain.audit.listAudit(tenant.clientId, { limit: 1 });
    expect(ours.next_cursor).toEqual(expect.any(String));
    // The other client has one entry: a page of one that ends the list. Forge the key it would name.
    expect(theirs.next_cursor).toBeUndefined();
    const key = decoded(ours.next_cursor!);
    expect(key).toEqual({ pk: `CLIENT#${tenant.clientId}`, sk: expect.stringMatching(/^AUDIT#/) });
    expect(await refusal(domain.audit.listAudit(other.clientId, { cursor: ours.next_cursor }))).toMatchObject(cursorRefusal);
    for (const forged of [
      { ...key, pk: `CLIENT#${other.clientId}` },
      { pk: `CLIENT#${tenant.clientId}`, sk: `AUDIT#${'\uffff'}` },
      { pk: `CLIENT#${tenant.clientId}`, sk: 'BOOKING#x' },
      { ...key, extra: 'x' },
      { pk: key.pk! },
    ] as Record<string, string>[]) {
      expect(await refusal(domain.audit.listAudit(tenant.clientId, { cursor: forge(forged) }))).toMatchObject(cursorRefusal);
    }
    for (const cursor of ['not a cursor!', forge({ pk: 1 } as never), Buffer.from('[1]').toString('base64url'), 'x'.repeat(2000)]) {
      expect(await refusal(domain.audit.listAudit(tenant.clientId, { cursor }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    }
  });

  it('needs PutItem to record and Query to list', async () => {
    const fresh = await stack.createTenant();
    const entry = await withAccess({ actions: ['PutItem'], writes: ['CLIENT#'] }, () => domain.audit.recordAudit(fresh.clientId, { operator: 'eve@example.com', action: 'x', target: 'T', changes: {} }));
    const listed = await withAccess({ actions: ['Query'] }, () => domain.audit.listAudit(fresh.clientId, { limit: 1, target: 'T' }));
    expect(listed).toEqual({ entries: [entry] });
    expect(await refusal(withAccess({ actions: ['GetItem'] }, () => domain.audit.listAudit(fresh.clientId)))).toMatchObject({ message: expect.stringMatching(/not authorized to perform: dynamodb:Query/) });
    expect(takeTableRefusals()).toHaveLength(1);
  });

  it('refuses malformed entries and pages', async () => {
    for (const [entry, path] of [
      [{ operator: '', action: 'a', changes: {} }, 'operator'],
      [{ operator: 'o', action: '', changes: {} }, 'action'],
      [{ operator: 'o', action: 'a', target: '', changes: {} }, 'target'],
      [{ operator: 'o', action: 'a', changes: { nested: { no: 1 } } }, 'changes.nested'],
    ] as const) {
      const error = await refusal(domain.audit.recordAudit(tenant.clientId, entry as never));
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(error.message).toMatch(new RegExp(`^${path.replace('.', '\\.')}: `));
    }
    for (const [page, path] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 101 }, 'limit'],
      [{ target: '' }, 'target'],
    ] as const) {
      const error = await refusal(domain.audit.listAudit(tenant.clientId, page));
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(error.message).toMatch(new RegExp(`^${path}: `));
    }
  });
});

describe("a client's payment orders", () => {
  let tenant: Tenant;
  let other: Tenant;
  let paid: { orderReference: string; paidAt: string };
  const references: string[] = [];

  async function createOrder(t: Tenant, body: Record<string, unknown> = {}) {
    const reference = `INV-${randomUUID()}`;
    const created = await stack.request('POST', ORDERS, {
      key: t.paymentKey,
      body: {
        reference,
        amount_minor: 1500,
        currency: 'USD',
        customer: { name: 'Grace Hopper', email: 'grace@example.com' },
        success_url: 'https://partner.example/return',
        cancel_url: 'https://partner.example/cancel',
        ...body,
      },
    });
    expect(created.status, created.text).toBe(201);
    return created.body.order_reference as string;
  }

  beforeAll(async () => {
    [tenant, other] = await Promise.all([stack.createTenant(), stack.createTenant()]);
    references.push(await createOrder(tenant));
    references.push(await createOrder(tenant, { context: { type: 'spa', department: 'wellness' } }));
    const booking = await paidRoomBooking(stack, tenant, { check_in_date: day(40), check_out_date: day(42) });
    references.push(booking.orderReference);
    references.push(await createOrder(tenant, { amount_minor: 990, currency: 'EUR' }));
    references.push(await createOrder(tenant));
    await createOrder(other);
    const detail = await domain.orders.clientOrderDetail(tenant.clientId, booking.orderReference);
    paid = { orderReference: booking.orderReference, paidAt: detail!.order.paid_at! };
  });

  it('lists every order once, newest first, over pages, paid ones with their payment', async () => {
    const { items, pages } = await allPages(async (cursor) => {
      const page = await domain.orders.listClientOrders(tenant.clientId, { limit: 2, cursor });
      return { items: page.orders, next_cursor: page.next_cursor };
    });
    expect(pages).toBe(3);
    expect(items.map((o) => o.order_reference).sort()).toEqual([...references].sort());
    const order = (o: { created_at: string; order_reference: string }) => `${o.created_at}#${o.order_reference}`;
    expect(items.map(order)).toEqual(items.map(order).sort().reverse());
    const byRef = new Map(items.map((o) => [o.order_reference, o]));
    expect(byRef.get(paid.orderReference)).toEqual({
      order_reference: paid.orderReference,
      reference: expect.stringMatching(/^INV-/),
      amount_minor: 24000,
      currency: 'USD',
      status: 'paid',
      created_at: expect.any(String),
      paid_at: paid.paidAt,
      provider: 'sandbox',
      context_type: 'room_booking',
      stay: { check_in_date: day(40), check_out_date: day(42), guests: 1 },
      customer_name: 'Ada Lovelace',
      customer_email: 'ada@example.com',
    });
    expect(byRef.get(references[0]!)).toMatchObject({ status: 'processing', paid_at: null, context_type: null, stay: null, customer_email: 'grace@example.com', amount_minor: 1500 });
    expect(byRef.get(references[1]!)).toMatchObject({ context_type: 'spa' });
    expect(byRef.get(references[3]!)).toMatchObject({ amount_minor: 990, currency: 'EUR' });
    expect((await domain.orders.listClientOrders(other.clientId)).orders).toHaveLength(1);
  });

  it('finds the order paid through verify on the day it was paid, and on no other day', async () => {
    const paidDay = paid.paidAt.slice(0, 10);
    expect((await domain.orders.ordersPaidOn(tenant.clientId, paidDay)).map((o) => o.order_reference)).toEqual([paid.orderReference]);
    expect(await domain.orders.ordersPaidOn(tenant.clientId, day(-1, new Date(paid.paidAt)))).toEqual([]);
    expect(await domain.orders.ordersPaidOn(tenant.clientId, day(1, new Date(paid.paidAt)))).toEqual([]);
    expect(await domain.orders.ordersPaidOn(other.clientId, paidDay)).toEqual([]);
    expect(await refusal(domain.orders.ordersPaidOn(tenant.clientId, '2027-02-30'))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'date' }] });
  });

  it("shows one order with its attempts, provider events and transactions; another client's is undefined", async () => {
    const detail = await domain.orders.clientOrderDetail(tenant.clientId, paid.orderReference);
    expect(detail!.order).toMatchObject({
      order_reference: paid.orderReference,
      status: 'paid',
      attempt: 1,
      customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: null },
      context: expect.objectContaining({ type: 'room_booking' }),
      booking_sync: expect.objectContaining({ status: 'synced', room_assignment: 'manual' }),
    });
    expect(detail!.attempts).toEqual([expect.objectContaining({ attempt: 1, provider: 'sandbox', outcome: 'paid' })]);
    expect(detail!.provider_events).toEqual([expect.objectContaining({ provider: 'sandbox', type: 'payment.paid' })]);
    expect(detail!.transactions).toEqual([expect.objectContaining({ kind: 'payment', amount_minor: 24000, currency: 'USD', provider: 'sandbox' })]);

    const open = await domain.orders.clientOrderDetail(tenant.clientId, references[0]!);
    expect(open!.attempts).toEqual([expect.objectContaining({ outcome: 'open' })]);
    expect(open!.transactions).toEqual([]);

    expect(await domain.orders.clientOrderDetail(other.clientId, paid.orderReference)).toBeUndefined();
    expect(await domain.orders.clientOrderDetail(tenant.clientId, 'PO-NOSUCHORDER0')).toBeUndefined();
    expect(await domain.orders.clientOrderDetail(tenant.clientId, '')).toBeUndefined();
  });

  it('needs Query on gsi2 and BatchGetItem for the list, Query on gsi1 and BatchGetItem for a day, GetItem and Query for one order', async () => {
    const listed = await withAccess({ actions: ['BatchGetItem'], queries: ['gsi2'] }, () => domain.orders.listClientOrders(tenant.clientId, { limit: 2 }));
    const next = await withAccess({ actions: ['BatchGetItem'], queries: ['gsi2'] }, () => domain.orders.listClientOrders(tenant.clientId, { limit: 2, cursor: listed.next_cursor }));
    expect(next.orders).toHaveLength(2);
    const paidOn = await withAccess({ actions: ['BatchGetItem'], queries: ['gsi1'] }, () => domain.orders.ordersPaidOn(tenant.clientId, paid.paidAt.slice(0, 10)));
    expect(paidOn).toHaveLength(1);
    const detail = await withAccess({ actions: ['GetItem', 'Query'] }, () => domain.orders.clientOrderDetail(tenant.clientId, paid.orderReference));
    expect(detail!.transactions).toHaveLength(1);
    expect(await refusal(withAccess({ actions: ['Query'], queries: ['gsi2'] }, () => domain.orders.listClientOrders(tenant.clientId)))).toMatchObject({
      message: expect.stringMatching(/dynamodb:BatchGetItem/),
    });
    expect(takeTableRefusals()).toHaveLength(1);
  });

  it("refuses a cursor of another client's order list, however it is made", async () => {
    const ours = await domain.orders.listClientOrders(tenant.clientId, { limit: 1 });
    const key = decoded(ours.next_cursor!);
    expect(Object.keys(key).sort()).toEqual(['gsi2pk', 'gsi2sk', 'pk', 'sk']);
    expect(await refusal(domain.orders.listClientOrders(other.clientId, { cursor: ours.next_cursor }))).toMatchObject(cursorRefusal);
    const theirReference = (await domain.orders.listClientOrders(other.clientId)).orders[0]!.order_reference;
    for (const forged of [
      { ...key, gsi2pk: `CLIENT#${other.clientId}#ORDERS` },
      // The index entry of one order with another order's table key.
      { ...key, pk: `ORDER#${theirReference}` },
      { ...key, gsi2sk: 'not-a-time#PO-X' },
      { ...key, gsi2pk: `CLIENT#${tenant.clientId}#DELIVERIES` },
    ]) {
      expect(await refusal(domain.orders.listClientOrders(tenant.clientId, { cursor: forge(forged) }))).toMatchObject(cursorRefusal);
    }
  });
});

describe("a client's deliveries", () => {
  let tenant: Tenant;
  let other: Tenant;
  /** Delivery ids by status, as written. */
  const written: { id: string; status: string; created_at: string }[] = [];
  const base = Date.parse('2027-04-01T08:00:00.000Z');

  /** A delivery record as the pipeline leaves it, written off the due index so no sweeper sends it. */
  async function delivery(t: Tenant, status: 'pending' | 'retrying' | 'delivered' | 'failed' | 'needs_review', minute: number) {
    const at = new Date(base + minute * 60_000).toISOString();
    const record = {
      ...domain.deliveryStore.newDelivery({ clientId: t.clientId, event: 'booking.confirmed', endpoint: 'callback', payload: '{"event":"booking.confirmed"}', at, booking_id: randomUUID() }),
      status,
      attempts: status === 'pending' ? [] : [{ at, status_code: status === 'delivered' ? 200 : 500, duration_ms: 12, error: status === 'delivered' ? null : 'HTTP 500' }],
    };
    const { gsi1pk: _pk, gsi1sk: _sk, ...item } = domain.deliveryStore.newDeliveryItem(record);
    await domain.dynamo.db.send(new PutCommand({ TableName: domain.dynamo.TABLE, Item: item }));
    if (t === tenant) written.push({ id: record.delivery_id, status, created_at: at });
  }

  beforeAll(async () => {
    [tenant, other] = await Promise.all([stack.createTenant(), stack.createTenant()]);
    const statuses = ['delivered', 'failed', 'needs_review', 'delivered', 'retrying', 'failed', 'delivered', 'pending', 'needs_review', 'delivered', 'failed'] as const;
    for (const [minute, status] of statuses.entries()) await delivery(tenant, status, minute);
    await delivery(other, 'failed', 3);
  });

  const newestFirst = (list: typeof written) => [...list].sort((a, b) => (a.created_at < b.created_at ? 1 : -1)).map((d) => d.id);

  it('lists every delivery once, newest first, with its attempts, over pages', async () => {
    const { items, pages } = await allPages(async (cursor) => {
      const page = await domain.deliveries.listDeliveriesPage(tenant.clientId, { limit: 3, cursor });
      return { items: page.deliveries, next_cursor: page.next_cursor };
    });
    expect(pages).toBe(4);
    expect(items.map((d) => d.delivery_id)).toEqual(newestFirst(written));
    expect(items[0]).toEqual({
      delivery_id: written.at(-1)!.id,
      event: 'booking.confirmed',
      endpoint: 'callback',
      status: 'failed',
      attempts: [{ at: written.at(-1)!.created_at, status_code: 500, duration_ms: 12, error: 'HTTP 500' }],
      round_attempts: 0,
      due_at: written.at(-1)!.created_at,
      created_at: written.at(-1)!.created_at,
      updated_at: written.at(-1)!.created_at,
      booking_id: expect.any(String),
      payment_order_id: null,
      payload: '{"event":"booking.confirmed"}',
      about: { guest_name: null, room_number: null, check_in_date: null, check_out_date: null, booking_id: expect.any(String), booking_reference: null, order_reference: null },
    });
    // The CLI's listing still has them all, oldest first.
    expect((await (await import('../../shared/store/delivery-listings')).listDeliveries(tenant.clientId)).map((d) => d.delivery_id)).toEqual(newestFirst(written).reverse());
  });

  it('lists one status page by page, and what needs attention newest first', async () => {
    const { items } = await allPages(async (cursor) => {
      const page = await domain.deliveries.listDeliveriesPage(tenant.clientId, { status: 'failed', limit: 1, cursor });
      return { items: page.deliveries, next_cursor: page.next_cursor };
    });
    expect(items.map((d) => d.delivery_id)).toEqual(newestFirst(written.filter((d) => d.status === 'failed')));
    const attention = written.filter((d) => d.status === 'failed' || d.status === 'needs_review');
    expect((await domain.deliveries.deliveriesNeedingAttention(tenant.clientId)).map((d) => d.delivery_id)).toEqual(newestFirst(attention));
    expect((await domain.deliveries.deliveriesNeedingAttention(tenant.clientId, 2)).map((d) => d.delivery_id)).toEqual(newestFirst(attention).slice(0, 2));
    expect((await domain.deliveries.deliveriesNeedingAttention(other.clientId)).map((d) => d.status)).toEqual(['failed']);
    expect(await refusal(domain.deliveries.listDeliveriesPage(tenant.clientId, { status: 'lost' }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'status' }] });
  });

  it('shows a delivery the receiver refused as needing attention', async () => {
    const hotel = await stack.createTenant();
    await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key: hotel.syncKey,
      body: { external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '1', room_type: 'double', price: 90, max_occupancy: 2 }] },
    });
    const [room] = await domain.roomStore.listRooms(hotel.clientId);
    await domain.callbacks.configureEndpoint(hotel.clientId, 'callback', { url: receiver.url });
    receiver.respondWith(400);
    const confirmed = await domain.service.confirmServiceBooking(hotel.clientId, {
      origin: 'reception',
      roomId: room!.id,
      requireRoom: true,
      guest_name: 'Ada Lovelace',
      guests: 1,
      check_in_date: day(30),
      check_out_date: day(31),
      payment_status: 'unpaid',
      payment_method: 'pay_at_property',
    });
    const [listed] = await waitFor('the refused delivery', async () => {
      const found = await domain.deliveries.deliveriesNeedingAttention(hotel.clientId);
      return found.length ? found : undefined;
    });
    expect(listed).toMatchObject({ delivery_id: confirmed.delivery_id, status: 'needs_review', booking_id: confirmed.booking.id, attempts: [expect.objectContaining({ status_code: 400 })] });
  });

  it('needs Query on gsi2 and BatchGetItem', async () => {
    const access: TableAccess = { actions: ['BatchGetItem'], queries: ['gsi2'] };
    const first = await withAccess(access, () => domain.deliveries.listDeliveriesPage(tenant.clientId, { status: 'delivered', limit: 2 }));
    const rest = await withAccess(access, () => domain.deliveries.listDeliveriesPage(tenant.clientId, { status: 'delivered', limit: 2, cursor: first.next_cursor }));
    expect([...first.deliveries, ...rest.deliveries].map((d) => d.delivery_id)).toEqual(newestFirst(written.filter((d) => d.status === 'delivered')));
    expect(await withAccess(access, () => domain.deliveries.deliveriesNeedingAttention(tenant.clientId, 1))).toHaveLength(1);
  });

  it("refuses a cursor of another client's delivery list, however it is made", async () => {
    const ours = await domain.deliveries.listDeliveriesPage(tenant.clientId, { limit: 1 });
    const key = decoded(ours.next_cursor!);
    expect(Object.keys(key).sort()).toEqual(['gsi2pk', 'gsi2sk', 'pk', 'sk']);
    expect(await refusal(domain.deliveries.listDeliveriesPage(other.clientId, { cursor: ours.next_cursor }))).toMatchObject(cursorRefusal);
    for (const forged of [{ ...key, gsi2pk: `CLIENT#${other.clientId}#DELIVERIES` }, { ...key, pk: `DELIVERY#${randomUUID()}` }, { ...key, sk: 'ORDER' }]) {
      expect(await refusal(domain.deliveries.listDeliveriesPage(tenant.clientId, { cursor: forge(forged) }))).toMatchObject(cursorRefusal);
    }
  });
});

describe('overview and rooms grid', () => {
  const today = day(0);
  const d = (offset: number) => day(offset, new Date(`${today}T12:00:00Z`));
  let tenant: Tenant;
  let rooms: Map<string, string>;
  let ids: Record<string, string>;

  const sync = (t: Tenant, what: string, body: Record<string, unknown>) =>
    stack.request('PUT', `/api/v1/property-sync/${what}`, { key: t.syncKey, body: { external_source: 'pms', ...body } });
  const booking = (id: string, room: string, checkIn: string, checkOut: string, status = 'confirmed') => ({
    external_booking_id: id,
    external_room_id: room,
    guest_name: `Guest ${id}`,
    guests: 1,
    check_in_date: checkIn,
    check_out_date: checkOut,
    status,
  });

  beforeAll(async () => {
    tenant = await stack.createTenant();
    const put = await sync(tenant, 'rooms', {
      rooms: [
        ...['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 100, max_occupancy: 2 })),
        { external_room_id: 'R104', room_number: '104', room_type: 'double', price: 100, max_occupancy: 2, is_active: false },
      ],
    });
    expect(put.status).toBe(200);
    rooms = new Map((await domain.roomStore.listRooms(tenant.clientId)).map((r) => [r.room_number, r.id]));
    const bookings = await sync(tenant, 'bookings', {
      bookings: [
        booking('ARRIVES', 'R101', d(0), d(2)),
        // The PMS double-booked 101 tonight: a conflict, recorded, and still one room taken.
        booking('ARRIVES-TOO', 'R101', d(0), d(1)),
        booking('LEAVES', 'R102', d(-2), d(0)),
        booking('STAYS', 'R103', d(-1), d(3)),
        booking('CANCELLED', 'R102', d(0), d(1), 'cancelled'),
        booking('LATER', 'R102', d(5), d(8)),
        booking('LONG', 'R104', d(1), d(40)),
      ],
    });
    expect(bookings.status, bookings.text).toBe(200);
    ids = Object.fromEntries(bookings.body.items.map((i: { external_booking_id: string; id: string }) => [i.external_booking_id, i.id]));
    const checkins = await sync(tenant, 'checkins', {
      checkins: [
        { external_checkin_id: 'C1', external_booking_id: 'LEAVES', event: 'check_in', occurred_at: `${d(-2)}T15:00:00Z` },
        { external_checkin_id: 'C2', external_booking_id: 'STAYS', event: 'check_in', occurred_at: `${d(-1)}T15:00:00Z` },
      ],
    });
    expect(checkins.status, checkins.text).toBe(200);
    const reception = await domain.service.confirmServiceBooking(tenant.clientId, {
      origin: 'reception',
      roomId: rooms.get('103'),
      requireRoom: true,
      guest_name: 'Desk Guest',
      guests: 1,
      check_in_date: d(3),
      check_out_date: d(4),
      payment_status: 'unpaid',
      payment_method: 'pay_at_property',
    });
    ids.RECEPTION = reception.booking.id;
    // 102 is free from tonight (LEAVES checks out today): a paid booking locks it for one night.
    const paid = await paidRoomBooking(stack, tenant, { check_in_date: d(0), check_out_date: d(1), serviceRoomId: rooms.get('102') });
    expect(paid.sync).toMatchObject({ room_assignment: 'locked', room_id: rooms.get('102') });
    ids.PAID = paid.sync.booking_id;
    ids.PAID_ORDER = paid.orderReference;
  });

  /** Occupancy as counted from every booking of the client (pattern 23), independently of the stay index. */
  async function occupancyFromAllBookings(from: string, nights: number) {
    const active = new Set([...rooms.entries()].filter(([number]) => number !== '104').map(([, id]) => id));
    const { bookings } = await domain.bookings.listClientBookings(tenant.clientId);
    return Array.from({ length: nights }, (_, i) => {
      const night = day(i, new Date(`${from}T12:00:00Z`));
      const taken = new Set(
        bookings
          .filter((b) => ['pending', 'confirmed', 'checked_in'].includes(b.status) && b.room_id && active.has(b.room_id))
          .filter((b) => b.check_in_date <= night && night < b.check_out_date)
          .map((b) => b.room_id),
      );
      return { date: night, occupied: taken.size, rooms: active.size };
    });
  }

  it("shows today's arrivals, departures and guests in house, 14 nights of occupancy and today's payments", async () => {
    const overview = await domain.overview.overviewOf(tenant.clientId, today);
    const idsOf = (list: { booking_id: string }[]) => list.map((b) => b.booking_id).sort();
    expect(idsOf(overview.arrivals)).toEqual([ids.ARRIVES, ids['ARRIVES-TOO'], ids.PAID].sort());
    expect(idsOf(overview.departures)).toEqual([ids.LEAVES]);
    expect(idsOf(overview.in_house)).toEqual([ids.LEAVES, ids.STAYS].sort());
    expect(overview.arrivals.map((b) => b.room_number)).toEqual(['101', '101', '102']);
    expect(overview.in_house.find((b) => b.booking_id === ids.STAYS)).toMatchObject({ guest_name: 'Guest STAYS', status: 'checked_in', room_number: '103' });

    expect(overview.occupancy.map((n) => n.occupied)).toEqual([3, 2, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
    expect(overview.occupancy).toEqual(await occupancyFromAllBookings(today, 14));
    expect(overview.occupancy[0]).toEqual({ date: today, occupied: 3, rooms: 3 });
    expect(overview.occupancy.at(-1)!.date).toBe(d(13));

    expect(overview.attention).toEqual([]);
    // paid_today is the UTC day of the payment (the test's `today` unless it ran across midnight).
    const paidToday = overview.paid_today.map((o) => o.order_reference);
    if (new Date().toISOString().slice(0, 10) === today) expect(paidToday).toEqual([ids.PAID_ORDER]);
  });

  it('a check-out keeps the guest on departures (checked out) and takes them off in house', async () => {
    const out = await sync(tenant, 'checkins', {
      checkins: [{ external_checkin_id: 'C3', external_booking_id: 'LEAVES', event: 'check_out', occurred_at: `${today}T10:00:00Z` }],
    });
    expect(out.status, out.text).toBe(200);
    const overview = await domain.overview.overviewOf(tenant.clientId, today);
    // "Departures today" lists every booking leaving today, checked out or not.
    expect(overview.departures.map((b) => [b.booking_id, b.status])).toEqual([[ids.LEAVES, 'checked_out']]);
    expect(overview.in_house.map((b) => b.booking_id)).toEqual([ids.STAYS]);
  });

  it('shows which active rooms are booked on which nights', async () => {
    const grid = await domain.overview.roomGrid(tenant.clientId, d(-2), 8);
    expect(grid.nights).toEqual([d(-2), d(-1), d(0), d(1), d(2), d(3), d(4), d(5)]);
    expect(grid.rooms.map((r) => r.room.room_number)).toEqual(['101', '102', '103']);
    const rows = Object.fromEntries(grid.rooms.map((r) => [r.room.room_number, r.booked.map((b) => (b ? 'x' : '.')).join('')]));
    // LEAVES was checked out by the test above: its nights are no longer held.
    expect(rows).toEqual({ '101': '..xx....', '102': '..x....x', '103': '.xxxxx..' });
    const fortnight = await domain.overview.roomGrid(tenant.clientId, today);
    expect(fortnight.nights).toHaveLength(14);
    const perNight = fortnight.nights.map((_, i) => fortnight.rooms.filter((r) => r.booked[i]).length);
    expect(perNight).toEqual((await occupancyFromAllBookings(today, 14)).map((n) => n.occupied));
  });

  it('needs Query (table, gsi1, gsi2, gsi3) and BatchGetItem for the overview; Query (table, gsi1) for the grid', async () => {
    // gsi3: the day's check-ins and check-outs, checked-out guests among the departures.
    const overview = await withAccess({ actions: ['Query', 'BatchGetItem'], queries: ['gsi1', 'gsi2', 'gsi3'] }, () => domain.overview.overviewOf(tenant.clientId, today));
    expect(overview.in_house.length).toBeGreaterThan(0);
    const grid = await withAccess({ actions: ['Query'], queries: ['gsi1'] }, () => domain.overview.roomGrid(tenant.clientId, today));
    expect(grid.rooms).toHaveLength(3);
  });

  it('refuses dates that are not dates and grids out of range', async () => {
    expect(await refusal(domain.overview.overviewOf(tenant.clientId, '2027-13-01'))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'today' }] });
    expect(await refusal(domain.overview.roomGrid(tenant.clientId, 'tomorrow'))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'from' }] });
    for (const nights of [0, 63, 1.5]) {
      expect(await refusal(domain.overview.roomGrid(tenant.clientId, today, nights))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'nights' }] });
    }
  });

  it("shows another client nothing of this one's", async () => {
    const stranger = await stack.createTenant();
    const overview = await domain.overview.overviewOf(stranger.clientId, today);
    expect(overview).toEqual({
      arrivals: [],
      departures: [],
      in_house: [],
      occupancy: Array.from({ length: 14 }, (_, i) => ({ date: d(i), occupied: 0, rooms: 0 })),
      attention: [],
      paid_today: [],
    });
    expect(await domain.overview.roomGrid(stranger.clientId, today)).toEqual({ nights: expect.any(Array), rooms: [] });
  });
});
