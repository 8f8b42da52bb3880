/**
 * A client's rooms on the single table (docs/data-model.md): Query the client partition by
 * sort-key prefix; a room-number guard item keeps each number to one room, and every write
 * checks the version it read.
 */
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { prefixRange, queryAll } from './batch';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { fromItem } from './items';

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
