/**
 * The rooms a guest can book for a stay: the client's free rooms (the API's availability rules,
 * less the rooms held by other guests' open checkouts), grouped by category with what the PMS
 * syncs of each, and the stay's total per room.
 */
import { nightsBetween } from '../../schemas/common';
import { listCategories } from '../../store/category-store';
import { stayTotal } from '../bookings/rates';
import { byRoomNumber, findAvailableRooms } from '../property-sync/availability';
import { checkStay, type StayQuery } from './booking-input';
import { guestBookingClient } from './guest-client';

/** A category of the rooms free for a stay, with what the PMS syncs of it (absent: nothing synced). */
export interface OfferedCategory {
  name: string;
  description?: string;
  amenities?: string[];
  rooms: { room_id: string; room_number: string; room_type: string; price: number; max_occupancy: number; total: number }[];
}

export interface RoomSearch {
  nights: number;
  currency: string;
  categories: OfferedCategory[];
}

/**
 * Available rooms for the stay grouped by category (category name, or the room type for rooms
 * without a synced category; with the category's description and amenities as the PMS synced
 * them), each with the stay's total = price x nights in the client currency; rooms held by another guest's open checkout are NOT offered. The availability rules
 * of the API (findAvailableRooms). Categories by their cheapest room, then name; rooms by price,
 * then natural room number. 404 for an unknown client; the stay's rules as checkStay.
 */
export async function searchRooms(clientId: string, stay: StayQuery, now: Date): Promise<RoomSearch> {
  const client = await guestBookingClient(clientId);
  const query = checkStay(stay, now, client.booking_horizon_days, client.time_zone);
  const [available, synced] = await Promise.all([
    findAvailableRooms(clientId, { check_in_date: query.check_in, check_out_date: query.check_out, guests: query.guests }, now),
    listCategories(clientId),
  ]);
  // What the PMS says of each category (description, amenities), by its source and id.
  const about = new Map(synced.map((c) => [`${c.external_source}\u0000${c.external_category_id}`, c]));
  const nights = nightsBetween(query.check_in, query.check_out);
  const groups = new Map<string, OfferedCategory>();
  for (const room of available.available_rooms) {
    const name = room.category?.name ?? room.room_type;
    const category = room.category ? about.get(`${room.external_source ?? ''}\u0000${room.category.external_category_id}`) : undefined;
    const description = category?.description?.trim();
    const amenities = (category?.amenities ?? []).map((a) => a.trim()).filter(Boolean);
    const group = groups.get(name) ?? { name, ...(description ? { description } : {}), ...(amenities.length ? { amenities } : {}), rooms: [] };
    group.rooms.push({
      room_id: room.id,
      room_number: room.room_number,
      room_type: room.room_type,
      price: room.price,
      max_occupancy: room.max_occupancy,
      total: stayTotal(room.price, nights, client.currency),
    });
    groups.set(name, group);
  }
  const categories = [...groups.values()];
  for (const group of categories) group.rooms.sort((a, b) => a.price - b.price || byRoomNumber(a, b));
  categories.sort((a, b) => a.rooms[0]!.price - b.rooms[0]!.price || a.name.localeCompare(b.name));
  return { nights, currency: client.currency, categories };
}

/** One room free for a stay, with its category and the stay's figures. */
export interface OfferedRoom {
  room: OfferedCategory['rooms'][number];
  category: OfferedCategory;
  currency: string;
  nights: number;
}

/** The room among those free for the stay (searchRooms), with its category and the stay's figures; undefined when it is taken. */
export async function offeredRoom(clientId: string, stay: StayQuery, roomId: string, now: Date): Promise<OfferedRoom | undefined> {
  const result = await searchRooms(clientId, stay, now);
  for (const category of result.categories) {
    const room = category.rooms.find((r) => r.room_id === roomId);
    if (room) return { room, category, currency: result.currency, nights: result.nights };
  }
  return undefined;
}
