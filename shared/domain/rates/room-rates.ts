/**
 * What a stay in one room costs on its category's rate plans (docs/behaviour.md "Rates and
 * restrictions per date"): the guest page's and reception's totals and the rate check of paid
 * orders. A room of a category without active plans costs its price each night, as before.
 */
import { errors } from '../../errors';
import { nightsBetween } from '../../schemas/common';
import { listCategories } from '../../store/category-store';
import { listRatePlans } from '../../store/rate-store';
import type { RoomRecord } from '../../store/room-store';
import { stayTotal } from '../bookings/rates';
import { type PlanOnStay, priceStay, stayMonths } from './stay-rates';

/**
 * Each room's plans for the stay, by room id, bookable first and cheapest first; undefined: its
 * category has no active plans. One read of the plans, categories and the stay's months for all.
 */
export async function roomsStayPlans(clientId: string, rooms: readonly RoomRecord[], checkIn: string, checkOut: string): Promise<Map<string, PlanOnStay[] | undefined>> {
  const priced = rooms.filter((room) => room.external_category_id);
  const byRoom = new Map<string, PlanOnStay[] | undefined>(rooms.map((room) => [room.id, undefined]));
  if (!priced.length) return byRoom;
  const [plans, categories, months] = await Promise.all([listRatePlans(clientId), listCategories(clientId), stayMonths(clientId, checkIn, checkOut)]);
  const pricing = priceStay(
    plans,
    months,
    priced.map((room) => ({ source: room.external_source, externalCategoryId: room.external_category_id })),
    { checkIn, checkOut },
  );
  for (const room of priced) {
    const category = categories.find((c) => c.external_source === room.external_source && c.external_category_id === room.external_category_id);
    byRoom.set(room.id, pricing.plansOf(room.external_source, room.external_category_id, category?.base_price ?? room.price));
  }
  return byRoom;
}

/** The room's plans for the stay, bookable first and cheapest first; undefined: its category has no active plans. */
export async function roomStayPlans(clientId: string, room: RoomRecord, checkIn: string, checkOut: string): Promise<PlanOnStay[] | undefined> {
  return (await roomsStayPlans(clientId, [room], checkIn, checkOut)).get(room.id);
}

/**
 * The plan a stay is priced on: the one named (when the room's category has it), else the
 * cheapest bookable one; undefined when none (no plan named or bookable).
 */
export function chosenPlan(plans: readonly PlanOnStay[] | undefined, externalRatePlanId?: string): PlanOnStay | undefined {
  if (!plans) return undefined;
  if (externalRatePlanId !== undefined) {
    const named = plans.find((p) => p.external_rate_plan_id === externalRatePlanId);
    if (named) return named;
  }
  return plans.find((p) => p.bookable);
}

/**
 * What a stay in the room costs, in the client's currency: on its category's plan (the one chosen,
 * which must take the stay; else the cheapest bookable), or price x nights where it has no plans.
 * 409 ROOM_NOT_AVAILABLE when no plan (or not the one chosen) takes the stay.
 */
export async function stayCharge(
  clientId: string,
  room: RoomRecord,
  stay: { check_in: string; check_out: string },
  currency: string,
  ratePlanId?: string,
): Promise<{ total: number; plan?: PlanOnStay }> {
  const plans = await roomStayPlans(clientId, room, stay.check_in, stay.check_out);
  if (!plans) return { total: stayTotal(room.price, nightsBetween(stay.check_in, stay.check_out), currency) };
  const plan = plans.find((p) => p.bookable && (ratePlanId === undefined || p.external_rate_plan_id === ratePlanId));
  if (!plan) throw errors.roomNotBookable(room.room_number, ratePlanId ? `the rate ${ratePlanId} does not take this stay` : 'no rate takes this stay');
  return { total: stayTotal(plan.total, 1, currency), plan };
}
