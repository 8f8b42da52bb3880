/**
 * Staff changes to a booking the service made (guest page, reception, paid order; never one the
 * PMS synced, which the PMS owns), from its page:
 * - "Change": a page of its own with the check-in, check-out, room and guests as they are; the
 *   availability rules apply with the booking's own nights left out, and a clash comes back as
 *   the refusal in the page's notice style, the typed values kept and nothing changed;
 * - "Cancel booking": a confirmation page of its own (./booking-cancel.tsx);
 * - "Mark no-show": once the check-in day has passed in the hotel's time zone.
 * Each calls the audited operator action the operator CLI calls, POST-redirect-GET.
 */
import type { BookingStory } from '../../domain/bookings/booking-story';
import { receptionStay } from '../../domain/bookings/reception-bookings';
import type { HotelClock } from '../../domain/hotel-time';
import { type BookingChange, markBookingNoShow, modifyBooking } from '../../domain/operator-actions/booking-changes';
import { roomsForChange } from '../../domain/bookings/change-rooms';
import { stayTotals } from '../../domain/bookings/change-pricing';
import { bookingMoney } from '../../domain/bookings/booking-money';
import { changedMoney } from '../../domain/bookings/stay-total';
import type { AppError } from '../../errors';
import { formatDate, formatPrice, inWords } from '../format';
import { ErrorSummary, Field, type Links, NoticeBox, Page, Select } from '../layout';
import type { Notice } from '../notice';
import type { PageAction, PageOutcome, PageRequest } from '../page-function';
import { type BookingFacts, bookingFactsOf, titleOf } from './booking-facts';
import { bookingPath, isRefusal, nights } from './bookings-common';

export const changePath = (bookingId: string) => `${bookingPath(bookingId)}/change`;
export const cancelPath = (bookingId: string) => `${bookingPath(bookingId)}/cancel`;
export const noShowPath = (bookingId: string) => `${bookingPath(bookingId)}/no-show`;

type BookingRecord = BookingStory['booking'];

/** A booking the service made (a PMS-synced one is its PMS's to change). */
export const ours = (b: BookingRecord) => b.origin !== 'sync';
/** Staff may change a confirmed one's stay, room or guests. */
export const isChangeable = (b: BookingRecord) => ours(b) && b.status === 'confirmed';
/** Staff may cancel one not yet checked in (confirmed, or pending the guest's confirmation). */
export const isCancellable = (b: BookingRecord) => ours(b) && (b.status === 'confirmed' || b.status === 'pending');

/** The booking page's actions: Change, Cancel booking, and Mark no-show once its check-in day has passed (the hotel's day). */
export function BookingActions({ booking, links, clock }: { booking: BookingRecord; links: Links; clock: HotelClock }) {
  if (!isCancellable(booking)) return null;
  return (
    <div class="actions">
      {isChangeable(booking) ? (
        <form method="get" action={links.to(changePath(booking.id))} class="inline">
          <button type="submit">Change</button>
        </form>
      ) : null}
      <form method="get" action={links.to(cancelPath(booking.id))} class="inline">
        <button type="submit" class="destructive">
          Cancel booking
        </button>
      </form>
      {isChangeable(booking) && clock.isPast(booking.check_in_date) ? (
        <form method="post" action={links.to(noShowPath(booking.id))} class="inline">
          <button type="submit" class="secondary">
            Mark no-show
          </button>
        </form>
      ) : null}
    </div>
  );
}

/** Why the booking's page offers no such action now. */
export function notNow(b: BookingRecord, what: string): PageOutcome {
  const message = ours(b) ? `This booking is ${inWords(b.status).toLowerCase()}: it can no longer be ${what}.` : `This booking came from your PMS: it can only be ${what} there.`;
  return { redirect: bookingPath(b.id), notice: { kind: 'error', message } };
}

/** A refusal of the use case as a notice in words (never an id), back on the booking's page. */
export function refusalNotice(error: AppError, what: string): Notice {
  if (error.status === 503) return { kind: 'error', message: `Someone else is changing this booking right now: try again. The booking was not ${what}.` };
  const status = /is (checked_in|checked_out|cancelled|no_show|pending|confirmed);/.exec(error.message)?.[1];
  if (error.code === 'BOOKING_NOT_CANCELLABLE' && status) return { kind: 'error', message: `This booking is ${inWords(status).toLowerCase()}: it was not ${what}.` };
  return { kind: 'error', message: `The booking was not ${what}: ${error.message.replace(/Booking [0-9a-f-]{36} /i, 'The booking ')}` };
}

