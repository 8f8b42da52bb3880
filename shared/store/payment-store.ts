/**
 * Payment orders on the single table. An order lives under its own reference, with its
 * attempts, provider events and transactions in the same partition (one Query reads them all);
 * a guard item keeps the partner's reference unique per client.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, type PageKey, queryAll, queryPage, tableItemsOf } from './batch';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { getConfigItem } from './client-config';
import type { TransactItem } from './transactions';
import { newId } from '../ids';
import { fromItem, isConditionFailure } from './items';

/** `partially_refunded` and `refunded`: a paid order after refunds (shared/domain/payments/refunds.ts). */
export type OrderStatus = 'processing' | 'paid' | 'failed' | 'cancelled' | 'expired' | 'partially_refunded' | 'refunded';

export interface BookingSync {
  status: 'synced' | 'not_applicable' | 'failed';
  booking_id: string | null;
  booking_reference: string | null;
  confirmation_code: string | null;
  room_id: string | null;
  room_assignment: 'locked' | 'manual' | null;
  /**
   * Paid below its room's rate total, or in another currency than the client's (the rate check,
   * docs/behaviour.md "Payment orders"). Absent on orders settled before the check existed: false.
   */
  below_rate?: boolean;
  /** Why a synced booking awaits manual assignment: `below_rate` when the client's setting kept it from its room. */
  room_assignment_reason?: 'below_rate' | null;
}

export interface PaymentOrderRecord {
  payment_order_id: string;
  order_reference: string;
  external_reference: string;
  client_id: string;
  status: OrderStatus;
  amount_minor: number;
  currency: string;
  customer: { name?: string; email: string; phone?: string };
  /** A guest page's order: the language the guest booked in, for its checkout, booking and e-mails (shared/i18n/languages.ts). */
  language?: string;
  context?: {
    type?: string;
    booking_id?: string;
    department?: string;
    check_in_date?: string;
    check_out_date?: string;
    guests?: number;
    service_room_id?: string;
    /** The rate plan the stay was sold on: the rate check compares with its total. */
    external_rate_plan_id?: string;
    /** Of the amount, the taxes (a guest page's order): the booking's room revenue is the rest. */
    taxes_minor?: number;
  };
  success_url: string;
  cancel_url: string;
  /** Provider of the current attempt, and the provider account it was created on (Stripe's acct_…). */
  provider: ProviderName;
  provider_account?: string;
  provider_reference: string;
  checkout_url: string;
  /** Number of the current payment attempt (1 on creation). */
  attempt: number;
  /** SHA-256 of the current attempt's return secret (order-references.ts), absent on older orders. */
  return_secret_hash?: string;
  paid_at?: string;
  booking_sync?: BookingSync;
  /** Refunds that succeeded, in minor units (absent: none). */
  amount_refunded_minor?: number;
  /** Refunds succeeded, pending or in flight: never more than `amount_minor` (shared/store/refund-store.ts). */
  refunds_reserved_minor?: number;
  created_at: string;
  updated_at: string;
}

export interface AttemptRecord {
  attempt: number;
  provider: ProviderName;
  provider_account?: string;
  provider_reference: string;
  checkout_url: string;
  outcome: 'open' | 'paid' | 'failed' | 'cancelled' | 'expired';
  created_at: string;
  updated_at: string;
}

export async function getOrder(orderReference: string): Promise<PaymentOrderRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.paymentOrder(orderReference), ConsistentRead: true }));
  return Item ? fromItem<PaymentOrderRecord>(Item) : undefined;
}

/** Many orders by their references at once (BatchGetItem), by reference; the ones not found left out. */
export async function getOrders(orderReferences: readonly string[]): Promise<Map<string, PaymentOrderRecord>> {
  if (orderReferences.length === 0) return new Map();
  const items = await batchGet(orderReferences.map((reference) => keys.paymentOrder(reference)));
  return new Map(items.map((item) => fromItem<PaymentOrderRecord>(item)).map((order) => [order.order_reference, order]));
}

export async function findOrderByExternalReference(clientId: string, reference: string): Promise<PaymentOrderRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.orderByExternalReference(clientId, reference), ConsistentRead: true }),
  );
  return Item ? getOrder(Item.order_reference as string) : undefined;
}

/**
 * The order's item: its own key, the client's order list (gsi2, from creation on) and, once paid,
 * the client's paid orders (gsi1, by payment time). Every write of the whole order goes through
 * here, so replacing an order never takes it off a list.
 */
