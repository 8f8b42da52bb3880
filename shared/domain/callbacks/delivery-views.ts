/**
 * A client's deliveries as operators see them (the dashboard's Deliveries page and overview):
 * pages newest first, optionally by status, and the deliveries that need someone (failed or
 * needs_review). Read from the client's delivery index (gsi2) and the delivery records; kept
 * apart from deliveries.ts so a page that only lists them does not bundle the sender.
 */
import * as z from 'zod/mini';
import { type DeliveryAttempt, type DeliveryRecord, type DeliveryStatus, deliveriesPage, deliveriesPageKey } from '../../store/delivery-store';
import type { EndpointKind } from '../../store/endpoint-store';
import { invalid, nextCursor, readPage } from '../paging';

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'needs_review'] as const satisfies readonly DeliveryStatus[];
/** What an operator has to look at: retries are over, or the receiver refused the event. */
export const ATTENTION_STATUSES: readonly DeliveryStatus[] = ['failed', 'needs_review'];

/** A delivery as listed: the record without its lease, with its attempts. */
export interface DeliveryView {
  delivery_id: string;
  event: string;
  endpoint: EndpointKind;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  round_attempts: number;
  due_at: string;
  created_at: string;
  updated_at: string;
  booking_id: string | null;
  payment_order_id: string | null;
  /** The JSON body, as sent on every attempt. */
  payload: string;
}

export function deliveryView(delivery: DeliveryRecord): DeliveryView {
  return {
    delivery_id: delivery.delivery_id,
    event: delivery.event,
    endpoint: delivery.endpoint,
    status: delivery.status,
    attempts: delivery.attempts,
    round_attempts: delivery.round_attempts,
    due_at: delivery.due_at,
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
    booking_id: delivery.booking_id ?? null,
    payment_order_id: delivery.payment_order_id ?? null,
    payload: delivery.payload,
  };
}

const filterInput = z.object({ status: z.optional(z.enum(DELIVERY_STATUSES)) });

/**
 * A client's deliveries, newest first, optionally of one status: at most `limit` (default and
 * most 100) after `cursor`, and the cursor of the next page when there is one.
 */
export async function listDeliveriesPage(
  clientId: string,
  page: { status?: string; limit?: number; cursor?: string } = {},
): Promise<{ deliveries: DeliveryView[]; next_cursor?: string }> {
  const filter = filterInput.safeParse({ status: page.status });
  if (!filter.success) invalid(filter.error);
  const { limit, start } = readPage({ limit: page.limit, cursor: page.cursor }, (key) => deliveriesPageKey(clientId, key));
  const found = await deliveriesPage(clientId, { limit, start, ...(filter.data.status ? { statuses: [filter.data.status] } : {}) });
  return { deliveries: found.deliveries.map(deliveryView), ...nextCursor(found.next) };
}

/** The client's newest deliveries that are failed or need review, at most `limit` (1 to 100). */
export async function deliveriesNeedingAttention(clientId: string, limit = 20): Promise<DeliveryView[]> {
  const { limit: checked } = readPage({ limit }, () => undefined);
  return (await deliveriesPage(clientId, { limit: checked, statuses: ATTENTION_STATUSES })).deliveries.map(deliveryView);
}
