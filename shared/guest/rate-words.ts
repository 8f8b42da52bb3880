/** Rules of stay in words for guests (docs/behaviour.md "Rates and restrictions per date"). */
import type { Translate } from '../i18n/translator';

const RULES = ['min_stay_arrival', 'min_stay_through', 'max_stay', 'closed_to_arrival', 'closed_to_departure', 'stop_sell'] as const;

/**
 * A rule of stay that refuses a stay, in words for a guest (docs/behaviour.md "Rates and
 * restrictions per date"): "Stays arriving on Friday 4 December are at least 2 nights".
 */
export function rateRuleInWords(t: Translate, restriction: string, date: string, limit: number | boolean): string {
  const rule = (RULES as readonly string[]).includes(restriction) ? (restriction as (typeof RULES)[number]) : 'other';
  return t(`rule.${rule}`, { date: t.dayLong(date), nights: typeof limit === 'number' ? limit : 0 });
}
