/**
 * A booking's whole story for staff (the dashboard's booking page): how it was made, its payment
 * (the order, each attempt, the provider's events, payments and refunds), every notification to
 * the PMS with its state, the e-mails to the guest, check-in and check-out, and every staff
 * action, newest first; and the facts its page shows on top, rooms named by number and category.
 *
 * Bounded: every read is by key or of the booking's own records, so its cost does not grow with
 * the client's history. The booking, the client, the booking's `booking.confirmed` deliveries (two
 * name-based ids), its two possible e-mails (name-based ids), the staff actions kept under the
 * booking (at most STAFF_ACTIONS, and DELIVERY_ACTIONS under each delivery); then its order with
 * its own history, the other orders opened for its stay (at most STAY_ORDERS, a declined checkout
 * before the paid one: ../payments/stay-orders.ts) with theirs, and the rooms those name.
 */
import { getClient } from '../../store/api-key-store';
import { bookingConfirmedDeliveryIds, type DeliveryRecord, type DeliveryStatus, getDeliveries } from '../../store/delivery-store';
import { type EmailKind, type EmailStatus, type EmailRecord, getEmail } from '../../store/email-store';
import { type AttemptRecord, getOrder, orderHistory, type PaymentOrderRecord } from '../../store/payment-store';
import { type BookingRecord, getBooking } from '../../store/booking-store';
import { type AuditEntry, auditAbout } from '../audit';
import { guestEmailId } from '../guest-email/outbox';
import { isGuestPageOrder } from '../../schemas/payments';
import { otherOrdersOfBooking } from '../payments/stay-orders';
import { awaitingRoom, type RoomName, roomNames } from './room-names';

export type { RoomName } from './room-names';

/** Staff actions about the booking shown at most; older ones are on the Audit page. */
export const STAFF_ACTIONS = 25;
/** Staff actions about each of its deliveries (a retry) shown at most. */
export const DELIVERY_ACTIONS = 5;

/** How the booking came to be. */
export type BookingWay =
  | 'pms' // synced from the PMS
  | 'reception' // made by staff (dashboard or operator CLI)
  | 'booking_page_at_hotel' // the guest booking page, paying at the hotel, confirmed by the e-mail's link
  | 'booking_page_paid' // the guest booking page, paid online
  | 'online_paid'; // a partner's website, paid through a payment order

export interface OrderFacts {
  order_reference: string;
  status: PaymentOrderRecord['status'];
  amount_minor: number;
  currency: string;
  /** What was paid, less refunds (minor units). */
  paid_minor: number;
  refunded_minor: number;
  /** Refunded or with the provider: no longer refundable. */
  reserved_minor: number;
  paid_at: string | null;
  from_booking_page: boolean;
}

export type StoryEntry = { at: string } & (
  | { kind: 'booked'; way: BookingWay; operator: string | null; external_source: string | null; external_booking_id: string | null; order: OrderFacts | null; without_room: boolean }
  | { kind: 'order_opened'; order_reference: string; amount_minor: number; currency: string }
  /** `other_order`: the reference of an order of the same stay that is not the booking's own (a declined checkout before the paid one). */
  | { kind: 'payment_attempt'; attempt: number; outcome: AttemptRecord['outcome']; provider: string; other_order: string | null }
  | { kind: 'provider_event'; provider: string; type: string }
  | { kind: 'money'; transaction_kind: string; amount_minor: number; currency: string; provider: string }
  | {
      kind: 'pms_notification';
      delivery_id: string;
      event: string;
      /** The room number the notification carried; null while the booking had none. */
      room_number: string | null;
      status: DeliveryStatus;
      attempts: number;
      last_error: string | null;
      /** While it waits: when it is tried next. */
      next_at: string | null;
      retryable: boolean;
      /**
       * A later notification of the same event tells the PMS the booking as it is now (the room
       * assigned since): this one needs no retry, and sending it again would tell an old state.
       */
      replaced_by_room: string | null | false;
    }
  | { kind: 'email'; email_kind: EmailKind; status: EmailStatus; to: string; attempts: number; last_error: string | null; next_at: string | null }
  | { kind: 'staff'; entry: AuditEntry; room: RoomName | null }
  | { kind: 'checked_in' }
  | { kind: 'checked_out' }
  /** Cancelled by the guest or the PMS (staff's cancellation is their action's entry). */
  | { kind: 'cancelled'; by: 'guest' | 'pms'; reason: string | null }
);

export interface BookingStory {
  booking: BookingRecord;
  room: RoomName | null;
  /** A service-made booking, still active, that has no room yet. */
  awaiting_room: boolean;
  /** The client's currency: the booking's total is in it. */
  currency: string;
  order: OrderFacts | null;
  /** Newest first. */
  entries: StoryEntry[];
  /** Older staff actions than those shown exist (on the Audit page). */
  more_staff_actions: boolean;
}

const RETRYABLE: readonly DeliveryStatus[] = ['failed', 'needs_review'];

