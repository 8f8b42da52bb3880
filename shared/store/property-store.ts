/**
 * Categories, rooms, bookings and check-in records of a client on the single table.
 * Access patterns (README "Data model"): Query the client partition by sk prefix for
 * categories and rooms; GetItem/BatchGetItem bookings and check-ins by id; Query gsi1 and gsi2
 * for active stays. Nothing here scans.
 */
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { addDays } from '../schemas/common';
import { ACTIVE_BOOKING_STATUSES, type BookingStatus, type PaymentStatus } from '../schemas/property-sync';
import { batchGet, batchPut, queryAll } from './batch';
import { db, TABLE } from './dynamo';
import { keys, SHORT_STAY_NIGHTS } from './keys';
import { MAX_STAY_NIGHTS, nightsBetween } from '../schemas/common';
import { fromItem, isConditionFailure } from './items';

export interface CategoryRecord {
  id: string;
  external_source: string;
  external_category_id: string;
  name: string;
  base_price?: number;
  max_occupancy?: number;
  description?: string;
  amenities: string[];
  images: unknown[];
  is_active: boolean;
  content_hash: string;
  created_at: string;
  updated_at: string;
}

export interface RoomRecord {
  id: string;
  room_number: string;
  room_type: string;
  price: number;
  max_occupancy: number;
  images: unknown[];
  is_active: boolean;
  external_source?: string;
  external_room_id?: string;
  external_category_id?: string;
  content_hash: string;
  /** Optimistic lock: every write checks the version it read. */
  version: number;
  created_at: string;
  updated_at: string;
}

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
  guest_phone?: string;
  guests: number;
  check_in_date: string;
  check_out_date: string;
  total_amount?: number;
  status: BookingStatus;
  payment_status: PaymentStatus;
  booking_reference?: string;
  confirmation_code?: string;
  payment_method?: string;
  gateway_reference?: string;
  /** Hash of the synced content; a re-sync of identical content writes nothing. */
  content_hash?: string;
  /** occurred_at of the latest check-in/check-out applied; older events do not override it. */
  last_activity_at?: string;
  checked_in_at?: string;
  checked_out_at?: string;
  created_at: string;
  updated_at: string;
}

export interface CheckinRecord {
  id: string;
  external_source: string;
  external_checkin_id: string;
  external_booking_id: string;
  booking_id: string;
  event: 'check_in' | 'check_out';
  occurred_at: string;
  external_room_id?: string;
  notes?: string;
  content_hash: string;
  created_at: string;
  updated_at: string;
}

/**
 * The sort-key range of a prefix. Same items as begins_with, and DynamoDB Local serves a range
 * in time independent of the rest of the partition (measured in npm run bench).
 */
function prefixRange(prefix: string) {
  return { ':from': prefix, ':to': `${prefix}\uffff` };
}

export function isActive(status: BookingStatus): boolean {
  return ACTIVE_BOOKING_STATUSES.includes(status);
}

// ---- categories

export async function listCategories(clientId: string): Promise<CategoryRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ...prefixRange(keys.categoryPrefix) },
    ConsistentRead: true,
  });
  return items.map((item) => fromItem<CategoryRecord>(item));
}

export async function putCategories(clientId: string, categories: readonly CategoryRecord[]): Promise<number> {
  return batchPut(
    categories.map((c) => ({ ...keys.category(clientId, c.external_source, c.external_category_id), entity: 'category', ...c })),
  );
}

// ---- rooms

export async function listRooms(clientId: string): Promise<RoomRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.clientPartition(clientId).pk, ...prefixRange(keys.roomPrefix) },
    ConsistentRead: true,
  });
  return items.map((item) => fromItem<RoomRecord>(item));
}

function roomItem(clientId: string, room: RoomRecord) {
  return { ...keys.room(clientId, room.id), entity: 'room', ...room };
}

