/**
 * A client's bookings on the single table (docs/data-model.md): GetItem/BatchGetItem by id,
 * Query the client partition for lists, and Query gsi1 and gsi2 for active stays (they project
 * only what overlap checks read). Every write keeps the stay indexes, the check-in order and the
 * search entries in step with the booking. Nothing here scans.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addDays, MAX_STAY_NIGHTS, nightsBetween } from '../schemas/common';
import { ACTIVE_BOOKING_STATUSES, type BookingStatus, type PaymentStatus } from '../schemas/booking-statuses';
import { batchGet, prefixRange, queryAll } from './batch';
import { db, TABLE } from './dynamo';
import { keys, SHORT_STAY_NIGHTS } from './keys';
import { fromItem, isConditionFailure } from './items';
import { bookingFilterExpression } from './booking-filter';
import { CHECK_IN_INDEX_ATTRIBUTES, everyBookingIndex } from './booking-index-store';
import { deleteSearchEntries, putSearchEntries, searchEntryChanges } from './search-store';

export type BookingOrigin = 'sync' | 'reception' | 'payment';

export interface BookingRecord {
  id: string;
  origin: BookingOrigin;
  room_id?: string;
  external_source?: string;
  external_booking_id?: string;
  external_room_id?: string;
  guest_name: string;
  guest_email?: string;
  /** A guest page's booking: the language the pages spoke when the guest booked, for its e-mails and pages (shared/i18n/languages.ts). */
  language?: string;
  guest_phone?: string;
  guests: number;
  check_in_date: string;
  check_out_date: string;
  total_amount?: number;
  /** Service-made bookings of a hotel with `tax_percent`: the taxes the guest pays beside `total_amount` (the room revenue). */
  taxes_amount?: number;
  status: BookingStatus;
  payment_status: PaymentStatus;
  booking_reference?: string;
  confirmation_code?: string;
  payment_method?: string;
  gateway_reference?: string;
  /** Paid-order bookings: the order they were made by (its booking_sync names their room). */
  payment_order_reference?: string;
  /** Paid-order bookings: the room's price x nights in the client's currency when paid (null: no room chosen). */
  rate_total?: number | null;
  /** Paid-order bookings: paid below `rate_total`, or in another currency than the client's. */
  below_rate?: boolean;
  /** Awaiting a room because the client's `below_rate_orders` setting is `manual`. */
  room_assignment_reason?: 'below_rate';
  /** Hash of the synced content; a re-sync of identical content writes nothing. */
  content_hash?: string;
  /**
   * Synced bookings: the status and room as the PMS last sent them. A re-sync sets the booking's
   * status or room only when the PMS changed what it says about them, so repeating an old status
   * never undoes a check-in (docs/data-model.md, "Who writes which booking attributes").
   */
  synced?: SyncedStatement;
  /** Synced bookings: every write checks the version it read and bumps it (optimistic lock). */
  version?: number;
  /** occurred_at of the latest check-in/check-out applied; older events do not override it. */
  last_activity_at?: string;
  checked_in_at?: string;
  checked_out_at?: string;
  /**
   * Service bookings: the sequence of the booking's latest event (booking.confirmed is 1; each
   * change, cancellation, no-show or room assignment adds one). Unset on bookings made before
   * sequences: their confirmation was 1.
   */
  sequence?: number;
  /** Cancelled service bookings: why, when, and by whom. */
  cancellation_reason?: string;
  cancelled_at?: string;
  cancelled_by?: 'staff' | 'guest' | 'pms';
  /** A staff cancellation: whether the guest asked for it (the guest's e-mail says so); else the hotel did. */
  cancellation_asked_by?: 'guest' | 'hotel';
  /** A staff cancellation: the message for the guest, the only words of it their e-mail carries (never the reason). */
  guest_message?: string;
  /** No-show service bookings: when staff marked it. */
  no_show_at?: string;
  created_at: string;
  updated_at: string;
}

export interface SyncedStatement {
  status: BookingStatus;
  room_id: string;
  external_room_id: string;
}

export function isActive(status: BookingStatus): boolean {
  return ACTIVE_BOOKING_STATUSES.includes(status);
}

