/**
 * The receiver kit against payloads made by the real sender: booking.confirmed and
 * payment_order.paid from a paid order, through the example receiver, which verifies both
 * signature schemes, refuses a replay whose webhook-timestamp is old, and keeps the booking by
 * its id and the order by its reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryMeta, ServiceEvent } from '../../shared/receiver-kit';
import { type ExampleReceiver, startExampleReceiver } from '../../shared/receiver-kit/example-receiver';
import { waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let receiver: ExampleReceiver;
const recorded: { event: ServiceEvent; meta: DeliveryMeta }[] = [];
/** The callback and webhook secrets, given to `callbacks set` / `webhooks set` below. */
const secrets = ['callback-secret-for-the-kit-test', 'webhook-secret-for-the-kit-test'];

beforeAll(async () => {
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  receiver = await startExampleReceiver({
    secret: secrets,
    onEvent: async (event, meta) => void recorded.push({ event, meta }),
  });
});

afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('receiver kit with the real sender', () => {
  it('verifies and records a booking.confirmed callback and a payment_order.paid webhook', async () => {
    const tenant = await stack.createTenant();
    const { configureEndpoint, listDeliveries } = await import('../../shared/domain/callbacks/deliveries');
    await configureEndpoint(tenant.clientId, 'callback', { url: receiver.url, secret: secrets[0] });
    await configureEndpoint(tenant.clientId, 'webhook', { url: receiver.url, secret: secrets[1] });

    const order = await stack.request('POST', '/api/v1/payments/payment-orders', {
      key: tenant.paymentKey,
      body: {
        reference: 'KIT-1',
        amount_minor: 15000,
        currency: 'EUR',
        customer: { name: 'Kit Guest', email: 'kit@example.com' },
        context: { type: 'room_booking', check_in_date: '2027-09-01', check_out_date: '2027-09-03', guests: 2 },
        success_url: 'https://partner.example/ok',
        cancel_url: 'https://partner.example/cancel',
      },
    });
    expect(order.status).toBe(201);
    const paid = await fetch(order.body.checkout_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'outcome=paid',
      redirect: 'manual',
    });
    await fetch(paid.headers.get('location')!, { redirect: 'manual' });

    await waitFor('both events', async () => (recorded.length >= 2 ? true : undefined));
    const events = Object.fromEntries(recorded.map((r) => [r.event.event, r]));
    const confirmed = events['booking.confirmed']!;
    expect(confirmed.meta.clientId).toBe(tenant.clientId);
    expect(confirmed.event).toMatchObject({ hotel_id: tenant.clientId, booking: { payment_status: 'paid', payment_method: 'sandbox' }, room: null });
    expect(events['payment_order.paid']!.event).toMatchObject({
      payment_order: { order_reference: order.body.order_reference, external_reference: 'KIT-1', status: 'paid', amount_minor: 15000, currency: 'EUR' },
    });
    const deliveries = await listDeliveries(tenant.clientId);
    expect(deliveries.map((d) => d.status).sort()).toEqual(['delivered', 'delivered']);
    expect(new Set(recorded.map((r) => r.meta.deliveryId))).toEqual(new Set(deliveries.map((d) => d.delivery_id)));
    // The example handler keeps what the events told.
    const booking = (confirmed.event as { booking: { id: string } }).booking;
    expect(receiver.mirror.bookings.get(booking.id)).toMatchObject({ last_event: 'booking.confirmed', booking: { id: booking.id, payment_status: 'paid' } });
    expect(receiver.mirror.paymentOrders.get(order.body.order_reference)).toMatchObject({ status: 'paid', last_event: 'payment_order.paid' });
  });

  it('answers a duplicate delivery with the same 2xx, records it once, and refuses a tampered body', async () => {
    // The booking.confirmed callback (its body has the `guests` the tampering changes), whichever event arrived first.
    const first = recorded.find((r) => r.event.event === 'booking.confirmed');
    const { getDelivery } = await import('../../shared/store/delivery-store');
    const delivery = (await getDelivery(first!.meta.deliveryId))!;
    const { signCallbackBody } = await import('../../shared/domain/callbacks/signing');
    const headers = {
      'Content-Type': 'application/json',
      'X-Service-Event': delivery.event,
      'X-Service-Client': delivery.client_id,
      'X-Service-Delivery': delivery.delivery_id,
    };
    const count = recorded.length;
    const duplicate = await fetch(receiver.url, {
      method: 'POST',
      headers: { ...headers, 'X-Service-Signature': signCallbackBody(secrets[0]!, delivery.payload) },
      body: delivery.payload,
    });
    expect(duplicate.status).toBe(200);
    expect(await duplicate.json()).toEqual({ received: true, delivery_id: delivery.delivery_id });
    expect(recorded).toHaveLength(count);

    const tampered = delivery.payload.replace('"guests":2', '"guests":9');
    expect(tampered).not.toBe(delivery.payload);
    const refused = await fetch(receiver.url, {
      method: 'POST',
      headers: { ...headers, 'X-Service-Delivery': 'another-id', 'X-Service-Signature': signCallbackBody(secrets[0]!, delivery.payload) },
      body: tampered,
    });
    expect(refused.status).toBe(401);
    expect(recorded).toHaveLength(count);

    // The same delivery signed the Standard Webhooks way, but 10 minutes ago: a replay, refused.
    const { standardWebhookSignature } = await import('../../shared/receiver-kit');
    const old = Math.floor(Date.now() / 1000) - 600;
    const replayed = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        ...headers,
        'X-Service-Delivery': 'a-replayed-id',
        'webhook-id': 'a-replayed-id',
        'webhook-timestamp': String(old),
        'webhook-signature': standardWebhookSignature(secrets[0]!, 'a-replayed-id', old, delivery.payload),
        'X-Service-Signature': signCallbackBody(secrets[0]!, delivery.payload),
      },
      body: delivery.payload,
    });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({ error: 'webhook-timestamp is more than 5 minutes off' });
    expect(recorded).toHaveLength(count);
  });
});
