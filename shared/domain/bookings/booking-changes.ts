/**
 * The way back for bookings the service made (docs/behaviour.md "Booking changes, cancellations
 * and refunds"): a cancellation (staff, the guest, the PMS), a change of stay, room or guests
 * (staff), a no-show (staff, once the check-in day has passed). Each is one transaction: the
 * booking as it now is (only if nobody wrote it since it was read), the nights it frees or
 * takes on each room's hold item (version-checked, so a change never double-books a room
 * however concurrent), the event's delivery (booking.modified, booking.cancelled,
 * booking.no_show, with the next `booking.sequence`) and the guest's e-mail. A change the PMS
 * makes itself emits nothing back to it. Synced bookings belong to their PMS and are refused.
 */
import { stayTotals } from './change-pricing';
import { changedMoney, type TotalChoice } from './stay-total';
import { errors, type ErrorDetail } from '../../errors';
import { isCalendarDate, MAX_STAY_NIGHTS, nightsBetween } from '../../schemas/common';
import { getClient } from '../../store/api-key-store';
import { type BookingRecord, getBooking } from '../../store/booking-store';
import { type DeliveryRecord, newDelivery } from '../../store/delivery-store';
import type { EmailRecord } from '../../store/email-store';
import { getEndpoint } from '../../store/endpoint-store';
import { isConditionFailure } from '../../store/items';
import type { RoomRecord } from '../../store/room-store';
import { bookingChangeItems, getRoom, getRoomHolds, type ServiceBookingWrite } from '../../store/service-booking-store';
import { type TransactItem, transactWrite } from '../../store/transactions';
import { bookingEventPayload, type BookingEvent } from '../callbacks/payloads';
import { timeZoneOf } from '../client-settings';
import { bookingChangeEmail } from '../guest-email/change-emails';
import { releaseCheckoutMarkers } from '../guest-booking/checkout-holds';
import { guestEmailItem, sendCommittedEmails } from '../guest-email/outbox';
import { localDate } from '../hotel-time';
import { withConcurrencyRetry } from '../property-sync/results';
import { cancellationRefundItems } from '../payments/refunds';
import { currentHolds, dispatchAll, holdsWith, roomProblem } from './service-bookings';

/** Who asks for a change: hotel staff (dashboard, operator CLI), the guest (their confirmation page), the PMS (the API). */
export type ChangeSource = 'staff' | 'guest' | 'pms';

export interface ChangedBooking {
  booking: BookingRecord;
  /** The event's delivery; none when the client has no callback URL, or the PMS made the change. */
  delivery_id?: string;
  /** A cancellation of a booking already cancelled: nothing was written, the booking is as it was. */
  repeated?: boolean;
}

export interface StayChange {
  check_in_date?: string;
  check_out_date?: string;
  room_id?: string;
  guests?: number;
  /** The new total: recalculated from the room's price for the new stay, kept, or an amount (major units). @default 'keep' */
  total?: TotalChoice;
}

/** A reason kept with a cancellation: at most this many characters. */
export const MAX_REASON_LENGTH = 500;

/** The service booking `bookingId` of the client, strongly read; 404 for none, another client's, or a PMS-synced one. */
async function serviceBooking(clientId: string, bookingId: string): Promise<BookingRecord> {
  const booking = await getBooking(clientId, bookingId);
  if (!booking) throw errors.bookingNotFound(bookingId);
  if (booking.origin === 'sync') throw errors.bookingOwnedByPms(bookingId, booking.external_source);
  return booking;
}

/** The room's holds without the booking's, version-checked: the nights it gave back. */
async function releasedHold(clientId: string, booking: BookingRecord, timestamp: string): Promise<NonNullable<ServiceBookingWrite['hold']>[]> {
  if (!booking.room_id) return [];
  const holds = await getRoomHolds(clientId, booking.room_id);
  if (!holds.holds.some((h) => h.booking_id === booking.id)) return [];
  return [{ roomId: booking.room_id, holds: currentHolds(holds.holds, timestamp).filter((h) => h.booking_id !== booking.id), readVersion: holds.version }];
}

interface Planned {
  next: BookingRecord;
  holds: NonNullable<ServiceBookingWrite['hold']>[];
  /** The room the event names (the booking's room as it now is). */
  room: RoomRecord | undefined;
  /** More of the change, in its transaction (a cancellation's refund). */
  extra?: TransactItem[];
}

/**
 * Writes a planned change with its event and e-mail, and sends them once committed. `plan` reads
 * what it needs each time: a write that lost to a concurrent one is planned again from what is
 * there now. Still losing after every retry: 503, the caller may try again.
 */