/** Index attributes: present only while the booking is active and holds a room. */
function stayIndex(clientId: string, booking: BookingRecord) {
  if (!booking.room_id || !isActive(booking.status)) return {};
  const length = nightsBetween(booking.check_in_date, booking.check_out_date) <= SHORT_STAY_NIGHTS ? 'short' : 'long';
  const sortKey = keys.staySortKey(booking.check_out_date, booking.id);
  return {
    gsi1pk: keys.activeStays(clientId, length),
    gsi1sk: sortKey,
    gsi2pk: keys.activeStaysOfRoom(booking.room_id),
    gsi2sk: sortKey,
  };
}

/** A booking's item: the booking, its stay-index attributes while active, and its place in check-in order. */
export function bookingItem(clientId: string, booking: BookingRecord) {
  return { ...keys.booking(clientId, booking.id), entity: 'booking', client_id: clientId, ...booking, ...stayIndex(clientId, booking), ...everyBookingIndex(clientId, booking) };
}

export async function getBookings(clientId: string, bookingIds: readonly string[]): Promise<Map<string, BookingRecord>> {
  const items = await batchGet([...new Set(bookingIds)].map((id) => keys.booking(clientId, id)));
  return new Map(items.map((item) => [item.id as string, fromItem<BookingRecord>(item)]));
}

/** One booking, strongly consistent: read again after losing a write to a concurrent one. */
export async function getBooking(clientId: string, bookingId: string): Promise<BookingRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.booking(clientId, bookingId), ConsistentRead: true }));
  return Item ? fromItem<BookingRecord>(Item) : undefined;
}

