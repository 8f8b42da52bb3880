/**
 * GET availability: active rooms with enough capacity and no overlapping active booking of any
 * origin. Reads the client's rooms and categories and only the active stays that can overlap
 * the range, so its cost does not grow with booking history.
 */
import type { AvailabilityQuery } from '../../schemas/property-sync';
import { nightsBetween } from '../../schemas/common';
import { type CategoryRecord, listCategories } from '../../store/category-store';
import { listRooms, type RoomRecord } from '../../store/room-store';
import { activeBookingsOverlapping } from '../../store/booking-store';
import { openCheckoutHolds } from '../../store/guest-booking-store';
import { byRoomNumber } from './room-order';
import { listRatePlans } from '../../store/rate-store';
import { type PlanOnStay, type PricedPlan, priceStay, publicPlan, stayMonths } from '../rates/stay-rates';

export interface CategorySummary {
  external_category_id: string;
  name: string;
  base_price: number | null;
}

/** A room or category of a category with rate plans carries them, priced for the stay. */
export interface Priced {
  rate_plans?: PlanOnStay[];
}

export interface RoomView {
  id: string;
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
  external_source: string | null;
  external_room_id: string | null;
  external_category_id: string | null;
  category: CategorySummary | null;
}

const categoryKey = (source: string | undefined, id: string | undefined) => `${source ?? ''}\u0000${id ?? ''}`;

export function categoryIndex(categories: CategoryRecord[]): Map<string, CategoryRecord> {
  return new Map(categories.map((c) => [categoryKey(c.external_source, c.external_category_id), c]));
}

/** A room's synced category, from an index of the client's categories (categoryIndex). */
export function categoryOf(room: { external_source?: string | null; external_category_id?: string | null }, categories: Map<string, CategoryRecord>): CategoryRecord | undefined {
  return room.external_category_id ? categories.get(categoryKey(room.external_source ?? undefined, room.external_category_id)) : undefined;
}

export function toRoomView(room: RoomRecord, categories: Map<string, CategoryRecord>): RoomView {
  const category = categoryOf(room, categories);
  return {
    id: room.id,
    room_number: room.room_number,
    room_type: room.room_type,
    price: room.price,
    max_occupancy: room.max_occupancy,
    external_source: room.external_source ?? null,
    external_room_id: room.external_room_id ?? null,
    external_category_id: room.external_category_id ?? null,
    category: category
      ? { external_category_id: category.external_category_id, name: category.name, base_price: category.base_price ?? null }
      : null,
  };
}

export { byRoomNumber } from './room-order';

/**
 * The rooms free for the stay. A room held by a guest's open checkout (docs/behaviour.md "Guest
 * booking and the reception QR code": not offered to anyone else for 30 minutes) is taken too, here as on the guest page,
 * so a PMS reading availability cannot sell it meanwhile: one more Query, in parallel, reading
 * only the client's checkout holds still open at `now`.
 */
export async function findAvailableRooms(
  clientId: string,
  query: AvailabilityQuery & { external_rate_plan_id?: string },
  now = new Date(),
  options: {
    refused?: (RoomView & { rate_plans: PricedPlan[] })[];
    /** false: every free room, whatever its plans say (a room for a booking already sold: "Assign room"). */
    restrictions?: false;
  } = {},
) {
  const window = { checkIn: query.check_in_date, checkOut: query.check_out_date };
  const [rooms, categories, bookings, held, plans, months] = await Promise.all([
    listRooms(clientId),
    listCategories(clientId),
    activeBookingsOverlapping(clientId, window),
    openCheckoutHolds(clientId, window, now),
    listRatePlans(clientId),
    stayMonths(clientId, query.check_in_date, query.check_out_date),
  ]);
  const taken = new Set([...bookings.map((b) => b.room_id), ...held.map((h) => h.room_id)]);
  const categoriesByKey = categoryIndex(categories);
  const candidates = rooms
    .filter(
      (room) =>
        room.is_active &&
        room.max_occupancy >= query.guests &&
        !taken.has(room.id) &&
        (query.external_source === undefined || room.external_source === query.external_source) &&
        (query.external_category_id === undefined || room.external_category_id === query.external_category_id) &&
        (query.room_type === undefined || room.room_type === query.room_type),
    )
    .sort(byRoomNumber);
  const pricing = priceStay(
    plans,
    months,
    candidates.map((room) => ({ source: room.external_source, externalCategoryId: room.external_category_id })),
    { ...window, onlyPlan: query.external_rate_plan_id },
  );
  // A room of a category with plans is sold on them: listed only when one of them takes the stay.
  const available: (RoomView & Priced)[] = candidates.flatMap((room) => {
    const view = toRoomView(room, categoriesByKey);
    const offers = pricing.plansOf(room.external_source, room.external_category_id, view.category?.base_price ?? room.price);
    if (!offers) return [view];
    if (options.restrictions === false || offers.some((plan) => plan.bookable)) return [{ ...view, rate_plans: offers.map(publicPlan) }];
    // Free, but no plan takes the stay: the guest page says why.
    options.refused?.push({ ...view, rate_plans: offers });
    return [];
  });

  const summaries = new Map<string, CategorySummary & { available_count: number } & Priced>();
  for (const room of available) {
    if (!room.category) continue;
    const key = categoryKey(room.external_source ?? undefined, room.category.external_category_id);
    // A category's plans are priced as its first listed room's (the base price first, as for every room).
    const summary = summaries.get(key) ?? { ...room.category, available_count: 0, ...(room.rate_plans ? { rate_plans: room.rate_plans } : {}) };
    summary.available_count++;
    summaries.set(key, summary);
  }
  return {
    check_in_date: query.check_in_date,
    check_out_date: query.check_out_date,
    nights: nightsBetween(query.check_in_date, query.check_out_date),
    guests: query.guests,
    available_rooms: available,
    categories: [...summaries.values()],
  };
}

export async function listRoomViews(clientId: string): Promise<RoomView[]> {
  const [rooms, categories] = await Promise.all([listRooms(clientId), listCategories(clientId)]);
  const categoriesByKey = categoryIndex(categories);
  return rooms.sort(byRoomNumber).map((room) => toRoomView(room, categoriesByKey));
}