function orderFacts(order: PaymentOrderRecord, transactions: readonly Record<string, unknown>[]): OrderFacts {
  const sum = (kind: string) => transactions.filter((t) => t.kind === kind).reduce((total, t) => total + Number(t.amount_minor ?? 0), 0);
  const paid = sum('payment') || (order.status === 'paid' ? order.amount_minor : 0);
  return {
    order_reference: order.order_reference,
    status: order.status,
    amount_minor: order.amount_minor,
    currency: order.currency,
    paid_minor: paid,
    refunded_minor: order.amount_refunded_minor ?? sum('refund'),
    reserved_minor: order.refunds_reserved_minor ?? order.amount_refunded_minor ?? sum('refund'),
    paid_at: order.paid_at ?? null,
    from_booking_page: isGuestPageOrder(order),
  };
}

/** The order's own history as story entries. */
function orderEntries(order: PaymentOrderRecord, history: Awaited<ReturnType<typeof orderHistory>>, own = true): StoryEntry[] {
  const text = (value: unknown) => String(value ?? '');
  return [
    { at: order.created_at, kind: 'order_opened', order_reference: order.order_reference, amount_minor: order.amount_minor, currency: order.currency },
    ...history.attempts.map(
      (a): StoryEntry => ({
        at: text(a.outcome === 'open' ? a.created_at : a.updated_at),
        kind: 'payment_attempt',
        attempt: Number(a.attempt),
        outcome: a.outcome as AttemptRecord['outcome'],
        provider: text(a.provider),
        other_order: own ? null : order.order_reference,
      }),
    ),
    ...history.events.map((e): StoryEntry => ({ at: text(e.at), kind: 'provider_event', provider: text(e.provider), type: text(e.type) })),
    ...history.transactions.map(
      (t): StoryEntry => ({
        at: text(t.at),
        kind: 'money',
        transaction_kind: text(t.kind),
        amount_minor: Number(t.amount_minor ?? 0),
        currency: text(t.currency),
        provider: text(t.provider),
      }),
    ),
  ];
}

/** The room number a notification carried, from its payload as sent. */
function notifiedRoom(delivery: DeliveryRecord): string | null {
  try {
    const number = (JSON.parse(delivery.payload) as { room?: { room_number?: unknown } | null }).room?.room_number;
    return typeof number === 'string' && number ? number : null;
  } catch {
    return null;
  }
}

function notificationEntry(delivery: DeliveryRecord, all: readonly DeliveryRecord[]): StoryEntry {
  const last = delivery.attempts.at(-1);
  const waiting = delivery.status === 'pending' || delivery.status === 'retrying';
  const later = all.filter((d) => d.event === delivery.event && d.created_at > delivery.created_at).sort((a, b) => (a.created_at < b.created_at ? 1 : -1))[0];
  return {
    at: delivery.status === 'pending' ? delivery.updated_at : (last?.at ?? delivery.updated_at),
    kind: 'pms_notification',
    delivery_id: delivery.delivery_id,
    event: delivery.event,
    room_number: notifiedRoom(delivery),
    status: delivery.status,
    attempts: delivery.attempts.length,
    last_error: last?.error ?? null,
    next_at: waiting ? delivery.due_at : null,
    retryable: RETRYABLE.includes(delivery.status) && !later,
    replaced_by_room: later ? notifiedRoom(later) : false,
  };
}

function emailEntry(email: EmailRecord): StoryEntry {
  return {
    at: email.sent_at ?? email.last_attempt_at ?? email.created_at,
    kind: 'email',
    email_kind: email.kind,
    status: email.status,
    to: email.to,
    attempts: email.attempts,
    last_error: email.last_error ?? null,
    next_at: email.status === 'pending' || email.status === 'retrying' ? (email.due_at ?? null) : null,
  };
}

/** Of the steps of one instant, which came later: a booking after the payment that made it. */
const STEP: Record<StoryEntry['kind'], number> = {
  order_opened: 0,
  payment_attempt: 1,
  provider_event: 2,
  money: 3,
  booked: 4,
  staff: 5,
  pms_notification: 6,
  email: 7,
  checked_in: 8,
  checked_out: 9,
  cancelled: 5,
};

const newestFirst = (entries: StoryEntry[]) => [...entries].sort((a, b) => (a.at === b.at ? STEP[b.kind] - STEP[a.kind] : a.at < b.at ? 1 : -1));

function wayOf(booking: BookingRecord, order: PaymentOrderRecord | undefined, confirmLink: EmailRecord | undefined): BookingWay {
  if (booking.origin === 'sync') return 'pms';
  if (booking.origin === 'payment') return order && isGuestPageOrder(order) ? 'booking_page_paid' : 'online_paid';
  return confirmLink ? 'booking_page_at_hotel' : 'reception';
}

/** Change e-mails looked up at most: one per event after the confirmation. */
const CHANGE_EMAILS = 20;

/** The e-mails of the booking's changes and cancellation: named by kind and the event's sequence. */
function changeEmailIds(clientId: string, booking: BookingRecord): string[] {
  const last = Math.min(booking.sequence ?? 1, CHANGE_EMAILS + 1);
  const ids: string[] = [];
  for (let sequence = 2; sequence <= last; sequence++) {
    for (const kind of ['booking_modified', 'booking_cancelled'] as const) ids.push(guestEmailId(clientId, booking.id, kind, String(sequence)));
  }
  return ids;
}

