/**
 * A partner whose acknowledged order is gone (docs/behaviour.md "Nothing lost across crashes": a
 * whole-stack SIGKILL can cost DynamoDB Local the last transaction it acknowledged, and order
 * creation is one transaction) sends the same create again, pays and verifies, and ends with
 * exactly one paid order and one booking. The loss is made here by deleting the transaction's
 * three items, as the emulator drops them (both or all, never half); the crash test meets it at
 * random (test/support/crash-workload.ts, `orders_lost_and_created_again`).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.stop();
});

const ORDERS = '/api/v1/payments/payment-orders';

describe('an acknowledged order lost with its transaction', () => {
  it('is created again by its partner with the same reference: the same order_reference, paid once, one booking', async () => {
    const tenant = await stack.createTenant();
    const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
      key: tenant.syncKey,
      body: { external_source: 'pms', rooms: [{ external_room_id: 'R1', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 }] },
    });
    const roomId = put.body.items[0].id as string;
    const body = {
      reference: `LOST-${randomUUID()}`,
      amount_minor: 24_000,
      currency: 'USD',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      success_url: 'https://partner.example/paid',
      cancel_url: 'https://partner.example/cancelled',
      context: { type: 'room_booking', check_in_date: '2029-03-01', check_out_date: '2029-03-03', guests: 1, service_room_id: roomId },
    };
    const first = await stack.request('POST', ORDERS, { key: tenant.paymentKey, body });
    expect(first.status).toBe(201);
    const orderReference = first.body.order_reference as string;

    // The emulator drops the creation's transaction: the order, its reference guard and its attempt.
    const { db, TABLE } = await import('../../shared/store/dynamo');
    const { keys } = await import('../../shared/store/keys');
    const { DeleteCommand } = await import('@aws-sdk/lib-dynamodb');
    for (const Key of [keys.paymentOrder(orderReference), keys.orderByExternalReference(tenant.clientId, body.reference), keys.paymentAttempt(orderReference, 1)]) {
      await db.send(new DeleteCommand({ TableName: TABLE, Key }));
    }
    const gone = await stack.request('GET', `${ORDERS}/${orderReference}`, { key: tenant.paymentKey });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('PAYMENT_ORDER_NOT_FOUND');

    // The partner sends the same create again: the same order reference, a checkout of its own.
    const again = await stack.request('POST', ORDERS, { key: tenant.paymentKey, body });
    expect(again.status).toBe(201);
    expect(again.body.order_reference).toBe(orderReference);
    expect(again.body.checkout_url).not.toBe(first.body.checkout_url);
    const paid = await fetch(again.body.checkout_url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(again.body.checkout_url).origin },
      body: 'outcome=paid',
    });
    expect(paid.status).toBe(303);
    expect((await stack.request('GET', `${ORDERS}/verify?reference=${orderReference}`)).status).toBe(303);

    const status = await stack.request('GET', `${ORDERS}/${orderReference}`, { key: tenant.paymentKey });
    expect(status.body).toMatchObject({ status: 'paid', service_booking_sync: { status: 'synced', room_assignment: 'locked', room_id: roomId } });
    // A third create is the same paid order.
    const third = await stack.request('POST', ORDERS, { key: tenant.paymentKey, body });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ order_reference: orderReference, status: 'paid', reused: true });
    const { listClientBookings } = await import('../../shared/domain/bookings/list-bookings');
    const { bookings } = await listClientBookings(tenant.clientId, { origin: 'payment' });
    expect(bookings).toHaveLength(1);
    expect(bookings[0]).toMatchObject({ payment_order_reference: orderReference, status: 'confirmed', room_id: roomId });
  });
});
