/**
 * What a guest booking's confirmation token shows: the booking as its page tells it (confirmed,
 * awaiting payment, payment failed; for a booking paid at the hotel, awaiting its e-mail's
 * confirmation or cancelled), decided at read time from the guest booking's record, the booking
 * and the order; and, after a declined payment, what "Try again" offers while the hold lasts.
 */
import { getGuestBooking } from '../../store/guest-booking-store';
import { getOrder, type PaymentOrderRecord } from '../../store/payment-store';
import { getBooking } from '../../store/booking-store';
import type { BookingStatus } from '../../schemas/booking-statuses';
import { getRoom } from '../../store/service-booking-store';
import type { GuestDetails, StayQuery } from './booking-input';
import { HOLD_MINUTES } from './checkout-holds';
import { TOKEN, tokenHash, UUID } from './tokens';

export interface GuestBookingView {
  /**
   * Paid online: `awaiting_payment` until the order is paid (`confirmed`) or its checkout ends
   * (`payment_failed`). Paid at the hotel: `awaiting_confirmation` until the guest confirms with
   * the e-mail's link (`confirmed`), or its hold ends first (`cancelled`). A booking made, then
   * cancelled (by the guest, the hotel or its PMS): `booking_cancelled`.
   */
  state: 'confirmed' | 'awaiting_payment' | 'payment_failed' | 'awaiting_confirmation' | 'cancelled' | 'booking_cancelled';
  booking_reference: string | null;
  confirmation_code: string | null;
  room_number: string | null;
  check_in: string;
  check_out: string;
  guests: number;
  guest_name: string;
  total: number;
  currency: string;
  /** Of `total`, the taxes (included in the room price, or added to it); absent: none. */
  taxes?: { amount: number; included: boolean; percent: number };
  payment_status: 'paid' | 'unpaid';
  /** `awaiting_confirmation`: until when the e-mail's link confirms it (the room's hold ends then). */
  confirm_by?: string;
  /** `booking_cancelled`: when, by whom, and the hotel's reason where it gave one. */
  cancellation?: { at: string; by: 'staff' | 'guest' | 'pms'; reason?: string };
  /**
   * Paid online and a refund asked for: what has reached the guest (`refunded_minor`) and what the
   * provider is still working on (`pending_minor`), in the payment's currency. Both 0: every
   * refund asked for failed.
   */
  refund?: { refunded_minor: number; pending_minor: number; paid_minor: number; currency: string };
}

/** What the guest's page of a token shows beyond its view. */
export interface GuestBookingPage {
  view: GuestBookingView;
  /** The room the guest chose (the view's room is the one booked, if any). */
  chosen_room_number: string;
  /** The guest's e-mail address as given, where the confirmation goes. */
  email: string | null;
  /**
   * Until when the chosen room was held for this booking: paid online, HOLD_MINUTES from the
   * checkout's opening (a declined or cancelled checkout released it earlier: the room is free
   * for anyone, the guest's first); paid at the hotel, until its link could confirm it.
   */
  held_until: string | null;
  /**
   * `payment_failed` before `held_until`: "Try again" opens a new checkout for the same room,
   * stay and guest (a new attempt of the booking form, with the same choices; refused as any
   * other when the room was taken meanwhile).
   */
  /** The same choices again; `rate_plan`: the plan the declined checkout was priced on. */
  try_again?: ({ room_type: string } | { room_id: string }) & { rate_plan?: string; stay: StayQuery; guest: GuestDetails };
  /** The language the guest booked in: the booking's pages speak it unless the guest chooses another. */
  language?: string;
  /** Booked: the booking's status as the hotel keeps it (only a `confirmed` one can be cancelled by the guest). */
  booking_status?: BookingStatus;
}

/** What the refunds of a paid order came to, for the guest's page; undefined when none was ever asked for. */
function refundOf(order: PaymentOrderRecord | undefined): GuestBookingView['refund'] {
  if (!order?.paid_at || order.refunds_reserved_minor === undefined) return undefined;
  const refunded = order.amount_refunded_minor ?? 0;
  const reserved = Math.max(order.refunds_reserved_minor, refunded);
  return { refunded_minor: refunded, pending_minor: reserved - refunded, paid_minor: order.amount_minor, currency: order.currency };
}

/**
 * The booking behind a confirmation token of that client; undefined for an unknown token or
 * another client's. The token (256 random bits, or an attempt's keyed HMAC, base64url) is the
 * only way to it: the table keeps only its SHA-256. `confirmed` once the booking exists (paid,
 * or pay at the property), with the room it got (null while a paid booking awaits manual
 * assignment); `awaiting_payment` while the order is processing (the provider still reports the
 * checkout open); `payment_failed` when it was cancelled, failed or expired.
 */
