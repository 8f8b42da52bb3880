/**
 * "New booking" at the reception desk, one question per page, dates first:
 * 1. GET /dashboard/bookings/new: "Check-in", "Check-out", "Guests", "Find rooms" (a GET form, so
 *    every step is a plain link that needs no script and can be bookmarked);
 * 2. the same URL with the stay in its query: only the rooms free for that stay, each with its
 *    number, category, price per night and the stay's total, as a radio choice, "Continue";
 * 3. the same URL with the room chosen: the guest's name, an e-mail or a phone (one is enough),
 *    and the total filled in from the room's price x nights, editable; "Create booking" POSTs to
 *    /dashboard/bookings (createDeskBooking: the booking `ops bookings create` makes, and its audit entry).
 * Choosing the room on a page of its own is what lets step 3 fill in the total for that room.
 * A room taken meanwhile (by anyone, at any step) comes back as the rooms free now, the typed
 * details kept, the room named by its number. Errors follow the GOV.UK pattern: a summary at the
 * top linking to each field, the message beside the field, what was typed kept.
 */
import type { ComponentChildren } from 'preact';
import {
  type FreeRoom,
  freeRoomsForStay,
  type ReceptionDesk,
  receptionDesk,
  receptionGuest,
  type ReceptionStay,
  receptionStay,
  RoomRefused,
  roomRefusal,
} from '../../domain/bookings/reception-bookings';
import { createDeskBooking } from '../../domain/operator-actions/bookings';
import { AppError, type ErrorDetail } from '../../errors';
import { minorUnits } from '../../schemas/payments';
import { formatDate, formatPrice } from '../format';
import { Dl, Empty, ErrorSummary, Field, Page } from '../layout';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';

import { type FieldErrors, LIST, bookingPath, isRefusal } from './bookings-common';

const NEW = `${LIST}/new`;
const STAY_FIELDS = ['check_in_date', 'check_out_date', 'guests'] as const;
const GUEST_FIELDS = ['guest_name', 'guest_email', 'guest_phone', 'total_amount'] as const;
type Values = Partial<Record<(typeof STAY_FIELDS)[number] | (typeof GUEST_FIELDS)[number] | 'room_id', string>>;

const nightsText = (nights: number) => (nights === 1 ? '1 night' : `${nights} nights`);
const guestsText = (guests: number) => (guests === 1 ? '1 guest' : `${guests} guests`);
/** "101 · Deluxe · 120.00 EUR a night": how the desk tells rooms apart. */
const roomLine = (room: FreeRoom, currency: string) => `${room.room_number} · ${room.category} · ${formatPrice(room.price, currency)} a night`;
/** An amount as the Total field holds it: "240.00" (EUR), "24000" (JPY). */
const amountText = (amount: number, currency: string) => amount.toFixed(minorUnits(currency));
const stayQuery = (stay: ReceptionStay) => ({ check_in_date: stay.check_in_date, check_out_date: stay.check_out_date, guests: String(stay.guests) });

/** The first message of each field, in the order the details came (the form's order). */
function errorsOf(details: readonly ErrorDetail[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const detail of details) errors[detail.path] ??= detail.message;
  return errors;
}

function pick(source: Record<string, string> | URLSearchParams, names: readonly string[]): Values {
  const get = (name: string) => (source instanceof URLSearchParams ? source.get(name) : source[name]) ?? undefined;
  return Object.fromEntries(names.map((name) => [name, get(name)?.trim()]).filter(([, value]) => value !== undefined));
}

function NewBookingPage({ request, step, errors, children }: { request: PageRequest; step: 1 | 2 | 3; errors: FieldErrors; children: ComponentChildren }) {
  const { links, operator, notice } = request;
  return (
    <Page title="New booking" links={links} operator={operator} nav="bookings" notice={notice}>
      <ErrorSummary errors={errors} />
      <p class="muted">Step {step} of 3</p>
      {children}
    </Page>
  );
}

