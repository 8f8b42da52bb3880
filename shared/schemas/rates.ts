/**
 * Request schemas of rate plans and of prices and restrictions per date (docs/behaviour.md "Rates
 * and restrictions per date"). What depends on the hotel's today (a range in the past, the 730-day
 * horizon) and on stored plans is checked by the use case (shared/domain/rates/push-rates.ts).
 */
import * as z from 'zod/mini';
import { MAX_SYNC_ITEMS } from '../config';
import { calendarDate, identifier, isCalendarDate, nightsBetween, text, withinItemSize } from './common';
import { RATE_FIELDS, WEEKDAYS } from './rate-fields';

export { RATE_FIELDS, type RateField, type Restriction, RESTRICTIONS, type Weekday, WEEKDAYS } from './rate-fields';

/** Stays are whole nights: at most a year. */
export const MAX_RULE_NIGHTS = 365;
export const MAX_UPDATES = MAX_SYNC_ITEMS;
export const MAX_PLAN_DAYS = 20_000;
/** How far ahead a hotel may price: days after its today. */
export const RATE_HORIZON_DAYS = 730;
/** GET rates: at most this many dates, both ends included. */
export const MAX_READ_DAYS = 366;

const nights = (min: number) => z.number().check(z.int(), z.minimum(min), z.maximum(MAX_RULE_NIGHTS));
/** A night's price: a decimal in the client's currency, above 0. */
const nightPrice = z.number().check(z.gt(0), z.maximum(1_000_000_000));

export const ratePlanInput = z.object({
  external_rate_plan_id: identifier,
  external_category_id: identifier,
  name: text.check(z.minLength(1)),
  description: z.optional(text),
  active: z.optional(z.boolean()),
});

export const rateUpdateInput = z
  .object({
    external_rate_plan_id: identifier,
    date: z.optional(calendarDate),
    date_from: z.optional(calendarDate),
    date_to: z.optional(calendarDate),
    days: z.optional(z.array(z.enum(WEEKDAYS)).check(z.minLength(1), z.maxLength(7))),
    price: z.optional(nightPrice),
    min_stay_arrival: z.optional(nights(1)),
    min_stay_through: z.optional(nights(1)),
    max_stay: z.optional(nights(0)),
    closed_to_arrival: z.optional(z.boolean()),
    closed_to_departure: z.optional(z.boolean()),
    stop_sell: z.optional(z.boolean()),
  })
  .check(
    z.superRefine((update, ctx) => {
      const hasRange = update.date_from !== undefined || update.date_to !== undefined;
      if (update.date !== undefined && hasRange) {
        ctx.addIssue({ code: 'custom', path: ['date'], message: 'give either date or date_from and date_to, not both' });
      } else if (update.date === undefined && !hasRange) {
        ctx.addIssue({ code: 'custom', path: ['date'], message: 'give date, or date_from and date_to' });
      } else if (hasRange) {
        if (update.date_from === undefined) ctx.addIssue({ code: 'custom', path: ['date_from'], message: 'date_to needs date_from' });
        if (update.date_to === undefined) ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'date_from needs date_to' });
        const { date_from: from, date_to: to } = update;
        if (from && to && isCalendarDate(from) && isCalendarDate(to) && nightsBetween(from, to) < 0) {
          ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'must not be before date_from' });
        }
      }
      if (!RATE_FIELDS.some((field) => update[field] !== undefined)) {
        ctx.addIssue({ code: 'custom', path: [], message: `set at least one of ${RATE_FIELDS.join(', ')}` });
      }
      const max = update.max_stay;
      if (typeof max === 'number' && max > 0) {
        for (const field of ['min_stay_arrival', 'min_stay_through'] as const) {
          const min = update[field];
          if (typeof min === 'number' && min > max) ctx.addIssue({ code: 'custom', path: [field], message: `must not be above max_stay (${max})` });
        }
      }
    }),
  );

export const putRatePlansBody = z.object({
  external_source: identifier,
  rate_plans: z.array(withinItemSize(ratePlanInput)).check(z.maxLength(MAX_SYNC_ITEMS)),
});

export const putRatesBody = z.object({
  external_source: identifier,
  /** The client's own order of changes (a change-log id): a higher one is never overwritten by a lower one. */
  sequence: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
  updates: z.array(rateUpdateInput).check(z.maxLength(MAX_UPDATES)),
});

/**
 * What the handler checks of PUT rates: the envelope, and the number of updates (TOO_MANY_ITEMS).
 * Each update is checked by the use case beside the rules that need the hotel's today, so every
 * problem of the request is answered at once (shared/domain/rates/push-rates.ts).
 */
export const putRatesEnvelope = z.object({
  external_source: identifier,
  sequence: putRatesBody.shape.sequence,
  updates: z.array(z.unknown()).check(z.maxLength(MAX_UPDATES)),
});

export const ratesQuery = z
  .object({
    external_source: identifier,
    external_rate_plan_id: z.optional(identifier),
    date_from: calendarDate,
    date_to: calendarDate,
  })
  .check(
    z.superRefine((query, ctx) => {
      if (!isCalendarDate(query.date_from) || !isCalendarDate(query.date_to)) return;
      const days = nightsBetween(query.date_from, query.date_to) + 1;
      if (days < 1) ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'must not be before date_from' });
      else if (days > MAX_READ_DAYS) ctx.addIssue({ code: 'custom', path: ['date_to'], message: `a range is at most ${MAX_READ_DAYS} days` });
    }),
  );

export type RatePlanInput = z.infer<typeof ratePlanInput>;
export type RateUpdateInput = z.infer<typeof rateUpdateInput>;
export type PutRatePlansBody = z.infer<typeof putRatePlansBody>;
export type PutRatesBody = z.infer<typeof putRatesBody>;
export type PutRatesEnvelope = z.infer<typeof putRatesEnvelope>;
export type RatesQuery = z.infer<typeof ratesQuery>;
