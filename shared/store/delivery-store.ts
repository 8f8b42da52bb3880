/**
 * Outbound deliveries (booking.confirmed callbacks, payment_order.paid webhooks). A delivery
 * keeps the exact payload it sends, every attempt, and while it is `pending` or `retrying`, an
 * entry in the sparse "due" index: when the sweeper is to put it on the queue (again), unless
 * a hand-off, an attempt or an operator moves it first.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nameBasedId } from '../ids';
import type { DeliveryStatus } from '../schemas/deliveries';
import { batchGet } from './batch';
import { db, TABLE } from './dynamo';
import type { EndpointKind } from './endpoint-store';
import { keys } from './keys';
import { fromItem, isConditionFailure } from './items';

export type { DeliveryStatus };

export interface DeliveryAttempt {
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface DeliveryRecord {
  delivery_id: string;
  client_id: string;
  event: string;
  endpoint: EndpointKind;
  /** The JSON body, as sent on every attempt. */
  payload: string;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Attempts in the current round; an operator retry starts a new round. */
  round_attempts: number;
  due_at: string;
  created_at: string;
  updated_at: string;
  /** Set while an attempt is running, so a duplicate message does not send twice. */
  lease_until?: string;
  booking_id?: string;
  payment_order_id?: string;
  /** When DynamoDB may remove it (epoch seconds): DELIVERY_RETENTION_DAYS after its creation. */
  expires_at?: number;
}

/** Deliveries, their attempts and bodies are kept this long, then removed (TTL). */
export const DELIVERY_RETENTION_DAYS = 30;
const RETENTION_MS = DELIVERY_RETENTION_DAYS * 86_400_000;

/** The TTL of a delivery made at `createdAt`, epoch seconds. */
export const deliveryExpiresAt = (createdAt: string): number => Math.floor((Date.parse(createdAt) + RETENTION_MS) / 1000);

/** The oldest creation time a delivery still kept at `now` can have. */
export const oldestKeptDelivery = (now: Date): string => new Date(now.getTime() - RETENTION_MS).toISOString();

/**
 * Whether a delivery is past its retention at `now`: DynamoDB removes it within a few days of
 * that, and DynamoDB Local never does, so every read treats it as gone. One written before the
 * TTL attribute is judged by its creation time.
 */
export function isExpiredDelivery(record: Pick<DeliveryRecord, 'created_at' | 'expires_at'>, now = new Date()): boolean {
  return (record.expires_at ?? deliveryExpiresAt(record.created_at)) * 1000 <= now.getTime();
}

/**
 * The id of a booking's `booking.confirmed` delivery: name-based, so the deliveries of a booking
 * are found by id (GetItem) without reading the client's history. A booking has at most two:
 * one when it is confirmed (with its room, or `room: null` while it awaits one) and, for one
 * confirmed without a room, one when staff assign it a room.
 */
export function bookingConfirmedDeliveryId(clientId: string, bookingId: string, withRoom: boolean): string {
  return nameBasedId(clientId, 'delivery', bookingId, 'booking.confirmed', withRoom ? 'room' : 'awaiting-room');
}

/** Every id a booking's `booking.confirmed` deliveries can have (bookingConfirmedDeliveryId). */
export function bookingConfirmedDeliveryIds(clientId: string, bookingId: string): string[] {
  return [bookingConfirmedDeliveryId(clientId, bookingId, false), bookingConfirmedDeliveryId(clientId, bookingId, true)];
}

/** Whether a booking.confirmed payload carries a room (`room: null` while the booking awaits one). */
function carriesRoom(payload: string): boolean {
  try {
    return Boolean((JSON.parse(payload) as { room?: unknown }).room);
  } catch {
    return false;
  }
}

/**
 * A new delivery, due at once, of an event that happens at `at`. A booking's `booking.confirmed`
 * gets its name-based id (bookingConfirmedDeliveryId); every other delivery a random one.
 */
export function newDelivery(input: {
  clientId: string;
  event: string;
  endpoint: EndpointKind;
  payload: string;
  at: string;
  booking_id?: string;
  payment_order_id?: string;
}): DeliveryRecord {
  const byBooking = input.event === 'booking.confirmed' && input.booking_id;
  return {
    delivery_id: byBooking ? bookingConfirmedDeliveryId(input.clientId, input.booking_id!, carriesRoom(input.payload)) : randomUUID(),
    client_id: input.clientId,
    event: input.event,
    endpoint: input.endpoint,
    payload: input.payload,
    status: 'pending',
    attempts: [],
    round_attempts: 0,
    due_at: input.at,
    created_at: input.at,
    updated_at: input.at,
    ...(input.booking_id ? { booking_id: input.booking_id } : {}),
    ...(input.payment_order_id ? { payment_order_id: input.payment_order_id } : {}),
  };
}

