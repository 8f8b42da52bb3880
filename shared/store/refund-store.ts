/**
 * Refunds of payment orders on the single table: one item per refund in the order's partition,
 * and on the order item two running totals. `refunds_reserved_minor` counts every refund that is
 * in flight, pending or succeeded: a refund is written only together with a conditional addition
 * to it that keeps it within `amount_minor`, so refunds never add up to more than was paid,
 * however concurrent. `amount_refunded_minor` counts the succeeded ones and decides the order's
 * status. The order item is only ever updated here, never replaced, so it keeps its index entries.
 */
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll } from './batch';
import { db, TABLE } from './dynamo';
import { fromItem, isConditionFailure } from './items';
import { keys } from './keys';
import type { OrderStatus, PaymentOrderRecord, ProviderName } from './payment-store';
import type { TransactItem } from './transactions';

/** `requested`: reserved, the provider not yet answered (or its answer not yet recorded). */
export type RefundRecordStatus = 'requested' | 'pending' | 'succeeded' | 'failed';

export interface RefundRecord {
  refund_id: string;
  order_reference: string;
  client_id: string;
  amount_minor: number;
  currency: string;
  status: RefundRecordStatus;
  reason?: string;
  provider: ProviderName;
  provider_account?: string;
  /** The provider's id of the refund, once it answered. */
  provider_refund_id?: string;
  failure_reason?: string;
  created_at: string;
  updated_at: string;
  /** When it reached `succeeded` or `failed`. */
  settled_at?: string;
  /**
   * When it was first sent to the provider: a refund tried before is looked for at the provider
   * (by our refund id in its metadata) before it is ever sent again.
   */
  tried_at?: string;
}

/** A refund nobody finished is driven by the sweeper this long after it was made or last tried. */
export const REFUND_DUE_AFTER_MS = 30_000;

const dueAt = (at: string) => new Date(Date.parse(at) + REFUND_DUE_AFTER_MS).toISOString();

/** The statuses from which an order can be refunded (a fully refunded one has nothing left, which the reservation finds). */
export const REFUNDABLE_STATUSES: readonly OrderStatus[] = ['paid', 'partially_refunded', 'refunded'];

/** The order's status once `refundedMinor` of it has been refunded. */
export function refundedStatus(order: Pick<PaymentOrderRecord, 'amount_minor'>, refundedMinor: number): OrderStatus {
  if (refundedMinor <= 0) return 'paid';
  return refundedMinor >= order.amount_minor ? 'refunded' : 'partially_refunded';
}

export async function getRefundRecord(orderReference: string, refundId: string): Promise<RefundRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.paymentRefund(orderReference, refundId), ConsistentRead: true }));
  return Item ? fromItem<RefundRecord>(Item) : undefined;
}

/** The order's refunds, oldest first. */
export async function listRefundRecords(orderReference: string): Promise<RefundRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.orderPartition(orderReference), ':prefix': keys.paymentRefundPrefix },
    ConsistentRead: true,
  });
  return items.map((item) => fromItem<RefundRecord>(item)).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.refund_id.localeCompare(b.refund_id));
}

/** The provider's id of the payment the order was paid with (its payment transaction), when recorded. */
export async function paymentIdOf(order: Pick<PaymentOrderRecord, 'order_reference' | 'provider_reference'>): Promise<string | undefined> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.orderPartition(order.order_reference), ':prefix': 'TXN#' },
    ConsistentRead: true,
  });
  const payment = items.find((item) => item.kind === 'payment' && item.provider_reference === order.provider_reference);
  return payment ? String(payment.id) : undefined;
}

/**
 * A new refund and its reservation: the order must be refundable and keep its reserved total
 * within what was paid (checked on the stored total, atomically); the refund id must be new (a
 * refund asked again with the same idempotency key has the same id).
 */
