/** Field rules of CONTRACT.md "Conventions", shared by every schema. */
import { z } from 'zod';

/** Ids, room numbers and references: 1 to 128 characters. */
export const identifier = z.string().min(1).max(128);
/** Any other string: at most 2,000 characters. */
export const text = z.string().max(2000);
/** Counts such as guests and max_occupancy. The upper bound keeps numbers storable. */
export const count = z.number().int().min(1).max(10_000);
/** Area A money: a decimal in the client's currency, not negative. */
export const money = z.number().min(0).max(1_000_000_000);
export const email = z.email().max(254);
/** E.164: a plus sign and up to 15 digits. */
export const phone = z.string().regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 phone number such as +14155550123');

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const calendarDate = z.string().refine(isCalendarDate, 'must be a real calendar date in YYYY-MM-DD form');

export const timestamp = z.iso.datetime({ offset: true });

/** Image entries: a URL string, or an object with at least a url. */
export const image = z.union([text, z.looseObject({ url: text, caption: text.optional() })]);
export const images = z.array(image).max(50);

export const MAX_STAY_NIGHTS = 365;

export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
