/**
 * Payment orders (CONTRACT.md "Payment orders"): create or reuse by the partner's reference,
 * verify with the provider when the guest returns (never trusting the redirect), and answer
 * the partner's status lookup. A paid room-booking order becomes a confirmed service booking in
 * the same transaction that marks it paid.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_SUPPORTED_CURRENCIES } from '../../../infra/service-defaults';
import type { Principal } from '../../auth/authorize';
import { AppError, errors } from '../../errors';
import { nameBasedId, newId } from '../../ids';
import { logger } from '../../observability';
import type { ProviderPayment } from '../../payments/provider';
import { MAX_STAY_NIGHTS, nightsBetween } from '../../schemas/common';
import { majorAmount, type PaymentOrderRequest } from '../../schemas/payments';
import { getEndpoint } from '../../store/endpoint-store';
import {
  type AttemptRecord,
  attemptItem,
  type BookingSync,
  findOrderByExternalReference,
  getOrder,
  getProviderSettings,
  newOrderItems,
  type OrderStatus,
  orderUpdateItem,
  type PaymentOrderRecord,
  providerEventItem,
  transactionItem,
} from '../../store/payment-store';
import { type DeliveryRecord, deliveryPutItem, newDelivery } from '../../store/delivery-store';
import { TABLE } from '../../store/dynamo';
import { type TransactItem, transactWrite } from '../../store/service-booking-store';
import { dispatchAll, planServiceBooking } from '../bookings/service-bookings';
import { providerFor } from './providers';

const RETRYABLE_STATUSES: OrderStatus[] = ['failed', 'cancelled', 'expired'];
const REF_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function supportedCurrencies(): string[] {
  const raw = process.env.SUPPORTED_CURRENCIES;
  return raw ? raw.split(',').map((c) => c.trim()) : [...DEFAULT_SUPPORTED_CURRENCIES];
}

/**
 * The order reference is derived from the client and the partner's reference (unique per
 * client), so concurrent creates of one reference open the same provider checkout (same
 * idempotency key) instead of leaving abandoned ones behind.
 */
export function orderReferenceFor(clientId: string, reference: string): string {
  const digest = createHash('sha256').update(`${clientId}\u0000${reference}`).digest();
  return `PO-${Array.from(digest.subarray(0, 12), (byte) => REF_ALPHABET[byte % REF_ALPHABET.length]).join('')}`;
}

export function verifyUrl(baseUrl: string, orderReference: string): string {
  return `${baseUrl}/api/v1/payments/payment-orders/verify?reference=${encodeURIComponent(orderReference)}`;
}

function isTransactionConflict(error: unknown): boolean {
  return (error as Error).name === 'TransactionCanceledException' || (error as Error).name === 'ConditionalCheckFailedException';
}

// ---- create

function checkRequest(principal: Principal, body: PaymentOrderRequest, allowHttp: boolean) {
  if (!supportedCurrencies().includes(body.currency)) {
    throw new AppError(400, 'UNSUPPORTED_CURRENCY', `currency ${body.currency} is not supported`);
  }
  for (const field of ['success_url', 'cancel_url'] as const) {
    const url = new URL(body[field]);
    if (url.protocol !== 'https:' && !allowHttp) {
      throw errors.validation([{ path: field, message: 'must be an https URL' }]);
    }
    if (principal.origins.length && !principal.origins.includes(url.origin.toLowerCase())) {
      throw new AppError(400, 'RETURN_URL_NOT_ALLOWED', `${field} must use one of the API key's allowed origins`, [
        { path: field, message: `origin ${url.origin} is not allowed for this key` },
      ]);
    }
  }
  const context = body.context;
  if (context?.check_in_date && context.check_out_date) {
    const nights = nightsBetween(context.check_in_date, context.check_out_date);
    if (nights < 1 || nights > MAX_STAY_NIGHTS) {
      throw errors.validation([{ path: 'context.check_out_date', message: `must be 1 to ${MAX_STAY_NIGHTS} nights after check_in_date` }]);
    }
  }
}

