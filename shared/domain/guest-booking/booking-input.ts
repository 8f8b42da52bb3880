/**
 * The guest booking form's rules (docs/behaviour.md "Guest booking and the reception QR code"):
 * the stay (dates and guests), the guest's details and the form's attempt id, checked on the raw
 * form values with every problem answered at once, one message per field.
 *
 * Written by hand rather than as a zod schema: each field answers only its first problem, in a
 * fixed order, the rules depend on the hotel's today and booking horizon and across fields
 * (check-out is judged against a real check-in only), and guests may be a number or its digits.
 * A schema would report several issues per field; the leaf formats (e-mail, phone) are the
 * project's zod schemas.
 */
import { randomUUID } from 'node:crypto';
import { type AppError, type ErrorDetail, errors } from '../../errors';
import { addDays, email as emailSchema, guestNameProblem, isCalendarDate, nightsBetween, phone as phoneSchema } from '../../schemas/common';
import { DEFAULT_BOOKING_HORIZON_DAYS, DEFAULT_TIME_ZONE } from '../client-settings';
import { hotelClock } from '../hotel-time';
import { UUID } from './tokens';

export const MAX_GUEST_NIGHTS = 30;
/** Guests in one booking: the API's count limit (docs/behaviour.md "Conventions"). */
const MAX_GUESTS = 10_000;
const MAX_NAME_LENGTH = 200;

export interface StayQuery {
  check_in: string;
  check_out: string;
  guests: number;
}

export interface GuestDetails {
  name: string;
  email: string;
  phone?: string;
}

export interface BookingInput {
  /** The room type the guest books (the page's choice): the service picks a free room of it (room-choice.ts). */
  room_type?: string;
  /** Or one room, named (operator tools); ignored when `room_type` is given. */
  room_id?: string;
  /** The rate plan chosen, where the room's category has plans (else its cheapest bookable one). */
  rate_plan?: string;
  stay: StayQuery;
  guest: GuestDetails;
  /** The language the pages spoke to the guest: kept on the booking for its e-mails and checkout. */
  language?: string;
  /**
   * The booking form's attempt id (`newBookingAttempt`, one per rendering of the form). Absent
   * (a form rendered before it existed): every submit is a booking of its own.
   */
  attempt?: string;
  /**
   * The guest's source address (the page's caller): its open holds are counted, at most
   * MAX_OPEN_HOLDS_PER_SOURCE per client (source-limit.ts). Absent: not counted (operator tools).
   */
  source?: string;
}

/** A new attempt id for a rendering of the guest-details form. */
export const newBookingAttempt = randomUUID;

/**
 * The messages read as a sentence after the field's label ("Check-in cannot be in the past"), or
 * are one of their own ("Enter your name"): the pages put the label in front of the former.
 * A browser's date picker sends `YYYY-MM-DD`; one without sends what was typed.
 */
const REAL_DATE = 'must be a real date, written year-month-day, like 2026-11-28';

function stayProblems(
  input: { check_in?: string; check_out?: string; guests?: string | number },
  now: Date,
  horizonDays: number,
  timeZone: string,
): { details: ErrorDetail[]; stay?: StayQuery } {
  const details: ErrorDetail[] = [];
  // The hotel's date now, where it is: a New York hotel at 20:00 still takes bookings for tonight.
  const { today } = hotelClock(timeZone, now);
  const lastCheckIn = addDays(today, horizonDays);
  const checkIn = typeof input.check_in === 'string' ? input.check_in.trim() : '';
  const checkOut = typeof input.check_out === 'string' ? input.check_out.trim() : '';

  const inValid = isCalendarDate(checkIn);
  if (!checkIn) details.push({ path: 'check_in', message: 'Enter the check-in date' });
  else if (!inValid) details.push({ path: 'check_in', message: REAL_DATE });
  else if (checkIn < today) details.push({ path: 'check_in', message: 'cannot be in the past' });
  else if (checkIn > lastCheckIn) details.push({ path: 'check_in', message: `can be at most ${horizonDays} days from today (${lastCheckIn} at the latest)` });

  const outValid = isCalendarDate(checkOut);
  if (!checkOut) details.push({ path: 'check_out', message: 'Enter the check-out date' });
  else if (!outValid) details.push({ path: 'check_out', message: REAL_DATE });
  else if (inValid) {
    const nights = nightsBetween(checkIn, checkOut);
    if (nights < 1) details.push({ path: 'check_out', message: 'must be after the check-in date' });
    else if (nights > MAX_GUEST_NIGHTS) details.push({ path: 'check_out', message: `must be at most ${MAX_GUEST_NIGHTS} nights after check-in` });
  }

  let guests: number | undefined;
  const raw = input.guests;
  if (typeof raw === 'number') guests = raw;
  else if (typeof raw === 'string' && /^\s*\d{1,6}\s*$/.test(raw)) guests = Number(raw.trim());
  if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) details.push({ path: 'guests', message: 'Enter the number of guests' });
  else if (guests === undefined || !Number.isInteger(guests) || guests < 1) details.push({ path: 'guests', message: 'must be a whole number of at least 1' });
  else if (guests > MAX_GUESTS) details.push({ path: 'guests', message: `must be at most ${MAX_GUESTS}` });

  return details.length ? { details } : { details, stay: { check_in: checkIn, check_out: checkOut, guests: guests! } };
}

