/**
 * The hotel as its booking page shows it before a search (docs/behaviour.md "The guest's booking
 * page as a storefront"): its room types (the active rooms by category, as the results group
 * them) with what the PMS syncs of each and a "from" price, the lowest price of a night over the
 * coming FROM_PRICE_NIGHTS nights. Bounded work: four Queries of the client's partition (rooms,
 * categories, rate plans, the plans' months of the window), whatever the history.
 */
import { addDays } from '../../schemas/common';
import { aboutCategory, listCategories } from '../../store/category-store';
import { listRatePlans } from '../../store/rate-store';
import { listRooms } from '../../store/room-store';
import { datesFrom } from '../rates/rate-days';
import { effectiveDay } from '../rates/rate-days';
import { dayReader, stayMonths } from '../rates/stay-rates';
import { hotelClock } from '../hotel-time';
import { categoryIndex, categoryOf } from '../property-sync/availability';
import type { GuestClient } from './guest-client';

/** The window of the "from" prices: the coming four weeks. */
export const FROM_PRICE_NIGHTS = 28;

export interface ShowcaseType {
  name: string;
  description?: string;
  amenities?: string[];
  image_url?: string;
  /** The most guests one of its rooms takes. */
  max_occupancy: number;
  /** The lowest price of a night over the window (open for sale), in the client's currency; null: none on sale. */
  from: number | null;
}

export async function hotelShowcase(client: GuestClient, now: Date): Promise<ShowcaseType[]> {
  const { today } = hotelClock(client.time_zone, now);
  const last = addDays(today, FROM_PRICE_NIGHTS - 1);
  const [rooms, categories, plans, months] = await Promise.all([
    listRooms(client.client_id),
    listCategories(client.client_id),
    listRatePlans(client.client_id),
    stayMonths(client.client_id, today, last),
  ]);
  const about = categoryIndex(categories);
  const dates = datesFrom(today, last);
  const types = new Map<string, ShowcaseType>();
  for (const room of rooms.filter((r) => r.is_active)) {
    const category = categoryOf(room, about);
    const name = category?.name ?? room.room_type;
    const fallback = category?.base_price ?? room.price;
    const active = category ? plans.filter((p) => p.active && categoryOf(p, about) === category) : [];
    // On plans: each open night's price (pushed, else the base price); without: the room's price.
    const prices = active.length
      ? active.flatMap((plan) => {
          const dayAt = dayReader(months, plan.id);
          return dates.flatMap((date) => {
            const day = effectiveDay(dayAt(date));
            return day.stop_sell ? [] : [day.price ?? fallback];
          });
        })
      : [room.price];
    const lowest = prices.filter((p) => p > 0).reduce<number | null>((min, p) => (min === null || p < min ? p : min), null);
    const type = types.get(name) ?? { name, ...aboutCategory(category), max_occupancy: 0, from: null };
    type.max_occupancy = Math.max(type.max_occupancy, room.max_occupancy);
    if (lowest !== null && (type.from === null || lowest < type.from)) type.from = lowest;
    types.set(name, type);
  }
  return [...types.values()].sort((a, b) => (a.from ?? Infinity) - (b.from ?? Infinity) || a.name.localeCompare(b.name));
}