/** The stay (and the room) chosen so far, each with a link back to change it. */
function StaySummary({ request, stay, room, currency }: { request: PageRequest; stay: ReceptionStay; room?: FreeRoom; currency: string }) {
  const { links } = request;
  return (
    <>
      <Dl
        rows={[
          ['Check-in', formatDate(stay.check_in_date)],
          ['Check-out', `${formatDate(stay.check_out_date)} (${nightsText(stay.nights)})`],
          ['Guests', String(stay.guests)],
          ...(room ? ([['Room', roomLine(room, currency)]] as const) : []),
          ...(room?.rate_plan ? ([['Rate', room.rate_plan.name]] as const) : []),
        ]}
      />
      <p class="actions">
        <a href={links.to(NEW, { ...stayQuery(stay), change: 'stay' })}>Change dates or guests</a>
        {room ? <a href={links.to(NEW, stayQuery(stay))}>Change room</a> : null}
      </p>
    </>
  );
}

function StayFields({ stay }: { stay: ReceptionStay }) {
  return (
    <>
      {Object.entries(stayQuery(stay)).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/** The free rooms as radios; the first one is `f-room_id`, where the error summary links. */
function RoomChoice({ rooms, stay, currency, value, error }: { rooms: readonly FreeRoom[]; stay: ReceptionStay; currency: string; value?: string; error?: string }) {
  return (
    <fieldset class="radios" aria-describedby={error ? 'f-room_id-error' : undefined}>
      <legend>Room</legend>
      {error ? (
        <p id="f-room_id-error" class="field-error">
          {error}
        </p>
      ) : null}
      {rooms.map((room, i) => {
        const id = i === 0 ? 'f-room_id' : `f-room_id-${i + 1}`;
        return (
          <div class="radio">
            <input type="radio" id={id} name="room_id" value={room.choice} checked={room.choice === value} aria-describedby={`${id}-hint`} />
            <label for={id}>
              {roomLine(room, currency)}
              {room.rate_plan ? ` · ${room.rate_plan.name}` : ''}
              <small id={`${id}-hint`} class="hint">
                {formatPrice(room.stay_total, currency)} for {nightsText(stay.nights)} · up to {guestsText(room.max_occupancy)}
              </small>
            </label>
          </div>
        );
      })}
    </fieldset>
  );
}

// ---- step 1: dates and guests

function datesStep(request: PageRequest, desk: ReceptionDesk, values: Values, errors: FieldErrors, status = 200): PageOutcome {
  return {
    status,
    html: (
      <NewBookingPage request={request} step={1} errors={errors}>
        <h2 id="step">Dates and guests</h2>
        <p>A reception booking is confirmed at once, the guest pays at the hotel, and your PMS receives it.</p>
        {/* novalidate: the service checks every rule, and explains it the same way in every browser. */}
        <form method="get" action={request.links.to(NEW)} novalidate aria-labelledby="step">
          <Field
            label="Check-in"
            name="check_in_date"
            type="date"
            min={desk.today}
            value={values.check_in_date}
            error={errors.check_in_date}
            required
            hint={`Today at the hotel is ${desk.today} (${desk.time_zone} time).`}
          />
          <Field label="Check-out" name="check_out_date" type="date" min={desk.today} value={values.check_out_date} error={errors.check_out_date} required />
          <Field label="Guests" name="guests" type="number" min="1" step="1" value={values.guests} error={errors.guests} required />
          <button type="submit">Find rooms</button>
        </form>
      </NewBookingPage>
    ),
  };
}

// ---- step 2: a room free for the stay

function roomStep(request: PageRequest, desk: ReceptionDesk, stay: ReceptionStay, rooms: readonly FreeRoom[], errors: FieldErrors, status = 200): PageOutcome {
  const { links } = request;
  return {
    status,
    html: (
      <NewBookingPage request={request} step={2} errors={errors}>
        <h2 id="step">Choose a room</h2>
        <StaySummary request={request} stay={stay} currency={desk.currency} />
        {rooms.length === 0 ? (
          <Empty>
            No room is free for {guestsText(stay.guests)} from {formatDate(stay.check_in_date)} to {formatDate(stay.check_out_date)}.{' '}
            <a href={links.to(NEW, { ...stayQuery(stay), change: 'stay' })}>Change the dates or guests</a>.
          </Empty>
        ) : (
          <form method="get" action={links.to(NEW)} novalidate aria-labelledby="step">
            <StayFields stay={stay} />
            <input type="hidden" name="step" value="details" />
            <RoomChoice rooms={rooms} stay={stay} currency={desk.currency} error={errors.room_id} />
            <button type="submit">Continue</button>
          </form>
        )}
      </NewBookingPage>
    ),
  };
}

// ---- step 3: the guest's details and the total

/**
 * The details form. With `room`, for that room, its total filled in. With `choice` (the room was
 * taken, or none chosen), the rooms free now above the details typed so far; an empty Total then
 * stands for the chosen room's price x nights.
 */
function detailsStep(
  request: PageRequest,
  desk: ReceptionDesk,
  stay: ReceptionStay,
  rooms: { room: FreeRoom } | { choice: readonly FreeRoom[] },
  values: Values,
  errors: FieldErrors,
  status = 200,
): PageOutcome {
  const { links } = request;
  const room = 'room' in rooms ? rooms.room : undefined;
  const choice = 'choice' in rooms ? rooms.choice : undefined;
  const totalHint = room
    ? `${formatPrice(room.price, desk.currency)} a night × ${nightsText(stay.nights)}. Change it for an agreed price.`
    : `Leave it empty for the chosen room's price for ${nightsText(stay.nights)} (shown with each room), or enter an agreed price.`;
  return {
    status,
    html: (
      <NewBookingPage request={request} step={3} errors={errors}>
        <h2 id="step">{room ? 'Guest details' : 'Choose a room and give the guest details'}</h2>
        <StaySummary request={request} stay={stay} room={room} currency={desk.currency} />
        {choice?.length === 0 ? (
          <Empty>
            No room is free for these nights any more.{' '}
            <a href={links.to(NEW, { ...stayQuery(stay), change: 'stay' })}>Change the dates or guests</a>.
          </Empty>
        ) : (
          <form method="post" action={links.to(LIST)} novalidate aria-labelledby="step">
            <StayFields stay={stay} />
            {choice ? (
              <RoomChoice rooms={choice} stay={stay} currency={desk.currency} value={values.room_id} error={errors.room_id} />
            ) : (
              <input type="hidden" name="room_id" value={room!.choice} />
            )}
            <Field label="Guest name" name="guest_name" value={values.guest_name} error={errors.guest_name} required autocomplete="off" />
            <fieldset class="group" aria-describedby="contact-hint">
              <legend>How to reach the guest</legend>
              <p id="contact-hint" class="hint">
                An email address or a phone number is enough.
              </p>
              <Field label="Email" name="guest_email" type="email" value={values.guest_email} error={errors.guest_email} autocomplete="off" />
              <Field
                label="Phone"
                name="guest_phone"
                type="tel"
                value={values.guest_phone}
                error={errors.guest_phone}
                autocomplete="off"
                hint="In international format, like +44 20 7946 0958"
              />
            </fieldset>
            <Field
              label={`Total (${desk.currency})`}
              name="total_amount"
              type="number"
              min="0"
              step={minorUnits(desk.currency) ? `0.${'0'.repeat(minorUnits(desk.currency) - 1)}1` : '1'}
              value={values.total_amount}
              error={errors.total_amount}
              hint={totalHint}
            />
            <button type="submit">Create booking</button>
          </form>
        )}
      </NewBookingPage>
    ),
  };
}

/** The message for a room that cannot be booked: a room taken meanwhile is news, the rest is the use case's own words. */
function roomMessage(refusal: RoomRefused): string {
  return refusal.reason === 'taken' && refusal.roomNumber
    ? `Room ${refusal.roomNumber} was booked by someone else while you were choosing; choose another room`
    : refusal.message;
}

/** A form shown again for its room: 409 when someone else has it, else 400. */
const roomStatus = (refusal: RoomRefused | undefined) => (refusal?.reason === 'taken' ? 409 : 400);

// ---- the actions

export const newBookingForm: PageAction = async (request) => {
  const { query, operator, now } = request;
  const desk = await receptionDesk(operator.client_id, now);
  const values = pick(query, [...STAY_FIELDS, 'room_id']);
  const asked = STAY_FIELDS.some((name) => query[name] !== undefined);
  if (!asked) return datesStep(request, desk, { guests: '1' }, {});
  const checked = receptionStay(values, desk.today);
  if (!checked.stay || query.change === 'stay') return datesStep(request, desk, values, errorsOf(checked.details), checked.stay ? 200 : 400);
  const stay = checked.stay;
  const rooms = await freeRoomsForStay(operator.client_id, stay, desk.currency, now);
  if (query.step !== 'details') return roomStep(request, desk, stay, rooms, {});
  if (!values.room_id) return roomStep(request, desk, stay, rooms, { room_id: 'Choose a room' }, 400);
  const room = rooms.find((r) => r.choice === values.room_id);
  if (!room) {
    const refusal = await roomRefusal(operator.client_id, values.room_id, stay, desk.currency);
    return roomStep(request, desk, stay, rooms, { room_id: roomMessage(refusal) }, roomStatus(refusal));
  }
  return detailsStep(request, desk, stay, { room }, { total_amount: amountText(room.stay_total, desk.currency) }, {});
};

export const createBooking: PageAction = async (request) => {
  const { operator, form, now } = request;
  const clientId = operator.client_id;
  const values = pick(form, [...STAY_FIELDS, ...GUEST_FIELDS, 'room_id']);
  const desk = await receptionDesk(clientId, now);
  const checked = receptionStay(values, desk.today);
  // A stay no longer valid (today moved on, or the form was altered): its own step again.
  if (!checked.stay) return datesStep(request, desk, values, errorsOf(checked.details), 400);
  const stay = checked.stay;
  const guest = receptionGuest(values, desk.currency);

  let refusal: RoomRefused | undefined;
  let general: { message: string; status: number } | undefined;
  if (values.room_id && guest.guest) {
    try {
      const { booking } = await createDeskBooking(operator, values.room_id, values, now);
      return {
        redirect: bookingPath(booking.id),
        notice: { kind: 'success', message: `Booking ${booking.booking_reference} created. Confirmation code: ${booking.confirmation_code}.` },
      };
    } catch (error) {
      if (error instanceof RoomRefused) refusal = error;
      else if (error instanceof AppError && error.code === 'VALIDATION_ERROR') guest.details.push(...(error.details ?? []));
      else if (isRefusal(error)) general = { message: error.status === 503 ? 'The booking could not be saved just now: press "Create booking" again.' : error.message, status: error.status };
      else throw error;
    }
  }

  const rooms = await freeRoomsForStay(clientId, stay, desk.currency, now);
  const room = refusal ? undefined : rooms.find((r) => r.choice === values.room_id);
  if (!room && values.room_id && !refusal) refusal = await roomRefusal(clientId, values.room_id, stay, desk.currency);
  const guestErrors = errorsOf(guest.details);
  if (room) return detailsStep(request, desk, stay, { room }, values, { ...guestErrors, ...(general ? { form: general.message } : {}) }, general?.status ?? 400);

  // No room, or one that cannot be had: the rooms free now, with what was typed. A total that was
  // the lost room's own price x nights is dropped (empty: the new room's); one typed is kept.
  const kept = { ...values, room_id: undefined };
  if (refusal?.stayTotal !== undefined && values.total_amount === amountText(refusal.stayTotal, desk.currency)) kept.total_amount = '';
  const errors = { room_id: refusal ? roomMessage(refusal) : 'Choose a room', ...guestErrors };
  return detailsStep(request, desk, stay, { choice: rooms }, kept, errors, roomStatus(refusal));
};
