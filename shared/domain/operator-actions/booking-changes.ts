/**
 * Staff changes to a booking and refunds, each with its audit entry: cancel (optionally refunding
 * its paid order), change dates, room or guests, mark a no-show (the booking page, and `ops
 * bookings cancel|modify`), and refund an order (the Payments page, and `ops orders refund`).
 * The entry never undoes what was done: a failure to record it is logged (recordActionQuietly).
 */
import { type ChangedBooking, cancelServiceBooking, markNoShow, modifyServiceBooking } from '../bookings/booking-changes';
import type { TotalChoice } from '../bookings/stay-total';
import { AppError, errors } from '../../errors';
import { MAX_AMOUNT_MINOR, orderReferenceParam } from '../../schemas/payments';
import { getBooking } from '../../store/booking-store';
import { getOrder } from '../../store/payment-store';
import { type RefundView, refundPaymentOrder } from '../payments/refunds';
import { type Actor, type AuditValues, recordActionQuietly } from './actor';

/** What staff may refund with a cancellation: all that is left, nothing (the default), or an amount in minor units. */
export type CancelRefund = 'full' | 'none' | number;

export interface BookingChange {
  check_in_date?: string;
  check_out_date?: string;
  room_id?: string;
  guests?: number;
  /** The new total: recalculated for the new stay, kept, or an amount (major units). @default 'keep' */
  total?: TotalChoice;
}

export interface CancelledBooking extends ChangedBooking {
  /** The refund made (or found again: a repeated cancel never refunds twice). */
  refund?: RefundView;
  /**
   * The booking is cancelled but its refund was refused or failed: the refund's error. Cancelling
   * again tries the refund again, under the same idempotency key.
   */
  refund_error?: { code: string; message: string };
}

/** A cancellation's refund carries this key, so repeating the cancel never refunds twice. */
export const cancelRefundKey = (bookingId: string): string => `cancel:${bookingId}`;

/**
 * Cancels the booking (cancelServiceBooking's rules and refusals, source `staff`), then, when it
 * was paid through an order and `refund` is not `none`, refunds that order: `full` what is left,
 * a number that many minor units. Records `booking.cancel`, the refund's outcome included.
 */
