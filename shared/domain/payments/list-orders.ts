/**
 * A client's payment orders for operators (the dashboard's Payments page and overview): the
 * orders newest first, the orders paid on a day, and one order with its attempts, provider
 * events and transactions. Orders are listed from the client's order index (gsi2, written when
 * the order is created) and paid ones from the paid index (gsi1, written when it is paid); the
 * records themselves come from the table (docs/data-model.md, patterns 28 to 30).
 */
import { errors } from '../../errors';
import { isCalendarDate } from '../../schemas/common';
import {
  type AttemptRecord,
  type BookingSync,
  clientOrdersPage,
  clientOrdersPageKey,
  getOrder,
  orderHistory,
  ordersPaidOnDay,
  type OrderStatus,
  type PaymentOrderRecord,
  type ProviderName,
} from '../../store/payment-store';
import { nextCursor, readPage } from '../paging';
import { NOT_APPLICABLE } from './order-views';
import { isGuestPageOrder } from '../../schemas/payments';

const GUEST_RETURN_URL = "the guest's confirmation page";

/** What an operator sees of an order in a list. */
export interface OrderSummary {
  order_reference: string;
  /** The partner's reference. */
  reference: string;
  amount_minor: number;
  currency: string;
  status: OrderStatus;
  created_at: string;
  paid_at: string | null;
  provider: ProviderName;
  /** `context.type` of the order (room_booking, …), or null. */
  context_type: string | null;
  /** A room booking's stay, from its context, or null. */
  stay: { check_in_date: string; check_out_date: string; guests: number | null } | null;
  customer_email: string;
  /** The guest's name, as they gave it, or null. */
  customer_name: string | null;
}

/** The whole order on its own page. */
export interface OrderDetailView extends OrderSummary {
  payment_order_id: string;
  customer: { name: string | null; email: string; phone: string | null };
  context: PaymentOrderRecord['context'] | null;
  provider_account: string | null;
  provider_reference: string;
  attempt: number;
  booking_sync: BookingSync;
  success_url: string;
  cancel_url: string;
  updated_at: string;
}

export interface ProviderEventView {
  id: string;
  at: string;
  provider: string;
  type: string;
  /** The provider's answer, as recorded. */
  data: unknown;
}

export interface TransactionView {
  id: string;
  at: string;
  provider: string;
  provider_reference: string;
  kind: string;
  amount_minor: number;
  currency: string;
}

export interface OrderDetail {
  order: OrderDetailView;
  attempts: AttemptRecord[];
  provider_events: ProviderEventView[];
  transactions: TransactionView[];
}

export function orderSummary(order: PaymentOrderRecord): OrderSummary {
  return {
    order_reference: order.order_reference,
    reference: order.external_reference,
    amount_minor: order.amount_minor,
    currency: order.currency,
    status: order.status,
    created_at: order.created_at,
    paid_at: order.paid_at ?? null,
    provider: order.provider,
    context_type: order.context?.type ?? null,
    stay:
      order.context?.check_in_date && order.context.check_out_date
        ? { check_in_date: order.context.check_in_date, check_out_date: order.context.check_out_date, guests: order.context.guests ?? null }
        : null,
    customer_email: order.customer.email,
    customer_name: order.customer.name ?? null,
  };
}

function orderDetailView(order: PaymentOrderRecord): OrderDetailView {
  return {
    ...orderSummary(order),
    payment_order_id: order.payment_order_id,
    customer: { name: order.customer.name ?? null, email: order.customer.email, phone: order.customer.phone ?? null },
    context: order.context ?? null,
    provider_account: order.provider_account ?? null,
    provider_reference: order.provider_reference,
    attempt: order.attempt,
    booking_sync: order.booking_sync ?? NOT_APPLICABLE,
    // A guest page's return URLs are the guest's confirmation page: its token stays the guest's.
    success_url: isGuestPageOrder(order) ? GUEST_RETURN_URL : order.success_url,
    cancel_url: isGuestPageOrder(order) ? GUEST_RETURN_URL : order.cancel_url,
    updated_at: order.updated_at,
  };
}

/**
 * A client's orders, newest first: at most `limit` (default and most 100) after `cursor`, and
 * the cursor of the next page when there is one.
 */
export async function listClientOrders(clientId: string, page: { limit?: number; cursor?: string } = {}): Promise<{ orders: OrderSummary[]; next_cursor?: string }> {
  const { limit, start } = readPage(page, (key) => clientOrdersPageKey(clientId, key));
  const found = await clientOrdersPage(clientId, { limit, start });
  return { orders: found.orders.map(orderSummary), ...nextCursor(found.next) };
}

/** A client's orders paid on `date` (YYYY-MM-DD, a UTC day: `paid_at` is UTC), newest first. */
export async function ordersPaidOn(clientId: string, date: string): Promise<OrderSummary[]> {
  if (!isCalendarDate(date)) throw errors.validation([{ path: 'date', message: 'must be a real calendar date in YYYY-MM-DD form' }], 'date: must be a real calendar date in YYYY-MM-DD form');
  return (await ordersPaidOnDay(clientId, date)).map(orderSummary);
}

/**
 * One order of the client with its attempts, provider events and transactions, or undefined
 * (the page answers 404) when there is no such order or it is another client's: the two are
 * indistinguishable, as in the partners' status lookup.
 */
export async function clientOrderDetail(clientId: string, orderReference: string): Promise<OrderDetail | undefined> {
  if (!orderReference || orderReference.length > 128) return undefined;
  // Read together for one round trip; the history is dropped unread when the order is not the client's.
  const [order, history] = await Promise.all([getOrder(orderReference), orderHistory(orderReference)]);
  if (!order || order.client_id !== clientId) return undefined;
  return {
    order: orderDetailView(order),
    attempts: history.attempts as unknown as AttemptRecord[],
    provider_events: history.events.map((e) => ({ id: e.id, at: e.at, provider: e.provider, type: e.type, data: e.data }) as ProviderEventView),
    transactions: history.transactions.map(
      (t) => ({ id: t.id, at: t.at, provider: t.provider, provider_reference: t.provider_reference, kind: t.kind, amount_minor: t.amount_minor, currency: t.currency }) as TransactionView,
    ),
  };
}
