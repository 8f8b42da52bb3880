/**
 * The client's rooms as the dashboard lists them: each room's view (number, category, price,
 * guests, source) and whether it is in use, by room number; and every room's name for the
 * Bookings list. Two Queries (the client's rooms and categories), whatever its history.
 */
import { listCategories } from '../../store/category-store';
import { listRooms } from '../../store/room-store';
import { byRoomNumber, categoryIndex, type RoomView, toRoomView } from '../property-sync/availability';

export interface ListedRoom {
  view: RoomView;
  /** An inactive room is not offered for booking. */
  active: boolean;
}

/** Every room of the client, active or not, in room-number order. */
export async function listClientRooms(clientId: string): Promise<ListedRoom[]> {
  const [rooms, categories] = await Promise.all([listRooms(clientId), listCategories(clientId)]);
  const byKey = categoryIndex(categories);
  return rooms.sort(byRoomNumber).map((room) => ({ view: toRoomView(room, byKey), active: room.is_active }));
}

/** Room id to "101 (Deluxe Double)": its number and its category's name, else its room type. */
export async function roomLabels(clientId: string): Promise<Map<string, string>> {
  const rooms = await listClientRooms(clientId);
  return new Map(rooms.map(({ view }) => [view.id, `${view.room_number} (${view.category?.name ?? view.room_type})`] as const));
}
