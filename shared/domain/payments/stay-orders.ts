/**
 * Every payment order opened for one guest's stay: the guest page's declined, expired or
 * cancelled checkouts before the one that was paid (each "Try again" is an order of its own), and
 * a partner's orders for the same stay. Orders are linked to their stay when created (its dates
 * and the guest's e-mail: `stayOrder` in shared/store/keys.ts), so a booking's story and the
 * Payments page find them with one bounded Query (docs/data-model.md, access pattern 63), never
 * by reading the client's history.
 */
import type { BookingRecord } from '../../store/booking-store';
import { getOrders, orderStayKey, type PaymentOrderRecord, stayKeyOf, stayOrderReferences } from '../../store/payment-store';

/** The client's orders of the stay `stayKey`, oldest first (at most STAY_ORDERS). */
async function ordersOfStay(clientId: string, stayKey: string | undefined): Promise<PaymentOrderRecord[]> {
  if (!stayKey) return [];
  const references = await stayOrderReferences(clientId, stayKey);
  const orders = await getOrders(references);
  return references.map((reference) => orders.get(reference)).filter((order): order is PaymentOrderRecord => order?.client_id === clientId);
}

/**
 * The orders opened for the booking's stay besides its own order, that made no other booking:
 * the stay as it was paid (its own order's dates), else as the booking has it.
 */
export async function otherOrdersOfBooking(clientId: string, booking: BookingRecord, own: PaymentOrderRecord | undefined): Promise<PaymentOrderRecord[]> {
  const stayKey = own ? orderStayKey(own) : stayKeyOf({ check_in_date: booking.check_in_date, check_out_date: booking.check_out_date, email: booking.guest_email });
  const orders = await ordersOfStay(clientId, stayKey);
  return orders.filter((order) => order.order_reference !== own?.order_reference && (order.booking_sync?.booking_id ?? booking.id) === booking.id);
}

/**
 * The booking an order without one of its own belongs to: the booking another order of its stay
 * made (the guest paid on a later checkout). Undefined while there is none.
 */
export async function bookingOfStay(clientId: string, order: Pick<PaymentOrderRecord, 'order_reference' | 'context' | 'customer'>): Promise<string | undefined> {
  const orders = await ordersOfStay(clientId, orderStayKey(order));
  return orders.find((other) => other.order_reference !== order.order_reference && other.booking_sync?.booking_id)?.booking_sync?.booking_id ?? undefined;
}
