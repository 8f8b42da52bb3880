/**
 * A paid room-booking order becomes a confirmed service booking (CONTRACT.md "Payment orders",
 * mirroring), planned here so that it commits in the same transaction that marks the order paid.
 */
import { nameBasedId } from '../../ids';
import { majorAmount } from '../../schemas/payments';
import { getEndpoint } from '../../store/endpoint-store';
import type { BookingSync, PaymentOrderRecord } from '../../store/payment-store';
import { type BookingPlan, planServiceBooking } from '../bookings/service-bookings';

export interface MirroredBooking {
  plan: Pick<BookingPlan, 'items' | 'deliveries'>;
  bookingSync: BookingSync;
}

/**
 * The id of the one booking an order of the client makes when paid, however often it is settled:
 * known before payment, so a guest's checkout can hold its room for exactly that booking.
 */
export function paidOrderBookingId(clientId: string, orderReference: string): string {
  return nameBasedId(clientId, 'order-booking', orderReference);
}

/**
 * The booking a paid order makes, or undefined when the order is not a room booking with dates.
 * A room held for this order's booking (a guest's checkout, CONTRACT.md "Guest booking") is its
 * own: locked if the room is otherwise free, even after the hold expired; taken by someone else
 * meanwhile, the booking is recorded for manual assignment.
 */
export async function planPaidBooking(order: PaymentOrderRecord, now: Date): Promise<MirroredBooking | undefined> {
  const context = order.context;
  if (context?.type !== 'room_booking' || !context.check_in_date || !context.check_out_date) return undefined;
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
      paymentOrderReference: order.order_reference,
      // One booking per order, however often the order is settled.
      bookingId: paidOrderBookingId(order.client_id, order.order_reference),
    },
    await getEndpoint(order.client_id, 'callback'),
    now,
  );
  const { booking, room, room_assignment } = plan.result;
  return {
    plan,
    bookingSync: {
      status: 'synced',
      booking_id: booking.id,
      booking_reference: booking.booking_reference ?? null,
      confirmation_code: booking.confirmation_code ?? null,
      room_id: room?.id ?? null,
      room_assignment,
    },
  };
}