export function orderCreatedView(order: PaymentOrderRecord, reused: boolean) {
  return {
    payment_order_id: order.payment_order_id,
    order_reference: order.order_reference,
    external_reference: order.external_reference,
    status: order.status,
    amount_minor: order.amount_minor,
    amount: majorAmount(order.amount_minor, order.currency),
    currency: order.currency,
    provider: order.provider,
    provider_reference: order.provider_reference,
    checkout_url: order.checkout_url,
    reused,
  };
}

async function newAttempt(order: PaymentOrderRecord, baseUrl: string, now: Date): Promise<PaymentOrderRecord> {
  const settings = await getProviderSettings(order.client_id);
  const provider = providerFor(settings, baseUrl);
  const checkout = await provider.createCheckout({
    orderReference: order.order_reference,
    attempt: order.attempt + 1,
    amountMinor: order.amount_minor,
    currency: order.currency,
    customer: order.customer,
    description: `Payment ${order.external_reference}`,
    returnUrl: verifyUrl(baseUrl, order.order_reference),
    settings,
  });
  const timestamp = now.toISOString();
  const next: PaymentOrderRecord = {
    ...order,
    status: 'processing',
    provider: provider.name,
    provider_reference: checkout.providerReference,
    checkout_url: checkout.checkoutUrl,
    attempt: order.attempt + 1,
    updated_at: timestamp,
  };
  const attempt: AttemptRecord = {
    attempt: next.attempt,
    provider: provider.name,
    provider_reference: checkout.providerReference,
    checkout_url: checkout.checkoutUrl,
    outcome: 'open',
    created_at: timestamp,
    updated_at: timestamp,
  };
  await transactWrite([orderUpdateItem(next, order), { Put: { TableName: TABLE, Item: attemptItem(order.order_reference, attempt) } }]);
  return next;
}

export async function createPaymentOrder(
  principal: Principal,
  body: PaymentOrderRequest,
  options: { baseUrl: string; allowHttp: boolean },
  now = new Date(),
): Promise<{ status: 200 | 201; body: ReturnType<typeof orderCreatedView> }> {
  checkRequest(principal, body, options.allowHttp);
  for (let round = 0; round < 4; round++) {
    const existing = await findOrderByExternalReference(principal.clientId, body.reference);
    if (existing) {
      if (existing.amount_minor !== body.amount_minor || existing.currency !== body.currency) {
        throw new AppError(409, 'EXTERNAL_REFERENCE_CONFLICT', `reference ${body.reference} is already used with another amount or currency`);
      }
      if (!RETRYABLE_STATUSES.includes(existing.status)) return { status: 200, body: orderCreatedView(existing, true) };
      try {
        return { status: 200, body: orderCreatedView(await newAttempt(existing, options.baseUrl, now), true) };
      } catch (error) {
        if (!isTransactionConflict(error)) throw error;
        continue;
      }
    }
    const settings = await getProviderSettings(principal.clientId);
    const provider = providerFor(settings, options.baseUrl);
    const orderReference = orderReferenceFor(principal.clientId, body.reference);
    const checkout = await provider.createCheckout({
      orderReference,
      attempt: 1,
      amountMinor: body.amount_minor,
      currency: body.currency,
      customer: body.customer,
      description: `Payment ${body.reference}`,
      returnUrl: verifyUrl(options.baseUrl, orderReference),
      settings,
    });
    const timestamp = now.toISOString();
    const order: PaymentOrderRecord = {
      payment_order_id: newId(),
      order_reference: orderReference,
      external_reference: body.reference,
      client_id: principal.clientId,
      status: 'processing',
      amount_minor: body.amount_minor,
      currency: body.currency,
      customer: body.customer,
      ...(body.context ? { context: body.context } : {}),
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      provider: provider.name,
      provider_reference: checkout.providerReference,
      checkout_url: checkout.checkoutUrl,
      attempt: 1,
      created_at: timestamp,
      updated_at: timestamp,
    };
    const attempt: AttemptRecord = {
      attempt: 1,
      provider: provider.name,
      provider_reference: checkout.providerReference,
      checkout_url: checkout.checkoutUrl,
      outcome: 'open',
      created_at: timestamp,
      updated_at: timestamp,
    };
    try {
      await transactWrite(newOrderItems(order, attempt));
      return { status: 201, body: orderCreatedView(order, false) };
    } catch (error) {
      // Another request created this reference first: answer with that order.
      if (!isTransactionConflict(error)) throw error;
    }
  }
  throw errors.serviceUnavailable();
}

