/**
 * What the Bookings pages share: paths, the booking as the operator's client has it, refusals as
 * form errors, and the audit of an action.
 */
import { recordAudit } from '../../domain/audit';
import { type BookingView, bookingView } from '../../domain/bookings/list-bookings';
import { AppError, type ErrorDetail } from '../../errors';
import { logger } from '../../observability';
import { nightsBetween } from '../../schemas/common';
import { getBooking } from '../../store/property-store';
import { getRoom } from '../../store/service-booking-store';
import { type Links, NoticeBox } from '../layout';
import type { PageRequest } from '../page-function';


export const LIST = '/dashboard/bookings';
/** Bookings per page of the list (a `limit` query parameter, 1 to 100, overrides it). */
export const BOOKINGS_PER_PAGE = 25;

export type FieldErrors = Record<string, string>;
export type AuditChanges = Record<string, string | number | boolean | null>;

export const bookingPath = (bookingId: string) => `${LIST}/${encodeURIComponent(bookingId)}`;
export const assignPath = (bookingId: string) => `${bookingPath(bookingId)}/assign`;
export const amount = (value: number | null) => (value === null ? '—' : String(value));
export const roomLabel = (room: { room_number: string; room_type: string }) => `${room.room_number} (${room.room_type})`;
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

export function ErrorBox({ message }: { message?: string }) {
  return message ? <NoticeBox notice={{ kind: 'error', message }} /> : null;
}

/** The booking as the operator's client has it; 404 for an unknown id or another client's. */
export async function requireBooking(request: PageRequest): Promise<BookingView> {
  const bookingId = request.params.booking_id ?? '';
  const notFound = () => new AppError(404, 'NOT_FOUND', 'There is no such booking.');
  if (!BOOKING_ID.test(bookingId)) throw notFound();
  const clientId = request.operator.client_id;
  const booking = await getBooking(clientId, bookingId);
  if (!booking) throw notFound();
  const room = booking.room_id ? await getRoom(clientId, booking.room_id) : undefined;
  return bookingView(booking, () => room?.room_number);
}

export const bookingTitle = (b: BookingView) => `Booking ${b.booking_reference ?? b.external_booking_id ?? b.booking_id}`;

/** The audit about a record; recording it never undoes the action it follows. */
export async function audit(request: PageRequest, action: string, target: string, changes: AuditChanges): Promise<void> {
  try {
    await recordAudit(request.operator.client_id, { operator: request.operator.email, action, target, changes }, request.now);
  } catch (error) {
    logger.error('could not record an audit entry', { action, target, error: error as Error });
  }
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
