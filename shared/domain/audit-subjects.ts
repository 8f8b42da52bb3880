/**
 * What a page of audit entries is about, as staff know it: the booking an entry names (directly,
 * or through the notification to the PMS it retried) by reference and guest, and the rooms it
 * names by number and category. Read by key for the page's entries only (BatchGetItem the
 * deliveries, then the bookings; GetItem each room named), so the cost follows the page's length,
 * never the client's history.
 */
import type { AuditEntry } from './audit';
import { getDeliveries } from '../store/delivery-store';
import { getBookings } from '../store/booking-store';
import { type RoomName, roomNames } from './bookings/room-names';

export interface BookingSubject {
  booking_id: string;
  reference: string | null;
  guest_name: string;
}

export interface AuditSubjects {
  /** The booking each entry is about, by entry id. */
  bookings: Map<string, BookingSubject>;
  /** The room each entry names by id (a room assigned), by entry id. */
  rooms: Map<string, RoomName>;
}

const isBookingAction = (entry: AuditEntry) => entry.action.startsWith('booking.');
const isDeliveryAction = (entry: AuditEntry) => entry.action === 'delivery.retry';

export async function auditSubjects(clientId: string, entries: readonly AuditEntry[]): Promise<AuditSubjects> {
  const deliveryIds = entries.filter((e) => isDeliveryAction(e) && e.target).map((e) => e.target!);
  const roomIds = entries.flatMap((e) => (isBookingAction(e) && typeof e.changes.room_id === 'string' ? [e.changes.room_id] : []));
  const [deliveries, rooms] = await Promise.all([deliveryIds.length ? getDeliveries([...new Set(deliveryIds)]) : [], roomNames(clientId, roomIds)]);
  const bookingOfDelivery = new Map(deliveries.filter((d) => d.client_id === clientId && d.booking_id).map((d) => [d.delivery_id, d.booking_id!]));
  const bookingIdOf = (entry: AuditEntry) => (isBookingAction(entry) ? entry.target : isDeliveryAction(entry) && entry.target ? bookingOfDelivery.get(entry.target) : undefined);
  const bookingIds = entries.flatMap((e) => bookingIdOf(e) ?? []);
  const bookings = bookingIds.length ? await getBookings(clientId, bookingIds) : new Map();
  const subjects: AuditSubjects = { bookings: new Map(), rooms: new Map() };
  for (const entry of entries) {
    const booking = bookings.get(bookingIdOf(entry) ?? '');
    if (booking) {
      subjects.bookings.set(entry.id, { booking_id: booking.id, reference: booking.booking_reference ?? booking.external_booking_id ?? null, guest_name: booking.guest_name });
    }
    const room = typeof entry.changes.room_id === 'string' ? rooms.get(entry.changes.room_id) : undefined;
    if (room && isBookingAction(entry)) subjects.rooms.set(entry.id, room);
  }
  return subjects;
}
