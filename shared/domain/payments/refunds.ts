/**
 * Refunds of paid orders (docs/behaviour.md "Booking changes, cancellations and refunds"), on the
 * provider and account the order was paid with. A refund is first reserved on the order (an
 * atomic, conditional addition that never lets refunds add up to more than was paid), then asked
 * of the provider under the refund's own id as idempotency key, then recorded with what the
 * provider said: succeeded (the order's refunded total and status, a transaction, the
 * `payment_order.refunded` webhook and the guest's e-mail, in one transaction), pending (settled
 * later from the provider's webhook: refund-settlement.ts), or failed (the reservation released).
 * A provider that cannot be reached leaves the refund `requested`: asking again with the same
 * idempotency key, or any later refund of the order, drives it to its end with the same key.
 */
import { AppError, errors } from '../../errors';
import { newId, nameBasedId } from '../../ids';
import { logger } from '../../observability';
import type { ProviderRefund } from '../../payments/provider';
import { MAX_AMOUNT_MINOR } from '../../schemas/payments';
import { type DeliveryRecord, deliveryPutItem, newDelivery } from '../../store/delivery-store';
import { getEndpoint } from '../../store/endpoint-store';
import { isConditionFailure } from '../../store/items';
import { getOrder, type PaymentOrderRecord, providerEventItem } from '../../store/payment-store';
import {
  findDueRefunds,
  getRefundRecord,
  listRefundRecords,
  markRefundTried,
  orderRefundTotalsItem,
  paymentIdOf,
  REFUNDABLE_STATUSES,
  type RefundRecord,
  refundedStatus,
  refundTransactionItem,
  refundUpdateItem,
  reserveRefundItems,
} from '../../store/refund-store';
import { type TransactItem, transactWrite } from '../../store/transactions';
import { dispatchAll } from '../bookings/service-bookings';
import { paymentOrderRefundedPayload } from '../callbacks/payloads';
import { refundEmail } from '../guest-email/change-emails';
import { guestEmailItem, sendCommittedEmails } from '../guest-email/outbox';
import { providerFor } from './providers';
import { attemptAccount } from './reconcile-payment-order';
import { type RefundView, refundView } from './refund-views';

export { type RefundView, refundCreatedView, refundView, refundViewsOf } from './refund-views';

/** A refund still `requested` this long after it was made was left by a process that died or lost the provider: driven again. */
export const STALE_REFUND_MS = 30_000;
/** Rounds of reading again after a concurrent write (10 concurrent refunds of one order settle well within). */
const MAX_ROUNDS = 30;

const pause = () => new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 45));

/**
 * Refunds (part of) a paid order of the client. No amount: what is left. The same idempotency key
 * on the same order answers the same refund and never makes a second one.
 * 404 PAYMENT_ORDER_NOT_FOUND, 409 ORDER_NOT_PAID, 409 REFUND_EXCEEDS_PAYMENT, 400 INVALID_AMOUNT.
 */
export async function refundPaymentOrder(
  clientId: string,
  orderReference: string,
  input: { amount_minor?: number; reason?: string; idempotencyKey?: string },
  now = new Date(),
): Promise<RefundView> {
  if (input.amount_minor !== undefined && (!Number.isInteger(input.amount_minor) || input.amount_minor < 1 || input.amount_minor > MAX_AMOUNT_MINOR)) {
    throw errors.invalidAmount(MAX_AMOUNT_MINOR);
  }
  let order = await getOrder(orderReference);
  // Another client's order is indistinguishable from a missing one.
  if (!order || order.client_id !== clientId) throw errors.paymentOrderNotFound(orderReference);
  const refundId = input.idempotencyKey ? refundIdOf(clientId, orderReference, input.idempotencyKey) : newId();
  if (input.idempotencyKey) {
    const earlier = await getRefundRecord(orderReference, refundId);
    if (earlier) return refundView(await driveRefund(earlier, now));
  }
  await driveStaleRefunds(order, now);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (round > 0) order = (await getOrder(orderReference))!;
    if (!REFUNDABLE_STATUSES.includes(order.status)) throw errors.orderNotPaid(orderReference, order.status);
    const left = order.amount_minor - (order.refunds_reserved_minor ?? 0);
    const amount = input.amount_minor ?? left;
    if (amount < 1 || amount > left) throw errors.refundExceedsPayment(orderReference, Math.max(left, 0));
    const refund = newRefund(order, refundId, amount, input.reason, now);
    try {
      await transactWrite(reserveRefundItems(order, refund));
      return refundView(await driveRefund(refund, now));
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // The same key made it meanwhile (a concurrent request): that refund is the answer.
      const made = input.idempotencyKey ? await getRefundRecord(orderReference, refundId) : undefined;
      if (made) return refundView(await driveRefund(made, now));
      // Else the order changed (another refund reserved first) or the write collided: read again.
      await pause();
    }
  }
  throw errors.serviceUnavailable();
}