// ---- verify

function redirectTo(url: string, outcome: 'success' | 'failed', orderReference: string): string {
  const target = new URL(url);
  target.searchParams.append('payment', outcome);
  target.searchParams.append('payment_order', orderReference);
  target.searchParams.append('reference', orderReference);
  return target.toString();
}

function paidWebhookPayload(order: PaymentOrderRecord): string {
  return JSON.stringify({
    event: 'payment_order.paid',
    payment_order: {
      order_reference: order.order_reference,
      external_reference: order.external_reference,
      status: order.status,
      amount_minor: order.amount_minor,
      currency: order.currency,
    },
  });
}

const NOT_APPLICABLE: BookingSync = {
  status: 'not_applicable',
  booking_id: null,
  booking_reference: null,
  confirmation_code: null,
  room_id: null,
  room_assignment: null,
};

/** The current attempt's outcome and the provider's answer, recorded when an order settles. */
function settledItems(order: PaymentOrderRecord, payment: ProviderPayment, outcome: AttemptRecord['outcome'], timestamp: string): TransactItem[] {
  return [
    {
      Put: {
        TableName: TABLE,
        Item: attemptItem(order.order_reference, {
          attempt: order.attempt,
          provider: order.provider,
          provider_reference: order.provider_reference,
          checkout_url: order.checkout_url,
          outcome,
          created_at: order.updated_at,
          updated_at: timestamp,
        }),
      },
    },
    providerEventItem(order.order_reference, { id: newId(), at: timestamp, provider: order.provider, type: `payment.${outcome}`, data: payment.raw }),
  ];
}

/** Marks the order paid with its transaction, provider event, mirrored booking and webhook, all at once. */
async function commitPaid(order: PaymentOrderRecord, payment: ProviderPayment, now: Date): Promise<void> {
  const timestamp = now.toISOString();
  const context = order.context;
  const items: TransactItem[] = [];
  const deliveries: DeliveryRecord[] = [];
  let bookingSync = NOT_APPLICABLE;

  if (context?.type === 'room_booking' && context.check_in_date && context.check_out_date) {
    const plan = await planServiceBooking(
      order.client_id,
      {
        origin: 'payment',
        roomId: context.service_room_id,
        requireRoom: false,
        guest_name: order.customer.name ?? order.customer.email,
        guest_email: order.customer.email,
        guest_phone: order.customer.phone,
        guests: context.guests ?? 1,
        check_in_date: context.check_in_date,
        check_out_date: context.check_out_date,
        total_amount: majorAmount(order.amount_minor, order.currency),
        payment_status: 'paid',
        payment_method: order.provider,
        gateway_reference: order.provider_reference,
        bookingId: nameBasedId(order.client_id, 'order-booking', order.order_reference),
      },
      await getEndpoint(order.client_id, 'callback'),
      now,
    );
    items.push(...plan.items);
    deliveries.push(...plan.deliveries);
    bookingSync = {
      status: 'synced',
      booking_id: plan.result.booking.id,
      booking_reference: plan.result.booking.booking_reference ?? null,
      confirmation_code: plan.result.booking.confirmation_code ?? null,
      room_id: plan.result.room?.id ?? null,
      room_assignment: plan.result.room_assignment,
    };
  }

  const paid: PaymentOrderRecord = { ...order, status: 'paid', paid_at: timestamp, booking_sync: bookingSync, updated_at: timestamp };
  const webhook = await getEndpoint(order.client_id, 'webhook');
  if (webhook) {
    const delivery = newDelivery({
      clientId: order.client_id,
      event: 'payment_order.paid',
      endpoint: 'webhook',
      payload: paidWebhookPayload(paid),
      at: timestamp,
      payment_order_id: order.payment_order_id,
    });
    deliveries.push(delivery);
    items.push(deliveryPutItem(delivery));
  }
  items.push(
    orderUpdateItem(paid, order),
    ...settledItems(order, payment, 'paid', timestamp),
    transactionItem(order.order_reference, {
      id: payment.paymentId ?? order.provider_reference,
      at: timestamp,
      provider: order.provider,
      provider_reference: order.provider_reference,
      kind: 'payment',
      amount_minor: payment.amountMinor,
      currency: payment.currency,
    }),
  );
  await transactWrite(items);
  await dispatchAll(deliveries);
}

