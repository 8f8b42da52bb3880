/**
 * The e-mails telling a guest of a change to their booking: its new dates or room, its
 * cancellation (and whether a refund follows), a refund (docs/behaviour.md "Booking changes,
 * cancellations and refunds"). Each is an outbox record, written in the transaction of the change
 * it tells, like the confirmation; the messages themselves are shared/guest/change-emails.tsx.
 * Undefined when there is nobody to write to, or the stage sends no e-mail.
 *
 * DynamoDB access: GetItem (the client's profile; the booking's room; its payment order).
 */
import { bookingCancelledEmail, bookingChangedEmail, type ChangedStayFacts, type RefundOutlook, refundIssuedEmail } from '../../guest/change-emails';
import type { HotelContact } from '../../guest/emails';
import { getClient } from '../../store/api-key-store';
import type { BookingRecord } from '../../store/booking-store';
import type { EmailRecord } from '../../store/email-store';
import { getOrder, type PaymentOrderRecord } from '../../store/payment-store';
import { getRoom } from '../../store/service-booking-store';
import { emailEnabled, newGuestEmail } from './outbox';
import { isGuestPageOrder } from '../../schemas/payments';
import { languageOr } from '../../i18n/languages';
import { translator } from '../../i18n/translator';
import { timeZoneOf } from '../client-settings';
import type { ClientRecord } from '../../store/api-key-store';

export interface BookingChangeFacts {
  /** The event's sequence: one e-mail per change. */
  sequence: number;
  /**
   * A cancellation: what it does with an online payment, where the one cancelling said (staff's
   * `full`, `none` or an amount in minor units). Unsaid: a guest's own cancellation refunds what
   * is left of the payment in full; anyone else's leaves it to the hotel.
   */
  refund?: 'full' | 'none' | number;
}

/** Refunded so far (the refunds record it on the order; none before any). */
const refundedOf = (order: PaymentOrderRecord) => order.amount_refunded_minor ?? 0;

function refundOutlook(booking: BookingRecord, order: PaymentOrderRecord | undefined, byGuest: boolean, said: BookingChangeFacts['refund']): RefundOutlook {
  if (!order || !order.paid_at) return booking.payment_status === 'paid' ? { kind: 'undecided' } : { kind: 'nothing_paid' };
  const left = order.amount_minor - refundedOf(order);
  if (said === 'none') return { kind: 'no_refund' };
  if (typeof said === 'number') return { kind: 'refund', amountMinor: Math.min(said, left), currency: order.currency };
  if (said === 'full' || byGuest) return left > 0 ? { kind: 'refund', amountMinor: left, currency: order.currency } : { kind: 'already_refunded' };
  return { kind: 'undecided' };
}

async function stayFacts(clientId: string, booking: BookingRecord, order: PaymentOrderRecord | undefined): Promise<{ facts: ChangedStayFacts; client?: ClientRecord }> {
  const [client, room] = await Promise.all([getClient(clientId), booking.room_id ? getRoom(clientId, booking.room_id) : Promise.resolve(undefined)]);
  const facts: ChangedStayFacts = {
    hotel: client?.name ?? '',
    guestName: booking.guest_name,
    ...(booking.booking_reference ? { bookingReference: booking.booking_reference } : {}),
    checkIn: booking.check_in_date,
    checkOut: booking.check_out_date,
    guests: booking.guests,
    roomNumber: room?.room_number ?? null,
    roomType: room?.room_type ?? null,
    // A guest page's order returns to the guest's confirmation page: the guest's own e-mail links it.
    ...(order && isGuestPageOrder(order) ? { link: order.success_url } : {}),
  };
  return { facts, client };
}

/** A guest's words for an e-mail of theirs: the language they booked in (else the hotel's), on the hotel's clock. */
/** The hotel's contact every guest e-mail shows (and replies go to). */
const contactOf = (client: ClientRecord | undefined): HotelContact => ({ phone: client?.phone ?? null, email: client?.email ?? null });

const wordsFor = (language: string | undefined, client: ClientRecord | undefined) => translator(languageOr(language, client?.language), client ? timeZoneOf(client) : 'UTC');

export async function bookingChangeEmail(
  clientId: string,
  booking: BookingRecord,
  kind: 'booking_modified' | 'booking_cancelled',
  facts: BookingChangeFacts,
  now: Date,
): Promise<EmailRecord | undefined> {
  if (!emailEnabled()) return undefined;
  const order = booking.payment_order_reference ? await getOrder(booking.payment_order_reference) : undefined;
  const paidBy = order?.client_id === clientId ? order : undefined;
  const to = booking.guest_email ?? paidBy?.customer.email;
  if (!to) return undefined;
  const { facts: stay, client } = await stayFacts(clientId, booking, paidBy);
  const t = await wordsFor(booking.language ?? paidBy?.language, client);
  // Who cancelled, as the guest is told: they did (their own page, or staff at their request), or the hotel.
  const byGuest = booking.cancelled_by === 'guest' || booking.cancellation_asked_by === 'guest';
  const ownPage = booking.cancelled_by === 'guest';
  // The reason is the hotel's and its PMS's; the guest reads only staff's message to them.
  const said = booking.guest_message;
  const message =
    kind === 'booking_cancelled'
      ? bookingCancelledEmail(t, { ...stay, byGuest, ...(said ? { message: said } : {}), refund: refundOutlook(booking, paidBy, ownPage, facts.refund) })
      : bookingChangedEmail(t, stay);
  return newGuestEmail({ clientId, bookingId: booking.id, kind, to, fromName: stay.hotel, contact: { of: contactOf(client), words: t }, message, now, occasion: String(facts.sequence) });
}

/** A refund issued or taken on by the provider; a failed one tells the guest nothing. */
export async function refundEmail(
  order: PaymentOrderRecord,
  refund: { refund_id: string; amount_minor: number; currency: string; status?: 'succeeded' | 'pending' | 'failed'; reason?: string },
  bookingId: string | undefined,
  now: Date,
): Promise<EmailRecord | undefined> {
  if (!emailEnabled() || refund.status === 'failed') return undefined;
  const client = await getClient(order.client_id);
  const hotel = client?.name ?? '';
  const reference = order.booking_sync?.booking_reference;
  const words = await wordsFor(order.language, client);
  return newGuestEmail({
    clientId: order.client_id,
    bookingId: bookingId ?? order.order_reference,
    kind: 'refund',
    to: order.customer.email,
    fromName: hotel,
    contact: { of: contactOf(client), words },
    message: refundIssuedEmail(words, {
      hotel,
      ...(order.customer.name ? { guestName: order.customer.name } : {}),
      ...(reference ? { bookingReference: reference } : {}),
      amountMinor: refund.amount_minor,
      currency: refund.currency,
      status: refund.status === 'pending' ? 'pending' : 'succeeded',
      paidMinor: order.amount_minor,
      ...(refund.reason ? { reason: refund.reason } : {}),
    }),
    now,
    occasion: refund.refund_id,
  });
}