export function reserveRefundItems(order: PaymentOrderRecord, refund: RefundRecord): TransactItem[] {
  return [
    {
      Update: {
        TableName: TABLE,
        Key: keys.paymentOrder(order.order_reference),
        UpdateExpression: 'ADD refunds_reserved_minor :amount SET updated_at = :now',
        ConditionExpression:
          '#status IN (:paid, :partial, :refunded) AND (attribute_not_exists(refunds_reserved_minor) OR refunds_reserved_minor <= :room)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':amount': refund.amount_minor,
          ':now': refund.created_at,
          ':paid': 'paid',
          ':partial': 'partially_refunded',
          ':refunded': 'refunded',
          ':room': order.amount_minor - refund.amount_minor,
        },
      },
    },
    { Put: { TableName: TABLE, Item: refundItem(refund), ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
}

/** A refund's item: on the due index while it is `requested` (the sweeper finishes it if nobody does). */
function refundItem(refund: RefundRecord) {
  return {
    ...keys.paymentRefund(refund.order_reference, refund.refund_id),
    ...(refund.status === 'requested' ? keys.refundDue(dueAt(refund.tried_at ?? refund.created_at), refund.order_reference, refund.refund_id) : {}),
    entity: 'payment_refund',
    ...refund,
    ...keys.refundOfClient(refund.client_id, refund.created_at, refund.refund_id),
  };
}

/**
 * Marks a `requested` refund as sent to the provider (now), moving its due entry on so the
 * sweeper leaves it to its sender for a while. The refund as it then is; undefined when it is no
 * longer `requested` (someone recorded the provider's answer).
 */
export async function markRefundTried(refund: RefundRecord, at: string): Promise<RefundRecord | undefined> {
  const due = keys.refundDue(dueAt(at), refund.order_reference, refund.refund_id);
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.paymentRefund(refund.order_reference, refund.refund_id),
        UpdateExpression: 'SET tried_at = :at, gsi1pk = :duePk, gsi1sk = :dueSk',
        ConditionExpression: '#status = :requested',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':at': at, ':duePk': due.gsi1pk, ':dueSk': due.gsi1sk, ':requested': 'requested' },
      }),
    );
    return { ...refund, tried_at: at };
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** The refunds due at `now` (order and refund id), oldest first, at most `limit`. */
export async function findDueRefunds(now: string, limit: number): Promise<{ orderReference: string; refundId: string }[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: TABLE,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :until',
      ExpressionAttributeValues: { ':pk': keys.refundsDue, ':until': `${now}~` },
      ProjectionExpression: 'gsi1sk',
      Limit: limit,
    }),
  );
  return Items.flatMap((item) => keys.refundDueEntry(item.gsi1sk as string) ?? []);
}

/** The refund as it now stands, if it is still in the status it was read in. */
export function refundUpdateItem(next: RefundRecord, read: Pick<RefundRecord, 'status'>): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: refundItem(next),
      ConditionExpression: '#status = :read',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':read': read.status },
    },
  };
}

/**
 * The order's refunded total moved by `deltaMinor` (a refund succeeded: +; a succeeded one failed
 * later: -), with the status that total gives, if the total is still the one read.
 * `releaseMinor` leaves the reserved total too (a refund that failed).
 */
export function orderRefundTotalsItem(
  order: PaymentOrderRecord,
  change: { deltaMinor: number; releaseMinor: number; at: string },
): TransactItem {
  const read = order.amount_refunded_minor ?? 0;
  const next = read + change.deltaMinor;
  const sets = ['updated_at = :now'];
  const values: Record<string, unknown> = { ':now': change.at };
  const names: Record<string, string> = {};
  let condition = 'attribute_exists(pk)';
  if (change.deltaMinor !== 0) {
    sets.push('amount_refunded_minor = :next', '#status = :status');
    names['#status'] = 'status';
    Object.assign(values, { ':next': next, ':status': refundedStatus(order, next) });
    condition += read === 0 ? ' AND (attribute_not_exists(amount_refunded_minor) OR amount_refunded_minor = :zero)' : ' AND amount_refunded_minor = :read';
    values[read === 0 ? ':zero' : ':read'] = read;
  }
  if (change.releaseMinor) values[':release'] = -change.releaseMinor;
  return {
    Update: {
      TableName: TABLE,
      Key: keys.paymentOrder(order.order_reference),
      UpdateExpression: `SET ${sets.join(', ')}${change.releaseMinor ? ' ADD refunds_reserved_minor :release' : ''}`,
      ConditionExpression: condition,
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

/** A refund's money movement as a transaction of the order: `refund` when it succeeded, `refund_failed` when a succeeded one failed later. */
export function refundTransactionItem(
  refund: RefundRecord,
  transaction: { kind: 'refund' | 'refund_failed'; at: string; provider_reference: string },
): TransactItem {
  const id = `${transaction.kind === 'refund' ? 'refund' : 'refund-failed'}-${refund.refund_id}`;
  return {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.paymentTransaction(refund.order_reference, id),
        entity: 'payment_transaction',
        id,
        at: transaction.at,
        provider: refund.provider,
        provider_reference: transaction.provider_reference,
        kind: transaction.kind,
        refund_id: refund.refund_id,
        amount_minor: refund.amount_minor,
        currency: refund.currency,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
