/**
 * A guest cancels their own booking from its confirmation page (docs/behaviour.md "Booking
 * changes, cancellations and refunds"): until the client's `free_cancellation_hours` before
 * check-in, the check-in being the check-in date at the hotel's check-in time (midnight where it
 * has none) in the hotel's time zone. Later, the page says to contact the hotel and the cancel is
 * refused. A booking paid online is refunded in full once its cancellation committed, under the
 * idempotency key `cancel:{booking_id}`: a repeated cancel (a double click, a reload, a retry
 * after the provider failed) finds the same refund and never makes a second.
 *
 * Only the confirmation token leads here, as to the page: its holder is the guest. Per source
 * address the stack's WAF rule on guest booking POSTs bounds how often anyone may try; per token,
 * one cancellation and one refund at most, whatever is sent.
 *
 * Served by a function of its own (`GuestCancel` in definitions/page-routes.ts, which declares its
 * access): GetItem (guest booking, booking, order); the cancellation's transaction (booking, room
 * hold, delivery, e-mail; cancelServiceBooking); the open checkout markers (Query) and their
 * release; the refund's (refundPaymentOrder: the order, its refund, the sandbox's record, the
 * webhook delivery).
 */
import { AppError, errors } from '../../errors';
import { logger } from '../../observability';
import { type BookingRecord, getBooking } from '../../store/booking-store';
import { getGuestBooking } from '../../store/guest-booking-store';
import { getOrder } from '../../store/payment-store';
import { cancelServiceBooking } from '../bookings/booking-changes';
import { refundPaymentOrder } from '../payments/refunds';
import { freeCancellationUntil } from './cancel-window';
import type { GuestClient } from './guest-client';
import { TOKEN, tokenHash, UUID } from './tokens';

/** The reason a guest's own cancellation is kept with (the PMS's `booking.cancellation_reason`). */
export const GUEST_CANCELLATION_REASON = 'Cancelled by the guest';

/** The idempotency key of a guest's cancellation's refund. */
const guestCancelRefundKey = (bookingId: string) => `cancel:${bookingId}`;

/** What a guest's cancel did: the booking as it now is, and whether a refund was asked of the provider. */
export interface GuestCancelOutcome {
  booking: BookingRecord;
  /** Cancelled before (by this token's holder, or anyone): nothing more was cancelled. */
  repeated: boolean;
  refund?: { refund_id: string; amount_minor: number; currency: string; status: string };
  /** The provider did not take the refund on (it failed or did not answer): the guest may ask again. */
  refund_failed?: true;
}

/** The booking a confirmation token of the client leads to; undefined for none (or a booking not made). */
async function bookingOfToken(clientId: string, token: string): Promise<BookingRecord | undefined> {
  if (typeof token !== 'string' || !TOKEN.test(token) || !UUID.test(clientId)) return undefined;
  const record = await getGuestBooking(tokenHash(token));
  if (!record || record.client_id !== clientId) return undefined;
  return getBooking(clientId, record.booking_id);
}

/**
 * The refund of a guest's own cancellation: what is left of the online payment, once, under the
 * cancellation's idempotency key. None for a booking not paid online, or an order refunded in full
 * already (by staff before the guest cancelled). A provider that fails: the booking stays
 * cancelled, and the refund is asked again when the guest repeats the cancel.
 */
async function refundOfCancellation(clientId: string, booking: BookingRecord, now: Date): Promise<GuestCancelOutcome['refund']> {
  const reference = booking.payment_order_reference;
  if (!reference) return undefined;
  const order = await getOrder(reference);
  if (!order || order.client_id !== clientId || !order.paid_at) return undefined;
  try {
    const refund = await refundPaymentOrder(clientId, reference, { idempotencyKey: guestCancelRefundKey(booking.id), reason: GUEST_CANCELLATION_REASON }, now);
    return { refund_id: refund.refund_id, amount_minor: refund.amount_minor, currency: refund.currency, status: refund.status };
  } catch (error) {
    // Nothing left to refund: refunded in full before.
    if (error instanceof AppError && (error.code === 'REFUND_EXCEEDS_PAYMENT' || error.code === 'ORDER_NOT_PAID')) return undefined;
    throw error;
  }
}

/**
 * The guest cancels the booking of their confirmation token. Undefined for an unknown token or
 * another client's (the page answers 404). Refused (409 BOOKING_NOT_CANCELLABLE): a booking
 * checked in, out or a no-show, and one whose free cancellation has ended. Repeated: the booking
 * as it is; a guest's own cancellation whose refund did not go through asks for it again.
 */
export async function cancelGuestBooking(client: GuestClient, token: string, now: Date): Promise<GuestCancelOutcome | undefined> {
  const read = await bookingOfToken(client.client_id, token);
  if (!read) return undefined;
  let cancelled: { booking: BookingRecord; repeated: boolean } = { booking: read, repeated: true };
  if (read.status !== 'cancelled') {
    if (read.status !== 'confirmed') throw errors.bookingNotCancellable(read.id, read.status);
    const until = freeCancellationUntil(client, read.check_in_date);
    if (now >= until) throw errors.freeCancellationEnded(read.id, until.toISOString());
    // The refund is due in the cancellation's own transaction: no cancel ever needs repeating for it.
    const refundDue = { idempotencyKey: guestCancelRefundKey(read.id), reason: GUEST_CANCELLATION_REASON };
    const changed = await cancelServiceBooking(client.client_id, read.id, { source: 'guest', reason: GUEST_CANCELLATION_REASON, refundDue }, now);
    cancelled = { booking: changed.booking, repeated: changed.repeated === true };
  }
  // Cancelled by the hotel or its PMS first: what becomes of the payment is theirs to say.
  if (cancelled.booking.cancelled_by !== 'guest') return cancelled;
  try {
    const refund = await refundOfCancellation(client.client_id, cancelled.booking, now);
    return { ...cancelled, ...(refund ? { refund } : {}) };
  } catch (error) {
    logger.error('A guest cancellation committed, its refund did not: the guest may ask again', { booking_id: read.id, error: error as Error });
    return { ...cancelled, refund_failed: true };
  }
}