function orderItem(order: PaymentOrderRecord) {
  return {
    ...keys.paymentOrder(order.order_reference),
    ...keys.orderOfClient(order.client_id, order.created_at, order.order_reference),
    ...(order.status === 'paid' && order.paid_at ? keys.paidOrderOfClient(order.client_id, order.paid_at, order.order_reference) : {}),
    entity: 'payment_order',
    ...order,
  };
}

function attemptItem(orderReference: string, attempt: AttemptRecord) {
  return { ...keys.paymentAttempt(orderReference, attempt.attempt), entity: 'payment_attempt', ...attempt };
}

/** Puts an attempt's record (a new attempt, or the current one as it closes). */
export function attemptPutItem(orderReference: string, attempt: AttemptRecord): TransactItem {
  return { Put: { TableName: TABLE, Item: attemptItem(orderReference, attempt) } };
}

/** The items creating an order: reference guard, order and first attempt (all conditional). */
export function newOrderItems(order: PaymentOrderRecord, attempt: AttemptRecord): TransactItem[] {
  return [
    {
      Put: {
        TableName: TABLE,
        Item: { ...keys.orderByExternalReference(order.client_id, order.external_reference), entity: 'order_reference', order_reference: order.order_reference },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: TABLE, Item: orderItem(order), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: TABLE, Item: attemptItem(order.order_reference, attempt), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...stayOrderItems(order),
  ];
}

// ---- the orders of one stay

/** Orders of one stay read at most (a guest's declined, expired and cancelled checkouts before the paid one). */
export const STAY_ORDERS = 10;

/**
 * A stay as a key: its dates and the guest's e-mail (SHA-256, never the address itself);
 * undefined without dates or e-mail.
 */
export function stayKeyOf(stay: { check_in_date?: string | null; check_out_date?: string | null; email?: string | null }): string | undefined {
  const email = stay.email?.trim().toLowerCase();
  if (!stay.check_in_date || !stay.check_out_date || !email) return undefined;
  return `${stay.check_in_date}#${stay.check_out_date}#${createHash('sha256').update(email).digest('hex').slice(0, 32)}`;
}

/** The stay key of an order (its context's dates and its customer's e-mail). */
export const orderStayKey = (order: Pick<PaymentOrderRecord, 'context' | 'customer'>) =>
  stayKeyOf({ check_in_date: order.context?.check_in_date, check_out_date: order.context?.check_out_date, email: order.customer?.email });

/** The link from the order's stay to the order, put with the order. */
function stayOrderItems(order: PaymentOrderRecord): TransactItem[] {
  const stayKey = orderStayKey(order);
  if (!stayKey) return [];
  const item = { ...keys.stayOrder(order.client_id, stayKey, order.created_at, order.order_reference), entity: 'stay_order', order_reference: order.order_reference };
  return [{ Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }];
}

/** The references of the client's orders opened for one stay (`orderStayKey`), oldest first, at most STAY_ORDERS. */
export async function stayOrderReferences(clientId: string, stayKey: string): Promise<string[]> {
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': `CLIENT#${clientId}`, ':prefix': keys.stayOrdersPrefix(stayKey) },
      ProjectionExpression: 'order_reference',
      Limit: STAY_ORDERS,
    }),
  );
  return Items.map((item) => String(item.order_reference));
}

/** Replaces the order if it is still in the state it was read in (status and attempt). */
export function orderUpdateItem(next: PaymentOrderRecord, read: Pick<PaymentOrderRecord, 'status' | 'attempt'>): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: orderItem(next),
      ConditionExpression: '#status = :status AND attempt = :attempt',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': read.status, ':attempt': read.attempt },
    },
  };
}

/** The current attempt closed with an outcome, and the provider's answer kept as its event. */
export function settledAttemptItems(order: PaymentOrderRecord, outcome: AttemptRecord['outcome'], providerAnswer: unknown, at: string): TransactItem[] {
  const attempt: AttemptRecord = {
    attempt: order.attempt,
    provider: order.provider,
    ...(order.provider_account ? { provider_account: order.provider_account } : {}),
    provider_reference: order.provider_reference,
    checkout_url: order.checkout_url,
    outcome,
    created_at: order.updated_at,
    updated_at: at,
  };
  return [
    attemptPutItem(order.order_reference, attempt),
    providerEventItem(order.order_reference, { id: newId(), at, provider: order.provider, type: `payment.${outcome}`, data: providerAnswer }),
  ];
}

export function providerEventItem(orderReference: string, event: { id: string; at: string; provider: string; type: string; data: unknown }): TransactItem {
  return { Put: { TableName: TABLE, Item: { ...keys.providerEvent(orderReference, event.at, event.id), entity: 'provider_event', ...event } } };
}