/** A new room and its room-number guard, both or neither. */
export async function createRoom(clientId: string, room: RoomRecord): Promise<void> {
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: TABLE, Item: roomItem(clientId, room), ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.roomNumber(clientId, room.room_number), entity: 'room_number', room_id: room.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

/** Replaces a room if it still has the version read; moves its number guard when the number changes. */
export async function updateRoom(clientId: string, room: RoomRecord, previous: RoomRecord): Promise<void> {
  const put = {
    TableName: TABLE,
    Item: roomItem(clientId, room),
    ConditionExpression: 'version = :read',
    ExpressionAttributeValues: { ':read': previous.version },
  };
  if (room.room_number === previous.room_number) {
    await db.send(new PutCommand(put));
    return;
  }
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: put },
        {
          Delete: {
            TableName: TABLE,
            Key: keys.roomNumber(clientId, previous.room_number),
            ConditionExpression: 'room_id = :room',
            ExpressionAttributeValues: { ':room': room.id },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.roomNumber(clientId, room.room_number), entity: 'room_number', room_id: room.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

// ---- bookings

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

export function bookingItem(clientId: string, booking: BookingRecord) {
  return { ...keys.booking(clientId, booking.id), entity: 'booking', client_id: clientId, ...booking, ...stayIndex(clientId, booking) };
}

export async function getBookings(clientId: string, bookingIds: readonly string[]): Promise<Map<string, BookingRecord>> {
  const items = await batchGet([...new Set(bookingIds)].map((id) => keys.booking(clientId, id)));
  return new Map(items.map((item) => [item.id as string, fromItem<BookingRecord>(item)]));
}

export async function putBookings(clientId: string, bookings: readonly BookingRecord[]): Promise<number> {
  return batchPut(bookings.map((b) => bookingItem(clientId, b)));
}

/** Applies a check-in or check-out to a booking unless a later activity was already applied. */
export async function applyBookingActivity(
  clientId: string,
  booking: BookingRecord,
  change: { status: BookingStatus; occurredAt: string; roomId?: string; externalRoomId?: string },
  now: string,
): Promise<boolean> {
  const next: BookingRecord = {
    ...booking,
    status: change.status,
    room_id: change.roomId ?? booking.room_id,
    external_room_id: change.externalRoomId ?? booking.external_room_id,
    last_activity_at: change.occurredAt,
    ...(change.status === 'checked_in' ? { checked_in_at: change.occurredAt } : { checked_out_at: change.occurredAt }),
    updated_at: now,
  };
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: bookingItem(clientId, next),
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_activity_at) OR last_activity_at <= :at)',
        ExpressionAttributeValues: { ':at': change.occurredAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export interface StayWindow {
  checkIn: string;
  checkOut: string;
}

/** Active bookings whose check-out falls in (checkIn, checkOut + longest stay): every possible overlap. */
function staysQuery(partitionAttr: 'gsi1pk' | 'gsi2pk', partition: string, window: StayWindow, maxNights: number) {
  const index = partitionAttr === 'gsi1pk' ? 'gsi1' : 'gsi2';
  const sortAttr = partitionAttr === 'gsi1pk' ? 'gsi1sk' : 'gsi2sk';
  return queryAll({
    IndexName: index,
    KeyConditionExpression: `${partitionAttr} = :pk AND ${sortAttr} BETWEEN :from AND :to`,
    ExpressionAttributeValues: {
      ':pk': partition,
      ':from': addDays(window.checkIn, 1),
      ':to': `${addDays(window.checkOut, maxNights)}~`,
    },
  });
}

function overlapping(items: Record<string, unknown>[], window: StayWindow): BookingRecord[] {
  return items
    .map((item) => fromItem<BookingRecord>(item))
    .filter((b) => isActive(b.status) && b.check_in_date < window.checkOut && b.check_out_date > window.checkIn);
}

/** Active bookings of a client overlapping the window. */
export async function activeBookingsOverlapping(clientId: string, window: StayWindow): Promise<BookingRecord[]> {
  const [short, long] = await Promise.all([
    staysQuery('gsi1pk', keys.activeStays(clientId, 'short'), window, SHORT_STAY_NIGHTS),
    staysQuery('gsi1pk', keys.activeStays(clientId, 'long'), window, MAX_STAY_NIGHTS),
  ]);
  return overlapping([...short, ...long], window);
}

/** Active bookings of one room overlapping the window. */
export async function activeBookingsOfRoom(roomId: string, window: StayWindow): Promise<BookingRecord[]> {
  return overlapping(await staysQuery('gsi2pk', keys.activeStaysOfRoom(roomId), window, MAX_STAY_NIGHTS), window);
}

// ---- check-in records

export async function getCheckins(clientId: string, source: string, externalIds: readonly string[]): Promise<Map<string, CheckinRecord>> {
  const items = await batchGet([...new Set(externalIds)].map((id) => keys.checkin(clientId, source, id)));
  return new Map(items.map((item) => [item.external_checkin_id as string, fromItem<CheckinRecord>(item)]));
}

export async function putCheckins(clientId: string, checkins: readonly CheckinRecord[]): Promise<number> {
  return batchPut(
    checkins.map((c) => ({ ...keys.checkin(clientId, c.external_source, c.external_checkin_id), entity: 'checkin', ...c })),
  );
}

