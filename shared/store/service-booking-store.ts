/**
 * Service-made bookings (reception, paid orders). A booking that locks a room is written in one
 * transaction with the room's hold item (version-checked) and, when the client receives
 * callbacks, its delivery record: the booking and its delivery exist together or not at all.
 * A booking recorded for manual assignment gets its room later the same way (roomAssignmentItems).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type DeliveryRecord, deliveryPutItem } from './delivery-store';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import type { RoomRecord } from './room-store';
import { bookingItem, type BookingRecord } from './booking-store';
import { fromItem } from './items';
import { searchEntryWrites } from './search-store';
import type { TransactItem } from './transactions';

export interface Hold {
  booking_id: string;
  check_in_date: string;
  check_out_date: string;
  /**
   * A guest's open checkout (docs/behaviour.md "Guest booking and the reception QR code"): the room is held for the booking its
   * order makes when paid, until this ISO time; after it the entry blocks nothing. Confirmed
   * bookings have none.
   */
  expires_at?: string;
}

export interface RoomHolds {
  holds: Hold[];
  /** 0 when the hold item does not exist yet. */
  version: number;
}

export async function getRoom(clientId: string, roomId: string): Promise<RoomRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.room(clientId, roomId), ConsistentRead: true }));
  if (!Item) return undefined;
  return fromItem<RoomRecord>(Item);
}

export async function getRoomHolds(clientId: string, roomId: string): Promise<RoomHolds> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.roomHold(clientId, roomId), ConsistentRead: true }));
  return { holds: (Item?.holds as Hold[] | undefined) ?? [], version: (Item?.version as number | undefined) ?? 0 };
}

export interface ServiceBookingWrite {
  clientId: string;
  booking: BookingRecord;
  deliveries: DeliveryRecord[];
  /** With a locked room: the holds to store and the version they were read at. */
  hold?: { roomId: string; holds: Hold[]; readVersion: number };
}

/** The room's hold item with `holds`, if it is still at the version read: concurrent bookings of the room serialize here. */
export function holdItem(clientId: string, hold: NonNullable<ServiceBookingWrite['hold']>): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.roomHold(clientId, hold.roomId), entity: 'room_hold', room_id: hold.roomId, holds: hold.holds, version: hold.readVersion + 1 },
      ConditionExpression: hold.readVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :read',
      ...(hold.readVersion === 0 ? {} : { ExpressionAttributeValues: { ':read': hold.readVersion } }),
    },
  };
}

/**
 * The transaction items of a service booking: booking, its search entries, the pointer from its
 * id to its client, room hold (version-checked) and deliveries.
 */
export function serviceBookingItems(write: ServiceBookingWrite): TransactItem[] {
  const { clientId, booking, deliveries, hold } = write;
  const items: TransactItem[] = [
    { Put: { TableName: TABLE, Item: bookingItem(clientId, booking), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...searchEntryWrites(clientId, undefined, booking),
    { Put: { TableName: TABLE, Item: { ...keys.bookingClient(booking.id), entity: 'booking_client', client_id: clientId } } },
  ];
  if (hold) items.push(holdItem(clientId, hold));
  items.push(...deliveries.map(deliveryPutItem));
  return items;
}

/** The client of a service-made booking, by the booking id alone. */
export async function getBookingClient(bookingId: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.bookingClient(bookingId) }));
  return Item?.client_id as string | undefined;
}

export interface RoomAssignmentWrite {
  clientId: string;
  /** The booking as read, and as assigned (with its room_id and updated_at). */
  read: BookingRecord;
  assigned: BookingRecord;
  hold: NonNullable<ServiceBookingWrite['hold']>;
  deliveries: DeliveryRecord[];
}

/**
 * The transaction items giving a booking awaiting manual assignment its room: the booking (only
 * if it still has no room and is as read; its search entry by room with it), the room's hold
 * (version-checked), the paid order's booking_sync naming the room, and the new booking.confirmed
 * delivery.
 */
export function roomAssignmentItems(write: RoomAssignmentWrite): TransactItem[] {
  const { clientId, read, assigned, hold, deliveries } = write;
  // The stay-index attributes the booking now needs, as every booking write computes them.
  const item = bookingItem(clientId, assigned);
  const index = Object.entries(item).filter(([name]) => /^gsi\d+(pk|sk)$/.test(name));
  const values: Record<string, unknown> = { ':room': assigned.room_id, ':now': assigned.updated_at, ':read': read.updated_at, ':seq': assigned.sequence ?? 1 };
  index.forEach(([, value], i) => (values[`:i${i}`] = value));
  const items: TransactItem[] = [
    {
      Update: {
        TableName: TABLE,
        Key: keys.booking(clientId, read.id),
        UpdateExpression: `SET room_id = :room, updated_at = :now, #sequence = :seq${index.map((_, i) => `, #i${i} = :i${i}`).join('')}`,
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(room_id) AND updated_at = :read',
        ExpressionAttributeNames: { '#sequence': 'sequence', ...Object.fromEntries(index.map(([name], i) => [`#i${i}`, name])) },
        ExpressionAttributeValues: values,
      },
    },
    ...searchEntryWrites(clientId, read, assigned),
    holdItem(clientId, hold),
  ];
  if (read.payment_order_reference) {
    items.push({
      Update: {
        TableName: TABLE,
        Key: keys.paymentOrder(read.payment_order_reference),
        UpdateExpression: 'SET booking_sync.room_id = :room, updated_at = :now',
        ConditionExpression: 'booking_sync.booking_id = :booking',
        ExpressionAttributeValues: { ':room': assigned.room_id, ':now': assigned.updated_at, ':booking': read.id },
      },
    });
  }
  items.push(...deliveries.map(deliveryPutItem));
  return items;
}

export interface BookingChangeWrite {
  clientId: string;
  /** The booking as read, and as it is to be. */
  read: BookingRecord;
  next: BookingRecord;
  /** Each room whose holds change (the old room and the new), version-checked. */
  holds: NonNullable<ServiceBookingWrite['hold']>[];
  deliveries: DeliveryRecord[];
  /** Other items of the same change (the guest's e-mail). */
  extra?: TransactItem[];
}

/**
 * The transaction items of a change to a service booking (a change of stay or room, a
 * cancellation, a no-show): the booking as it is now, only if nobody wrote it since it was read
 * (its stay indexes follow its status and room), its search entries, each room's holds
 * (version-checked: a change races reception bookings and paid orders for a room the same way
 * they race each other), and the event's delivery.
 */
export function bookingChangeItems(write: BookingChangeWrite): TransactItem[] {
  const { clientId, read, next, holds, deliveries, extra = [] } = write;
  return [
    {
      Put: {
        TableName: TABLE,
        Item: bookingItem(clientId, next),
        ConditionExpression: 'updated_at = :read',
        ExpressionAttributeValues: { ':read': read.updated_at },
      },
    },
    ...searchEntryWrites(clientId, read, next),
    ...holds.map((hold) => holdItem(clientId, hold)),
    ...deliveries.map(deliveryPutItem),
    ...extra,
  ];
}