export async function cancelBooking(
  actor: Actor,
  bookingId: string,
  input: { reason?: string; refund?: CancelRefund; guestMessage?: string; askedBy?: 'guest' | 'hotel' } = {},
  now = new Date(),
): Promise<CancelledBooking> {
  const refund = input.refund ?? 'none';
  if (typeof refund === 'number' && !(Number.isInteger(refund) && refund >= 1 && refund <= MAX_AMOUNT_MINOR)) throw errors.invalidAmount(MAX_AMOUNT_MINOR);
  const refundReason = input.reason ?? 'booking cancelled';
  // The refund is due in the cancellation's own transaction (the sweeper finishes it should this process stop).
  const refundDue = refund === 'none' ? undefined : { idempotencyKey: cancelRefundKey(bookingId), reason: refundReason, ...(typeof refund === 'number' ? { amountMinor: refund } : {}) };
  const cancelled: CancelledBooking = await cancelServiceBooking(
    actor.client_id,
    bookingId,
    {
      ...(input.reason ? { reason: input.reason } : {}),
      ...(input.guestMessage ? { guestMessage: input.guestMessage } : {}),
      ...(input.askedBy ? { askedBy: input.askedBy } : {}),
      source: 'staff',
      refund,
      ...(refundDue ? { refundDue } : {}),
    },
    now,
  );
  const orderReference = cancelled.booking.payment_order_reference;
  if (orderReference && refund !== 'none') {
    try {
      cancelled.refund = await refundPaymentOrder(
        actor.client_id,
        orderReference,
        { ...(typeof refund === 'number' ? { amount_minor: refund } : {}), reason: refundReason, idempotencyKey: cancelRefundKey(bookingId) },
        now,
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      cancelled.refund_error = { code: error.code, message: error.message };
    }
  }
  const { booking } = cancelled;
  await recordActionQuietly(
    actor,
    {
      action: 'booking.cancel',
      target: booking.id,
      changes: {
        status: booking.status,
        cancellation_reason: booking.cancellation_reason ?? null,
        guest_message: booking.guest_message ?? null,
        asked_by: booking.cancellation_asked_by ?? null,
        repeated: cancelled.repeated === true,
        booking_cancelled_delivery: cancelled.delivery_id ?? null,
        refund_requested: String(refund),
        payment_order_reference: orderReference ?? null,
        ...refundValues(cancelled.refund),
        refund_error: cancelled.refund_error?.code ?? null,
      },
    },
    now,
  );
  return cancelled;
}

/**
 * Changes the booking's dates, room or guests (modifyServiceBooking's rules and refusals: the
 * availability rules with its own nights left out). Records `booking.modify` with what it was before.
 */
export async function modifyBooking(actor: Actor, bookingId: string, change: BookingChange, now = new Date()): Promise<ChangedBooking> {
  const before = await getBooking(actor.client_id, bookingId);
  const changed = await modifyServiceBooking(actor.client_id, bookingId, change, now);
  const { booking } = changed;
  await recordActionQuietly(
    actor,
    {
      action: 'booking.modify',
      target: booking.id,
      changes: { ...stayValues(booking), booking_modified_delivery: changed.delivery_id ?? null },
      ...(before ? { previous: stayValues(before) } : {}),
    },
    now,
  );
  return changed;
}

/** Marks the booking a no-show (markNoShow's rules: its check-in day has passed). Records `booking.no_show`. */
export async function markBookingNoShow(actor: Actor, bookingId: string, now = new Date()): Promise<ChangedBooking> {
  const changed = await markNoShow(actor.client_id, bookingId, now);
  const { booking } = changed;
  await recordActionQuietly(
    actor,
    {
      action: 'booking.no_show',
      target: booking.id,
      changes: { status: booking.status, check_in_date: booking.check_in_date, check_out_date: booking.check_out_date, booking_no_show_delivery: changed.delivery_id ?? null },
    },
    now,
  );
  return changed;
}

/**
 * Refunds a paid order of the client (refundPaymentOrder's rules and refusals; no amount: what is
 * left). `idempotencyKey` (a form's token) makes a repeated submit answer the same refund.
 * Records `order.refund`.
 */
export async function refundOrder(
  actor: Actor,
  orderReference: string,
  input: { amount_minor?: number; reason?: string; idempotencyKey?: string } = {},
  now = new Date(),
): Promise<RefundView> {
  const refund = await refundPaymentOrder(actor.client_id, orderReference, input, now);
  await recordActionQuietly(actor, { action: 'order.refund', target: orderReference, changes: { ...refundValues(refund), reason: input.reason ?? null } }, now);
  return refund;
}

/**
 * The client an order belongs to, for callers that know only its reference (the operator CLI).
 * 404 PAYMENT_ORDER_NOT_FOUND for a reference no order has.
 */
export async function findOrderClient(orderReference: string): Promise<string> {
  const order = orderReferenceParam.safeParse({ order_reference: orderReference }).success ? await getOrder(orderReference) : undefined;
  if (!order) throw errors.paymentOrderNotFound(orderReference);
  return order.client_id;
}

function stayValues(booking: { room_id?: string; check_in_date: string; check_out_date: string; guests: number; total_amount?: number }): AuditValues {
  return { room_id: booking.room_id ?? null, check_in_date: booking.check_in_date, check_out_date: booking.check_out_date, guests: booking.guests, total_amount: booking.total_amount ?? null };
}

function refundValues(refund: RefundView | undefined): AuditValues {
  if (!refund) return { refund_id: null };
  return { refund_id: refund.refund_id, refund_amount_minor: refund.amount_minor, refund_currency: refund.currency, refund_status: refund.status };
}