export function transactionItem(
  orderReference: string,
  transaction: { id: string; at: string; provider: string; provider_reference: string; kind: 'payment'; amount_minor: number; currency: string },
): TransactItem {
  return {
    Put: {
      TableName: TABLE,
      Item: { ...keys.paymentTransaction(orderReference, transaction.id), entity: 'payment_transaction', ...transaction },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** An order's attempts, provider events and transactions. */
export async function orderHistory(orderReference: string) {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.orderPartition(orderReference), ':from': 'A', ':to': 'U' },
    ConsistentRead: true,
  });
  const of = (prefix: string) => items.filter((i) => (i.sk as string).startsWith(prefix)).map((i) => fromItem<Record<string, unknown>>(i));
  return { attempts: of('ATTEMPT#'), events: of('EVENT#'), transactions: of('TXN#'), refunds: of('REFUND#') };
}

// ---- a client's orders

/**
 * The start key a cursor of this client's order list may name: the client's order index and the
 * order item that index entry names, else undefined.
 */
export function clientOrdersPageKey(clientId: string, key: PageKey): PageKey | undefined {
  const entry = key.gsi2sk === undefined ? undefined : keys.orderOfClientEntry(key.gsi2sk);
  return entry && { ...keys.paymentOrder(entry.id), ...keys.orderOfClient(clientId, entry.at, entry.id) };
}

/**
 * At most `limit` of a client's orders, newest first, after `start`: the order index (gsi2, keys
 * and `status` only) names them, BatchGetItem reads them.
 */
export async function clientOrdersPage(clientId: string, page: { limit: number; start?: PageKey }): Promise<{ orders: PaymentOrderRecord[]; next?: PageKey }> {
  const { items, next } = await queryPage(
    { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': keys.ordersOfClient(clientId) }, ScanIndexForward: false },
    page,
  );
  return { orders: (await tableItemsOf(items)).map((item) => fromItem<PaymentOrderRecord>(item)), next };
}

/** A client's orders paid on a UTC calendar day, newest first: the paid index (gsi1) for that day, then BatchGetItem. */
export async function ordersPaidOnDay(clientId: string, date: string): Promise<PaymentOrderRecord[]> {
  const day = keys.paidOnDay(date);
  const listed = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.paidOrdersOfClient(clientId), ':from': day.from, ':to': day.to },
    ScanIndexForward: false,
  });
  return (await tableItemsOf(listed)).map((item) => fromItem<PaymentOrderRecord>(item));
}

// ---- provider settings

export type ProviderName = 'sandbox' | 'stripe';

/** A provider and the account on it that checkouts are created on: a client's setting, and each attempt's record. */
export interface ProviderSettings {
  provider: ProviderName;
  /** Stripe connected account (acct_…) the payments go to. */
  account?: string;
}

/**
 * The client's configured provider, or undefined when none was configured (an "unset" item); of a
 * client before the configuration partition, at its legacy key (shared/store/client-config.ts).
 */
export async function getProviderSettings(clientId: string): Promise<ProviderSettings | undefined> {
  const Item = await getConfigItem(keys.providerSettings(clientId), keys.legacyProviderSettings(clientId));
  return Item?.provider ? { provider: Item.provider, ...(Item.account ? { account: Item.account } : {}) } : undefined;
}

/** Puts the whole settings in the configuration partition (a legacy item is shadowed from then on). */
export async function putProviderSettings(clientId: string, settings: ProviderSettings): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.providerSettings(clientId), entity: 'provider_settings', ...settings } }));
}

// ---- Stripe connected accounts linked by the platform

export interface LinkedStripeAccount {
  account: string;
  linked_at: string;
}

/**
 * Links a connected account to the client (idempotent: a second link keeps the first time).
 * Returns the link as stored.
 */
export async function putLinkedStripeAccount(clientId: string, link: LinkedStripeAccount): Promise<LinkedStripeAccount> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.linkedStripeAccount(clientId, link.account), entity: 'linked_stripe_account', ...link },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return link;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await getLinkedStripeAccount(clientId, link.account))!;
  }
}

export async function getLinkedStripeAccount(clientId: string, account: string): Promise<LinkedStripeAccount | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.linkedStripeAccount(clientId, account), ConsistentRead: true }));
  return Item ? fromItem<LinkedStripeAccount>(Item) : undefined;
}

/** The client's linked accounts, in account id order. */
export async function listLinkedStripeAccounts(clientId: string): Promise<LinkedStripeAccount[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.clientConfigPartition(clientId).pk, ':prefix': keys.linkedStripeAccountPrefix },
    ConsistentRead: true,
  });
  return items.map((item) => fromItem<LinkedStripeAccount>(item));
}
