/**
 * A paid room-booking order through the payment API and the sandbox checkout, as a partner and a
 * guest make one: the checkout on the sandbox's own origin, the verify back on the API's.
 */
import { randomUUID } from 'node:crypto';
import type { Tenant, TestStack } from './stack';

const ORDERS = '/api/v1/payments/payment-orders';

export interface BookingSync {
  status: string;
  booking_id: string;
  booking_reference: string;
  confirmation_code: string;
  room_id: string | null;
  room_assignment: 'locked' | 'manual';
  below_rate: boolean;
  room_assignment_reason: 'below_rate' | null;
}

export function orderStatus(stack: TestStack, tenant: Tenant, orderReference: string) {
  return stack.request('GET', `${ORDERS}/${encodeURIComponent(orderReference)}`, { key: tenant.paymentKey });
}

/**
 * Creates a `room_booking` order for the stay, pays it on the sandbox checkout and verifies it.
 * Without `serviceRoomId` (or with a taken room) the booking is recorded for manual assignment.
 * `payment.pay`: how the guest pays on the checkout page (in a browser); by default its form is posted.
 */
export async function paidRoomBooking(
  stack: TestStack,
  tenant: Tenant,
  stay: { check_in_date: string; check_out_date: string; guests?: number; serviceRoomId?: string; externalRatePlanId?: string },
  payment: { amountMinor?: number; currency?: string; pay?: (checkoutUrl: string) => Promise<void>; customer?: { name: string; email: string }; reference?: string } = {},
): Promise<{ orderReference: string; sync: BookingSync }> {
  const created = await stack.request('POST', ORDERS, {
    key: tenant.paymentKey,
    body: {
      reference: payment.reference ?? `INV-${randomUUID()}`,
      amount_minor: payment.amountMinor ?? 24000,
      currency: payment.currency ?? 'USD',
      customer: payment.customer ?? { name: 'Ada Lovelace', email: 'ada@example.com' },
      success_url: 'https://partner.example/return',
      cancel_url: 'https://partner.example/cancel',
      context: {
        type: 'room_booking',
        check_in_date: stay.check_in_date,
        check_out_date: stay.check_out_date,
        guests: stay.guests ?? 1,
        ...(stay.serviceRoomId ? { service_room_id: stay.serviceRoomId } : {}),
        ...(stay.externalRatePlanId ? { external_rate_plan_id: stay.externalRatePlanId } : {}),
      },
    },
  });
  if (created.status !== 201) throw new Error(`order not created: ${created.status} ${created.text}`);
  const checkoutUrl: string = created.body.checkout_url;
  // On the sandbox's own origin, never the API's: paying crosses origins, as with Stripe.
  if (!stack.sandboxUrl || !checkoutUrl.startsWith(`${stack.sandboxUrl}/checkout/`)) {
    throw new Error(`checkout_url ${checkoutUrl} is not on the sandbox's origin (${stack.sandboxUrl})`);
  }
  if (payment.pay) {
    await payment.pay(checkoutUrl);
  } else {
    const paid = await fetch(checkoutUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome: 'paid' }).toString(),
      redirect: 'manual',
    });
    if (paid.status !== 303) throw new Error(`sandbox checkout answered ${paid.status}`);
    const location = paid.headers.get('location') ?? '';
    if (!location.startsWith(`${stack.url}${ORDERS}/verify?`)) throw new Error(`the sandbox checkout sent the guest to ${location}, not the API's verify URL`);
  }
  await stack.request('GET', `${ORDERS}/verify?reference=${encodeURIComponent(created.body.order_reference)}`);
  const status = await orderStatus(stack, tenant, created.body.order_reference);
  if (status.body.status !== 'paid') throw new Error(`order not paid: ${status.text}`);
  return { orderReference: created.body.order_reference, sync: status.body.service_booking_sync };
}

/**
 * A `room_booking` order for the stay (as Ada Lovelace, ada@example.com, unless `customer`) whose
 * checkout the guest's card is declined on, verified: the order is `failed` and made no booking.
 */
export async function declinedRoomOrder(
  stack: TestStack,
  tenant: Tenant,
  stay: { check_in_date: string; check_out_date: string; guests?: number },
  customer: { name: string; email: string } = { name: 'Ada Lovelace', email: 'ada@example.com' },
  amountMinor = 24000,
): Promise<string> {
  const created = await stack.request('POST', ORDERS, {
    key: tenant.paymentKey,
    body: {
      reference: `INV-${randomUUID()}`,
      amount_minor: amountMinor,
      currency: 'USD',
      customer,
      success_url: 'https://partner.example/return',
      cancel_url: 'https://partner.example/cancel',
      context: { type: 'room_booking', check_in_date: stay.check_in_date, check_out_date: stay.check_out_date, guests: stay.guests ?? 1 },
    },
  });
  if (created.status !== 201) throw new Error(`order not created: ${created.status} ${created.text}`);
  const declined = await fetch(created.body.checkout_url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome: 'failed' }).toString(),
    redirect: 'manual',
  });
  if (declined.status !== 303) throw new Error(`sandbox checkout answered ${declined.status}`);
  await stack.request('GET', `${ORDERS}/verify?reference=${encodeURIComponent(created.body.order_reference)}`);
  const status = await orderStatus(stack, tenant, created.body.order_reference);
  if (status.body.status !== 'failed') throw new Error(`order not declined: ${status.text}`);
  return created.body.order_reference;
}
