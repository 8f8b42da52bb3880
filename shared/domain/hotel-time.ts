/**
 * A hotel's own time. A hotel lives in its time zone (an IANA name, the client's `time_zone`):
 * its "today", "tonight", "in the past", arrivals, departures, occupancy nights, "paid today",
 * booking horizon and cancellation deadlines are local dates there, worked out with Intl's time
 * zone support (the zone rules Node ships). Instants stay UTC everywhere else.
 */
import { addDays } from '../schemas/common';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * Whether a name is a time zone a hotel can live in: `UTC`, or an IANA area/location name in its
 * own spelling (`Europe/London`, `America/Argentina/Buenos_Aires`, `Etc/GMT+5`) that Intl knows.
 * Offsets (`+02:00`), abbreviations and the old names without an area (`EST`, `EST5EDT`, `CET`:
 * fixed offsets or rules that are not a place's), other spellings (`europe/london`) and names
 * Intl does not know (`Mars/Olympus`) are not.
 */
export function isTimeZone(name: string): boolean {
  if (name !== 'UTC' && !/^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)+$/.test(name)) return false;
  if (name.length > 64) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock parts of an instant in a zone. */
function partsIn(timeZone: string, at: Date): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(at).map((p) => [p.type, p.value]));
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string>;
}

/** The hotel's calendar date (`YYYY-MM-DD`) at an instant: its "today". */
export function localDate(timeZone: string, at: Date): string {
  const p = partsIn(timeZone, at);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The hotel's wall-clock time (`HH:MM`) at an instant. */
export function localTime(timeZone: string, at: Date): string {
  const p = partsIn(timeZone, at);
  return `${p.hour}:${p.minute}`;
}

/** `2026-11-23 09:10` in the hotel's zone: how the dashboard shows an instant to its staff. */
export function localDateTime(timeZone: string, at: Date | string): string {
  const instant = typeof at === 'string' ? new Date(at) : at;
  return `${localDate(timeZone, instant)} ${localTime(timeZone, instant)}`;
}

/** The offset of a zone from UTC at an instant, in minutes (New York in winter: -300). */
function offsetMinutes(timeZone: string, at: Date): number {
  const p = partsIn(timeZone, at);
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** How far the search for the first moment of a local day moves at a time. */
const MINUTE = 60_000;

/**
 * The instant a local date begins in the hotel's zone: its first moment. That is midnight, or,
 * where clocks skip midnight (Santiago, Havana, Beirut on their spring days), the end of the gap;
 * where clocks go back across midnight (Amman in autumn before 2022), the first of the two
 * midnights. A date the zone skipped altogether (Pacific/Apia's 2011-12-30) begins and ends when
 * the next one begins. The end of a local day is the start of the next.
 */
export function startOfLocalDate(timeZone: string, date: string): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  // Two passes settle the offset across a change that falls near midnight.
  let guess = midnightUtc - offsetMinutes(timeZone, new Date(midnightUtc)) * MINUTE;
  guess = midnightUtc - offsetMinutes(timeZone, new Date(guess)) * MINUTE;
  const dateAt = (instant: number) => localDate(timeZone, new Date(instant));
  // Clocks that skip midnight: the day begins when the gap ends, after `guess`.
  while (dateAt(guess) < date) guess += MINUTE;
  // Clocks that go back across midnight: the day began at the first midnight, before `guess`.
  while (dateAt(guess - MINUTE) >= date) guess -= MINUTE;
  return new Date(guess);
}

/** The instants of one local day, `[start, end)`: "paid today" and the like. */
export function localDayBounds(timeZone: string, date: string): { start: Date; end: Date } {
  return { start: startOfLocalDate(timeZone, date), end: startOfLocalDate(timeZone, addDays(date, 1)) };
}

/** A hotel's clock: today and the dates around it, in its zone. */
export interface HotelClock {
  timeZone: string;
  /** The hotel's date now. */
  today: string;
  /** Whether a date is before the hotel's today. */
  isPast(date: string): boolean;
}

export function hotelClock(timeZone: string, now: Date): HotelClock {
  const today = localDate(timeZone, now);
  return { timeZone, today, isPast: (date) => date < today };
}
