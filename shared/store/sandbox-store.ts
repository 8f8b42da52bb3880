/**
 * The sandbox provider's checkout sessions on the single table (docs/behaviour.md "Sandbox
 * payment provider"): one item per session, created once, completed once.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CheckoutState } from '../payments/provider';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { fromItem, isConditionFailure } from './items';

export interface SandboxSession {
  provider_reference: string;
  order_reference: string;
  amount_minor: number;
  currency: string;
  customer: { name?: string; email: string; phone?: string };
  description: string;
  return_url: string;
  state: CheckoutState;
  created_at: string;
  completed_at?: string;
  /** When it stops taking payment (a guest's room hold ends then), as a Stripe session expires. */
  expires_at?: string;
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
