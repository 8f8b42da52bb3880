/**
 * A client's bookings in check-in order (gsi3, docs/data-model.md pattern 23): every booking item
 * carries `gsi3pk = CLIENT#<client>#BOOKINGS`, `gsi3sk = <check-in>#<booking id>`, whatever its
 * state, so the Bookings list pages through them by key, stable across pages, and a page reads its
 * own size. And the reindex that gives bookings written by versions before this index its
 * attributes and their search entries (shared/store/search-store.ts).
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { addDays, MAX_STAY_NIGHTS, nightsBetween } from '../schemas/common';
import { batchPut, mapConcurrent, queryPage, tableItemsOf } from './batch';
import { db, TABLE } from './dynamo';
import { fromItem, isConditionFailure } from './items';
import { keys, SHORT_STAY_NIGHTS } from './keys';
import { bookingFilterExpression } from './booking-filter';
import type { BookingFilter, BookingRecord } from './booking-store';
import { searchEntryItems } from './search-store';

/** The check-in index attributes of a booking item (every booking has them). */
export function checkInIndex(clientId: string, booking: Pick<BookingRecord, 'id' | 'check_in_date'>) {
  return { gsi3pk: keys.bookingsByCheckIn(clientId), gsi3sk: keys.bookingCheckInSortKey(booking.check_in_date, booking.id) };
}

/** The nights index attributes of a booking item (every booking has them): the reports' reads (docs/data-model.md pattern 50). */
export function nightsIndex(clientId: string, booking: Pick<BookingRecord, 'id' | 'check_in_date' | 'check_out_date'>) {
  const length = nightsBetween(booking.check_in_date, booking.check_out_date) <= SHORT_STAY_NIGHTS ? 'short' : 'long';
  return { gsi4pk: keys.bookingNights(clientId, length), gsi4sk: keys.bookingNightsSortKey(booking.check_in_date, booking.check_out_date, booking.id) };
}

/** Every booking's own index attributes: its place in check-in order and by its nights. */
export function everyBookingIndex(clientId: string, booking: Pick<BookingRecord, 'id' | 'check_in_date' | 'check_out_date'>) {
  return { ...checkInIndex(clientId, booking), ...nightsIndex(clientId, booking) };
}

export const CHECK_IN_INDEX_ATTRIBUTES = ['gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk'] as const;

/** Where a page of the list ends: the next one starts after this booking. */
export interface CheckInPosition {
  checkInDate: string;
  bookingId: string;
}

function matches(booking: BookingRecord, filter: BookingFilter): boolean {
  return (
    (filter.from === undefined || booking.check_out_date > filter.from) &&
    (filter.to === undefined || booking.check_in_date <= filter.to) &&
    (filter.status === undefined || booking.status === filter.status) &&
    (filter.origin === undefined || booking.origin === filter.origin)
  );
}

/**
 * At most `limit` of a client's bookings matching the filter, in check-in order (then booking id),
 * after `after`, and where the next page starts when another follows. The index's key range keeps
 * `to` (check-in on or before it) and, as no stay is longer than MAX_STAY_NIGHTS, the check-ins
 * that can reach `from`; the projected check-out, status and origin filter the rest. Each booking
 * is then read from the table (consistent) and checked again: one changed since the index entry
 * was read is left out.
 */
