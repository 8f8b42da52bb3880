/**
 * A client's deliveries as operators see them (the dashboard's Deliveries page and overview):
 * pages newest first, optionally by status, and the deliveries that need someone (failed or
 * needs_review), each named by the guest, room and stay it is about; and the state of a
 * booking's notifications to the PMS. Read from the client's delivery index (gsi2) and the
 * delivery records; kept apart from deliveries.ts so a page that only lists them does not
 * bundle the sender.
 */
import * as z from 'zod/mini';
import { DELIVERY_STATUSES, RETRYABLE_DELIVERY_STATUSES } from '../../schemas/deliveries';
import { onFirstUse } from '../../schemas/on-first-use';
import { batchGet } from '../../store/batch';
import {
  bookingConfirmedDeliveryIds,
  type DeliveryRecord,
  type DeliveryStatus,
  getDeliveries,
} from '../../store/delivery-store';
import { deliveriesPage, deliveriesPageKey } from '../../store/delivery-listings';
import { fromItem } from '../../store/items';
import { keys } from '../../store/keys';
import type { PaymentOrderRecord } from '../../store/payment-store';
import type { RoomRecord } from '../../store/room-store';
import { invalid, nextCursor, readPage } from '../paging';

export { DELIVERY_STATUSES };
/** What an operator has to look at: retries are over, or the receiver refused the event. */
export const ATTENTION_STATUSES: readonly DeliveryStatus[] = RETRYABLE_DELIVERY_STATUSES;

/**
 * Who and what a delivery is about, as staff know them: a booking's guest, room and stay (from a
 * booking event's payload, as sent), or a paid order's customer and stay (from the order). Null
 * where the delivery does not say.
 */
export interface DeliveryAbout {
  guest_name: string | null;
  room_number: string | null;
  check_in_date: string | null;
  check_out_date: string | null;
  booking_id: string | null;
  booking_reference: string | null;
  order_reference: string | null;
}

/**
 * A delivery as listed: the record (its payload and attempts included) without its client and
 * lease, its optional links as null, and what it is about.
 */
export type DeliveryView = Omit<DeliveryRecord, 'client_id' | 'lease_until' | 'booking_id' | 'payment_order_id'> & {
  booking_id: string | null;
  payment_order_id: string | null;
  about: DeliveryAbout;
};

interface BookingPayload {
  booking?: { id?: string; booking_reference?: string; guest_name?: string; check_in_date?: string; check_out_date?: string };
  room?: { room_number?: string } | null;
  payment_order?: { order_reference?: string };
}

function parsedPayload(payload: string): BookingPayload {
  try {
    const parsed = JSON.parse(payload) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as BookingPayload) : {};
  } catch {
    return {};
  }
}

const textOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** What the payload says the delivery is about; a paid order's guest and stay come from the order. */
function aboutOf(delivery: DeliveryRecord, order?: PaymentOrderRecord, roomNumberOf?: (roomId: string) => string | undefined): DeliveryAbout {
  const payload = parsedPayload(delivery.payload);
  const booking = payload.booking;
  const roomId = order?.booking_sync?.room_id;
  return {
    guest_name: textOrNull(booking?.guest_name) ?? textOrNull(order?.customer.name),
    room_number: textOrNull(payload.room?.room_number) ?? (roomId ? (roomNumberOf?.(roomId) ?? null) : null),
    check_in_date: textOrNull(booking?.check_in_date) ?? textOrNull(order?.context?.check_in_date),
    check_out_date: textOrNull(booking?.check_out_date) ?? textOrNull(order?.context?.check_out_date),
    booking_id: textOrNull(booking?.id) ?? delivery.booking_id ?? textOrNull(order?.booking_sync?.booking_id),
    booking_reference: textOrNull(booking?.booking_reference) ?? textOrNull(order?.booking_sync?.booking_reference),
    order_reference: textOrNull(payload.payment_order?.order_reference),
  };
}

export function deliveryView(delivery: DeliveryRecord, order?: PaymentOrderRecord, roomNumberOf?: (roomId: string) => string | undefined): DeliveryView {
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
    about: aboutOf(delivery, order, roomNumberOf),
  };
}

/**
 * Deliveries as staff see them, each named by its guest, room and stay. A booking event's
 * payload names them; a payment webhook's order does: the orders of the page's webhooks, and the
 * rooms those orders were given, are read by key (BatchGetItem), so the cost follows the page's
 * length, not the client's history.
 */
