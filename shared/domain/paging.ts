/**
 * Pages of the operators' listings (audit, payment orders, deliveries): a `limit` and an opaque
 * `cursor`, DynamoDB's start key of the next page as base64url JSON. A cursor comes back from a
 * browser, so it is trusted only as far as the listing can rebuild it: the store rebuilds the key
 * it would itself have produced from the cursor's sort key (the caller's own partition, the table
 * key that index entry names) and anything else, such as a cursor naming another client's
 * partition, is 400 VALIDATION_ERROR at `cursor` before any query.
 */
import * as z from 'zod/mini';
import { errors } from '../errors';
import { zodDetails } from '../http/error-envelope';
import { onFirstUse } from '../schemas/on-first-use';
import type { PageKey } from '../store/batch';

/** The largest page; also the default. */
export const MAX_PAGE = 100;

/** Longer than any start key of this table's listings; longer input is refused before decoding. */
const MAX_CURSOR_LENGTH = 1024;

const pageInput = onFirstUse(() =>
  z.object({
    limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE))),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_CURSOR_LENGTH))),
  }),
);

/** 400 VALIDATION_ERROR with zod's issues, the message naming each path (as list-bookings answers). */
export function invalid(error: z.core.$ZodError): never {
  const details = zodDetails(error);
  throw errors.validation(details, details.map((d) => `${d.path}: ${d.message}`).join('; '));
}

export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

function refuseCursor(): never {
  throw errors.validation([{ path: 'cursor', message: 'is not a cursor of this list' }], 'cursor: is not a cursor of this list');
}

/** A cursor's key, when it is base64url JSON of string attributes; else undefined. */
function parseCursor(cursor: string): PageKey | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, v]) => typeof v === 'string') ? Object.fromEntries(entries as [string, string][]) : undefined;
}

const sameKey = (a: PageKey, b: PageKey) => {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && a[name] === b[name]);
};

/**
 * A page request checked: `limit` (1 to 100, default 100) and the start key its cursor names,
 * accepted only when `rebuild` (the store's own key for the cursor's sort key in the caller's
 * partition) gives exactly that key back.
 */
export function readPage(page: { limit?: number; cursor?: string }, rebuild: (key: PageKey) => PageKey | undefined): { limit: number; start?: PageKey } {
  const checked = pageInput().safeParse(page);
  if (!checked.success) invalid(checked.error);
  const { limit = MAX_PAGE, cursor } = checked.data;
  if (cursor === undefined) return { limit };
  const key = parseCursor(cursor);
  const expected = key && rebuild(key);
  if (!key || !expected || !sameKey(key, expected)) refuseCursor();
  return { limit, start: key };
}

/** The page answer's `next_cursor`: present only when another page follows. */
export function nextCursor(next: PageKey | undefined): { next_cursor?: string } {
  return next ? { next_cursor: encodeCursor(next) } : {};
}
