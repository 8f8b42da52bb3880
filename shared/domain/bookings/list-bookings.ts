/**
 * A client's bookings of every origin (synced, reception, paid orders) for operators: the CLI's
 * `bookings list` and the dashboard's Bookings page, in check-in order, filtered by stay dates,
 * status and origin. A page at a time from the client's check-in index (docs/data-model.md,
 * pattern 23); every match, for the CLI, from the client partition.
 */
import * as z from 'zod/mini';
import { errors } from '../../errors';
import { zodDetails } from '../../http/error-envelope';
import { BOOKING_ORIGINS } from '../../schemas/bookings';
import { calendarDate } from '../../schemas/common';
import { BOOKING_STATUSES } from '../../schemas/booking-statuses';
import { onFirstUse } from '../../schemas/on-first-use';
import { type CheckInPosition, listBookingsByCheckIn } from '../../store/booking-index-store';
import { keys } from '../../store/keys';
import { listRooms } from '../../store/room-store';
import { type BookingFilter, type BookingRecord, isActive, listBookings } from '../../store/booking-store';

/** What an operator sees of a booking in a list: its stay, state, room and references. */
export interface BookingView {
  booking_id: string;
  origin: BookingRecord['origin'];
  status: BookingRecord['status'];
  payment_status: BookingRecord['payment_status'];
  room_id: string | null;
  room_number: string | null;
  /** A service-made booking (a paid order recorded for manual assignment) that still needs a room. */
  awaiting_room: boolean;
  check_in_date: string;
  check_out_date: string;
  guests: number;
  guest_name: string;
  guest_email: string | null;
  total_amount: number | null;
  /** The taxes the guest pays beside `total_amount` (the room revenue), when the hotel charges them. */
  taxes_amount: number | null;
  booking_reference: string | null;
  confirmation_code: string | null;
  external_source: string | null;
  external_booking_id: string | null;
  payment_method: string | null;
  payment_order_reference: string | null;
  /** A paid-order booking paid below its room's rate, or in another currency than the client's. */
  below_rate: boolean;
  created_at: string;
  updated_at: string;
}

export function bookingView(booking: BookingRecord, roomNumberOf: (roomId: string) => string | undefined): BookingView {
  return {
    booking_id: booking.id,
    origin: booking.origin,
    status: booking.status,
    payment_status: booking.payment_status,
    room_id: booking.room_id ?? null,
    room_number: (booking.room_id && roomNumberOf(booking.room_id)) || null,
    awaiting_room: booking.origin !== 'sync' && !booking.room_id && isActive(booking.status),
    check_in_date: booking.check_in_date,
    check_out_date: booking.check_out_date,
    guests: booking.guests,
    guest_name: booking.guest_name,
    guest_email: booking.guest_email ?? null,
    total_amount: booking.total_amount ?? null,
    taxes_amount: booking.taxes_amount ?? null,
    booking_reference: booking.booking_reference ?? null,
    confirmation_code: booking.confirmation_code ?? null,
    external_source: booking.external_source ?? null,
    external_booking_id: booking.external_booking_id ?? null,
    payment_method: booking.payment_method ?? null,
    payment_order_reference: booking.payment_order_reference ?? null,
    below_rate: booking.below_rate === true,
    created_at: booking.created_at,
    updated_at: booking.updated_at,
  };
}

/** Filters as operators give them (CLI flags, dashboard query parameters): strings, checked here. */
const bookingListInput = onFirstUse(() =>
  z
    .object({
      from: z.optional(calendarDate),
      to: z.optional(calendarDate),
      status: z.optional(z.enum(BOOKING_STATUSES)),
      origin: z.optional(z.enum(BOOKING_ORIGINS)),
    })
    .check(
      z.superRefine((f, ctx) => {
        if (f.from !== undefined && f.to !== undefined && f.to < f.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
      }),
    ),
);

export type BookingListFilters = { [K in keyof BookingFilter]?: string };

export const MAX_BOOKINGS_PAGE = 100;

const pageInput = onFirstUse(() =>
  z.object({
    limit: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_BOOKINGS_PAGE))),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(256))),
  }),
);

export interface BookingPage {
  bookings: BookingView[];
  /** Pass back as `cursor` for the next page; null when this page is the last. */
  next_cursor: string | null;
}

function invalid(error: z.core.$ZodError): never {
  const details = zodDetails(error);
  throw errors.validation(details, details.map((d) => `${d.path}: ${d.message}`).join('; '));
}

// A cursor names the check-in and id of the last booking of a page; it is read within the
// caller's client only.
const encodeCursor = (at: CheckInPosition) => Buffer.from(keys.bookingCheckInSortKey(at.checkInDate, at.bookingId), 'utf8').toString('base64url');
function decodeCursor(cursor: string): CheckInPosition {
  const position = keys.bookingCheckInEntry(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!position || encodeCursor(position) !== cursor) {
    throw errors.validation([{ path: 'cursor', message: 'is not a cursor of this list' }], 'cursor: is not a cursor of this list');
  }
  return position;
}

const inCheckInOrder = (a: BookingRecord, b: BookingRecord) =>
  keys.bookingCheckInSortKey(a.check_in_date, a.id).localeCompare(keys.bookingCheckInSortKey(b.check_in_date, b.id));

/**
 * A client's bookings matching the filters, in check-in order (then booking id). `from`/`to` keep
 * stays with a night from `from` to `to` (both included): check-out after `from`, check-in on or
 * before `to`. Without `page`: every match (the Query's pages read through). With `page`: at most
 * `limit` (default and most 100) after `cursor`, and the cursor of the next page; a booking added
 * meanwhile never moves another to a page already seen.
 */
export async function listClientBookings(clientId: string, filters: BookingListFilters = {}, page?: { limit?: number; cursor?: string }): Promise<BookingPage> {
  const parsed = bookingListInput().safeParse(filters);
  if (!parsed.success) invalid(parsed.error);
  const filter: BookingFilter = parsed.data;
  let paging: { limit: number; after?: CheckInPosition } | undefined;
  if (page) {
    const checked = pageInput().safeParse(page);
    if (!checked.success) invalid(checked.error);
    paging = { limit: checked.data.limit ?? MAX_BOOKINGS_PAGE, after: checked.data.cursor === undefined ? undefined : decodeCursor(checked.data.cursor) };
  }
  const [found, rooms] = await Promise.all([
    paging
      ? listBookingsByCheckIn(clientId, filter, paging)
      : listBookings(clientId, filter).then((bookings) => ({ bookings: bookings.sort(inCheckInOrder), continueAfter: undefined })),
    listRooms(clientId),
  ]);
  const roomNumbers = new Map(rooms.map((room) => [room.id, room.room_number]));
  return {
    bookings: found.bookings.map((b) => bookingView(b, (id) => roomNumbers.get(id))),
    next_cursor: found.continueAfter === undefined ? null : encodeCursor(found.continueAfter),
  };
}