async function commitClosed(order: PaymentOrderRecord, payment: ProviderPayment, status: Exclude<OrderStatus, 'processing' | 'paid'>, now: Date): Promise<void> {
  const timestamp = now.toISOString();
  await transactWrite([orderUpdateItem({ ...order, status, updated_at: timestamp }, order), ...settledItems(order, payment, status, timestamp)]);
}

/**
 * Asks the provider about the order's current checkout and records what it says: paid (when
 * amount and currency match), closed, or still open. Returns the order as it now stands, or
 * undefined for an unknown order. Used by the verify redirect and by provider webhooks.
 */
export async function reconcileOrder(orderReference: string, baseUrl: string, now = new Date()): Promise<PaymentOrderRecord | undefined> {
  for (let round = 0; round < 5; round++) {
    const order = await getOrder(orderReference);
    if (!order || order.status !== 'processing') return order;
    const settings = await getProviderSettings(order.client_id);
    const payment = await providerFor(settings, baseUrl).getPayment(order.provider_reference, settings);
    try {
      if (payment.state === 'open') return order;
      if (payment.state === 'paid' && payment.amountMinor === order.amount_minor && payment.currency === order.currency) {
        await commitPaid(order, payment, now);
      } else {
        if (payment.state === 'paid') logger.error('provider reported a payment that does not match the order', { order_reference: orderReference });
        await commitClosed(order, payment, payment.state === 'paid' ? 'failed' : payment.state, now);
      }
    } catch (error) {
      // A concurrent verify or booking changed what was read: read again.
      if (!isTransactionConflict(error)) throw error;
    }
  }
  const order = await getOrder(orderReference);
  if (order?.status === 'processing') throw errors.serviceUnavailable();
  return order;
}

/**
 * The provider's return URL: where to send the guest, or undefined for an unknown order. Only
 * the provider's answer marks an order paid; the redirect itself proves nothing.
 */
export async function verifyPaymentOrder(orderReference: string, baseUrl: string, now = new Date()): Promise<string | undefined> {
  const order = await reconcileOrder(orderReference, baseUrl, now);
  if (!order) return undefined;
  return order.status === 'paid'
    ? redirectTo(order.success_url, 'success', order.order_reference)
    : redirectTo(order.cancel_url, 'failed', order.order_reference);
}

// ---- status lookup

const bookingSyncView = (sync: BookingSync): BookingSync => ({
  status: sync.status,
  booking_id: sync.booking_id,
  booking_reference: sync.booking_reference,
  confirmation_code: sync.confirmation_code,
  room_id: sync.room_id,
  room_assignment: sync.room_assignment,
});

export async function getPaymentOrderStatus(principal: Principal, orderReference: string) {
  const order = await getOrder(orderReference);
  // Another client's order is indistinguishable from a missing one.
  if (!order || order.client_id !== principal.clientId) {
    throw new AppError(404, 'PAYMENT_ORDER_NOT_FOUND', `No payment order ${orderReference}`);
  }
  return {
    payment_order_id: order.payment_order_id,
    order_reference: order.order_reference,
    external_reference: order.external_reference,
    status: order.status,
    amount_minor: order.amount_minor,
    currency: order.currency,
    provider: order.provider,
    provider_reference: order.provider_reference,
    paid_at: order.paid_at ?? null,
    service_booking_sync: bookingSyncView(order.booking_sync ?? NOT_APPLICABLE),
  };
}