// ---- Change

type ChangeField = 'check_in_date' | 'check_out_date' | 'room_id' | 'guests';
type ChangeValues = Record<ChangeField | 'total', string>;
const CHANGE_LABELS: Record<ChangeField, string> = { check_in_date: 'Check-in', check_out_date: 'Check-out', room_id: 'Room', guests: 'Guests' };

interface ChangeFormState {
  values: ChangeValues;
  errors?: Partial<Record<ChangeField | 'form', string>>;
  /** A refusal of the whole change (a clash): the page's notice style. */
  refusal?: string;
  status?: number;
}

const valuesOf = (b: BookingRecord): ChangeValues => ({ check_in_date: b.check_in_date, check_out_date: b.check_out_date, room_id: b.room_id ?? '', guests: String(b.guests), total: 'recalculate' });

/** Step 1 of "Change": the new dates and guests, asked first (a GET form: nothing changes). */
function datesStep(request: PageRequest, facts: BookingFacts, form: ChangeFormState) {
  const { links } = request;
  const b = facts.story.booking;
  return (
    <form method="get" action={links.to(changePath(b.id))} aria-label="New dates" novalidate>
      <Field label={CHANGE_LABELS.check_in_date} name="check_in_date" type="date" value={form.values.check_in_date} error={form.errors?.check_in_date} />
      <Field label={CHANGE_LABELS.check_out_date} name="check_out_date" type="date" value={form.values.check_out_date} error={form.errors?.check_out_date} />
      <Field label={CHANGE_LABELS.guests} name="guests" type="number" min="1" step="1" value={form.values.guests} error={form.errors?.guests} />
      <div class="actions">
        <button type="submit">Find free rooms</button>
        <a href={links.to(bookingPath(b.id))}>Back to the booking</a>
      </div>
    </form>
  );
}

/** Step 2: only the rooms free for the new stay, and the total recalculated or kept, both shown, then "Confirm change". */
async function roomStep(request: PageRequest, facts: BookingFacts, form: ChangeFormState, stay: { check_in_date: string; check_out_date: string; guests: number }) {
  const { links } = request;
  const { booking: b, currency } = facts.story;
  const rooms = await roomsForChange(request.operator.client_id, b, stay, request.now);
  const totals = await stayTotals(request.operator.client_id, rooms, stay, currency);
  const chosen = rooms.find((room) => room.id === form.values.room_id) ?? rooms.find((room) => room.id === b.room_id) ?? rooms[0];
  const count = nights(stay);
  // What the guest would pay in all (a taxed booking's taxes at the hotel's rate now): the booking page's "Total".
  const recalculated = (room: (typeof rooms)[number] | undefined) => {
    const price = room ? totals.get(room.id) : undefined;
    if (price === undefined) return '—';
    const money = changedMoney('recalculate', b, price, facts.taxes, currency);
    return formatPrice(bookingMoney({ ...b, total_amount: money.total_amount ?? null, taxes_amount: money.taxes_amount ?? null }).owed, currency);
  };
  const label = (room: (typeof rooms)[number]) => `${room.room_number} · ${room.room_type} · ${recalculated(room)} for ${count} ${count === 1 ? 'night' : 'nights'}`;
  const keep = b.total_amount === undefined ? 'none' : formatPrice(bookingMoney(b).owed, currency);
  return (
    <>
      <p>
        New stay: {formatDate(stay.check_in_date)} to {formatDate(stay.check_out_date)}, {count} {count === 1 ? 'night' : 'nights'}, {stay.guests} {stay.guests === 1 ? 'guest' : 'guests'} ·{' '}
        <a href={links.to(changePath(b.id))}>Change the dates</a>
      </p>
      {rooms.length === 0 ? (
        <NoticeBox notice={{ kind: 'error', message: 'No room is free for every night of this stay: choose other dates.' }} />
      ) : (
        <form method="post" action={links.to(changePath(b.id))} aria-label="Change booking" novalidate>
          <input type="hidden" name="check_in_date" value={stay.check_in_date} />
          <input type="hidden" name="check_out_date" value={stay.check_out_date} />
          <input type="hidden" name="guests" value={String(stay.guests)} />
          <Select label={CHANGE_LABELS.room_id} name="room_id" value={chosen?.id ?? ''} options={rooms.map((room) => ({ value: room.id, label: label(room) }))} error={form.errors?.room_id} />
          <fieldset class="radios">
            <legend>Total</legend>
            <div class="radio">
              <input type="radio" id="f-total" name="total" value="recalculate" checked={form.values.total !== 'keep'} aria-describedby="f-total-hint" />
              <label for="f-total">
                Recalculate the total: {recalculated(chosen)}
                <small id="f-total-hint" class="hint">
                  {count} {count === 1 ? 'night' : 'nights'} at the chosen room's rates{b.taxes_amount ? ", with the hotel's taxes" : ''} (room {chosen?.room_number ?? '—'}; another room at its own, shown beside it).
                </small>
              </label>
            </div>
            <div class="radio">
              <input type="radio" id="f-total-keep" name="total" value="keep" checked={form.values.total === 'keep'} />
              <label for="f-total-keep">Keep the total: {keep}</label>
            </div>
          </fieldset>
          <div class="actions">
            <button type="submit">Confirm change</button>
            <a href={links.to(bookingPath(b.id))}>Back to the booking</a>
          </div>
        </form>
      )}
    </>
  );
}