export async function guestBookingOf(clientId: string, token: string, now = new Date()): Promise<GuestBookingView | undefined> {
  return (await guestBookingPage(clientId, token, now))?.view;
}

/** guestBookingOf with what the page shows beyond the view (the same reads). */
export async function guestBookingPage(clientId: string, token: string, now = new Date()): Promise<GuestBookingPage | undefined> {
  if (typeof token !== 'string' || !TOKEN.test(token) || !UUID.test(clientId)) return undefined;
  const record = await getGuestBooking(tokenHash(token));
  if (!record || record.client_id !== clientId) return undefined;
  const [booking, order] = await Promise.all([
    getBooking(clientId, record.booking_id),
    record.order_reference ? getOrder(record.order_reference) : Promise.resolve(undefined),
  ]);
  const stay: StayQuery = { check_in: record.check_in_date, check_out: record.check_out_date, guests: record.guests };
  const view = {
    ...stay,
    guest_name: record.guest_name,
    total: record.total,
    currency: record.currency,
    ...(record.taxes ? { taxes: { amount: record.taxes, included: record.taxes_included === true, percent: record.tax_percent ?? 0 } } : {}),
  };
  const heldUntil =
    record.payment === 'at_property' ? (record.hold_expires_at ?? null) : new Date(Date.parse(record.created_at) + HOLD_MINUTES * 60_000).toISOString();
  const page = (v: GuestBookingView, extra: Partial<GuestBookingPage> = {}): GuestBookingPage => ({
    view: v,
    chosen_room_number: record.room_number,
    email: record.guest_email ?? order?.customer.email ?? booking?.guest_email ?? null,
    held_until: heldUntil,
    ...(record.language ? { language: record.language } : {}),
    ...extra,
  });
  if (booking) {
    let roomNumber: string | null = null;
    if (booking.room_id) roomNumber = booking.room_id === record.room_id ? record.room_number : ((await getRoom(clientId, booking.room_id))?.room_number ?? null);
    const cancelled = booking.status === 'cancelled';
    const refund = refundOf(order?.client_id === clientId ? order : undefined);
    return page(
      {
        state: cancelled ? 'booking_cancelled' : 'confirmed',
        booking_reference: booking.booking_reference ?? null,
        confirmation_code: booking.confirmation_code ?? null,
        room_number: roomNumber,
        ...view,
        // The stay as the hotel keeps it: staff may have changed it since the guest booked.
        check_in: booking.check_in_date,
        check_out: booking.check_out_date,
        guests: booking.guests,
        payment_status: booking.payment_status === 'paid' ? 'paid' : 'unpaid',
        ...(cancelled
          ? {
              cancellation: {
                at: booking.cancelled_at ?? booking.updated_at,
                by: booking.cancelled_by ?? 'staff',
                // The reason is the hotel's and its PMS's: the guest reads only staff's message to them.
                ...(booking.guest_message ? { reason: booking.guest_message } : {}),
              },
            }
          : {}),
        ...(refund ? { refund } : {}),
      },
      { booking_status: booking.status },
    );
  }
  if (record.payment === 'at_property') {
    // Not confirmed by its e-mail's link (yet): decided here, at read time, by the hold's end.
    const open = record.status === 'pending' && record.hold_expires_at !== undefined && record.hold_expires_at > now.toISOString();
    return page({
      state: open ? 'awaiting_confirmation' : 'cancelled',
      booking_reference: null,
      confirmation_code: null,
      room_number: record.room_number,
      ...view,
      payment_status: 'unpaid',
      ...(open ? { confirm_by: record.hold_expires_at } : {}),
    });
  }
  // No order: its creation failed after the hold, and the token was never handed out.
  if (!order || order.client_id !== clientId) return undefined;
  const state = order.status === 'processing' || order.status === 'paid' ? 'awaiting_payment' : 'payment_failed';
  const { customer } = order;
  return page(
    { state, booking_reference: null, confirmation_code: null, room_number: null, ...view, payment_status: 'unpaid' },
    state === 'payment_failed' && heldUntil && heldUntil > now.toISOString()
      ? {
          try_again: {
            // The type booked; a booking from before types, its room.
            ...(record.room_type !== undefined ? { room_type: record.room_type } : { room_id: record.room_id }),
            ...(order.context?.external_rate_plan_id ? { rate_plan: order.context.external_rate_plan_id } : {}),
            stay,
            guest: { name: record.guest_name, email: customer.email, ...(customer.phone ? { phone: customer.phone } : {}) },
          },
        }
      : {},
  );
}
