/**
 * Deliveries in the words of the front desk, for the Deliveries pages and the overview: the
 * event ("Booking confirmed"), who receives it ("your PMS"), and the guest, room and stay it is
 * about ("Ana Silva · Room 101 · 28–30 Nov"). Kept apart from deliveries.tsx so the overview does
 * not bundle the retry actions.
 */
import type { DeliveryAbout } from '../../domain/callbacks/delivery-views';
import type { EndpointKind } from '../../domain/integrations';

const EVENTS: Record<string, string> = {
  'booking.confirmed': 'Booking confirmed',
  'booking.modified': 'Booking changed',
  'booking.cancelled': 'Booking cancelled',
  'booking.no_show': 'Guest did not arrive',
  'payment_order.paid': 'Order paid',
  'payment_order.refunded': 'Order refunded',
};

/** "Booking confirmed" for `booking.confirmed`; an event this table does not know, with its dots and underscores as spaces. */
export function eventInWords(event: string): string {
  const known = EVENTS[event];
  if (known) return known;
  const spaced = event.replace(/[._]/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** Who receives an endpoint's deliveries: callbacks go to the PMS, webhooks to the hotel's website. */
export const receiverOf = (endpoint: EndpointKind) => (endpoint === 'callback' ? 'your PMS' : 'your website');

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function dayMonthYear(date: string): { day: number; month: string; year: string } {
  return { day: Number(date.slice(8, 10)), month: MONTHS[Number(date.slice(5, 7)) - 1] ?? date.slice(5, 7), year: date.slice(0, 4) };
}

/** A stay's dates, short: "28–30 Nov", "30 Nov – 2 Dec", "30 Dec 2026 – 2 Jan 2027". */
export function stayDates(checkIn: string, checkOut: string): string {
  const from = dayMonthYear(checkIn);
  const to = dayMonthYear(checkOut);
  if (from.year !== to.year) return `${from.day} ${from.month} ${from.year} – ${to.day} ${to.month} ${to.year}`;
  if (from.month !== to.month) return `${from.day} ${from.month} – ${to.day} ${to.month}`;
  return `${from.day}–${to.day} ${to.month}`;
}

/** "Ana Silva · Room 101 · 28–30 Nov": what the delivery is about, as far as it says. */
export function subjectOf(about: DeliveryAbout): string {
  const parts = [
    about.guest_name ?? (about.booking_reference ? `Booking ${about.booking_reference}` : about.order_reference ? `Order ${about.order_reference}` : null),
    about.room_number ? `Room ${about.room_number}` : about.booking_id ? 'no room yet' : null,
    about.check_in_date && about.check_out_date ? stayDates(about.check_in_date, about.check_out_date) : null,
  ];
  return parts.filter((part): part is string => Boolean(part)).join(' · ') || '—';
}