async function changePage(request: PageRequest, facts: BookingFacts, form: ChangeFormState, stay?: { check_in_date: string; check_out_date: string; guests: number }): Promise<PageOutcome> {
  const { operator, links } = request;
  const { booking: b } = facts.story;
  if (!isChangeable(b)) return notNow(b, 'changed');
  return {
    status: form.status ?? 200,
    html: (
      <Page title="Change booking" links={links} operator={operator} nav="bookings" notice={request.notice}>
        <p>
          <a href={links.to(bookingPath(b.id))}>{titleOf(b)}</a> · {b.guest_name}
        </p>
        {form.refusal ? <NoticeBox notice={{ kind: 'error', message: form.refusal }} /> : null}
        <ErrorSummary errors={form.errors ?? {}} labels={CHANGE_LABELS} />
        <p class="muted">
          The new dates first, then the rooms free for them (this booking's own nights left out). Your PMS and the guest are told of the change. Dates are the hotel's ({facts.clock.timeZone}).
        </p>
        {stay ? await roomStep(request, facts, form, stay) : datesStep(request, facts, form)}
      </Page>
    ),
  };
}

/** The stay typed, or what is wrong with it; an unchanged check-in may be in the past (a stay that began), a new one may not. */
function typedStay(values: ChangeValues, facts: BookingFacts) {
  const { stay, details } = receptionStay(values, values.check_in_date === facts.story.booking.check_in_date ? '0000-01-01' : facts.clock.today);
  const errors: ChangeFormState['errors'] = {};
  for (const detail of details) errors[detail.path as ChangeField] ??= detail.message;
  return { stay, errors };
}

export const changeBookingForm: PageAction = async (request) => {
  const facts = await bookingFactsOf(request);
  const current = valuesOf(facts.story.booking);
  if (!request.query.check_in_date) return changePage(request, facts, { values: current });
  const typed = (name: ChangeField | 'total') => (request.query[name] ?? '').trim();
  const values: ChangeValues = { check_in_date: typed('check_in_date'), check_out_date: typed('check_out_date'), room_id: typed('room_id'), guests: typed('guests'), total: typed('total') };
  const { stay, errors } = typedStay(values, facts);
  if (!stay) return changePage(request, facts, { values, errors, status: 400 });
  return changePage(request, facts, { values }, stay);
};

/** A clash in words: the room by its number (never its id), the reason the availability rules gave. */
function clashMessage(error: AppError, values: ChangeValues): string {
  const number = /room (\S+) \(/i.exec(error.message)?.[1];
  const reason = error.message.includes(': ') ? error.message.slice(error.message.indexOf(': ') + 2) : 'it is taken for some of these nights';
  const room = number ? `Room ${number}` : 'The room';
  return `${room} is not available from ${formatDate(values.check_in_date)} to ${formatDate(values.check_out_date)}: ${reason}. Nothing was changed: choose other dates or another room.`;
}

export const changeBooking: PageAction = async (request) => {
  const facts = await bookingFactsOf(request);
  const b = facts.story.booking;
  if (!isChangeable(b)) return notNow(b, 'changed');
  const typed = (name: ChangeField | 'total') => (request.form.get(name) ?? '').trim();
  const values: ChangeValues = { check_in_date: typed('check_in_date'), check_out_date: typed('check_out_date'), room_id: typed('room_id'), guests: typed('guests'), total: typed('total') };
  const { stay, errors } = typedStay(values, facts);
  if (!stay) return changePage(request, facts, { values, errors, status: 400 });
  const total = values.total === 'keep' ? 'keep' : 'recalculate';

  const change: BookingChange = {
    ...(stay.check_in_date !== b.check_in_date ? { check_in_date: stay.check_in_date } : {}),
    ...(stay.check_out_date !== b.check_out_date ? { check_out_date: stay.check_out_date } : {}),
    ...(values.room_id && values.room_id !== b.room_id ? { room_id: values.room_id } : {}),
    ...(stay.guests !== b.guests ? { guests: stay.guests } : {}),
  };
  if (Object.keys(change).length === 0) {
    return changePage(request, facts, { values, errors: { form: 'Change the dates, the room or the guests: these are the booking’s now' }, status: 400 }, stay);
  }
  change.total = total;
  let changed;
  try {
    changed = await modifyBooking(request.operator, b.id, change, request.now);
  } catch (error) {
    if (!isRefusal(error)) throw error;
    // The booking was just read: a room it does not know is the room chosen (removed meanwhile, or not the client's).
    if (error.code === 'NOT_FOUND' && change.room_id) return changePage(request, facts, { values, errors: { room_id: 'Choose a room from the list' }, status: 400 }, stay);
    if (error.code === 'NOT_FOUND') throw error;
    if (error.code === 'ROOM_NOT_AVAILABLE') return changePage(request, facts, { values, refusal: clashMessage(error, values), status: 409 }, stay);
    if (error.code === 'VALIDATION_ERROR' && error.details?.length) {
      const refused: ChangeFormState['errors'] = {};
      for (const detail of error.details) {
        const field = detail.path in CHANGE_LABELS ? (detail.path as ChangeField) : 'form';
        refused[field] ??= field === 'form' ? detail.message : `${CHANGE_LABELS[field]} ${detail.message.replace(/check_in_date/g, 'check-in')}`;
      }
      return changePage(request, facts, { values, errors: refused, status: 400 }, stay);
    }
    return { redirect: bookingPath(b.id), notice: refusalNotice(error, 'changed') };
  }
  const nightsText = `${formatDate(stay.check_in_date)} to ${formatDate(stay.check_out_date)}, ${nights(stay)} ${nights(stay) === 1 ? 'night' : 'nights'}`;
  const totalText = changed.booking.total_amount === undefined ? '' : ` Total ${formatPrice(bookingMoney(changed.booking).owed, facts.story.currency)}.`;
  return { redirect: bookingPath(b.id), notice: { kind: 'success', message: `Booking changed: ${nightsText}, ${stay.guests} ${stay.guests === 1 ? 'guest' : 'guests'}.${totalText}` } };
};

// ---- Mark no-show

export const markNoShowAction: PageAction = async (request) => {
  const facts = await bookingFactsOf(request);
  const b = facts.story.booking;
  if (!ours(b)) return notNow(b, 'marked a no-show');
  try {
    await markBookingNoShow(request.operator, b.id, request.now);
  } catch (error) {
    if (!isRefusal(error) || error.code === 'NOT_FOUND') throw error;
    return { redirect: bookingPath(b.id), notice: refusalNotice(error, 'marked a no-show') };
  }
  return { redirect: bookingPath(b.id), notice: { kind: 'success', message: 'Marked as a no-show: the room is free again from today.' } };
};
