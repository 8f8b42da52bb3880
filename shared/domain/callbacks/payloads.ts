/** Event payloads, serialized once when the event happens; every attempt sends these bytes. */
import type { PaymentOrderRecord } from '../../store/payment-store';
import type { RoomRecord } from '../../store/room-store';
import type { BookingRecord } from '../../store/booking-store';

/** The spec types these fields as strings: an absent value is sent as "". */
const text = (value: string | undefined) => value ?? '';

export function bookingConfirmedPayload(clientId: string, booking: BookingRecord, room: RoomRecord | undefined, now: Date): string {
  return JSON.stringify({
    event: 'booking.confirmed',
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
