/**
 * A guest's open checkout holds its room (docs/behaviour.md "Guest booking and the reception QR
 * code": held for 30 minutes from the moment the checkout opens, not offered to anyone else
 * meanwhile; an expired hold frees it).
 *
 * The hold is an entry `{booking_id, check_in_date, check_out_date, expires_at}` on the room's
 * `ROOMHOLD#<room_id>` item, written with the same version condition every service booking of
 * the room writes it with: reception bookings, other guests' checkouts, paid orders and room
 * assignments all serialize there and see it (`roomProblem`). `booking_id` is the booking the
 * order makes when paid, so the paying guest's own hold never blocks its booking. With it, a
 * marker `CHECKOUTHOLD#<expires_at>#<booking_id>` in the client's partition lets availability
 * find the open holds with one Query. Expiry is decided by the code at `now`; the marker's TTL
 * attribute only cleans up in AWS.
 *
 * Kept apart from guest-bookings.ts so that settling an order (verify, webhooks) can release a
 * hold without loading the guest page's use cases.
 */
import { errors } from '../../errors';
import { logger } from '../../observability';
import { checkoutHoldPutItem, checkoutHoldReleaseItem, getGuestBooking, type GuestBookingRecord, guestBookingPutItem, openCheckoutHolds } from '../../store/guest-booking-store';
import { isConditionFailure } from '../../store/items';
import type { RoomRecord } from '../../store/room-store';
import { getRoom, getRoomHolds, type Hold, holdItem } from '../../store/service-booking-store';
import { type TransactItem, transactWrite } from '../../store/transactions';
import { currentHolds, holdExpired, roomProblem } from '../bookings/service-bookings';
import { withConcurrencyRetry } from '../property-sync/results';
import { sourceHoldItem } from './source-limit';

/**
 * How long a guest's checkout (or booking to pay at the hotel) holds its room: as long as the
 * checkout can be paid, Stripe's shortest Checkout Session `expires_at` (30 minutes after
 * creation). The session is created to expire at the hold's end, the sandbox's too.
 */
export const HOLD_MINUTES = 30;

/** Concurrent writers of one room's hold item (a race for the last free room) each get this many reads. */
const HOLD_ATTEMPTS = 10;

export interface CheckoutHold {
  clientId: string;
  room: RoomRecord;
  bookingId: string;
  check_in_date: string;
  check_out_date: string;
  guests: number;
  /** ISO time the hold ends. */
  expiresAt: string;
  /**
   * The keyed hash of the guest's source address (source-limit.ts `sourceHash`): the hold counts
   * toward that source's open holds, refused with 429 past MAX_OPEN_HOLDS_PER_SOURCE.
   */
  source?: string;
}

/**
 * Holds the room for the checkout, or 409 ROOM_NOT_AVAILABLE when a booking or another open
 * checkout has it for some of the nights (or it is inactive or too small). `extra` items (or
 * what `extra()` makes, on each try) commit in the same transaction. However many run at once for one room and overlapping nights, one
 * holds it. 503 when concurrent writers kept winning.
 *
 * True when this call wrote the hold; false when the room is already held for `bookingId` (a
 * repeated submit of the same booking form, or its concurrent twin that won the write): that
 * hold is this checkout's, kept as it is, expiry included, and nothing is written.
 */
export async function holdRoomForCheckout(
  hold: CheckoutHold,
  now: Date,
  extra: readonly TransactItem[] | (() => Promise<readonly TransactItem[]>) = [],
): Promise<boolean> {
  const { clientId, room } = hold;
  const entry: Hold = { booking_id: hold.bookingId, check_in_date: hold.check_in_date, check_out_date: hold.check_out_date, expires_at: hold.expiresAt };
  try {
    return await withConcurrencyRetry(async () => {
      const holds = await getRoomHolds(clientId, room.id);
      if (holds.holds.some((h) => h.booking_id === hold.bookingId && !holdExpired(h, now))) return false;
      const problem = await roomProblem(room, hold, holds.holds, { now });
      if (problem) throw errors.roomNotBookable(room.room_number, problem);
      // A room the guest could have: counted toward the source's open holds (429 past three).
      const sourceItems = hold.source ? [await sourceHoldItem(clientId, hold.source, { bookingId: hold.bookingId, roomId: room.id, expiresAt: hold.expiresAt }, now)] : [];
      await transactWrite([
        holdItem(clientId, { roomId: room.id, holds: [...currentHolds(holds.holds, now.toISOString()), entry], readVersion: holds.version }),
        checkoutHoldPutItem(clientId, {
          room_id: room.id,
          booking_id: hold.bookingId,
          check_in_date: hold.check_in_date,
          check_out_date: hold.check_out_date,
          hold_expires_at: hold.expiresAt,
        }),
        ...sourceItems,
        // Read again on each try: an item written under a version condition (confirm-email-limit.ts).
        ...(typeof extra === 'function' ? await extra() : extra),
      ]);
      return true;
    }, HOLD_ATTEMPTS);
  } catch (error) {
    if (isConditionFailure(error)) throw errors.serviceUnavailable();
    throw error;
  }
}

/**
 * A concurrent twin of this submit (the same form sent twice at once) held another room of the
 * type first, with the same booking: that hold is this booking's (`roomId`), and this one writes
 * nothing.
 */
