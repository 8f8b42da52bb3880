/**
 * A reception booking: a guest at the desk booked into a chosen room, confirmed at once and paid
 * at the property. The ops CLI's `bookings create` and the dashboard's "New booking" both call
 * this, with the input as a person typed it.
 */
import { type ErrorDetail, errors } from '../../errors';
import { zodDetails } from '../../http/error-envelope';
import { receptionBookingInput } from '../../schemas/bookings';
import { type ConfirmedBooking, confirmServiceBooking } from './service-bookings';

/** What is wrong with a reception booking's input, field by field (none: it is valid). */
export function receptionBookingProblems(input: unknown): ErrorDetail[] {
  const parsed = receptionBookingInput.safeParse(input);
  return parsed.success ? [] : zodDetails(parsed.error);
}

/** 400 VALIDATION_ERROR (details per field) for bad input; the room's refusals as confirmServiceBooking gives them. */
export async function createReceptionBooking(clientId: string, roomId: string, input: unknown, now = new Date()): Promise<ConfirmedBooking> {
  const parsed = receptionBookingInput.safeParse(input);
  if (!parsed.success) {
    const details = zodDetails(parsed.error);
    throw errors.validation(details, details.map((d) => `${d.path}: ${d.message}`).join('; '));
  }
  return confirmServiceBooking(
    clientId,
    { ...parsed.data, origin: 'reception', roomId, requireRoom: true, payment_status: 'unpaid', payment_method: 'pay_at_property' },
    now,
  );
}