export async function listBookingsByCheckIn(
  clientId: string,
  filter: BookingFilter,
  page: { limit: number; after?: CheckInPosition },
): Promise<{ bookings: BookingRecord[]; continueAfter?: CheckInPosition }> {
  const lowest = filter.from === undefined ? undefined : addDays(filter.from, -MAX_STAY_NIGHTS);
  const highest = filter.to === undefined ? undefined : `${filter.to}#~`;
  const range =
    lowest !== undefined && highest !== undefined ? ' AND gsi3sk BETWEEN :lowest AND :highest' : lowest !== undefined ? ' AND gsi3sk >= :lowest' : highest !== undefined ? ' AND gsi3sk <= :highest' : '';
  const { values: filterValues, ...expression } = bookingFilterExpression(filter, { to: false });
  const values: Record<string, string> = { ':pk': keys.bookingsByCheckIn(clientId), ...filterValues };
  if (lowest !== undefined) values[':lowest'] = lowest;
  if (highest !== undefined) values[':highest'] = highest;
  const start = page.after && {
    ...keys.booking(clientId, page.after.bookingId),
    ...checkInIndex(clientId, { id: page.after.bookingId, check_in_date: page.after.checkInDate }),
  };
  const { items, next } = await queryPage(
    {
      IndexName: 'gsi3',
      KeyConditionExpression: `gsi3pk = :pk${range}`,
      ...expression,
      ExpressionAttributeValues: values,
    },
    { limit: page.limit, start },
  );
  const bookings = (await tableItemsOf(items)).map((item) => fromItem<BookingRecord>(item)).filter((b) => matches(b, filter));
  return { bookings, ...(next ? { continueAfter: keys.bookingCheckInEntry(next.gsi3sk!) } : {}) };
}

const REINDEX_CONCURRENCY = 8;

/**
 * Gives one booking item its check-in index attributes, if it still is as read, and puts its
 * search entries with them. A booking written since by this version has both already: then its
 * entries are put again as they now are (a put of an entry that exists changes nothing).
 */
async function reindexBooking(clientId: string, item: Record<string, unknown>): Promise<boolean> {
  const booking = fromItem<BookingRecord>(item);
  const entries = searchEntryItems(clientId, booking);
  const index = everyBookingIndex(clientId, booking);
  if (item.gsi3pk === index.gsi3pk && item.gsi3sk === index.gsi3sk && item.gsi4pk === index.gsi4pk && item.gsi4sk === index.gsi4sk) {
    await batchPut(entries);
    return false;
  }
  const update = {
    TableName: TABLE,
    Key: keys.booking(clientId, booking.id),
    UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk, gsi4pk = :nightsPk, gsi4sk = :nightsSk',
    ConditionExpression: 'updated_at = :read',
    ExpressionAttributeValues: { ':pk': index.gsi3pk, ':sk': index.gsi3sk, ':nightsPk': index.gsi4pk, ':nightsSk': index.gsi4sk, ':read': booking.updated_at },
  };
  try {
    // At most 14 entries a booking: one transaction with the update.
    await db.send(new TransactWriteCommand({ TransactItems: [{ Update: update }, ...entries.map((Item) => ({ Put: { TableName: TABLE, Item } }))] }));
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Changed since it was read: read it again and decide again.
    const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: update.Key, ConsistentRead: true }));
    return Item ? reindexBooking(clientId, Item) : false;
  }
}

/**
 * Every booking of a client on the check-in index with its search entries: the bookings of the
 * client partition a page of 100 at a time (a Query, never a Scan), each booking without its index
 * attributes given them (and its entries) in one transaction, each one with them given its entries
 * again. Safe to repeat and to run while the service writes bookings. `unindexedOnly`: leave the
 * bookings that have the index attributes alone (the local stack at start: its data was written
 * by a version before the index, or by this one, which writes both).
 */
export async function reindexClientBookings(clientId: string, options: { unindexedOnly?: boolean } = {}): Promise<{ bookings: number; reindexed: number }> {
  const total = { bookings: 0, reindexed: 0 };
  let start: Record<string, unknown> | undefined;
  do {
    const result = await db.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ...(options.unindexedOnly ? { FilterExpression: 'attribute_not_exists(gsi3pk) OR attribute_not_exists(gsi4pk)' } : {}),
        ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ':from': keys.bookingPrefix, ':to': `${keys.bookingPrefix}\uffff` },
        ConsistentRead: true,
        Limit: 100,
        ExclusiveStartKey: start,
      }),
    );
    const done = await mapConcurrent(result.Items ?? [], REINDEX_CONCURRENCY, (item) => reindexBooking(clientId, item));
    total.bookings += result.ScannedCount ?? 0;
    total.reindexed += done.filter(Boolean).length;
    start = result.LastEvaluatedKey;
  } while (start);
  return total;
}