/** The transaction item writing a new delivery, with the event that causes it. */
export function deliveryPutItem(record: DeliveryRecord) {
  return { Put: { TableName: TABLE, Item: newDeliveryItem(record), ConditionExpression: 'attribute_not_exists(pk)' } };
}

/** The item for a new delivery, due now: for a transaction with the event that causes it. */
export function newDeliveryItem(record: DeliveryRecord) {
  return {
    ...keys.delivery(record.delivery_id),
    ...keys.deliveryOfClient(record.client_id, record.created_at, record.delivery_id),
    ...keys.deliveryOfEndpoint(record.client_id, record.endpoint, record.created_at, record.delivery_id),
    ...keys.deliveryDue(record.due_at, record.delivery_id),
    entity: 'delivery',
    expires_at: deliveryExpiresAt(record.created_at),
    ...record,
  };
}

/** A delivery by id; one past its retention is gone (isExpiredDelivery). */
export async function getDelivery(deliveryId: string, now = new Date()): Promise<DeliveryRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.delivery(deliveryId), ConsistentRead: true }));
  const record = Item ? fromItem<DeliveryRecord>(Item) : undefined;
  return record && !isExpiredDelivery(record, now) ? record : undefined;
}

/** The deliveries of these ids that exist and are kept (BatchGetItem), in no particular order. */
export async function getDeliveries(deliveryIds: readonly string[], now = new Date()): Promise<DeliveryRecord[]> {
  return keptDeliveries(await batchGet(deliveryIds.map((id) => keys.delivery(id))), now);
}

/** Records of these items, without those past their retention. */
export function keptDeliveries(items: readonly Record<string, unknown>[], now = new Date()): DeliveryRecord[] {
  return items.map((item) => fromItem<DeliveryRecord>(item)).filter((record) => !isExpiredDelivery(record, now));
}


/** The values of `gsi1pk = :duePk, gsi1sk = :dueSk`: the delivery's place on the due index. */
function dueIndexValues(at: string, deliveryId: string) {
  const { gsi1pk, gsi1sk } = keys.deliveryDue(at, deliveryId);
  return { ':duePk': gsi1pk, ':dueSk': gsi1sk };
}

/**
 * Once its message is on the queue: moves the delivery on the due index from `indexedAt`, where
 * the caller wrote or read it (null: not on the index, as an earlier version left a delivery it
 * had enqueued), to `resendAfter`, past the time the queue hands the message out
 * (shared/domain/callbacks/resend.ts). Only if it is still there and the delivery still waiting:
 * an attempt or another hand-off that moved it since is newer, and a finished delivery stays off
 * the index. A hand-off the queue refused moves it back the same way, to now.
 */
