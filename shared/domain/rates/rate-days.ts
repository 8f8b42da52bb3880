/**
 * The rules of docs/behaviour.md "Rates and restrictions per date" as plain functions over stored
 * days: which dates an update covers, what a push does to a month (deltas, last wins, sequences),
 * and whether a stay is bookable on a plan and at what price. No I/O: the use cases read and write.
 */
import { addDays, nightsBetween } from '../../schemas/common';
import { RATE_FIELDS, type RateField, type Restriction, RESTRICTIONS, type Weekday, WEEKDAYS } from '../../schemas/rate-fields';
import type { StoredRateDay } from '../../store/rate-store';

export type DayValues = Partial<Pick<StoredRateDay, RateField>>;

/** `YYYY-MM` and `DD` of a date. */
export const monthOf = (date: string) => date.slice(0, 7);
export const dayOf = (date: string) => date.slice(8, 10);

/** Monday-first weekday name of a date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}

/** Every date from `from` to `to`, both included. */
export function datesFrom(from: string, to: string): string[] {
  const count = nightsBetween(from, to) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(from, i));
}

/** The months (`YYYY-MM`) a range of dates touches, in order. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = monthOf(from); month <= monthOf(to); ) {
    months.push(month);
    const [y, m] = month.split('-').map(Number) as [number, number];
    month = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
  }
  return months;
}

/** The values an update sets (its fields that are given). */
export function valuesOf(update: DayValues): DayValues {
  const values: DayValues = {};
  for (const field of RATE_FIELDS) if (update[field] !== undefined) (values as Record<string, unknown>)[field] = update[field];
  return values;
}

const sameValues = (a: DayValues, b: DayValues) => RATE_FIELDS.every((field) => a[field] === b[field]);
const sameSeq = (a: StoredRateDay['seq'], b: StoredRateDay['seq']) => {
  const ka = Object.keys(a ?? {});
  return ka.length === Object.keys(b ?? {}).length && ka.every((k) => a![k] === b?.[k]);
};

/** One update's values for one day of a month, in request order. */
export interface DayEdit {
  day: string;
  values: DayValues;
}

export type DayOutcome = 'changed' | 'unchanged' | 'stale';

export interface MonthOutcome {
  days: Record<string, StoredRateDay>;
  /** The item differs from the one stored (a value, a sequence): it must be written. */
  dirty: boolean;
  counts: Record<DayOutcome, number>;
}

/**
 * A month after a push: each edit in order sets its fields on its day (a field left out is left
 * as it is; a later edit wins). With a `sequence`, a field last set with a higher one keeps its
 * value (stale). A day is counted by its values after the whole push: changed, else stale when a
 * different value was refused for its sequence, else unchanged.
 */
export function applyEdits(stored: Record<string, StoredRateDay>, edits: readonly DayEdit[], sequence: number | undefined, by: 'sync' | 'operator'): MonthOutcome {
  const days: Record<string, StoredRateDay> = structuredClone(stored);
  const stale = new Set<string>();
  const touched = new Set<string>();
  for (const { day, values } of edits) {
    touched.add(day);
    const current: StoredRateDay = (days[day] ??= {});
    for (const field of RATE_FIELDS) {
      const value = values[field];
      if (value === undefined) continue;
      const storedSeq = current.seq?.[field];
      if (sequence !== undefined && storedSeq !== undefined && sequence < storedSeq) {
        if (current[field] !== value) stale.add(day);
        continue;
      }
      (current as Record<string, unknown>)[field] = value;
      if (sequence !== undefined) current.seq = { ...current.seq, [field]: sequence };
    }
  }
  const counts: Record<DayOutcome, number> = { changed: 0, unchanged: 0, stale: 0 };
  let dirty = false;
  for (const day of touched) {
    const before = stored[day] ?? {};
    const after = days[day]!;
    const changed = !sameValues(before, after);
    if (changed) after.by = by;
    else if (before.by) after.by = before.by;
    else delete after.by;
    if (!after.seq) delete after.seq;
    counts[changed ? 'changed' : stale.has(day) ? 'stale' : 'unchanged']++;
    if (changed || !sameSeq(before.seq, after.seq)) dirty = true;
    if (!Object.keys(after).length) delete days[day];
  }
  return { days, dirty, counts };
}

/** A day's rules as they apply: unset ones at their neutral value. */
export interface EffectiveDay {
  price: number | undefined;
  min_stay_arrival: number;
  min_stay_through: number;
  max_stay: number;
  closed_to_arrival: boolean;
  closed_to_departure: boolean;
  stop_sell: boolean;
}

export function effectiveDay(day: StoredRateDay | undefined): EffectiveDay {
  return {
    price: day?.price,
    min_stay_arrival: day?.min_stay_arrival ?? 1,
    min_stay_through: day?.min_stay_through ?? 1,
    max_stay: day?.max_stay ?? 0,
    closed_to_arrival: day?.closed_to_arrival ?? false,
    closed_to_departure: day?.closed_to_departure ?? false,
    stop_sell: day?.stop_sell ?? false,
  };
}

export interface StayOnPlan {
  bookable: boolean;
  total: number;
  nights: { date: string; price: number }[];
  blocked_by: { date: string; restriction: Restriction }[];
}

/** A stay on a plan with the value of each refusing rule (its minimum or maximum stay, true for a closure), for words to people. */
export interface StayOnPlanWithLimits extends StayOnPlan {
  limits: (number | boolean)[];
}

/** Sums of decimal prices without binary noise (89.9 + 89.9 is 179.8). */
export const roundMoney = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * A stay of nights [checkIn, checkOut) on one plan: each night's price (pushed, else `fallback`:
 * the category's base price, then the room's), and every rule that refuses it, by date and then in
 * the contract's order of the rules.
 */
export function stayOnPlan(dayAt: (date: string) => StoredRateDay | undefined, checkIn: string, checkOut: string, fallback: number): StayOnPlanWithLimits {
  const length = nightsBetween(checkIn, checkOut);
  const nights: StayOnPlan['nights'] = [];
  const blocked: StayOnPlan['blocked_by'] = [];
  const limits: (number | boolean)[] = [];
  for (const date of datesFrom(checkIn, checkOut)) {
    const day = effectiveDay(dayAt(date));
    const isNight = date < checkOut;
    if (isNight) nights.push({ date, price: day.price ?? fallback });
    const refuses: Record<Restriction, boolean> = {
      min_stay_arrival: date === checkIn && length < day.min_stay_arrival,
      min_stay_through: isNight && length < day.min_stay_through,
      max_stay: date === checkIn && day.max_stay > 0 && length > day.max_stay,
      closed_to_arrival: date === checkIn && day.closed_to_arrival,
      closed_to_departure: date === checkOut && day.closed_to_departure,
      stop_sell: isNight && day.stop_sell,
    };
    for (const restriction of RESTRICTIONS) {
      if (!refuses[restriction]) continue;
      blocked.push({ date, restriction });
      limits.push(day[restriction]);
    }
  }
  return { bookable: blocked.length === 0, total: roundMoney(nights.reduce((sum, n) => sum + n.price, 0)), nights, blocked_by: blocked, limits };
}
