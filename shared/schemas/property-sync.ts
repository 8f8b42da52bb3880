/** Request schemas of the Area A endpoints (docs/behaviour.md "Sync writes", "Availability"). */
import * as z from 'zod/mini';
import { MAX_SYNC_ITEMS } from '../config';
import {
  calendarDate,
  count,
  email,
  guestName,
  identifier,
  images,
  isCalendarDate,
  MAX_STAY_NIGHTS,
  money,
  nightsBetween,
  phone,
  text,
  timestamp,
  withinItemSize,
} from './common';
import { BOOKING_STATUSES, PAYMENT_STATUSES } from './booking-statuses';


const items = <T extends z.ZodMiniType>(item: T) => z.array(withinItemSize(item)).check(z.maxLength(MAX_SYNC_ITEMS));

/**
 * Check-out after check-in, at most 365 nights. Compared only when both are real dates: an
 * invalid date is reported on its own field, not again as a wrong order on the other one.
 */
function checkStay(dates: { check_in_date?: unknown; check_out_date?: unknown }, ctx: z.core.$RefinementCtx, what: string): void {
  const { check_in_date: checkIn, check_out_date: checkOut } = dates;
  if (typeof checkIn !== 'string' || typeof checkOut !== 'string' || !isCalendarDate(checkIn) || !isCalendarDate(checkOut)) return;
  const nights = nightsBetween(checkIn, checkOut);
  if (nights < 1) ctx.addIssue({ code: 'custom', path: ['check_out_date'], message: 'must be after check_in_date' });
  else if (nights > MAX_STAY_NIGHTS) {
    ctx.addIssue({ code: 'custom', path: ['check_out_date'], message: `${what} is at most ${MAX_STAY_NIGHTS} nights` });
  }
}

/** An https URL of at most 2,000 characters. */
export const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https URL' }).check(z.maxLength(2000));

export const categoryInput = z.object({
  external_category_id: identifier,
  name: text.check(z.minLength(1)),
  base_price: z.optional(money),
  max_occupancy: z.optional(count),
  description: z.optional(text),
  amenities: z.optional(z.array(text).check(z.maxLength(100))),
  images: z.optional(images),
  // The picture the guest pages show of the type: https only (the pages' CSP allows no other).
  image_url: z.optional(httpsUrl),
  is_active: z.optional(z.boolean()),
});

export const roomInput = z.object({
  external_room_id: identifier,
  external_category_id: z.optional(identifier),
  room_number: identifier,
  room_type: text.check(z.minLength(1)),
  price: money,
  max_occupancy: count,
  images: z.optional(images),
  is_active: z.optional(z.boolean()),
});

export const bookingInput = z
  .object({
    external_booking_id: identifier,
    external_room_id: identifier,
    guest_name: guestName,
    guest_email: z.optional(email),
    guest_phone: z.optional(phone),
    guests: count,
    check_in_date: calendarDate,
    check_out_date: calendarDate,
    total_amount: z.optional(money),
    status: z.enum(BOOKING_STATUSES),
    payment_status: z.optional(z.enum(PAYMENT_STATUSES)),
  })
  .check(z.superRefine((booking, ctx) => checkStay(booking, ctx, 'a stay')));

export const checkinInput = z.object({
  external_checkin_id: identifier,
  external_booking_id: identifier,
  event: z.enum(['check_in', 'check_out']),
  occurred_at: timestamp,
  external_room_id: z.optional(identifier),
  notes: z.optional(text),
});

const envelope = { external_source: identifier };

export const putCategoriesBody = z.object({ ...envelope, categories: items(categoryInput) });
export const putRoomsBody = z.object({ ...envelope, rooms: items(roomInput) });
export const putBookingsBody = z.object({ ...envelope, bookings: items(bookingInput) });
export const putCheckinsBody = z.object({ ...envelope, checkins: items(checkinInput) });

export type CategoryInput = z.infer<typeof categoryInput>;
export type RoomInput = z.infer<typeof roomInput>;
export type BookingInput = z.infer<typeof bookingInput>;
export type CheckinInput = z.infer<typeof checkinInput>;
export type PutCategoriesBody = z.infer<typeof putCategoriesBody>;
export type PutRoomsBody = z.infer<typeof putRoomsBody>;
export type PutBookingsBody = z.infer<typeof putBookingsBody>;
export type PutCheckinsBody = z.infer<typeof putCheckinsBody>;

/** Query strings are text: guests must be written as a plain positive integer. */
const integerParam = z.pipe(z.string().check(z.regex(/^[1-9]\d{0,4}$/, 'must be a whole number from 1')), z.transform(Number));

export const availabilityQuery = z
  .object({
    check_in_date: calendarDate,
    check_out_date: calendarDate,
    guests: integerParam,
    external_source: z.optional(identifier),
    external_category_id: z.optional(identifier),
    room_type: z.optional(text.check(z.minLength(1))),
    external_rate_plan_id: z.optional(identifier),
  })
  .check(z.superRefine((query, ctx) => checkStay(query, ctx, 'a range')));
export type AvailabilityQuery = z.infer<typeof availabilityQuery>;
