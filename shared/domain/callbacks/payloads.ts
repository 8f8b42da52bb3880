/** Event payloads, serialized once when the event happens; every attempt sends these bytes. */
import type { PaymentOrderRecord } from '../../store/payment-store';
import type { RoomRecord } from '../../store/room-store';
import type { BookingRecord } from '../../store/booking-store';

/** The spec types these fields as strings: an absent value is sent as "". */
const text = (value: string | undefined) => value ?? '';

/** The events of a booking the service made, each carrying the whole booking (docs/behaviour.md "Booking changes, cancellations and refunds"). */
export type BookingEvent = 'booking.confirmed' | 'booking.modified' | 'booking.cancelled' | 'booking.no_show';

/**
 * The booking.confirmed payload, for any booking event: `booking.sequence` grows strictly with
 * each event of the booking (a booking from before sequences existed had only its confirmation:
 * 1), and a cancellation says why.
 */
export function bookingEventPayload(event: BookingEvent, clientId: string, booking: BookingRecord, room: RoomRecord | undefined, now: Date): string {
  return JSON.stringify({
    event,
    created_at: now.toISOString(),
    hotel_id: clientId,
    booking: {
      id: booking.id,
      booking_reference: text(booking.booking_reference),
      confirmation_code: text(booking.confirmation_code),
      guest_name: booking.guest_name,
      guest_email: text(booking.guest_email),
      guest_phone: text(booking.guest_phone),
      guests: booking.guests,
      check_in_date: booking.check_in_date,
      check_out_date: booking.check_out_date,
      total_amount: booking.total_amount ?? 0,
      status: booking.status,
      payment_status: booking.payment_status,
      payment_method: text(booking.payment_method),
      gateway_reference: text(booking.gateway_reference),
      sequence: booking.sequence ?? 1,
      ...(event === 'booking.cancelled' ? { cancellation_reason: text(booking.cancellation_reason) } : {}),
    },
    // A paid booking awaiting manual room assignment has no room yet.
    room: room
      ? {
          id: room.id,
          room_number: room.room_number,
          room_type: room.room_type,
          external_source: text(room.external_source),
          external_room_id: text(room.external_room_id),
          external_category_id: text(room.external_category_id),
        }
      : null,
  });
}

export function bookingConfirmedPayload(clientId: string, booking: BookingRecord, room: RoomRecord | undefined, now: Date): string {
  return bookingEventPayload('booking.confirmed', clientId, booking, room, now);
}

export function paymentOrderPaidPayload(order: PaymentOrderRecord): string {
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

/** `payment_order.refunded`: the order as the refund left it, and the refund. */
export function paymentOrderRefundedPayload(order: PaymentOrderRecord, refund: { refund_id: string; amount_minor: number }): string {
  return JSON.stringify({
    event: 'payment_order.refunded',
    payment_order: {
      order_reference: order.order_reference,
      external_reference: order.external_reference,
      status: order.status,
      amount_minor: order.amount_minor,
      amount_refunded_minor: order.amount_refunded_minor ?? 0,
      currency: order.currency,
    },
    refund: { refund_id: refund.refund_id, amount_minor: refund.amount_minor },
  });
}
