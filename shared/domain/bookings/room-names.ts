/**
 * Rooms as staff name them ("Room 101 (Deluxe)"), and the room a booking has now: for a booking's
 * page and its order's page. Read by key (GetItem each room; the property's categories only when
 * a room names one), never by the client's history.
 */
import { listCategories } from '../../store/category-store';
import type { RoomRecord } from '../../store/room-store';
import { getBooking, isActive, type BookingRecord } from '../../store/booking-store';
import { getRoom } from '../../store/service-booking-store';


/** A room as staff name it: its number and category ("101", "Deluxe"). */
export interface RoomName {
  room_id: string;
  number: string;
  /** The synced category's name, else the room's own type. */
  category: string;
}

/** The rooms of these ids that exist, by id, named with their category. */
export async function roomNames(clientId: string, roomIds: Iterable<string>): Promise<Map<string, RoomName>> {
  const ids = [...new Set(roomIds)];
  const rooms = (await Promise.all(ids.map((id) => getRoom(clientId, id)))).filter((room): room is RoomRecord => Boolean(room));
  // The categories (the property's, not its history) only when a room names one.
  const categories = rooms.some((room) => room.external_category_id) ? await listCategories(clientId) : [];
  const categoryOf = (room: RoomRecord) =>
    categories.find((c) => c.external_category_id === room.external_category_id && c.external_source === room.external_source)?.name;
  return new Map(rooms.map((room) => [room.id, { room_id: room.id, number: room.room_number, category: categoryOf(room) ?? room.room_type }]));
}

/** A booking's room as its page and its order's page name it, and whether it still waits for one. */
export async function bookingRoom(clientId: string, bookingId: string): Promise<{ booking: BookingRecord; room: RoomName | null; awaiting_room: boolean } | undefined> {
  const booking = await getBooking(clientId, bookingId);
  if (!booking) return undefined;
  const room = booking.room_id ? ((await roomNames(clientId, [booking.room_id])).get(booking.room_id) ?? null) : null;
  return { booking, room, awaiting_room: awaitingRoom(booking) };
}

export const awaitingRoom = (booking: BookingRecord) => booking.origin !== 'sync' && !booking.room_id && isActive(booking.status);