export class HeldByTwin extends Error {
  override name = 'HeldByTwin';
  constructor(readonly roomId: string) {
    super('the same booking holds another room');
  }
}

/**
 * The guest booking's record, put in the hold's transaction (read again on each try); HeldByTwin
 * when the same booking already holds another room. The put's own condition (the same booking,
 * the same room) closes the window between this read and the write: a twin committing between
 * them fails the transaction, and the next try reads it here.
 */
export async function guestRecordItem(tokenHash: string, record: GuestBookingRecord): Promise<TransactItem> {
  const existing = await getGuestBooking(tokenHash);
  if (existing && existing.booking_id === record.booking_id && existing.room_id !== record.room_id) throw new HeldByTwin(existing.room_id);
  return guestBookingPutItem(tokenHash, record);
}

/**
 * The record's items for each try of one room's hold (holdRoomForCheckout's `extra`): the first
 * try puts it without reading (the put's condition refuses it should a twin hold another room);
 * a try after a refusal reads who holds it (guestRecordItem). A booking costs no extra read.
 */
export function guestRecordItems(tokenHash: string, record: GuestBookingRecord): () => Promise<TransactItem[]> {
  let tried = false;
  return async () => {
    const item = tried ? await guestRecordItem(tokenHash, record) : guestBookingPutItem(tokenHash, record);
    tried = true;
    return [item];
  };
}

/** holdOneOf's refusal, unless a twin held another room (HeldByTwin): then that room, already held for this booking. */
export async function heldByTwin<R extends RoomRecord>(error: unknown, rooms: readonly R[], clientId: string): Promise<{ room: R; held: false }> {
  if (!(error instanceof HeldByTwin)) throw error;
  const room = rooms.find((r) => r.id === error.roomId) ?? ((await getRoom(clientId, error.roomId)) as R | undefined);
  if (!room) throw error;
  return { room, held: false };
}

/** A room type's rooms tried for one booking, at most: each costs a few reads and a transaction. */
export const MAX_ROOM_CANDIDATES = 10;

/**
 * Holds the first of `rooms` (in their order) whose hold commits: `hold` writes it with the
 * booking's items in one transaction (holdRoomForCheckout), so however many guests book the same
 * type at once, no room is held twice and each hold is a whole booking. A room taken meanwhile
 * (409) or kept busy by concurrent writers (503) passes to the next; the last refusal when none
 * could be held. `held` as holdRoomForCheckout's (false: already held for this very booking).
 */
export async function holdOneOf<R extends RoomRecord>(rooms: readonly R[], hold: (room: R) => Promise<boolean>): Promise<{ room: R; held: boolean }> {
  let refusal: unknown = errors.noSuchGuestRoom();
  for (const room of rooms.slice(0, MAX_ROOM_CANDIDATES)) {
    try {
      return { room, held: await hold(room) };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ROOM_NOT_AVAILABLE' && code !== 'SERVICE_UNAVAILABLE') throw error;
      refusal = error;
    }
  }
  throw refusal;
}

/**
 * Frees the room at once when the checkout holding it for `bookingId` cannot be paid any more
 * (its order could not be created; its checkout was cancelled, failed or expired). Nothing to do
 * when no such hold is open. Best effort: an unreleased hold still ends at its expiry.
 */
export async function releaseCheckoutHold(clientId: string, roomId: string, bookingId: string, now = new Date()): Promise<void> {
  try {
    await withConcurrencyRetry(async () => {
      const holds = await getRoomHolds(clientId, roomId);
      const mine = holds.holds.find((h) => h.booking_id === bookingId && h.expires_at !== undefined && !holdExpired(h, now));
      if (!mine) return;
      await transactWrite([
        holdItem(clientId, { roomId, holds: holds.holds.filter((h) => h !== mine), readVersion: holds.version }),
        checkoutHoldReleaseItem(clientId, { booking_id: bookingId, hold_expires_at: mine.expires_at! }, now.toISOString()),
      ]);
    }, HOLD_ATTEMPTS);
  } catch (error) {
    logger.warn('a checkout hold was not released early; it ends at its expiry', {
      room_id: roomId,
      booking_id: bookingId,
      error: { name: (error as Error).name, message: (error as Error).message },
    });
  }
}

/**
 * Ends the checkout markers still open for a booking that no longer holds its room (cancelled):
 * the paid checkout's marker otherwise keeps availability from offering the room until the hold's
 * end, although the room hold item freed it. One Query of the open markers; best effort, as
 * releaseCheckoutHold.
 */
export async function releaseCheckoutMarkers(clientId: string, booking: { id: string; check_in_date: string; check_out_date: string }, now = new Date()): Promise<void> {
  try {
    const open = await openCheckoutHolds(clientId, { checkIn: booking.check_in_date, checkOut: booking.check_out_date }, now);
    const mine = open.filter((marker) => marker.booking_id === booking.id);
    if (mine.length) await transactWrite(mine.map((marker) => checkoutHoldReleaseItem(clientId, marker, now.toISOString())));
  } catch (error) {
    logger.warn("a cancelled booking's checkout marker was not released; it ends at its expiry", {
      booking_id: booking.id,
      error: { name: (error as Error).name, message: (error as Error).message },
    });
  }
}
