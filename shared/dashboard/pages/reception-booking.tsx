/** A reception booking ("New booking"): the use case the ops CLI's `bookings create` calls. */
import { createReceptionBooking, receptionBookingProblems } from '../../domain/bookings/reception-bookings';
import { byRoomNumber } from '../../domain/property-sync/availability';
import { AppError } from '../../errors';
import { listRooms } from '../../store/property-store';
import { Empty, Field, Page, Select } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';

import { ErrorBox, FieldErrors, LIST, audit, bookingPath, isRefusal, roomLabel, splitErrors } from './bookings-common';

// ---- a reception booking

/** Form field names, each the use case's input field of the same name. */
const NEW_BOOKING_FIELDS = ['room_id', 'guest_name', 'guest_email', 'guest_phone', 'check_in_date', 'check_out_date', 'guests', 'total_amount'] as const;
type NewBookingValues = Partial<Record<(typeof NEW_BOOKING_FIELDS)[number], string>>;

async function roomOptions(clientId: string) {
  const rooms = (await listRooms(clientId)).filter((room) => room.is_active).sort(byRoomNumber);
  return [{ value: '', label: 'Choose a room' }, ...rooms.map((room) => ({ value: room.id, label: roomLabel(room) }))];
}

async function newBookingPage(request: PageRequest, values: NewBookingValues, errors: FieldErrors, general?: string, status = 200): Promise<PageOutcome> {
  const { operator, links } = request;
  const rooms = await roomOptions(operator.client_id);
  return {
    status,
    html: (
      <Page title="New booking" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          A reception booking: the room is held for the stay at once, the guest pays at the property, and your PMS receives booking.confirmed.
        </p>
        <ErrorBox message={general} />
        {rooms.length === 1 ? <Empty>There are no active rooms yet: add one on the Rooms page first.</Empty> : null}
        <form method="post" action={links.to(LIST)}>
          <Select label="Room" name="room_id" value={values.room_id ?? ''} options={rooms} error={errors.room_id} />
          <Field label="Guest name" name="guest_name" value={values.guest_name} error={errors.guest_name} required autocomplete="off" />
          <Field label="Guest email" name="guest_email" type="email" value={values.guest_email} error={errors.guest_email} required autocomplete="off" />
          <Field label="Guest phone" name="guest_phone" type="tel" value={values.guest_phone} error={errors.guest_phone} autocomplete="off" hint="Optional, in international form: +14155550123" />
          <Field label="Check-in" name="check_in_date" type="date" value={values.check_in_date} error={errors.check_in_date} required />
          <Field label="Check-out" name="check_out_date" type="date" value={values.check_out_date} error={errors.check_out_date} required />
          <Field label="Guests" name="guests" type="number" min="1" step="1" value={values.guests ?? (errors.guests ? undefined : '1')} error={errors.guests} required />
          <Field label="Total amount" name="total_amount" type="number" min="0" step="any" value={values.total_amount} error={errors.total_amount} required />
          <button type="submit">Create booking</button>
        </form>
      </Page>
    ),
  };
}

export const newBookingForm: PageAction = async (request) => newBookingPage(request, {}, {});

const numberOrUndefined = (value: string) => (value === '' ? undefined : Number(value));

export const createBooking: PageAction = async (request) => {
  const { operator, form } = request;
  const values: NewBookingValues = {};
  for (const name of NEW_BOOKING_FIELDS) values[name] = (form.get(name) ?? '').trim();
  const fieldOf = Object.fromEntries(NEW_BOOKING_FIELDS.map((name) => [name, name]));
  const again = (error: AppError) => {
    const split = splitErrors(error, fieldOf);
    // A room the use case refuses (taken, inactive, too small, unknown) is the Room field's problem.
    if (!error.details?.length && (error.code === 'ROOM_NOT_AVAILABLE' || error.code === 'NOT_FOUND')) {
      return newBookingPage(request, values, { room_id: error.message }, undefined, error.status);
    }
    return newBookingPage(request, values, split.fields, split.general, error.status);
  };

  const input = {
    guest_name: values.guest_name,
    guest_email: values.guest_email,
    guest_phone: values.guest_phone || undefined,
    check_in_date: values.check_in_date,
    check_out_date: values.check_out_date,
    guests: numberOrUndefined(values.guests!),
    total_amount: numberOrUndefined(values.total_amount!),
  };
  // Every field's problem at once, the CLI's rules; an empty field reads better as "Required".
  const details = receptionBookingProblems(input).map((d) => (values[d.path as keyof NewBookingValues] === '' ? { ...d, message: 'Required' } : d));
  if (!values.room_id) details.unshift({ path: 'room_id', message: 'Choose a room' });
  if (details.length) return again(new AppError(400, 'VALIDATION_ERROR', 'The booking is not valid', details));
  let confirmed;
  try {
    confirmed = await createReceptionBooking(operator.client_id, values.room_id!, input, request.now);
  } catch (error) {
    if (isRefusal(error)) return again(error);
    throw error;
  }
  const { booking, room } = confirmed;
  await audit(request, 'booking.create', booking.id, {
    origin: booking.origin,
    booking_reference: booking.booking_reference ?? null,
    room_id: room?.id ?? null,
    room_number: room?.room_number ?? null,
    guest_name: booking.guest_name,
    check_in_date: booking.check_in_date,
    check_out_date: booking.check_out_date,
    guests: booking.guests,
    total_amount: booking.total_amount ?? null,
  });
  return {
    redirect: bookingPath(booking.id),
    notice: { kind: 'success', message: `Booking ${booking.booking_reference} created. Confirmation code: ${booking.confirmation_code}.` },
  };
};

