/** Input of bookings the service makes itself (reception; paid orders reuse the stay rules). */
import { z } from 'zod';
import { calendarDate, count, email, MAX_STAY_NIGHTS, money, nightsBetween, phone, text } from './common';

export const receptionBookingInput = z
  .object({
    guest_name: text.min(1),
    guest_email: email,
    guest_phone: phone.optional(),
    guests: count,
    check_in_date: calendarDate,
    check_out_date: calendarDate,
    total_amount: money,
  })
  .superRefine((stay, ctx) => {
    const nights = nightsBetween(stay.check_in_date, stay.check_out_date);
    if (!(nights >= 1)) ctx.addIssue({ code: 'custom', path: ['check_out_date'], message: 'must be after check_in_date' });
    else if (nights > MAX_STAY_NIGHTS) ctx.addIssue({ code: 'custom', path: ['check_out_date'], message: `a stay is at most ${MAX_STAY_NIGHTS} nights` });
  });
