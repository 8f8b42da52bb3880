/**
 * The sandbox provider's checkout sessions on the single table (docs/behaviour.md "Sandbox
 * payment provider"): one item per session, created once, completed once; and its refunds of a
 * paid session, in the session's partition.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CheckoutState } from '../payments/provider';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { fromItem, isConditionFailure } from './items';
import { type TransactItem, transactWrite } from './transactions';

export interface SandboxSession {
  provider_reference: string;
  order_reference: string;
  amount_minor: number;
  currency: string;
  customer: { name?: string; email: string; phone?: string };
  description: string;
  /** What the checkout lists (a guest booking: the room, then its taxes), summing to the amount. */
  lines?: { name: string; amount_minor: number }[];
  /** The guest's language (a guest page's order): the page speaks it. */
  language?: string;
  return_url: string;
  state: CheckoutState;
  created_at: string;
  completed_at?: string;
  /** When it stops taking payment (a guest's room hold ends then), as a Stripe session expires. */
  expires_at?: string;
  /** What its refunds gave back so far, in minor units. */
  refunded_minor?: number;
}

/** A new session; false when one with its reference exists already. */
export async function putSandboxSession(session: SandboxSession): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.sandboxSession(session.provider_reference), entity: 'sandbox_session', ...session },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

export async function readSandboxSession(providerReference: string): Promise<SandboxSession | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.sandboxSession(providerReference), ConsistentRead: true }));
  if (!Item) return undefined;
  return fromItem<SandboxSession>(Item);
}

/**
 * Completes an open session with `state` at `now`: `before_end` only while it has not reached its
 * `expires_at` (or has none), `past_end` only once it has. The session as completed, or undefined
 * when it is unknown, completed already or on the other side of its end.
 */
export async function completeOpenSandboxSession(
  providerReference: string,
  state: CheckoutState,
  now: Date,
  when: 'before_end' | 'past_end',
): Promise<SandboxSession | undefined> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.sandboxSession(providerReference),
        UpdateExpression: 'SET #state = :state, completed_at = :now',
        ConditionExpression:
          when === 'before_end'
            ? 'attribute_exists(pk) AND #state = :open AND (attribute_not_exists(expires_at) OR expires_at > :now)'
            : 'attribute_exists(pk) AND #state = :open AND expires_at <= :now',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':state': state, ':now': now.toISOString(), ':open': 'open' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem<SandboxSession>(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

// ---- refunds

/** A refund the sandbox made of a paid session (one item per refund id; the session keeps the refunded total). */
export interface SandboxRefund {
  refund_id: string;
  provider_refund_id: string;
  provider_reference: string;
  amount_minor: number;
  currency: string;
  state: 'succeeded' | 'failed';
  failure_reason?: string;
  created_at: string;
}

/**
 * Records a refund once: a succeeded one adds its amount to the session's refunded total, only while
 * the session is paid and that total stays within what was paid. The refund as recorded (an earlier
 * one of the same id, if any), undefined when the session refused it, `busy` when concurrent
 * refunds kept it from being written.
 */
export async function putSandboxRefund(refund: SandboxRefund): Promise<SandboxRefund | 'busy' | undefined> {
  for (let round = 0; round < 10; round++) {
    const session = refund.state === 'succeeded' ? await readSandboxSession(refund.provider_reference) : undefined;
    const refused = session && (session.state !== 'paid' || (session.refunded_minor ?? 0) + refund.amount_minor > session.amount_minor);
    if (refund.state === 'succeeded' && (!session || refused)) return readSandboxRefund(refund.provider_reference, refund.refund_id);
    const items: TransactItem[] = [
      {
        Put: {
          TableName: TABLE,
          Item: { ...keys.sandboxRefund(refund.provider_reference, refund.refund_id), entity: 'sandbox_refund', ...refund },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    if (session) {
      const read = session.refunded_minor ?? 0;
      items.push({
        Update: {
          TableName: TABLE,
          Key: keys.sandboxSession(refund.provider_reference),
          UpdateExpression: 'SET refunded_minor = :next',
          // The total read is still the total: a concurrent refund makes this round read again.
          ConditionExpression: read === 0 ? '#state = :paid AND attribute_not_exists(refunded_minor)' : '#state = :paid AND refunded_minor = :read',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':next': read + refund.amount_minor, ':paid': 'paid', ...(read === 0 ? {} : { ':read': read }) },
        },
      });
    }
    try {
      await transactWrite(items);
      return refund;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const recorded = await readSandboxRefund(refund.provider_reference, refund.refund_id);
      if (recorded) return recorded;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
  return 'busy';
}

export async function readSandboxRefund(providerReference: string, refundId: string): Promise<SandboxRefund | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.sandboxRefund(providerReference, refundId), ConsistentRead: true }));
  return Item ? fromItem<SandboxRefund>(Item) : undefined;
}
