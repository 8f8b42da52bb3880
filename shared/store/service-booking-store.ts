/**
 * Service-made bookings (reception, paid orders). A booking that locks a room is written in one
 * transaction with the room's hold item (version-checked) and, when the client receives
 * callbacks, its delivery record: the booking and its delivery exist together or not at all.
 */
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { type DeliveryRecord, deliveryPutItem } from './delivery-store';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { bookingItem, type BookingRecord, type RoomRecord } from './property-store';
import { fromItem } from './items';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface Hold {
  booking_id: string;
  check_in_date: string;
  check_out_date: string;
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

/** The transaction items of a service booking: booking, room hold (version-checked) and deliveries. */
export function serviceBookingItems(write: ServiceBookingWrite): TransactItem[] {
  const { clientId, booking, deliveries, hold } = write;
  const items: TransactItem[] = [
    { Put: { TableName: TABLE, Item: bookingItem(clientId, booking), ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
  if (hold) {
    items.push({
      Put: {
        TableName: TABLE,
        Item: { ...keys.roomHold(clientId, hold.roomId), entity: 'room_hold', room_id: hold.roomId, holds: hold.holds, version: hold.readVersion + 1 },
        ConditionExpression: hold.readVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :read',
        ...(hold.readVersion === 0 ? {} : { ExpressionAttributeValues: { ':read': hold.readVersion } }),
      },
    });
  }
  items.push(...deliveries.map(deliveryPutItem));
  return items;
}

export async function transactWrite(items: TransactItem[]): Promise<void> {
  await db.send(new TransactWriteCommand({ TransactItems: items }));
}
