/** Input of bookings the service makes itself (reception; paid orders reuse the stay rules). */
import * as z from 'zod/mini';
import { calendarDate, count, email, guestName, MAX_STAY_NIGHTS, money, nightsBetween, phone, text } from './common';

/** Who cancels or changes a service booking: staff (dashboard, CLI), the guest, the PMS through the API. */
export const CHANGE_SOURCES = ['staff', 'guest', 'pms'] as const;

/** Where a booking came from: a PMS sync, a reception booking by an operator, a paid order. */
export const BOOKING_ORIGINS = ['sync', 'reception', 'payment'] as const;

export const receptionBookingInput = z
  .object({
    guest_name: guestName,
    guest_email: email,
    guest_phone: z.optional(phone),
    guests: count,
    check_in_date: calendarDate,
    check_out_date: calendarDate,
    total_amount: money,
  })
  .check(
    z.superRefine((stay, ctx) => {
      const nights = nightsBetween(stay.check_in_date, stay.check_out_date);
      if (!(nights >= 1)) ctx.addIssue({ code: 'custom', path: ['check_out_date'], message: 'must be after check_in_date' });
      else if (nights > MAX_STAY_NIGHTS) ctx.addIssue({ code: 'custom', path: ['check_out_date'], message: `a stay is at most ${MAX_STAY_NIGHTS} nights` });
    }),
  );

/** A booking the service made, by its id: a value that is no UUID names none. */
export const serviceBookingIdParam = z.object({ booking_id: z.uuid() });

/** The PMS cancelling a service booking: a reason is optional, and so is the body. */
export const cancelServiceBookingBody = z.object({ reason: z.optional(text.check(z.minLength(1))) });
