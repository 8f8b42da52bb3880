/**
 * The PMS cancelling a booking the service made (guest, reception, paid order), through the API:
 * cancelServiceBooking's rules and refusals with source `pms`, so nothing is sent back to the PMS.
 * A repeated cancel answers the same body, whoever cancelled first.
 */
import type { BookingRecord } from '../../store/booking-store';
import { cancelServiceBooking } from '../bookings/booking-changes';

export async function cancelForPms(clientId: string, bookingId: string, input: { reason?: string }, now = new Date()) {
  const { booking } = await cancelServiceBooking(clientId, bookingId, { ...(input.reason ? { reason: input.reason } : {}), source: 'pms' }, now);
  return cancelledBookingView(booking);
}

/** What the PMS is told of a cancelled booking. */
export function cancelledBookingView(booking: BookingRecord) {
  return {
    booking_id: booking.id,
    booking_reference: booking.booking_reference ?? null,
    status: 'cancelled' as const,
    cancellation_reason: booking.cancellation_reason ?? null,
    cancelled_at: booking.cancelled_at ?? booking.updated_at,
    cancelled_by: booking.cancelled_by ?? 'pms',
    room_id: booking.room_id ?? null,
    check_in_date: booking.check_in_date,
    check_out_date: booking.check_out_date,
  };
}
