/** Rules of stay in words for guests (docs/behaviour.md "Rates and restrictions per date"). */

/** A calendar date as a sentence says it: "Friday 4 December". */
export function formatDayLong(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`)).replace(',', '');
}

/**
 * A rule of stay that refuses a stay, in words for a guest (docs/behaviour.md "Rates and
 * restrictions per date"): "Stays arriving on Friday 4 December are at least 2 nights".
 */
export function rateRuleInWords(restriction: string, date: string, limit: number | boolean): string {
  const on = formatDayLong(date);
  const nights = typeof limit === 'number' ? `${limit} ${limit === 1 ? 'night' : 'nights'}` : '';
  switch (restriction) {
    case 'min_stay_arrival':
      return `Stays arriving on ${on} are at least ${nights}`;
    case 'min_stay_through':
      return `Stays that include the night of ${on} are at least ${nights}`;
    case 'max_stay':
      return `Stays arriving on ${on} are at most ${nights}`;
    case 'closed_to_arrival':
      return `No arrivals on ${on}`;
    case 'closed_to_departure':
      return `No departures on ${on}`;
    case 'stop_sell':
      return `The night of ${on} is not for sale`;
    default:
      return `Not available on ${on}`;
  }
}