async function commitChange(
  clientId: string,
  bookingId: string,
  event: BookingEvent,
  emailKind: 'booking_modified' | 'booking_cancelled',
  source: ChangeSource,
  now: Date,
  plan: (booking: BookingRecord) => Promise<Planned | { repeated: BookingRecord }>,
  refund?: 'full' | 'none' | number,
): Promise<ChangedBooking> {
  const endpoint = source === 'pms' ? undefined : await getEndpoint(clientId, 'callback');
  let committed: { read: BookingRecord; next: BookingRecord; deliveries: DeliveryRecord[]; email?: EmailRecord } | { repeated: BookingRecord };
  try {
    committed = await withConcurrencyRetry(async () => {
      const read = await serviceBooking(clientId, bookingId);
      const planned = await plan(read);
      if ('repeated' in planned) return planned;
      const sequence = (read.sequence ?? 1) + 1;
      const next: BookingRecord = { ...planned.next, sequence, updated_at: now.toISOString() };
      const deliveries = endpoint
        ? [
            newDelivery({
              clientId,
              event,
              endpoint: 'callback',
              payload: bookingEventPayload(event, clientId, next, planned.room, now),
              at: now.toISOString(),
              booking_id: next.id,
            }),
          ]
        : [];
      const email = event === 'booking.no_show' ? undefined : await bookingChangeEmail(clientId, next, emailKind, { sequence, ...(refund !== undefined ? { refund } : {}) }, now);
      await transactWrite(
        bookingChangeItems({ clientId, read, next, holds: planned.holds, deliveries, extra: [...(email ? [guestEmailItem(email)] : []), ...(planned.extra ?? [])] }),
      );
      return { read, next, deliveries, email };
    }, 8);
  } catch (error) {
    if (isConditionFailure(error)) throw errors.serviceUnavailable();
    throw error;
  }
  if ('repeated' in committed) return { booking: committed.repeated, repeated: true };
  // A guest's paid checkout leaves its marker open until the hold's end; the nights given back must not wait for it.
  await releaseCheckoutMarkers(clientId, committed.read, now);
  await dispatchAll(committed.deliveries);
  if (committed.email) await sendCommittedEmails([committed.email]);
  return { booking: committed.next, delivery_id: committed.deliveries[0]?.delivery_id };
}

/**
 * Cancels a service booking: its nights are free in the same transaction. A cancelled booking
 * answers as it is (`repeated`); one checked in, checked out or a no-show: 409
 * BOOKING_NOT_CANCELLABLE.
 */
export async function cancelServiceBooking(
  clientId: string,
  bookingId: string,
  input: {
    reason?: string;
    source: ChangeSource;
    /** Staff's message to the guest: the only words of the cancellation their e-mail carries. */
    guestMessage?: string;
    /** Staff's cancellation: who asked for it (the guest's e-mail says who cancelled). @default 'hotel' */
    askedBy?: 'guest' | 'hotel';
    /** What the canceller will refund of an online payment (staff's choice), for the guest's e-mail; the refund itself is the caller's, after this. */
    refund?: 'full' | 'none' | number;
    /**
     * The refund of the booking's paid order the cancellation makes due, in its own transaction
     * (cancellationRefundItems): the caller drives it after this, the sweeper if the caller dies.
     */
    refundDue?: { idempotencyKey: string; reason: string; amountMinor?: number };
  },
  now = new Date(),
): Promise<ChangedBooking> {
  const reason = input.reason?.trim().slice(0, MAX_REASON_LENGTH) || undefined;
  const guestMessage = input.guestMessage?.trim().slice(0, MAX_REASON_LENGTH) || undefined;
  return commitChange(clientId, bookingId, 'booking.cancelled', 'booking_cancelled', input.source, now, async (booking) => {
    if (booking.status === 'cancelled') return { repeated: booking };
    if (booking.status !== 'confirmed' && booking.status !== 'pending') throw errors.bookingNotCancellable(booking.id, booking.status);
    const timestamp = now.toISOString();
    const [holds, room] = await Promise.all([releasedHold(clientId, booking, timestamp), booking.room_id ? getRoom(clientId, booking.room_id) : undefined]);
    const next: BookingRecord = {
      ...booking,
      status: 'cancelled',
      cancelled_at: timestamp,
      cancelled_by: input.source,
      ...(reason ? { cancellation_reason: reason } : {}),
      ...(guestMessage ? { guest_message: guestMessage } : {}),
      ...(input.source === 'staff' ? { cancellation_asked_by: input.askedBy ?? 'hotel' } : {}),
    };
    const order = booking.payment_order_reference;
    const extra = input.refundDue && order ? await cancellationRefundItems(clientId, order, input.refundDue, now) : [];
    return { next, holds, room, extra };
  }, input.refund);
}

