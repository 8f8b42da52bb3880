/**
 * Field rules of docs/behaviour.md "Conventions", shared by every schema.
 *
 * Every schema of shared/schemas is written with zod/mini: the same parser, issues and messages
 * as classic zod, in about 30 KB of a function's bundle instead of 445 KB (classic zod's schema
 * classes carry every method, so nothing of it can be tree-shaken). The OpenAPI generator gets
 * classic equivalents of them (shared/openapi/classic.ts).
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';

// zod/mini loads no locale (every message would be "Invalid input"); the API answers zod's English messages.
z.config(en());

/** Ids, room numbers and references: 1 to 128 characters. */
export const identifier = z.string().check(z.minLength(1), z.maxLength(128));
/** Any other string: at most 2,000 characters. */
export const text = z.string().check(z.maxLength(2000));
/**
 * What is wrong with a guest's name, if anything (docs/reliability.md "Only the guest holds a guest's
 * booking"): names are copied into e-mails the hotel sends, so none carries a control character
 * (line breaks included) or a web address.
 */
export function guestNameProblem(name: string): string | undefined {
  if (/[\p{Cc}\u2028\u2029]/u.test(name)) return 'must not contain line breaks or other control characters';
  if (/https?:\/\/|www\./i.test(name)) return 'must not contain a web address (http://, https://, www.)';
  return undefined;
}
/** A guest's name, on every API that takes one: 1 to 2,000 characters, none a control character, no web address. */
export const guestName = text.check(
  z.minLength(1),
  z.superRefine((name, ctx) => {
    const problem = guestNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: name });
  }),
);
/** Counts such as guests and max_occupancy. The upper bound keeps numbers storable. */
export const count = z.number().check(z.int(), z.minimum(1), z.maximum(10_000));
/**
 * Area A money: a decimal in the client's currency, not negative. A positive amount below
 * 1e-130 is refused: DynamoDB cannot store it (Number underflow), so it would fail on write.
 */
export const money = z.number().check(
  z.minimum(0),
  z.maximum(1_000_000_000),
  z.refine((v) => !(v > 0 && v < 1e-130), 'must be 0 or at least 1e-130'),
);
export const email = z.email().check(z.maxLength(254));
/** E.164: a plus sign and up to 15 digits. */
export const phone = z.string().check(z.regex(/^\+[1-9]\d{1,14}$/, 'must be an E.164 phone number such as +14155550123'));

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const calendarDate = z.string().check(z.refine(isCalendarDate, 'must be a real calendar date in YYYY-MM-DD form'));

export const timestamp = z.iso.datetime({ offset: true });

/**
 * Image entries: a URL string, or an object with a url and an optional caption. Unknown fields
 * of an image object are dropped like any other unknown field: kept, they could nest deeper, hold
 * numbers or names the table cannot store.
 */
export const image = z.union([text, z.object({ url: text, caption: z.optional(text) })]);
export const images = z.array(image).check(z.maxLength(50));

/**
 * One synced item (category, room, booking, check-in record) as JSON: at most 256 KiB. The field
 * limits alone allow more (100 amenities and 50 images of 2,000 characters), and a stored record
 * must stay under DynamoDB's 400 KB item size.
 */
export const MAX_ITEM_BYTES = 256 * 1024;

export function withinItemSize<T extends z.ZodMiniType>(item: T): T {
  return item.check(
    z.superRefine((value, ctx) => {
      if (Buffer.byteLength(JSON.stringify(value), 'utf8') > MAX_ITEM_BYTES) {
        ctx.addIssue({ code: 'custom', path: [], message: `an item is at most ${MAX_ITEM_BYTES / 1024} KiB of JSON` });
      }
    }),
  );
}

export const MAX_STAY_NIGHTS = 365;

export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