function invalid(details: ErrorDetail[]): AppError {
  return errors.validation(details, details.map((d) => `${d.path}: ${d.message}`).join('; '));
}

/**
 * The stay's rules on the raw form values; 400 AppError VALIDATION_ERROR with details paths
 * `check_in`, `check_out`, `guests` (dates not real, check-in before today (the date of `now` in
 * the hotel's `timeZone`), check-in more than `horizonDays` after that today (the client's
 * booking horizon), check-out not after check-in, more than 30 nights, guests not a whole
 * number >= 1), ALL problems at once.
 * Surrounding spaces are ignored; guests may be a number or its digits.
 */
export function checkStay(
  input: { check_in?: string; check_out?: string; guests?: string | number },
  now: Date,
  horizonDays = DEFAULT_BOOKING_HORIZON_DAYS,
  timeZone = DEFAULT_TIME_ZONE,
): StayQuery {
  const { details, stay } = stayProblems(input, now, horizonDays, timeZone);
  if (!stay) throw invalid(details);
  return stay;
}

/** The guest's details as typed: name required, e-mail checked, phone optional in E.164 (spaces, dashes, dots and brackets ignored). */
function guestProblems(input: Partial<Record<keyof GuestDetails, unknown>> | undefined): { details: ErrorDetail[]; guest?: GuestDetails } {
  const details: ErrorDetail[] = [];
  const name = typeof input?.name === 'string' ? input.name.trim() : '';
  const email = typeof input?.email === 'string' ? input.email.trim() : '';
  const rawPhone = typeof input?.phone === 'string' ? input.phone.trim() : '';
  const phone = rawPhone.replace(/[\s().-]/g, '');

  if (!name) details.push({ path: 'name', message: 'Enter your name' });
  else if (name.length > MAX_NAME_LENGTH) details.push({ path: 'name', message: `must be at most ${MAX_NAME_LENGTH} characters` });
  else if (guestNameProblem(name)) details.push({ path: 'name', message: guestNameProblem(name)! });
  if (!email) details.push({ path: 'email', message: 'Enter your e-mail address' });
  else if (!emailSchema.safeParse(email).success) details.push({ path: 'email', message: 'Enter an e-mail address in the right format, like name@example.com' });
  if (input?.phone !== undefined && typeof input.phone !== 'string') details.push({ path: 'phone', message: 'must be a phone number' });
  else if (phone && !phoneSchema.safeParse(phone).success) {
    details.push({ path: 'phone', message: 'Enter a phone number in international format, like +44 20 7946 0958' });
  }
  return details.length ? { details } : { details, guest: { name, email, ...(phone ? { phone } : {}) } };
}

/**
 * The stay's, the guest's and the attempt's rules together: every problem at once (400
 * VALIDATION_ERROR, details paths as checkStay's, then name, email, phone, and attempt when it
 * is not a UUID).
 */
export function checkBookingInput(input: BookingInput, now: Date, horizonDays: number, timeZone: string): { stay: StayQuery; guest: GuestDetails; attempt?: string } {
  const stay = stayProblems(input?.stay ?? {}, now, horizonDays, timeZone);
  const guest = guestProblems(input?.guest);
  const attempt = typeof input?.attempt === 'string' ? input.attempt.trim().toLowerCase() : undefined;
  const attemptDetails: ErrorDetail[] =
    input?.attempt === undefined || (attempt && UUID.test(attempt))
      ? []
      : [{ path: 'attempt', message: 'This form could not be read. Please check your details and press the button again.' }];
  if (!stay.stay || !guest.guest || attemptDetails.length) throw invalid([...stay.details, ...guest.details, ...attemptDetails]);
  return { stay: stay.stay, guest: guest.guest, attempt };
}
