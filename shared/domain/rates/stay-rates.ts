/**
 * A stay priced on the rate plans of each category (docs/behaviour.md "Rates and restrictions per
 * date"): the plans and every plan's months of the stay, two Queries that run beside the other
 * reads of availability (stayMonths). What a stay costs to read does not grow with the plans'
 * history: a plan's month is one item.
 */
import { queryRateMonths, type RateMonthRecord, type RatePlanRecord, rateMonthKey, type StoredRateDay } from '../../store/rate-store';
import { dayOf, monthOf, type StayOnPlan, stayOnPlan, type StayOnPlanWithLimits } from './rate-days';

/** A plan's stored day at a date, from the months read. */
export function dayReader(months: Map<string, RateMonthRecord>, ratePlanId: string) {
  return (date: string): StoredRateDay | undefined => months.get(rateMonthKey(ratePlanId, monthOf(date)))?.days[dayOf(date)];
}

export interface PlanOnStay extends StayOnPlan {
  external_rate_plan_id: string;
  name: string;
}

/** A plan on a stay as the service reasons with it: with each refusing rule's value. */
export type PricedPlan = PlanOnStay & Pick<StayOnPlanWithLimits, 'limits'>;

/** A plan on a stay as the API answers it (docs/behaviour.md "Rates and restrictions per date"). */
export function publicPlan({ limits: _limits, ...plan }: PricedPlan): PlanOnStay {
  return plan;
}

export interface StayPricing {
  /** The plans of a category for the stay, bookable first and cheapest first; undefined: the category sells without plans. */
  plansOf(source: string | undefined, externalCategoryId: string | undefined, fallbackPrice: number): PricedPlan[] | undefined;
}

const categoryKey = (source: string | undefined, id: string | undefined) => `${source ?? ''}\u0000${id ?? ''}`;

/** Bookable plans first, then the cheaper, then by id: the first is what a guest is offered first. */
export function byOffer(a: PricedPlan, b: PricedPlan): number {
  if (a.bookable !== b.bookable) return a.bookable ? -1 : 1;
  return a.total - b.total || a.external_rate_plan_id.localeCompare(b.external_rate_plan_id);
}

/** Every plan's months of the stay [checkIn, checkOut] (its check-out day's rules included). */
export function stayMonths(clientId: string, checkIn: string, checkOut: string): Promise<Map<string, RateMonthRecord>> {
  return queryRateMonths(clientId, monthOf(checkIn), monthOf(checkOut));
}

/**
 * Prices the stay [checkIn, checkOut) on the active plans of the given categories, from the
 * plans' months (stayMonths). With `onlyPlan`, a category is priced on that plan alone, and one
 * without it has no plan to sell.
 */
export function priceStay(
  plans: readonly RatePlanRecord[],
  months: Map<string, RateMonthRecord>,
  categories: readonly { source?: string; externalCategoryId?: string }[],
  stay: { checkIn: string; checkOut: string; onlyPlan?: string },
): StayPricing {
  const wanted = new Set(categories.map((c) => categoryKey(c.source, c.externalCategoryId)));
  const byCategory = new Map<string, RatePlanRecord[]>();
  for (const plan of plans) {
    const key = categoryKey(plan.external_source, plan.external_category_id);
    if (!plan.active || !wanted.has(key)) continue;
    byCategory.set(key, [...(byCategory.get(key) ?? []), plan]);
  }
  return {
    plansOf(source, externalCategoryId, fallbackPrice) {
      let ofCategory = byCategory.get(categoryKey(source, externalCategoryId));
      if (stay.onlyPlan !== undefined) ofCategory = (ofCategory ?? []).filter((p) => p.external_rate_plan_id === stay.onlyPlan);
      if (stay.onlyPlan === undefined && !ofCategory?.length) return undefined;
      return ofCategory!
        .map((plan) => ({
          external_rate_plan_id: plan.external_rate_plan_id,
          name: plan.name,
          ...stayOnPlan(dayReader(months, plan.id), stay.checkIn, stay.checkOut, fallbackPrice),
        }))
        .sort(byOffer);
    },
  };
}
