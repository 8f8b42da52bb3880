/** The fields of a plan's day (docs/behaviour.md "Rates and restrictions per date"): plain lists, no schema, so pricing code bundles without the request schemas. */

/** Weekdays as `days` names them, Monday first. */
export const WEEKDAYS = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The rules of stay, in the order the contract lists them (and blocked_by reports them within a date). */
export const RESTRICTIONS = ['min_stay_arrival', 'min_stay_through', 'max_stay', 'closed_to_arrival', 'closed_to_departure', 'stop_sell'] as const;
export type Restriction = (typeof RESTRICTIONS)[number];
/** Everything one update may set on a plan's day. */
export const RATE_FIELDS = ['price', ...RESTRICTIONS] as const;
export type RateField = (typeof RATE_FIELDS)[number];

/** What a plan's day may hold, every field optional (unset: the neutral rule, the base price). */
export interface RateValues {
  price?: number;
  min_stay_arrival?: number;
  min_stay_through?: number;
  max_stay?: number;
  closed_to_arrival?: boolean;
  closed_to_departure?: boolean;
  stop_sell?: boolean;
}
