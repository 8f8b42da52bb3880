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

/** Whether Intl knows this zone name ("Europe/London", "UTC"); offsets and abbreviations are not zones. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
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

/**
 * The instant a local date begins in the hotel's zone (its first moment: midnight, or the first
 * minute after a gap where clocks skip midnight). The end of a local day is the start of the next.
 */
export function startOfLocalDate(timeZone: string, date: string): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  // Two passes settle the offset across a change that falls near midnight.
  let guess = midnightUtc - offsetMinutes(timeZone, new Date(midnightUtc)) * 60_000;
  guess = midnightUtc - offsetMinutes(timeZone, new Date(guess)) * 60_000;
  // Clocks that skip midnight: the day begins when the gap ends, which is after `guess`.
  if (localDate(timeZone, new Date(guess)) < date) {
    while (localDate(timeZone, new Date(guess)) < date) guess += 15 * 60_000;
  }
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
