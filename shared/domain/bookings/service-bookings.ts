/**
 * Bookings the service makes itself: reception bookings by an operator and (with the payments
 * issue) paid room-booking orders. Both are confirmed here, so both emit booking.confirmed.
 */
import { randomInt } from 'node:crypto';
import { errors } from '../../errors';
import { newId } from '../../ids';
import type { PaymentStatus } from '../../schemas/booking-statuses';
import { type DeliveryRecord, newDelivery } from '../../store/delivery-store';
import { type EndpointConfig, getEndpoint } from '../../store/endpoint-store';
import type { RoomRecord } from '../../store/room-store';
import { activeBookingsOfRoom, type BookingOrigin, type BookingRecord } from '../../store/booking-store';
import { getRoom, getRoomHolds, type Hold, serviceBookingItems } from '../../store/service-booking-store';
import { isConditionFailure } from '../../store/items';
import { type TransactItem, transactWrite } from '../../store/transactions';
import { bookingConfirmedPayload } from '../callbacks/payloads';
import { dispatch } from '../callbacks/deliveries';
import { withConcurrencyRetry } from '../property-sync/results';

export interface ServiceBookingInput {
  origin: Exclude<BookingOrigin, 'sync'>;
  /** The room to lock; without it (or when it is taken and `requireRoom` is false) the booking awaits manual assignment. */
  roomId?: string;
  /** Reception: a taken or unsuitable room is refused. Paid orders: recorded for manual assignment. */
  requireRoom: boolean;
  guest_name: string;
  guest_email?: string;
  guest_phone?: string;
  /** A guest page's booking: the language the guest booked in. */
  language?: string;
  guests: number;
  check_in_date: string;
  check_out_date: string;
  total_amount?: number;
  /** Of what the guest pays, the taxes (the hotel's `tax_percent`); `total_amount` is the room revenue without them. */
  taxes_amount?: number;
  payment_status: PaymentStatus;
  payment_method: string;
  gateway_reference?: string;
  /** Paid orders: the order, so that assigning a room later can name it in the order's booking_sync. */
  paymentOrderReference?: string;
  /** A caller-chosen id makes the confirmation idempotent (paid orders use the order's). */
  bookingId?: string;
  /** Paid orders: the rate check's outcome, recorded on the booking (mirror-paid-booking.ts). */
  rate?: { rate_total: number | null; below_rate: boolean };
  /** Paid orders: the room is not locked, the booking awaits manual assignment for this reason. */
  manualReason?: 'below_rate';
}

