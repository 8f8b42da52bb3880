/**
 * The rooms a guest can book for a stay: the client's free rooms (the API's availability rules,
 * less the rooms held by other guests' open checkouts), grouped by category with what the PMS
 * syncs of each, and the stay's total per room.
 */
import { nightsBetween } from '../../schemas/common';
import { aboutCategory, listCategories } from '../../store/category-store';
import { stayTotal } from '../bookings/rates';
import { byRoomNumber, categoryIndex, categoryOf, findAvailableRooms, type Priced, type RoomView } from '../property-sync/availability';
import type { PlanOnStay, PricedPlan } from '../rates/stay-rates';
import { checkStay, type StayQuery } from './booking-input';
import { chosenRoom, guestBookingClient } from './guest-client';

/** A category of the rooms free for a stay, with what the PMS syncs of it (absent: nothing synced). */
export interface OfferedCategory {
  name: string;
  description?: string;
  amenities?: string[];
  /** Its picture (https), where the PMS gave one. */
  image_url?: string;
  rooms: OfferedRoomFigures[];
}

/** A bookable rate plan of a room for the stay: its nights' prices and total, in the client's currency. */
export interface OfferedPlan {
  external_rate_plan_id: string;
  name: string;
  nights: { date: string; price: number }[];
  total: number;
}

/** A room free for the stay. `total`: price x nights, or the cheapest of its `plans` (bookable only, cheapest first) where its category has plans. */
export interface OfferedRoomFigures {
  room_id: string;
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
  total: number;
  plans?: OfferedPlan[];
}

/** A room type with rooms free for the dates, none of whose plans takes the stay: the rules that refuse it (its cheapest plan's). */
export interface RefusedCategory {
  name: string;
  blocked_by: PlanOnStay['blocked_by'];
  /** The value of each refusing rule on its date (the minimum or maximum stay; true for the closures). */
  limits: (number | boolean)[];
}

export interface RoomSearch {
  nights: number;
  currency: string;
  categories: OfferedCategory[];
  refused: RefusedCategory[];
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
  const refusedRooms: (RoomView & { rate_plans: PricedPlan[] })[] = [];
  const [available, synced] = await Promise.all([
    findAvailableRooms(clientId, { check_in_date: query.check_in, check_out_date: query.check_out, guests: query.guests }, now, { refused: refusedRooms }),
    listCategories(clientId),
  ]);
  // What the PMS says of each category (description, amenities), by its source and id.
  const about = categoryIndex(synced);
  const nights = nightsBetween(query.check_in, query.check_out);
  const groups = new Map<string, OfferedCategory>();
  for (const room of available.available_rooms) {
    const name = room.category?.name ?? room.room_type;
    const group = groups.get(name) ?? { name, ...aboutCategory(categoryOf(room, about)), rooms: [] };
    const plans = (room as RoomView & Priced).rate_plans
      ?.filter((plan) => plan.bookable)
      .map((plan) => ({ external_rate_plan_id: plan.external_rate_plan_id, name: plan.name, nights: plan.nights, total: stayTotal(plan.total, 1, client.currency) }));
    group.rooms.push({
      room_id: room.id,
      room_number: room.room_number,
      room_type: room.room_type,
      price: room.price,
      max_occupancy: room.max_occupancy,
      total: plans ? plans[0]!.total : stayTotal(room.price, nights, client.currency),
      ...(plans ? { plans } : {}),
    });
    groups.set(name, group);
  }
  const categories = [...groups.values()];
  for (const group of categories) group.rooms.sort((a, b) => a.total - b.total || byRoomNumber(a, b));
  categories.sort((a, b) => a.rooms[0]!.total - b.rooms[0]!.total || a.name.localeCompare(b.name));
  const refused = new Map<string, RefusedCategory>();
  for (const room of refusedRooms) {
    const name = room.category?.name ?? room.room_type;
    // Already in offer order (byOffer): none bookable, so the cheapest first.
    const plan = room.rate_plans[0]!;
    if (!groups.has(name) && !refused.has(name)) refused.set(name, { name, blocked_by: plan.blocked_by, limits: plan.limits });
  }
  return { nights, currency: client.currency, categories, refused: [...refused.values()] };
}

/** One room free for a stay, with its category and the stay's figures. */
export interface OfferedRoom {
  room: OfferedRoomFigures;
  category: OfferedCategory;
  currency: string;
  nights: number;
  /** The rate plan chosen, where the room's category has plans: `room.total` is its total. */
  plan?: OfferedPlan;
}

/**
 * The room type among those free for the stay (searchRooms), as the guest books it: its cheapest
 * room's figures (on the plan chosen, else the cheapest) stand for the type; undefined when no
 * room of the type is free for the stay (on that plan).
 */
export async function offeredType(clientId: string, stay: StayQuery, roomType: string, now: Date, ratePlanId?: string): Promise<OfferedRoom | undefined> {
  const result = await searchRooms(clientId, stay, now);
  const category = result.categories.find((c) => c.name === roomType);
  for (const room of category?.rooms ?? []) {
    if (!room.plans) return { room, category: category!, currency: result.currency, nights: result.nights };
    const plan = ratePlanId ? room.plans.find((p) => p.external_rate_plan_id === ratePlanId) : room.plans[0];
    if (plan) return { room: { ...room, total: plan.total }, category: category!, currency: result.currency, nights: result.nights, plan };
  }
  return undefined;
}

/** The room among those free for the stay (searchRooms), with its category and the stay's figures; undefined when it is taken. */
export async function offeredRoom(clientId: string, stay: StayQuery, roomId: string, now: Date, ratePlanId?: string): Promise<OfferedRoom | undefined> {
  const result = await searchRooms(clientId, stay, now);
  for (const category of result.categories) {
    const room = category.rooms.find((r) => r.room_id === roomId);
    if (!room) continue;
    if (!room.plans) return { room, category, currency: result.currency, nights: result.nights };
    // On the plan chosen (one the stay can be booked on), else the cheapest: its total is the stay's.
    const plan = ratePlanId ? room.plans.find((p) => p.external_rate_plan_id === ratePlanId) : room.plans[0];
    return plan ? { room: { ...room, total: plan.total }, category, currency: result.currency, nights: result.nights, plan } : undefined;
  }
  return undefined;
}

/**
 * The type a room is booked as on the guest pages (its category's name, else its room type, as
 * searchRooms groups them), whether it is free or not; undefined for no such room of the client.
 */
export async function roomTypeOf(clientId: string, roomId: string): Promise<string | undefined> {
  const room = await chosenRoom(clientId, roomId).catch(() => undefined);
  if (!room) return undefined;
  const category = room.external_category_id ? categoryOf(room, categoryIndex(await listCategories(clientId))) : undefined;
  return category?.name ?? room.room_type;
}
