/**
 * The reports' use case (docs/behaviour.md "Reports"): a range of nights checked, then the
 * bookings, orders and refunds of that range read (shared/store/report-store.ts, bounded by the
 * range, never the history) and handed to the one module that computes the figures (figures.ts).
 */
import { errors } from '../../errors';
import { addDays } from '../../schemas/common';
import type { BookingRecord } from '../../store/booking-store';
import { getClient } from '../../store/api-key-store';
import { getOrders } from '../../store/payment-store';
import { bookingsWithNightsIn, existingEmails, ordersOpenedBetween, ordersPaidBetween, refundsAskedBetween } from '../../store/report-store';
import { listRooms } from '../../store/room-store';
import { isGuestPageOrder } from '../../schemas/payments';
import { timeZoneOf } from '../client-settings';
import { guestEmailId } from '../guest-email/email-ids';
import { startOfLocalDate } from '../hotel-time';
import { type ReportBooking, type ReportFigures, type ReportOrigin, reportFigures } from './figures';
import type { ReportRange } from './report-range';

/**
 * Where each booking came from: the PMS (synced), the hotel's booking page (paid online on it, or
 * paid at the hotel and confirmed by the e-mail's link), the reception desk, or a partner's order.
 */
async function originsOf(clientId: string, bookings: readonly BookingRecord[]): Promise<ReportBooking[]> {
  const paid = bookings.flatMap((b) => (b.origin === 'payment' && b.payment_order_reference ? [b.payment_order_reference] : []));
  const desk = bookings.filter((b) => b.origin === 'reception').map((b) => guestEmailId(clientId, b.id, 'confirm_booking'));
  const [orders, confirmLinks] = await Promise.all([getOrders([...new Set(paid)]), existingEmails(desk)]);
  const guestPageOrders = new Set([...orders.values()].filter(isGuestPageOrder).map((o) => o.order_reference));
  const originOf = (b: BookingRecord): ReportOrigin => {
    if (b.origin === 'sync') return 'pms';
    if (b.origin === 'payment') return b.payment_order_reference && guestPageOrders.has(b.payment_order_reference) ? 'booking_page' : 'partner';
    return confirmLinks.has(guestEmailId(clientId, b.id, 'confirm_booking')) ? 'booking_page' : 'reception';
  };
  return bookings.map((booking) => ({ booking, origin: originOf(booking) }));
}

/** Every figure of the client's range (already checked by `reportRange`, report-range.ts). */
export async function reportOf(clientId: string, range: ReportRange): Promise<ReportFigures> {
  const client = await getClient(clientId);
  if (!client) throw errors.clientNotFound(clientId);
  const timeZone = timeZoneOf(client);
  const start = startOfLocalDate(timeZone, range.from).toISOString();
  const end = startOfLocalDate(timeZone, addDays(range.to, 1)).toISOString();
  const [rooms, bookings, ordersPaid, ordersOpened, refunds] = await Promise.all([
    listRooms(clientId),
    bookingsWithNightsIn(clientId, range.from, range.to),
    ordersPaidBetween(clientId, start, end),
    ordersOpenedBetween(clientId, start, end),
    refundsAskedBetween(clientId, start, end),
  ]);
  return reportFigures({
    ...range,
    timeZone,
    currency: client.currency,
    roomsInService: rooms.filter((room) => room.is_active).length,
    bookings: await originsOf(clientId, bookings),
    ordersPaid,
    ordersOpened,
    refunds,
  });
}