export interface ConfirmedBooking {
  booking: BookingRecord;
  room?: RoomRecord;
  room_assignment: 'locked' | 'manual';
  delivery_id?: string;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const randomCode = (length: number) => Array.from({ length }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');

interface Stay {
  guests: number;
  check_in_date: string;
  check_out_date: string;
}

const overlaps = (a: Omit<Stay, 'guests'>, b: Omit<Stay, 'guests'>) => a.check_in_date < b.check_out_date && a.check_out_date > b.check_in_date;

/** A guest's checkout hold whose time has passed: it blocks nothing any more (DynamoDB TTL plays no part). */
export function holdExpired(hold: Hold, now: Date): boolean {
  return hold.expires_at !== undefined && hold.expires_at <= now.toISOString();
}

/**
 * Why the room cannot be locked for the stay, or undefined when it can: service bookings and open
 * guest checkouts holding it (the hold item, read at the version the write will check) and synced
 * bookings (gsi2). An expired checkout hold, and the hold of the booking being confirmed itself
 * (`bookingId`: the paying guest's own checkout), block nothing.
 */
export async function roomProblem(
  room: RoomRecord | undefined,
  stay: Stay,
  holds: readonly Hold[],
  options: { now?: Date; bookingId?: string } = {},
): Promise<string | undefined> {
  if (!room) return 'no such room';
  if (!room.is_active) return 'the room is not active';
  if (room.max_occupancy < stay.guests) return `the room takes at most ${room.max_occupancy} guests`;
  const now = options.now ?? new Date();
  const blocking = holds.filter((h) => h.booking_id !== options.bookingId && !holdExpired(h, now) && overlaps(h, stay));
  if (blocking.some((h) => h.expires_at === undefined)) return 'the room is already booked for some of these nights';
  if (blocking.length) return 'the room is held by another guest for some of these nights';
  const window = { checkIn: stay.check_in_date, checkOut: stay.check_out_date };
  // The booking itself (a change of its own stay) blocks nothing.
  if ((await activeBookingsOfRoom(room.id, window)).some((b) => b.id !== options.bookingId)) return 'the room is already booked for some of these nights';
  return undefined;
}

/**
 * The holds worth keeping at `now` (an ISO time): past stays and expired checkout holds are
 * dropped so the list stays small. A stay is past when it ended before the UTC date of `now`:
 * that is never after the hotel's own today, whatever its zone (UTC-12 to UTC+14), and no new
 * stay starts before that today, so a dropped stay cannot overlap one.
 */
export function currentHolds(holds: readonly Hold[], now: string): Hold[] {
  const today = now.slice(0, 10);
  return holds.filter((h) => h.check_out_date >= today && !(h.expires_at !== undefined && h.expires_at <= now));
}

/**
 * The room's holds with the booking's stay added, replacing its own checkout hold if it had one;
 * past stays and expired checkout holds are dropped. `now` is an ISO time.
 */
export function holdsWith(holds: readonly Hold[], booking: BookingRecord, now: string): Hold[] {
  return [
    ...currentHolds(holds, now).filter((h) => h.booking_id !== booking.id),
    { booking_id: booking.id, check_in_date: booking.check_in_date, check_out_date: booking.check_out_date },
  ];
}

export interface BookingPlan {
  result: ConfirmedBooking;
  /** Deliveries written with the booking, to dispatch once it committed. */
  deliveries: DeliveryRecord[];
  items: TransactItem[];
}

/**
 * Reads the room's state and prepares the booking's transaction items (booking, room hold,
 * booking.confirmed delivery when the client has a callback URL). Callers may add their own
 * items (a paid order's transition) so everything commits together.
 */
export async function planServiceBooking(clientId: string, input: ServiceBookingInput, endpoint: EndpointConfig | undefined, now = new Date()): Promise<BookingPlan> {
  const timestamp = now.toISOString();
  const room = input.roomId ? await getRoom(clientId, input.roomId) : undefined;
  const holds = input.roomId ? await getRoomHolds(clientId, input.roomId) : undefined;
  const problem = input.manualReason
    ? 'it was paid below its rate'
    : input.roomId
      ? await roomProblem(room, input, holds!.holds, { now, bookingId: input.bookingId })
      : 'no room was chosen';
  if (problem && input.requireRoom) {
    throw room || !input.roomId ? errors.bookingRoomNotAvailable(input.roomId, problem) : errors.bookingRoomNotFound(input.roomId, problem);
  }
  const locked = !problem && room ? room : undefined;
  const booking: BookingRecord = {
    id: input.bookingId ?? newId(),
    origin: input.origin,
    ...(locked ? { room_id: locked.id } : {}),
    guest_name: input.guest_name,
    guest_email: input.guest_email,
    guest_phone: input.guest_phone,
    ...(input.language ? { language: input.language } : {}),
    guests: input.guests,
    check_in_date: input.check_in_date,
    check_out_date: input.check_out_date,
    total_amount: input.total_amount,
    ...(input.taxes_amount ? { taxes_amount: input.taxes_amount } : {}),
    status: 'confirmed',
    payment_status: input.payment_status,
    payment_method: input.payment_method,
    gateway_reference: input.gateway_reference,
    ...(input.paymentOrderReference ? { payment_order_reference: input.paymentOrderReference } : {}),
    ...(input.rate ? { rate_total: input.rate.rate_total, below_rate: input.rate.below_rate } : {}),
    ...(input.manualReason ? { room_assignment_reason: input.manualReason } : {}),
    booking_reference: `BK-${randomCode(8)}`,
    // Its booking.confirmed is its first event.
    sequence: 1,
    confirmation_code: randomCode(6),
    created_at: timestamp,
    updated_at: timestamp,
  };
  const deliveries: DeliveryRecord[] = endpoint
    ? [
        newDelivery({
          clientId,
          event: 'booking.confirmed',
          endpoint: 'callback',
          payload: bookingConfirmedPayload(clientId, booking, locked, now),
          at: timestamp,
          booking_id: booking.id,
        }),
      ]
    : [];
  const hold = locked ? { roomId: locked.id, holds: holdsWith(holds!.holds, booking, timestamp), readVersion: holds!.version } : undefined;
  return {
    result: { booking, room: locked, room_assignment: locked ? 'locked' : 'manual', delivery_id: deliveries[0]?.delivery_id },
    deliveries,
    items: serviceBookingItems({ clientId, booking, deliveries, hold }),
  };
}

/** Puts deliveries written in a committed transaction on the queue. */
export async function dispatchAll(deliveries: readonly DeliveryRecord[]): Promise<void> {
  for (const delivery of deliveries) await dispatch(delivery.delivery_id, delivery.due_at);
}

/**
 * Confirms the booking, planned again from what is there now each time a concurrent booking of
 * the same room won the hold item first (as many as 8 tries: several desks booking one room's
 * other nights at once). Still losing after that: 503, the caller may try again; never a 500.
 */
export async function confirmServiceBooking(clientId: string, input: ServiceBookingInput, now = new Date()): Promise<ConfirmedBooking> {
  const endpoint = await getEndpoint(clientId, 'callback');
  let plan: BookingPlan;
  try {
    plan = await withConcurrencyRetry(async () => {
      const planned = await planServiceBooking(clientId, input, endpoint, now);
      await transactWrite(planned.items);
      return planned;
    }, 8);
  } catch (error) {
    if (isConditionFailure(error)) throw errors.serviceUnavailable();
    throw error;
  }
  await dispatchAll(plan.deliveries);
  return plan.result;
}
