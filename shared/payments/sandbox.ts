/**
 * The sandbox provider (CONTRACT.md "Sandbox payment provider"): its checkout sessions live on
 * the table; its hosted page lets a tester choose paid, cancelled or failed.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SandboxOutcome } from '../schemas/payments';
import { db, TABLE } from '../store/dynamo';
import { keys } from '../store/keys';
import type { Checkout, CheckoutRequest, CheckoutState, PaymentProvider, ProviderPayment } from './provider';

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
}


export function sandboxProvider(baseUrl: string): PaymentProvider {
  return {
    name: 'sandbox',
    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      // One session per order and attempt, like Stripe's idempotency key: a concurrent create reuses it.
      const providerReference = `sbx_${createHash('sha256').update(`${request.orderReference}:${request.attempt}`).digest('hex').slice(0, 24)}`;
      const session: SandboxSession = {
        provider_reference: providerReference,
        order_reference: request.orderReference,
        amount_minor: request.amountMinor,
        currency: request.currency,
        customer: request.customer,
        description: request.description,
        return_url: request.returnUrl,
        state: 'open',
        created_at: new Date().toISOString(),
      };
      try {
        await db.send(
          new PutCommand({
            TableName: TABLE,
            Item: { ...keys.sandboxSession(providerReference), entity: 'sandbox_session', ...session },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
      } catch (error) {
        if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      }
      return { providerReference, checkoutUrl: `${baseUrl}/sandbox/checkout/${providerReference}` };
    },
    async getPayment(providerReference: string): Promise<ProviderPayment> {
      const session = await getSandboxSession(providerReference);
      if (!session) return { state: 'failed', amountMinor: 0, currency: '', raw: { error: 'unknown checkout session' } };
      return {
        state: session.state,
        amountMinor: session.amount_minor,
        currency: session.currency,
        ...(session.state === 'paid' ? { paymentId: `sbx_pay_${providerReference.slice(4)}` } : {}),
        raw: { id: providerReference, state: session.state, amount_minor: session.amount_minor, currency: session.currency, completed_at: session.completed_at ?? null },
      };
    },
  };
}

export async function getSandboxSession(providerReference: string): Promise<SandboxSession | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.sandboxSession(providerReference), ConsistentRead: true }));
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, entity: _entity, ...session } = Item;
  return session as SandboxSession;
}

/** The tester's choice on the hosted page; a session is completed once. */
export async function completeSandboxSession(providerReference: string, outcome: SandboxOutcome, now = new Date()): Promise<SandboxSession | undefined> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.sandboxSession(providerReference),
        UpdateExpression: 'SET #state = :outcome, completed_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND #state = :open',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':outcome': outcome, ':now': now.toISOString(), ':open': 'open' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const { pk: _pk, sk: _sk, entity: _entity, ...session } = Attributes!;
    return session as SandboxSession;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return getSandboxSession(providerReference);
    throw error;
  }
}
