/**
 * GET rates: every date of a range for each plan of a source (or one plan), as it applies: the
 * pushed price or the category's base price, and every rule at its value (unset: neutral).
 */
import { errors } from '../../errors';
import type { RatesQuery } from '../../schemas/rates';
import { listCategories } from '../../store/category-store';
import { getRateMonths, listRatePlans, type StoredRateDay } from '../../store/rate-store';
import { datesFrom, type EffectiveDay, effectiveDay, monthsOf } from './rate-days';
import { dayReader } from './stay-rates';

export type RateDayView = { price: number | null; price_source: 'rate' | 'base' } & Omit<EffectiveDay, 'price'>;

export function dayView(day: StoredRateDay | undefined, basePrice: number | null): RateDayView {
  const { price, ...rules } = effectiveDay(day);
  return { price: price ?? basePrice, price_source: price === undefined ? 'base' : 'rate', ...rules };
}

export async function readRates(clientId: string, query: RatesQuery): Promise<{ rate_plans: Record<string, Record<string, RateDayView>> }> {
  const [plans, categories] = await Promise.all([listRatePlans(clientId), listCategories(clientId)]);
  const ofSource = plans.filter(
    (p) => p.external_source === query.external_source && (query.external_rate_plan_id === undefined || p.external_rate_plan_id === query.external_rate_plan_id),
  );
  if (query.external_rate_plan_id !== undefined && !ofSource.length) {
    throw errors.unknownReference([{ path: 'external_rate_plan_id', message: `no rate plan ${query.external_rate_plan_id} of ${query.external_source} has been synced` }]);
  }
  const basePrices = new Map(categories.filter((c) => c.external_source === query.external_source).map((c) => [c.external_category_id, c.base_price ?? null]));
  const months = await getRateMonths(clientId, ofSource.map((p) => p.id), monthsOf(query.date_from, query.date_to));
  const dates = datesFrom(query.date_from, query.date_to);
  const rate_plans: Record<string, Record<string, RateDayView>> = {};
  for (const plan of ofSource.sort((a, b) => a.external_rate_plan_id.localeCompare(b.external_rate_plan_id))) {
    const dayAt = dayReader(months, plan.id);
    const base = basePrices.get(plan.external_category_id) ?? null;
    rate_plans[plan.external_rate_plan_id] = Object.fromEntries(dates.map((date) => [date, dayView(dayAt(date), base)]));
  }
  return { rate_plans };
}
