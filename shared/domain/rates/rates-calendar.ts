/**
 * The dashboard's Rates calendar and `ops rates show`: every plan of the client by category, each
 * night of a window with its price (pushed or the base price) and rules, and who set it last.
 */
import { addDays } from '../../schemas/common';
import { listCategories } from '../../store/category-store';
import { getRateMonths, listRatePlans } from '../../store/rate-store';
import { datesFrom, monthsOf } from './rate-days';
import { dayView, type RateDayView } from './read-rates';
import { dayReader } from './stay-rates';

export interface CalendarPlan {
  external_source: string;
  external_rate_plan_id: string;
  name: string;
  active: boolean;
  /** One a night of the window: as it applies, and who set it (`sync`: the PMS; `operator`: here or the CLI; absent: nobody). */
  nights: (RateDayView & { date: string; set_by?: 'sync' | 'operator' })[];
}

export interface RatesCalendar {
  dates: string[];
  categories: { external_source: string; external_category_id: string; name: string; plans: CalendarPlan[] }[];
}

export async function ratesCalendar(clientId: string, from: string, nights: number): Promise<RatesCalendar> {
  const to = addDays(from, nights - 1);
  const [plans, categories] = await Promise.all([listRatePlans(clientId), listCategories(clientId)]);
  const months = await getRateMonths(clientId, plans.map((p) => p.id), monthsOf(from, to));
  const dates = datesFrom(from, to);
  const byCategory = new Map<string, RatesCalendar['categories'][number]>();
  const sorted = [...plans].sort((a, b) => a.external_source.localeCompare(b.external_source) || a.external_category_id.localeCompare(b.external_category_id) || a.name.localeCompare(b.name));
  for (const plan of sorted) {
    const category = categories.find((c) => c.external_source === plan.external_source && c.external_category_id === plan.external_category_id);
    const key = `${plan.external_source}\u0000${plan.external_category_id}`;
    const row = byCategory.get(key) ?? { external_source: plan.external_source, external_category_id: plan.external_category_id, name: category?.name ?? plan.external_category_id, plans: [] };
    const dayAt = dayReader(months, plan.id);
    row.plans.push({
      external_source: plan.external_source,
      external_rate_plan_id: plan.external_rate_plan_id,
      name: plan.name,
      active: plan.active,
      nights: dates.map((date) => {
        const stored = dayAt(date);
        return { date, ...dayView(stored, category?.base_price ?? null), ...(stored?.by ? { set_by: stored.by } : {}) };
      }),
    });
    byCategory.set(key, row);
  }
  return { dates, categories: [...byCategory.values()] };
}
