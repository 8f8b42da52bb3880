/**
 * Bookings' search entries (docs/data-model.md, "Finding a booking"): small items naming a booking
 * by a term it is found by, written with the booking (in its transaction, or just before its
 * single-item write), so a search reads a few entries of one term however long the client's
 * history is.
 *
 * Kinds, each in partitions of its own (`SEARCH#<client>#<kind>#<shard>`):
 * - `N`: each word of the guest's name, folded (lower case, no accents), found by its start;
 * - `E`: the guest's e-mail, folded, found by its start;
 * - `K`: the booking reference, confirmation code, external booking id and payment order reference,
 *   folded, found whole;
 * - `R`: the room the booking holds, by room id (a renumbered room keeps its entries).
 * Words and e-mails are sharded by their first character (a prefix names it), whole keys and rooms
 * by a hash of the term. Whenever a booking exists, the entries of its terms exist; an entry of a
 * term the booking no longer has may be left behind (a write that lost its race, a failed
 * delete), and a search checks each booking it finds against the booking itself, so an old
 * entry never shows a wrong result.
 */
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../observability';
import { batchGet, batchPut } from './batch';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import type { BookingRecord } from './booking-store';
import type { TransactItem } from './transactions';

export type SearchKind = 'N' | 'E' | 'K' | 'R';

/** The most words of a name a booking is found by, and the longest term kept. */
const MAX_NAME_WORDS = 8;
const MAX_TERM_LENGTH = 100;
const HASH_SHARDS = 16;

/** Lower case without accents or other marks: "Zoë Ångström" and "zoe angstrom" are one. */
export function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** A term as entries keep it: folded, trimmed, at most MAX_TERM_LENGTH characters. */
export function searchTerm(text: string): string {
  return Array.from(folded(text).trim()).slice(0, MAX_TERM_LENGTH).join('');
}

/** The words of a name, folded: letters and digits, apostrophes dropped ("O'Brien" is "obrien"). */
export function nameWords(text: string): string[] {
  const words = folded(text)
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(searchTerm);
  return [...new Set(words)];
}

/** The keys a booking is found by whole: folded (references are typed in either case). */
export function bookingKeys(booking: Pick<BookingRecord, 'booking_reference' | 'confirmation_code' | 'external_booking_id' | 'payment_order_reference'>): string[] {
  const values = [booking.booking_reference, booking.confirmation_code, booking.external_booking_id, booking.payment_order_reference];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map(searchTerm))];
}

function hashShard(term: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 0x01000193);
  return String((hash >>> 0) % HASH_SHARDS);
}

/** The shard of a term: its first character for the kinds found by a prefix, else a hash of it. */
function shardOf(kind: SearchKind, term: string): string {
  return kind === 'N' || kind === 'E' ? Array.from(term)[0]! : hashShard(term);
}

interface Entry {
  kind: SearchKind;
  term: string;
}

/** Every term a booking is found by. */
function entriesOf(booking: BookingRecord): Entry[] {
  const entries: Entry[] = nameWords(booking.guest_name ?? '')
    .slice(0, MAX_NAME_WORDS)
    .map((term) => ({ kind: 'N', term }));
  if (booking.guest_email?.trim()) entries.push({ kind: 'E', term: searchTerm(booking.guest_email) });
  entries.push(...bookingKeys(booking).map((term): Entry => ({ kind: 'K', term })));
  if (booking.room_id) entries.push({ kind: 'R', term: booking.room_id });
  return entries;
}

function entryKeys(clientId: string, booking: BookingRecord | undefined): Map<string, { pk: string; sk: string }> {
  const found = new Map<string, { pk: string; sk: string }>();
  if (!booking) return found;
  for (const { kind, term } of entriesOf(booking)) {
    const key = keys.bookingSearch(clientId, kind, shardOf(kind, term), term, booking.check_in_date, booking.id);
    found.set(`${key.pk}\u0000${key.sk}`, key);
  }
  return found;
}

type EntryKey = { pk: string; sk: string };