export async function markEnqueued(deliveryId: string, indexedAt: string | null, resendAfter: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.delivery(deliveryId),
        UpdateExpression: 'SET gsi1pk = :duePk, gsi1sk = :dueSk',
        ConditionExpression: `${indexedAt === null ? 'attribute_not_exists(gsi1sk)' : 'gsi1sk = :indexed'} AND #status IN (:pending, :retrying)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...dueIndexValues(resendAfter, deliveryId),
          ...(indexedAt === null ? {} : { ':indexed': keys.deliveryDue(indexedAt, deliveryId).gsi1sk }),
          ':pending': 'pending',
          ':retrying': 'retrying',
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** A delivery waiting on the due index, as its index entry names it. */
export interface DueDelivery {
  delivery_id: string;
  /** Its time on the index: when it is due, or when to send it again (not its `due_at`). */
  due_at: string;
}

/** The due index's partitions, each read page by page with findDueDeliveries. */
export const dueIndexPartitions: readonly string[] = keys.deliveryDuePartitions;

/** Where the next page of a due-index partition starts (DynamoDB's LastEvaluatedKey). */
export type DueCursor = Record<string, unknown>;

/**
 * One page of a due-index partition (keys.deliveryDuePartitions): what is due at `now`, oldest
 * first. Reads only the index's keys, so the index may project KEYS_ONLY.
 */
export async function findDueDeliveries(
  partition: string,
  now: string,
  page: { limit: number; cursor?: DueCursor },
): Promise<{ due: DueDelivery[]; cursor?: DueCursor }> {
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :until',
      ExpressionAttributeValues: { ':pk': partition, ':until': keys.deliveryDueUntil(now) },
      ProjectionExpression: 'gsi1sk',
      Limit: page.limit,
      ExclusiveStartKey: page.cursor,
    }),
  );
  const due = Items.map((item) => {
    const entry = keys.deliveryDueEntry(item.gsi1sk as string);
    return { delivery_id: entry.deliveryId, due_at: entry.dueAt };
  });
  return { due, cursor: LastEvaluatedKey };
}

/**
 * Why a delivery could not be claimed: as it stands (status, due time and, while it waits, its
 * time on the due index), or absent.
 */
export type LeaseRefusal = { status: DeliveryStatus; due_at: string; indexed_at?: string } | undefined;

/**
 * Claims a delivery for one attempt: only when it is waiting (pending or retrying), due, and
 * not leased by another attempt. Its place on the due index stays where its hand-off to the
 * queue put it, past its message's visibility timeout and the grace (docs/data-model.md "The
 * due index and its sweeper"): moving it again here cost each delivery another index write.
 * Returns the claimed record, or, read by the same call, what the delivery is instead (no read
 * before the claim).
 */
export async function leaseDelivery(
  deliveryId: string,
  now: Date,
  leaseMs: number,
): Promise<{ leased: DeliveryRecord } | { leased?: undefined; current: LeaseRefusal }> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.delivery(deliveryId),
        UpdateExpression: 'SET lease_until = :until',
        ConditionExpression:
          'attribute_exists(pk) AND #status IN (:pending, :retrying) AND due_at <= :now AND (attribute_not_exists(lease_until) OR lease_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':until': new Date(now.getTime() + leaseMs).toISOString(),
          ':now': now.toISOString(),
          ':pending': 'pending',
          ':retrying': 'retrying',
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { leased: fromItem<DeliveryRecord>(Attributes!) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The document client leaves this item in DynamoDB's own format.
    const item = (error as { Item?: Record<string, { S?: string }> }).Item;
    if (!item) return { current: undefined };
    const indexed = item.gsi1sk?.S;
    return {
      current: {
        status: item.status?.S as DeliveryStatus,
        due_at: item.due_at?.S ?? '',
        ...(indexed ? { indexed_at: keys.deliveryDueEntry(indexed).dueAt } : {}),
      },
    };
  }
}

/**
 * Records an attempt and the delivery's next state; releases the lease. With `dueAt` and
 * `onDueIndex` the delivery waits again, on the due index at its due time until its hand-off to
 * the queue moves it on (markEnqueued); a delivery that ends (delivered, failed, needs_review)
 * leaves the index.
 */
export async function recordAttempt(
  deliveryId: string,
  attempt: DeliveryAttempt,
  next: { status: DeliveryStatus; dueAt?: string; onDueIndex: boolean },
): Promise<void> {
  const onIndex = next.onDueIndex && next.dueAt;
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.delivery(deliveryId),
      UpdateExpression: [
        'SET #status = :status, attempts = list_append(attempts, :attempt), round_attempts = round_attempts + :one, updated_at = :at',
        next.dueAt ? ', due_at = :due' : '',
        onIndex ? ', gsi1pk = :duePk, gsi1sk = :dueSk' : '',
        ' REMOVE lease_until',
        onIndex ? '' : ', gsi1pk, gsi1sk',
      ].join(''),
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': next.status,
        ':attempt': [attempt],
        ':one': 1,
        ':at': attempt.at,
        ...(next.dueAt ? { ':due': next.dueAt } : {}),
        ...(onIndex ? dueIndexValues(next.dueAt!, deliveryId) : {}),
      },
    }),
  );
}

/** Marks a delivery failed without an attempt (its message is about to go to the DLQ). */
export async function markFailed(deliveryId: string, now: string): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.delivery(deliveryId),
      UpdateExpression: 'SET #status = :failed, updated_at = :now REMOVE lease_until, gsi1pk, gsi1sk',
      ConditionExpression: 'attribute_exists(pk) AND #status IN (:pending, :retrying)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':failed': 'failed', ':now': now, ':pending': 'pending', ':retrying': 'retrying' },
    }),
  ).catch((error) => {
    if (!isConditionFailure(error)) throw error;
  });
}

/** An operator retry: the same delivery (same id and payload) waits again, due now, in a new round. */
export async function requeueDelivery(deliveryId: string, now: string): Promise<DeliveryRecord | undefined> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.delivery(deliveryId),
        UpdateExpression: 'SET #status = :pending, due_at = :now, round_attempts = :zero, updated_at = :now, gsi1pk = :duePk, gsi1sk = :dueSk REMOVE lease_until',
        ConditionExpression: 'attribute_exists(pk) AND #status IN (:failed, :review)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':now': now,
          ':zero': 0,
          ...dueIndexValues(now, deliveryId),
          ':failed': 'failed',
          ':review': 'needs_review',
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? fromItem<DeliveryRecord>(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