/** A new booking, its search entries put first; false when a concurrent request created it first. */
export async function createBooking(clientId: string, booking: BookingRecord): Promise<boolean> {
  await putSearchEntries(booking.id, searchEntryChanges(clientId, undefined, booking).added);
  try {
    await db.send(new PutCommand({ TableName: TABLE, Item: bookingItem(clientId, booking), ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

const INDEX_ATTRIBUTES = ['gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', ...CHECK_IN_INDEX_ATTRIBUTES] as const;

/**
 * Sets `changes` (an undefined value removes the attribute) on a booking still at the version
 * read, bumps the version and moves its stay-index entries and its place in check-in order to
 * match the booking as it now is; its new search entries are put before, the ones it lost deleted
 * after. Attributes not in `changes` are left as they are, whoever wrote them. False when another
 * writer changed the booking since it was read.
 */
export async function updateBooking(clientId: string, previous: BookingRecord, changes: Partial<BookingRecord>, now: string): Promise<boolean> {
  const version = (previous.version ?? 0) + 1;
  const next: BookingRecord = { ...previous, ...changes, version, updated_at: now };
  const index: Record<string, string | undefined> = { ...stayIndex(clientId, next), ...everyBookingIndex(clientId, next) };
  const attributes: Record<string, unknown> = {
    ...changes,
    version,
    updated_at: now,
    ...Object.fromEntries(INDEX_ATTRIBUTES.map((name) => [name, index[name]])),
  };
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = {};
  const set: string[] = [];
  const remove: string[] = [];
  Object.entries(attributes).forEach(([name, value], i) => {
    names[`#a${i}`] = name;
    if (value === undefined) {
      remove.push(`#a${i}`);
    } else {
      values[`:a${i}`] = value;
      set.push(`#a${i} = :a${i}`);
    }
  });
  const read = previous.version === undefined ? 'attribute_not_exists(#version)' : '#version = :read';
  if (previous.version !== undefined) values[':read'] = previous.version;
  const update = {
    TableName: TABLE,
    Key: keys.booking(clientId, previous.id),
    UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
    ConditionExpression: `attribute_exists(pk) AND ${read}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
  const entries = searchEntryChanges(clientId, previous, next);
  await putSearchEntries(previous.id, entries.added);
  try {
    await db.send(new UpdateCommand(update));
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
  await deleteSearchEntries(entries.removed);
  return true;
}

/** Filters of a client's booking list, each optional (docs/data-model.md, pattern 23). */
export interface BookingFilter {
  /** Stays with a night on or after this date: check-out after it. */
  from?: string;
  /** Stays with a night on or before this date: check-in on or before it. */
  to?: string;
  status?: BookingStatus;
  origin?: BookingOrigin;
}

function bookingListQuery(clientId: string, filter: BookingFilter) {
  const { values, ...expression } = bookingFilterExpression(filter);
  return {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ...expression,
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ...prefixRange(keys.bookingPrefix), ...values },
    ConsistentRead: true,
  };
}

/** Every booking of a client matching the filter, any origin, in booking-id order. */
export async function listBookings(clientId: string, filter: BookingFilter = {}): Promise<BookingRecord[]> {
  return (await queryAll(bookingListQuery(clientId, filter))).map((item) => fromItem<BookingRecord>(item));
}

export interface StayWindow {
  checkIn: string;
  checkOut: string;
}

/**
 * What a stay index holds of a booking, and all its queries read (the index projections in
 * definitions/table.ts): enough to tell an overlap, never guest data.
 */
export interface ActiveStay {
  room_id: string;
  status: BookingStatus;
  check_in_date: string;
  check_out_date: string;
}

/** gsi2 names the booking too (sync conflicts report it). */
export interface ActiveStayOfRoom extends ActiveStay {
  id: string;
}

const STAY_ATTRIBUTES = ['room_id', 'status', 'check_in_date', 'check_out_date'] as const;

/**
 * Active bookings whose check-out falls in (checkIn, checkOut + longest stay): every possible
 * overlap. Reads exactly `attributes`, which the index projects (DynamoDB refuses others).
 */
async function staysQuery<T extends ActiveStay>(
  partitionAttr: 'gsi1pk' | 'gsi2pk',
  partition: string,
  window: StayWindow,
  maxNights: number,
  attributes: readonly string[],
): Promise<T[]> {
  const index = partitionAttr === 'gsi1pk' ? 'gsi1' : 'gsi2';
  const sortAttr = partitionAttr === 'gsi1pk' ? 'gsi1sk' : 'gsi2sk';
  const items = await queryAll({
    IndexName: index,
    KeyConditionExpression: `${partitionAttr} = :pk AND ${sortAttr} BETWEEN :from AND :to`,
    ProjectionExpression: attributes.map((_, i) => `#p${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#p${i}`, name])),
    ExpressionAttributeValues: {
      ':pk': partition,
      ':from': addDays(window.checkIn, 1),
      ':to': `${addDays(window.checkOut, maxNights)}~`,
    },
  });
  return (items as unknown as T[]).filter((b) => isActive(b.status) && b.check_in_date < window.checkOut && b.check_out_date > window.checkIn);
}

/** Active bookings of a client overlapping the window (availability): which rooms are taken. */
export async function activeBookingsOverlapping(clientId: string, window: StayWindow): Promise<ActiveStay[]> {
  const [short, long] = await Promise.all([
    staysQuery<ActiveStay>('gsi1pk', keys.activeStays(clientId, 'short'), window, SHORT_STAY_NIGHTS, STAY_ATTRIBUTES),
    staysQuery<ActiveStay>('gsi1pk', keys.activeStays(clientId, 'long'), window, MAX_STAY_NIGHTS, STAY_ATTRIBUTES),
  ]);
  return [...short, ...long];
}

/**
 * Active bookings of a client overlapping the window, each with its id (the dashboard's overview
 * and rooms grid): the same gsi1 reads as availability, plus the table's sort key, which every
 * index entry holds and which names the booking.
 */
export async function activeStaysOverlapping(clientId: string, window: StayWindow): Promise<ActiveStayOfRoom[]> {
  const attributes = ['sk', ...STAY_ATTRIBUTES];
  type Entry = ActiveStay & { sk: string };
  const [short, long] = await Promise.all([
    staysQuery<Entry>('gsi1pk', keys.activeStays(clientId, 'short'), window, SHORT_STAY_NIGHTS, attributes),
    staysQuery<Entry>('gsi1pk', keys.activeStays(clientId, 'long'), window, MAX_STAY_NIGHTS, attributes),
  ]);
  return [...short, ...long].map(({ sk, ...stay }) => ({ ...stay, id: keys.bookingIdOf(sk) }));
}

/** Active bookings of one room overlapping the window. */
export async function activeBookingsOfRoom(roomId: string, window: StayWindow): Promise<ActiveStayOfRoom[]> {
  return staysQuery<ActiveStayOfRoom>('gsi2pk', keys.activeStaysOfRoom(roomId), window, MAX_STAY_NIGHTS, ['id', ...STAY_ATTRIBUTES]);
}