function stayProblems(stay: { check_in_date: string; check_out_date: string; guests: number }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const path of ['check_in_date', 'check_out_date'] as const) {
    if (!isCalendarDate(stay[path])) problems.push({ path, message: 'must be a real calendar date in YYYY-MM-DD form' });
  }
  if (!problems.length) {
    if (stay.check_out_date <= stay.check_in_date) problems.push({ path: 'check_out_date', message: 'must be after check_in_date' });
    else if (nightsBetween(stay.check_in_date, stay.check_out_date) > MAX_STAY_NIGHTS) {
      problems.push({ path: 'check_out_date', message: `must be at most ${MAX_STAY_NIGHTS} nights after check_in_date` });
    }
  }
  if (!Number.isInteger(stay.guests) || stay.guests < 1) problems.push({ path: 'guests', message: 'must be a whole number from 1' });
  return problems;
}

/**
 * Changes a confirmed service booking's dates, room or guests. The availability rules apply with
 * the booking's own nights left out: a clash is 409 ROOM_NOT_AVAILABLE and changes nothing. A
 * booking awaiting a room keeps awaiting one unless a room is given. A new check-in may not be
 * before the hotel's today.
 */
export async function modifyServiceBooking(clientId: string, bookingId: string, change: StayChange, now = new Date()): Promise<ChangedBooking> {
  const client = await getClient(clientId);
  const today = localDate(timeZoneOf(client ?? {}), now);
  return commitChange(clientId, bookingId, 'booking.modified', 'booking_modified', 'staff', now, async (booking) => {
    if (booking.status !== 'confirmed') throw errors.bookingNotChangeable(booking.id, booking.status);
    const stay = {
      check_in_date: change.check_in_date ?? booking.check_in_date,
      check_out_date: change.check_out_date ?? booking.check_out_date,
      guests: change.guests ?? booking.guests,
    };
    const problems = stayProblems(stay);
    if (!problems.length && change.check_in_date !== undefined && change.check_in_date !== booking.check_in_date && stay.check_in_date < today) {
      problems.push({ path: 'check_in_date', message: `must not be before the hotel's today (${today})` });
    }
    if (problems.length) throw errors.bookingChangeInvalid(problems);
    const roomId = change.room_id ?? booking.room_id;
    const next: BookingRecord = { ...booking, ...stay, ...(roomId ? { room_id: roomId } : {}) };
    if (roomId && roomId !== booking.room_id) delete next.room_assignment_reason;
    const total = async (room: RoomRecord | undefined) => {
      const recalculate = change.total === 'recalculate' && room;
      const recalculated = recalculate ? (await stayTotals(clientId, [room], stay, client?.currency ?? 'USD')).get(room.id) : undefined;
      const money = changedMoney(change.total ?? 'keep', booking, recalculated, client ?? {}, client?.currency ?? 'USD');
      if (money.total_amount !== undefined) next.total_amount = money.total_amount;
      if (money.taxes_amount) next.taxes_amount = money.taxes_amount;
      else delete next.taxes_amount;
    };
    if (!roomId) {
      await total(undefined);
      return { next, holds: [], room: undefined };
    }

    const timestamp = now.toISOString();
    const [room, holds] = await Promise.all([getRoom(clientId, roomId), getRoomHolds(clientId, roomId)]);
    if (!room) throw errors.roomNotFound(roomId);
    await total(room);
    const problem = await roomProblem(room, stay, holds.holds, { now, bookingId: booking.id });
    if (problem) throw errors.roomNotAssignable(room.room_number, roomId, problem);
    const taken = { roomId, holds: holdsWith(holds.holds, next, timestamp), readVersion: holds.version };
    const released = roomId === booking.room_id ? [] : await releasedHold(clientId, booking, timestamp);
    return { next, holds: [...released, taken], room };
  });
}

/**
 * Marks a confirmed service booking a no-show, once its check-in day has passed in the hotel's
 * time zone; its nights are free from then on (it no longer holds its room).
 */
export async function markNoShow(clientId: string, bookingId: string, now = new Date()): Promise<ChangedBooking> {
  const client = await getClient(clientId);
  const today = localDate(timeZoneOf(client ?? {}), now);
  return commitChange(clientId, bookingId, 'booking.no_show', 'booking_cancelled', 'staff', now, async (booking) => {
    if (booking.status !== 'confirmed') throw errors.bookingNotChangeable(booking.id, booking.status);
    if (today <= booking.check_in_date) throw errors.noShowTooEarly(booking.id, booking.check_in_date);
    const timestamp = now.toISOString();
    const [holds, room] = await Promise.all([releasedHold(clientId, booking, timestamp), booking.room_id ? getRoom(clientId, booking.room_id) : undefined]);
    return { next: { ...booking, status: 'no_show', no_show_at: timestamp }, holds, room };
  });
}
