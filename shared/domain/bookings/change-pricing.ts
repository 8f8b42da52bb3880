/**
 * What a changed stay costs (docs/behaviour.md "Booking changes, cancellations and refunds"):
 * the one computation the Change page, `ops bookings modify --total recalculate` and the
 * booking.modified event price a new stay with: on the room's category's rate plans (the cheapest
 * plan that takes the stay, else the cheapest: staff may move a guest whatever the plans' rules),
 * else nights x the room's price per night where the category sells on no plan.
 */
import { nightsBetween } from '../../schemas/common';
import type { RoomRecord } from '../../store/room-store';
import { roomsStayPlans } from '../rates/room-rates';
import { stayTotal as priceTimesNights } from './rates';

type Stay = { check_in_date: string; check_out_date: string };

/** The stay's total in each of these rooms, by room id, in the client's currency (one read of the rates for all). */
export async function stayTotals(clientId: string, rooms: readonly RoomRecord[], stay: Stay, currency: string): Promise<Map<string, number>> {
  const nights = nightsBetween(stay.check_in_date, stay.check_out_date);
  const plans = await roomsStayPlans(clientId, rooms, stay.check_in_date, stay.check_out_date);
  const totals = new Map<string, number>();
  for (const room of rooms) {
    const offers = plans.get(room.id);
    const plan = offers?.find((offer) => offer.bookable) ?? offers?.[0];
    totals.set(room.id, plan ? priceTimesNights(plan.total, 1, currency) : priceTimesNights(room.price, nights, currency));
  }
  return totals;
}