export async function describeDeliveries(clientId: string, deliveries: readonly DeliveryRecord[]): Promise<DeliveryView[]> {
  const references = new Set<string>();
  for (const delivery of deliveries) {
    const reference = delivery.event.startsWith('payment_order.') ? textOrNull(parsedPayload(delivery.payload).payment_order?.order_reference) : null;
    if (reference) references.add(reference);
  }
  const orders = new Map<string, PaymentOrderRecord>();
  if (references.size) {
    for (const item of await batchGet([...references].map((reference) => keys.paymentOrder(reference)))) {
      const order = fromItem<PaymentOrderRecord>(item);
      if (order.client_id === clientId) orders.set(order.order_reference, order);
    }
  }
  const roomIds = new Set([...orders.values()].flatMap((order) => (order.booking_sync?.room_id ? [order.booking_sync.room_id] : [])));
  const roomNumbers = new Map<string, string>();
  if (roomIds.size) {
    for (const item of await batchGet([...roomIds].map((roomId) => keys.room(clientId, roomId)))) {
      const room = fromItem<RoomRecord>(item);
      roomNumbers.set(room.id, room.room_number);
    }
  }
  return deliveries.map((delivery) => {
    const reference = parsedPayload(delivery.payload).payment_order?.order_reference;
    return deliveryView(delivery, reference ? orders.get(reference) : undefined, (roomId) => roomNumbers.get(roomId));
  });
}

const filterInput = onFirstUse(() => z.object({ status: z.optional(z.enum(DELIVERY_STATUSES)) }));

/**
 * A client's deliveries, newest first, optionally of one status: at most `limit` (default and
 * most 100) after `cursor`, and the cursor of the next page when there is one.
 */
export async function listDeliveriesPage(
  clientId: string,
  page: { status?: string; limit?: number; cursor?: string } = {},
): Promise<{ deliveries: DeliveryView[]; next_cursor?: string }> {
  const filter = filterInput().safeParse({ status: page.status });
  if (!filter.success) invalid(filter.error);
  const { limit, start } = readPage({ limit: page.limit, cursor: page.cursor }, (key) => deliveriesPageKey(clientId, key));
  const found = await deliveriesPage(clientId, { limit, start, ...(filter.data.status ? { statuses: [filter.data.status] } : {}) });
  return { deliveries: await describeDeliveries(clientId, found.deliveries), ...nextCursor(found.next) };
}

/** The client's newest deliveries that are failed or need review, at most `limit` (1 to 100). */
export async function deliveriesNeedingAttention(clientId: string, limit = 20): Promise<DeliveryView[]> {
  const { limit: checked } = readPage({ limit }, () => undefined);
  return describeDeliveries(clientId, (await deliveriesPage(clientId, { limit: checked, statuses: ATTENTION_STATUSES })).deliveries);
}

/**
 * Whether the PMS has a booking the service made, as its `booking.confirmed` deliveries say:
 * `received` once the newest was delivered; `not_received` while it is not (waiting, failed or
 * refused), with the delivery to retry; `none` when the booking has no such delivery (the PMS
 * made it, the client had no callback URL, or it was confirmed before deliveries were named by
 * booking).
 */
export type PmsReceipt =
  | { state: 'none' }
  | { state: 'received'; delivery_id: string; at: string }
  | { state: 'not_received'; delivery_id: string; status: DeliveryStatus; retryable: boolean; earlier_delivered: boolean };

/**
 * The PMS receipt of each of these bookings (the client's), by booking id: their
 * `booking.confirmed` deliveries read by id (two possible ids a booking, BatchGetItem), so the
 * cost follows the number of bookings asked about, not the client's history.
 */
export async function pmsReceipts(clientId: string, bookingIds: readonly string[]): Promise<Map<string, PmsReceipt>> {
  const found = bookingIds.length ? await getDeliveries(bookingIds.flatMap((id) => bookingConfirmedDeliveryIds(clientId, id))) : [];
  const byBooking = new Map<string, DeliveryRecord[]>();
  for (const delivery of found) {
    if (delivery.client_id !== clientId || !delivery.booking_id) continue;
    byBooking.set(delivery.booking_id, [...(byBooking.get(delivery.booking_id) ?? []), delivery]);
  }
  return new Map(
    bookingIds.map((bookingId): [string, PmsReceipt] => {
      const deliveries = (byBooking.get(bookingId) ?? []).sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
      const newest = deliveries.at(-1);
      if (!newest) return [bookingId, { state: 'none' }];
      if (newest.status === 'delivered') return [bookingId, { state: 'received', delivery_id: newest.delivery_id, at: newest.attempts.at(-1)?.at ?? newest.updated_at }];
      return [
        bookingId,
        {
          state: 'not_received',
          delivery_id: newest.delivery_id,
          status: newest.status,
          retryable: ATTENTION_STATUSES.includes(newest.status),
          earlier_delivered: deliveries.some((d) => d.status === 'delivered'),
        },
      ];
    }),
  );
}