/** The entries a booking gains and loses from `previous` (undefined: a new booking) to `next`. */
export function searchEntryChanges(clientId: string, previous: BookingRecord | undefined, next: BookingRecord): { added: EntryKey[]; removed: EntryKey[] } {
  const before = entryKeys(clientId, previous);
  const after = entryKeys(clientId, next);
  return {
    added: [...after].filter(([id]) => !before.has(id)).map(([, key]) => key),
    removed: [...before].filter(([id]) => !after.has(id)).map(([, key]) => key),
  };
}

const entryItem = (key: EntryKey, bookingId: string) => ({ ...key, entity: 'booking_search', booking_id: bookingId });

/**
 * The writes that bring a booking's search entries from `previous` to `next`, for the booking's
 * own transaction (service bookings, a room given): a Put of each new entry and a Delete of each
 * one gone. None when the terms and the check-in are unchanged.
 */
export function searchEntryWrites(clientId: string, previous: BookingRecord | undefined, next: BookingRecord): TransactItem[] {
  const { added, removed } = searchEntryChanges(clientId, previous, next);
  return [...added.map((key): TransactItem => ({ Put: { TableName: TABLE, Item: entryItem(key, next.id) } })), ...removed.map((key): TransactItem => ({ Delete: { TableName: TABLE, Key: key } }))];
}

/**
 * Puts a booking's new entries before its single-item write (synced bookings, whose writers race
 * by conditional writes of the booking alone): a booking never exists without the entries of its
 * terms. A put whose booking write then loses leaves an entry the search skips.
 */
export async function putSearchEntries(bookingId: string, added: readonly EntryKey[]): Promise<void> {
  if (added.length) await batchPut(added.map((key) => entryItem(key, bookingId)));
}

/**
 * Deletes the entries a booking lost, after its write. One that cannot be deleted now stays
 * behind, which the search skips: the booking's write stands either way.
 */
export async function deleteSearchEntries(removed: readonly EntryKey[]): Promise<void> {
  let pending = removed.map((key) => ({ DeleteRequest: { Key: key } }));
  try {
    // At most 28 entries change in one write: two requests of 25 at most, and their retries.
    for (let attempt = 0; pending.length && attempt < 5; attempt++) {
      const chunk = pending.slice(0, 25);
      const response = await db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: chunk } }));
      pending = [...((response.UnprocessedItems?.[TABLE] as typeof pending | undefined) ?? []), ...pending.slice(25)];
    }
  } catch (error) {
    logger.warn('search entries of a changed booking were left behind', { entries: pending.length, error: error as Error });
  }
}

/** Every search entry of a booking as items, for a reindex (shared/store/booking-index-store.ts). */
export function searchEntryItems(clientId: string, booking: BookingRecord): Record<string, string>[] {
  return [...entryKeys(clientId, booking).values()].map((key) => entryItem(key, booking.id));
}

/**
 * The bookings of at most `limit` entries of a term, newest check-in first within a term: the term
 * whole (`exact`) or every term it starts (`prefix`), and whether more entries follow.
 */
export async function findSearchEntries(
  clientId: string,
  kind: SearchKind,
  term: string,
  options: { match: 'exact' | 'prefix'; limit: number },
): Promise<{ bookingIds: string[]; more: boolean }> {
  if (!term) return { bookingIds: [], more: false };
  const result = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :term)',
      ExpressionAttributeValues: { ':pk': keys.bookingSearchPartition(clientId, kind, shardOf(kind, term)), ':term': options.match === 'exact' ? `${term}#` : term },
      ProjectionExpression: 'sk',
      ScanIndexForward: false,
      Limit: options.limit + 1,
      ConsistentRead: true,
    }),
  );
  const items = result.Items ?? [];
  return { bookingIds: items.slice(0, options.limit).map((item) => keys.bookingSearchEntryId(item.sk as string)), more: items.length > options.limit };
}

/** The ids of the client's rooms with these numbers (their number guards), those that exist. */
export async function roomIdsByNumber(clientId: string, roomNumbers: readonly string[]): Promise<string[]> {
  const wanted = [...new Set(roomNumbers.filter((n) => n !== ''))];
  if (wanted.length === 0) return [];
  return (await batchGet(wanted.map((n) => keys.roomNumber(clientId, n)))).map((item) => item.room_id as string);
}
