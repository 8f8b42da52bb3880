/**
 * What the Bookings pages share: paths, the order of stays, refusals as form errors, and the
 * "Assign room" button.
 */
import type { BookingView } from '../../domain/bookings/list-bookings';
import { AppError, type ErrorDetail } from '../../errors';
import { nightsBetween } from '../../schemas/common';
import type { Links } from '../layout';

export const LIST = '/dashboard/bookings';
/** Bookings per page of the list (a `limit` query parameter, 1 to 100, overrides it). */
export const BOOKINGS_PER_PAGE = 25;

export type FieldErrors = Record<string, string>;

export const bookingPath = (bookingId: string) => `${LIST}/${encodeURIComponent(bookingId)}`;
export const assignPath = (bookingId: string) => `${bookingPath(bookingId)}/assign`;
export const nights = (b: { check_in_date: string; check_out_date: string }) => nightsBetween(b.check_in_date, b.check_out_date);
export const byStay = (a: BookingView, b: BookingView) =>
  `${a.check_in_date}#${a.check_out_date}#${a.booking_id}`.localeCompare(`${b.check_in_date}#${b.check_out_date}#${b.booking_id}`);

/** Ids this service mints (UUIDs); anything else names no booking, so it is not looked up. */
export const BOOKING_ID = /^[A-Za-z0-9-]{1,128}$/;

/** Errors a person can act on (refusals of the use case, a lost race): the form comes back with them. */
export function isRefusal(error: unknown): error is AppError {
  return error instanceof AppError && (error.status < 500 || error.status === 503);
}

/**
 * A refusal's details as messages next to their fields (`fields`: detail path to form field);
 * what belongs to no field, as one message for the top of the form.
 */
export function splitErrors(error: AppError, fields: Record<string, string>): { fields: FieldErrors; general?: string } {
  const byField: FieldErrors = {};
  const general: string[] = [];
  for (const detail of error.details ?? ([] as ErrorDetail[])) {
    const field = fields[detail.path];
    if (field === undefined) general.push(`${detail.path}: ${detail.message}`);
    else byField[field] ??= detail.message;
  }
  if (!error.details?.length) general.push(error.message);
  return { fields: byField, ...(general.length ? { general: general.join('; ') } : {}) };
}

export function AssignRoomButton({ links, booking, describedBy }: { links: Links; booking: BookingView; describedBy?: string }) {
  return (
    <form method="get" action={links.to(assignPath(booking.booking_id))} class="inline">
      <button type="submit" aria-describedby={describedBy}>
        Assign room
      </button>
    </form>
  );
}