/** The refund id an idempotency key gives on an order: the same key, the same refund. */
const refundIdOf = (clientId: string, orderReference: string, idempotencyKey: string) => nameBasedId(clientId, 'refund', orderReference, idempotencyKey);

function newRefund(order: PaymentOrderRecord, refundId: string, amount: number, reason: string | undefined, now: Date): RefundRecord {
  return {
    refund_id: refundId,
    order_reference: order.order_reference,
    client_id: order.client_id,
    amount_minor: amount,
    currency: order.currency,
    status: 'requested',
    ...(reason ? { reason } : {}),
    provider: order.provider,
    ...(order.provider_account ? { provider_account: order.provider_account } : {}),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
}

/**
 * A cancellation's refund, to commit in the cancellation's own transaction: the refund record
 * (`requested`, on the due index) and its reservation on the order, under the refund id its
 * idempotency key gives. Once the cancel commits, the refund is due whatever becomes of the
 * process: its caller drives it at once (refundPaymentOrder with the same key finds it), else the
 * sweeper does (driveDueRefunds). Nothing when the order is not the client's or not refundable,
 * the refund exists already, or the amount is not left (refundPaymentOrder then says why).
 */
export async function cancellationRefundItems(
  clientId: string,
  orderReference: string,
  due: { idempotencyKey: string; reason: string; amountMinor?: number },
  now: Date,
): Promise<TransactItem[]> {
  const order = await getOrder(orderReference);
  if (!order || order.client_id !== clientId || !REFUNDABLE_STATUSES.includes(order.status)) return [];
  const refundId = refundIdOf(clientId, orderReference, due.idempotencyKey);
  if (await getRefundRecord(orderReference, refundId)) return [];
  const left = order.amount_minor - (order.refunds_reserved_minor ?? 0);
  const amount = due.amountMinor ?? left;
  if (amount < 1 || amount > left) return [];
  return reserveRefundItems(order, newRefund(order, refundId, amount, due.reason, now));
}

/** Refunds of the order left `requested` by a process that stopped: driven to their end first, so what they reserved is settled. */
async function driveStaleRefunds(order: PaymentOrderRecord, now: Date): Promise<void> {
  if (order.refunds_reserved_minor === undefined) return;
  const before = new Date(now.getTime() - STALE_REFUND_MS).toISOString();
  for (const refund of await listRefundRecords(order.order_reference)) {
    if (refund.status === 'requested' && refund.updated_at < before) {
      await driveRefund(refund, now).catch((error: unknown) => logger.warn('a stale refund could not be driven yet', { refund_id: refund.refund_id, error: String(error) }));
    }
  }
}

/**
 * Asks the provider for a reserved refund and records its answer. A refund already answered is
 * returned as it is. A refund is made at most once at the provider, whenever it is driven again:
 * before its first try it is marked tried; a refund tried before is first looked for among the
 * payment's refunds at the provider (by our refund id) and, found, recorded and never sent again;
 * only one the provider does not have is sent again, under the same refund id as idempotency key.
 * The provider's refusal (a 4xx of ours) fails the refund and releases its amount; a provider
 * that cannot be reached leaves it `requested` (on the due index: the sweeper drives it later)
 * and the error goes to the caller (503: retry).
 */
export async function driveRefund(read: RefundRecord, now = new Date()): Promise<RefundRecord> {
  if (read.status !== 'requested') return read;
  const order = await getOrder(read.order_reference);
  if (!order) return read;
  let answer: ProviderRefund;
  let current = read;
  try {
    const settings = await attemptAccount(order);
    const provider = providerFor(order.provider);
    const lookup = { orderReference: order.order_reference, refundId: read.refund_id, checkoutReference: order.provider_reference, paymentId: await paymentIdOf(order), settings };
    const found = read.tried_at ? await provider.findRefund(lookup) : undefined;
    if (found) return await recordProviderAnswer(read, found, now);
    const refund = await markRefundTried(read, now.toISOString());
    // Answered meanwhile by a concurrent driver: as it now stands.
    if (!refund) return (await getRefundRecord(read.order_reference, read.refund_id)) ?? read;
    current = refund;
    answer = await provider.refund({
      ...lookup,
      amountMinor: refund.amount_minor,
      currency: refund.currency,
      ...(refund.reason ? { reason: refund.reason } : {}),
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    logger.warn('the provider refused a refund', { order_reference: order.order_reference, refund_id: read.refund_id, code: error.code, reason: error.message });
    answer = { providerRefundId: '', state: 'failed', amountMinor: read.amount_minor, currency: read.currency, failureReason: error.message, raw: { error: error.code, message: error.message } };
  }
  return recordProviderAnswer(current, answer, now);
}

/**
 * The sweeper's part: drives the refunds nobody finished (a cancellation whose process died after
 * its commit, a provider that did not answer), at most `limit` a run and none after `stopAt`
 * (epoch ms), each as driveRefund does.
 */
export async function driveDueRefunds(now = new Date(), options: { limit?: number; stopAt?: number } = {}): Promise<{ driven: number; failed: number }> {
  let driven = 0;
  let failed = 0;
  for (const due of await findDueRefunds(now.toISOString(), options.limit ?? 25)) {
    // Each drive may wait on the provider: none starts after the run's time is up (the next run goes on).
    if (options.stopAt !== undefined && Date.now() >= options.stopAt) break;
    const refund = await getRefundRecord(due.orderReference, due.refundId);
    if (!refund) continue;
    try {
      await driveRefund(refund, now);
      driven++;
    } catch (error) {
      failed++;
      logger.warn('a due refund could not be driven yet; the next run tries again', { order_reference: due.orderReference, refund_id: due.refundId, error: String(error) });
    }
  }
  return { driven, failed };
}

/**
 * Records what the provider says of a refund, if it moves it on: requested to pending, succeeded
 * or failed; pending to succeeded or failed; succeeded to failed (a refund the provider failed
 * later gives its amount back to the order). Each with its transaction and provider event; a
 * success with the order's new total and status, the webhook delivery and the guest's e-mail.
 * Returns the refund as it then stands.
 */
export async function recordProviderAnswer(read: RefundRecord, answer: ProviderRefund, now = new Date()): Promise<RefundRecord> {
  let refund = read;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (round > 0) refund = (await getRefundRecord(read.order_reference, read.refund_id)) ?? refund;
    if (!movesOn(refund.status, answer.state)) return refund;
    const order = await getOrder(refund.order_reference);
    if (!order) return refund;
    const planned = await settlementPlan(order, refund, answer, now);
    try {
      await transactWrite(planned.items);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      await pause();
      continue;
    }
    await dispatchAll(planned.deliveries);
    if (planned.email) await sendCommittedEmails([planned.email]);
    return planned.refund;
  }
  throw errors.serviceUnavailable();
}

function movesOn(from: RefundRecord['status'], to: ProviderRefund['state']): boolean {
  if (from === 'requested') return true;
  if (from === 'pending') return to !== 'pending';
  return from === 'succeeded' && to === 'failed';
}

async function settlementPlan(order: PaymentOrderRecord, refund: RefundRecord, answer: ProviderRefund, now: Date) {
  const at = now.toISOString();
  const next: RefundRecord = {
    ...refund,
    status: answer.state,
    ...(answer.providerRefundId ? { provider_refund_id: answer.providerRefundId } : {}),
    ...(answer.failureReason ? { failure_reason: answer.failureReason.slice(0, 500) } : {}),
    updated_at: at,
    ...(answer.state === 'pending' ? {} : { settled_at: at }),
  };
  const items: TransactItem[] = [
    refundUpdateItem(next, refund),
    providerEventItem(order.order_reference, { id: newId(), at, provider: order.provider, type: `refund.${answer.state}`, data: answer.raw }),
  ];
  const deliveries: DeliveryRecord[] = [];
  let email: Awaited<ReturnType<typeof refundEmail>>;
  if (answer.state === 'succeeded') {
    const refundedMinor = (order.amount_refunded_minor ?? 0) + refund.amount_minor;
    const refunded: PaymentOrderRecord = { ...order, status: refundedStatus(order, refundedMinor), amount_refunded_minor: refundedMinor, updated_at: at };
    items.push(
      orderRefundTotalsItem(order, { deltaMinor: refund.amount_minor, releaseMinor: 0, at }),
      refundTransactionItem(next, { kind: 'refund', at, provider_reference: answer.providerRefundId || order.provider_reference }),
    );
    if (await getEndpoint(order.client_id, 'webhook')) {
      const delivery = newDelivery({
        clientId: order.client_id,
        event: 'payment_order.refunded',
        endpoint: 'webhook',
        payload: paymentOrderRefundedPayload(refunded, refund),
        at,
        payment_order_id: order.payment_order_id,
      });
      deliveries.push(delivery);
      items.push(deliveryPutItem(delivery));
    }
    const bookingId = order.booking_sync?.status === 'synced' ? (order.booking_sync.booking_id ?? undefined) : undefined;
    email = await refundEmail(order, refundView(next), bookingId, now);
    if (email) items.push(guestEmailItem(email));
  } else if (answer.state === 'failed') {
    // Its amount can be refunded again; a refund that had succeeded leaves the refunded total too.
    const wasRefunded = refund.status === 'succeeded';
    items.push(orderRefundTotalsItem(order, { deltaMinor: wasRefunded ? -refund.amount_minor : 0, releaseMinor: refund.amount_minor, at }));
    if (wasRefunded) items.push(refundTransactionItem(next, { kind: 'refund_failed', at, provider_reference: answer.providerRefundId || order.provider_reference }));
  }
  return { refund: next, items, deliveries, email };
}