/** The deliveries staff actions made (a change's or a cancellation's event), named in their entries. */
const deliveriesNamedBy = (entries: readonly AuditEntry[]) =>
  entries.flatMap((e) => Object.entries(e.changes).filter(([name, value]) => name.endsWith('_delivery') && typeof value === 'string').map(([, value]) => value as string));

/** The story of the client's booking `bookingId`, or undefined when the client has no such booking. */
export async function bookingStory(clientId: string, bookingId: string): Promise<BookingStory | undefined> {
  const [booking, client, deliveries, confirmation, confirmLink, staff] = await Promise.all([
    getBooking(clientId, bookingId),
    getClient(clientId),
    getDeliveries(bookingConfirmedDeliveryIds(clientId, bookingId)),
    getEmail(guestEmailId(clientId, bookingId, 'booking_confirmation')),
    getEmail(guestEmailId(clientId, bookingId, 'confirm_booking')),
    auditAbout(clientId, bookingId, STAFF_ACTIONS),
  ]);
  if (!booking) return undefined;
  const own = deliveries.filter((d) => d.client_id === clientId && d.booking_id === bookingId);
  const roomIds = [booking.room_id, ...staff.entries.map((e) => e.changes.room_id)].filter((id): id is string => typeof id === 'string' && id !== '');
  const orderReference = booking.payment_order_reference;
  const named = deliveriesNamedBy(staff.entries).filter((id) => !own.some((d) => d.delivery_id === id));
  const [rooms, order, history, changeEmails, changeDeliveries] = await Promise.all([
    roomNames(clientId, roomIds),
    orderReference ? getOrder(orderReference) : undefined,
    orderReference ? orderHistory(orderReference) : undefined,
    Promise.all(changeEmailIds(clientId, booking).map((id) => getEmail(id))),
    named.length ? getDeliveries(named) : [],
  ]);
  own.push(...changeDeliveries.filter((d) => d.client_id === clientId && d.booking_id === bookingId));
  // Every refund e-mail the guest was sent about this booking's payment (one per refund).
  const refundEmails = history && order?.client_id === clientId
    ? await Promise.all(history.refunds.map((r) => getEmail(guestEmailId(clientId, bookingId, 'refund', String(r.refund_id)))))
    : [];
  const ownOrder = order && order.client_id === clientId ? order : undefined;
  // The stay's other orders (declined or expired checkouts before the paid one), each with its history.
  const [retries, others] = await Promise.all([
    Promise.all(own.map((d) => auditAbout(clientId, d.delivery_id, DELIVERY_ACTIONS))),
    otherOrdersOfBooking(clientId, booking, ownOrder).then((found) => Promise.all(found.map(async (other) => orderEntries(other, await orderHistory(other.order_reference), false)))),
  ]);
  const facts = ownOrder && history ? orderFacts(ownOrder, history.transactions) : null;

  // Staff's own making of a reception booking is the story's first line, not a line of its own.
  const made = staff.entries.find((e) => e.action === 'booking.create');
  const entries: StoryEntry[] = [
    {
      at: booking.created_at,
      kind: 'booked',
      way: wayOf(booking, ownOrder, confirmLink),
      operator: made?.operator ?? null,
      external_source: booking.external_source ?? null,
      external_booking_id: booking.external_booking_id ?? null,
      order: facts,
      without_room: booking.origin === 'payment' && ownOrder?.booking_sync?.room_assignment === 'manual',
    },
    ...(ownOrder && history ? orderEntries(ownOrder, history) : []),
    ...others.flat(),
    ...own.map((delivery) => notificationEntry(delivery, own)),
    ...[confirmLink, confirmation, ...changeEmails, ...refundEmails].filter((e): e is EmailRecord => Boolean(e)).map(emailEntry),
    ...staff.entries
      .filter((e) => e !== made)
      .map((entry): StoryEntry => ({ at: entry.at, kind: 'staff', entry, room: typeof entry.changes.room_id === 'string' ? (rooms.get(entry.changes.room_id) ?? null) : null })),
    ...retries.flatMap((found) => found.entries.map((entry): StoryEntry => ({ at: entry.at, kind: 'staff', entry, room: null }))),
    ...(booking.checked_in_at ? [{ at: booking.checked_in_at, kind: 'checked_in' } as const] : []),
    ...(booking.checked_out_at ? [{ at: booking.checked_out_at, kind: 'checked_out' } as const] : []),
    ...(booking.cancelled_at && (booking.cancelled_by === 'guest' || booking.cancelled_by === 'pms')
      ? [{ at: booking.cancelled_at, kind: 'cancelled', by: booking.cancelled_by, reason: booking.cancellation_reason ?? null } as const]
      : []),
  ];
  return {
    booking,
    room: booking.room_id ? (rooms.get(booking.room_id) ?? null) : null,
    awaiting_room: awaitingRoom(booking),
    currency: client?.currency ?? '',
    order: facts,
    entries: newestFirst(entries),
    more_staff_actions: staff.more || retries.some((r) => r.more),
  };
}
