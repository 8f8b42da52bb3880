/**
 * What a changed stay costs (docs/behaviour.md "Booking changes, cancellations and refunds"):
 * the one computation the Change page, `ops bookings modify --total recalculate` and the
 * booking.modified event price a new stay with: on the room's category's rate plans (the cheapest
 * plan that takes the stay, else the cheapest: staff may move a guest whatever the plans' rules),
 * else nights x the room's price per night where the category sells on no plan.
 */
import { nightsBetween } from '../../schemas/common';
import { listCategories } from '../../store/category-store';
import { listRatePlans } from '../../store/rate-store';
import type { RoomRecord } from '../../store/room-store';
import { priceStay, stayMonths } from '../rates/stay-rates';
import { stayTotal as priceTimesNights } from './rates';

type Stay = { check_in_date: string; check_out_date: string };

/**
 * The stay's total in each of these rooms, by room id, in the client's currency: one read of the
 * plans, categories and the stay's months for all of them.
 */
export async function stayTotals(clientId: string, rooms: readonly RoomRecord[], stay: Stay, currency: string): Promise<Map<string, number>> {
  const nights = nightsBetween(stay.check_in_date, stay.check_out_date);
  const [plans, categories, months] = await Promise.all([listRatePlans(clientId), listCategories(clientId), stayMonths(clientId, stay.check_in_date, stay.check_out_date)]);
  const pricing = priceStay(
    plans,
    months,
    rooms.map((room) => ({ source: room.external_source, externalCategoryId: room.external_category_id })),
    { checkIn: stay.check_in_date, checkOut: stay.check_out_date },
  );
  const totals = new Map<string, number>();
  for (const room of rooms) {
    const category = categories.find((c) => c.external_source === room.external_source && c.external_category_id === room.external_category_id);
    const offers = room.external_category_id ? pricing.plansOf(room.external_source, room.external_category_id, category?.base_price ?? room.price) : undefined;
    const plan = offers?.find((offer) => offer.bookable) ?? offers?.[0];
    totals.set(room.id, plan ? priceTimesNights(plan.total, 1, currency) : priceTimesNights(room.price, nights, currency));
  }
  return totals;
}
