/**
 * The guest booking pages (docs/behaviour.md "Guest booking and the reception QR code" and
 * "What guests compare"), public and mobile first: dates and guests, the available rooms by
 * category (what the PMS says of each: description and amenities) with the price per night and
 * the stay's total, the guest's details with the hotel's cancellation policy, then the client's
 * provider checkout (or, where the hotel allows it, a booking paid at the hotel), then the
 * confirmation page with what happens next; after a declined or cancelled payment, "Try again"
 * for the same room and details while its hold lasts.
 * Every rule is the guest-booking use case's (shared/domain/guest-booking/): this file only turns
 * forms into its inputs and its answers (and refusals: the form again, an error summary on top
 * and the message next to the field) into pages.
 *
 * Plain GET forms carry the stay from page to page, so the back button and a reload work; the
 * only POST creates the booking. No script: every step is a form.
 */
import {
  checkStay,
  type GuestBookingPage,
  type GuestBookingView,
  type GuestClient,
  guestBookingClient,
  guestBookingPage,
  HOLD_MINUTES,
  newBookingAttempt,
  type OfferedCategory,
  searchRooms,
  type StayQuery,
  startCheckout,
} from '../domain/guest-booking/guest-bookings';
import { bookPayAtProperty } from '../domain/guest-booking/pay-at-property';
import { emailEnabled } from '../domain/guest-email/outbox';
import { hotelClock, localDate, localTime } from '../domain/hotel-time';
import { AppError } from '../errors';
import { Dl, ErrorSummary, Field } from '../dashboard/layout';
import { formatPrice } from '../dashboard/format';
import type { PageOutcome, PublicPageAction } from '../dashboard/page-function';
import type { ComponentChildren } from 'preact';
import { day } from './emails';
import { Alert, GuestPage } from './layout';
import { bookingPageUrl, bookPath } from './urls';
import { GUEST_CSS } from './stylesheet';

type Request = Parameters<PublicPageAction>[0];
type SearchResult = Awaited<ReturnType<typeof searchRooms>>;
type Room = OfferedCategory['rooms'][number];

const STAY_FIELDS = ['check_in', 'check_out', 'guests'] as const;
const GUEST_FIELDS = ['name', 'email', 'phone'] as const;
type StayField = (typeof STAY_FIELDS)[number];
type GuestField = (typeof GUEST_FIELDS)[number];
type Errors<F extends string> = Partial<Record<F | 'form', string>>;

const LABELS: Record<StayField | GuestField, string> = {
  check_in: 'Check-in',
  check_out: 'Check-out',
  guests: 'Guests',
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
};

/** `1,240.50 EUR`: an amount in the currency's major units, with its own decimals. */
export function money(amount: number, currency: string): string {
  return formatPrice(amount, currency);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the hotel says of its taxes (client setting): nothing when it has not said. */
function taxesLine(client: GuestClient): string | undefined {
  if (client.taxes_included === undefined) return undefined;
  return client.taxes_included ? 'Taxes included' : 'Taxes not included';
}

/** The stay as typed, to show the form again (never coerced: the use case judges it). */
function stayValues(source: { get(name: string): string | null | undefined }): Record<StayField, string> {
  return Object.fromEntries(STAY_FIELDS.map((f) => [f, (source.get(f) ?? '').trim()])) as Record<StayField, string>;
}

const fromQuery = (query: Record<string, string>) => ({ get: (name: string) => query[name] });

/** The stay as a query: the search results for it, or the details page with a room. */
const stayQuery = (stay: StayQuery) => ({ check_in: stay.check_in, check_out: stay.check_out, guests: String(stay.guests) });

/**
 * A refusal's details by field, as sentences: a message that goes on from the field's label
 * ("cannot be in the past") gets the label in front; what belongs to no field of the form goes
 * on top of it.
 */
function errorsOf<F extends StayField | GuestField>(error: AppError, fields: readonly F[]): Errors<F> {
  const errors: Errors<F> = {};
  for (const detail of error.details ?? []) {
    const field = fields.find((f) => detail.path === f);
    if (field) errors[field] ??= /^[a-z]/.test(detail.message) ? `${LABELS[field]} ${detail.message}` : detail.message;
    else errors.form ??= detail.message;
  }
  if (Object.keys(errors).length === 0) errors.form = error.message;
  return errors;
}

const hasErrors = (errors: Errors<string>) => Object.values(errors).some(Boolean);

/**
 * A refusal a guest can correct (4xx but 404, and but 429: too many bookings in progress, whose
 * page says when to try again); anything else is thrown on to the error page.
 */
function correctable(error: unknown): AppError {
  if (error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 404 && error.status !== 429) return error;
  throw error;
}

function StayForm({ request, client, values, errors }: { request: Request; client: GuestClient; values: Record<StayField, string>; errors: Errors<StayField> }) {
  // The date picker starts at the hotel's today; the service still checks every date it is sent.
  const { today } = hotelClock(client.time_zone, request.now);
  return (
    <section class="card" aria-labelledby="stay">
      <h2 id="stay">Your stay</h2>
      <ErrorSummary errors={errors} />
      {/* novalidate: every rule is checked (and explained) by the service, the same for every browser. */}
      <form method="get" action={request.links.to(bookPath(client.client_id))} novalidate aria-labelledby="stay">
        <div class="row">
          <Field label="Check-in" name="check_in" type="date" min={today} value={values.check_in} error={errors.check_in} autocomplete="off" />
          <Field label="Check-out" name="check_out" type="date" min={today} value={values.check_out} error={errors.check_out} autocomplete="off" />
        </div>
        <Field label="Guests" name="guests" type="number" min="1" step="1" value={values.guests} error={errors.guests} />
        <button type="submit" class="wide">
          Search
        </button>
      </form>
    </section>
  );
}

/** What the PMS says of a category: its description and amenities, where it says anything. */
function AboutCategory({ category, id }: { category: OfferedCategory; id: string }) {
  return (
    <>
      {category.description ? <p class="about">{category.description}</p> : null}
      {category.amenities ? (
        <ul class="amenities" aria-label={`Amenities: ${category.name}`} id={id}>
          {category.amenities.map((amenity) => (
            <li>{amenity}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function Results({ request, client, stay, result }: { request: Request; client: GuestClient; stay: StayQuery; result: SearchResult }) {
  const count = result.categories.reduce((n, c) => n + c.rooms.length, 0);
  const taxes = taxesLine(client);
  let index = 0;
  return (
    <section aria-labelledby="results">
      <h2 id="results">Available rooms</h2>
      <p class="muted">
        {day(stay.check_in)} to {day(stay.check_out)}: {plural(result.nights, 'night')}, {plural(stay.guests, 'guest')}.
      </p>
      {count === 0 ? (
        <p>No room is free for these dates and guests. Please try other dates.</p>
      ) : (
        <>
          <p>
            Each room shows its price a night and the total for your {plural(result.nights, 'night')}, in {result.currency}.{taxes ? ` ${taxes}.` : ''}
          </p>
          {/* One form for every room: the stay once, each "Book" button sends its room. */}
          <form method="get" action={request.links.to(bookPath(client.client_id, '/details'))}>
            <input type="hidden" name="check_in" value={stay.check_in} />
            <input type="hidden" name="check_out" value={stay.check_out} />
            <input type="hidden" name="guests" value={String(stay.guests)} />
            {result.categories.map((category, c) => (
              <section class="category" aria-labelledby={`c${c + 1}`}>
                <h3 id={`c${c + 1}`}>{category.name}</h3>
                <AboutCategory category={category} id={`a${c + 1}`} />
                <ul class="rooms" aria-label={`Rooms: ${category.name}`}>
                  {category.rooms.map((room) => {
                    const id = `r${++index}`;
                    return (
                      <li>
                        <p id={id}>
                          Room {room.room_number}, {room.room_type}, up to {plural(room.max_occupancy, 'guest')}
                          <br />
                          {money(room.price, result.currency)} a night
                          <br />
                          <b>{money(room.total, result.currency)}</b> in total
                        </p>
                        <button name="room_id" value={room.room_id} aria-describedby={id}>
                          Book
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </section>
            ))}
          </form>
        </>
      )}
    </section>
  );
}

async function searchPage(request: Request, client: GuestClient, options: { values?: Record<StayField, string>; errors?: Errors<StayField>; stay?: StayQuery; notice?: string } = {}) {
  const values = options.values ?? { check_in: '', check_out: '', guests: '' };
  const errors = options.errors ?? {};
  const result = options.stay ? await searchRooms(client.client_id, options.stay, request.now) : undefined;
  return (
    <GuestPage title="Book a room" hotel={client.name} links={request.links} error={hasErrors(errors)}>
      {options.notice ? <Alert>{options.notice}</Alert> : null}
      <StayForm request={request} client={client} values={values} errors={errors} />
      {options.stay && result ? <Results request={request} client={client} stay={options.stay} result={result} /> : null}
    </GuestPage>
  );
}

/** The stay of a request, or the search form again with the messages next to the fields (400). */
async function stayOr(request: Request, client: GuestClient, values: Record<StayField, string>): Promise<StayQuery | PageOutcome> {
  try {
    return checkStay(values, request.now, client.booking_horizon_days, client.time_zone);
  } catch (error) {
    return { html: await searchPage(request, client, { values, errors: errorsOf(correctable(error), STAY_FIELDS) }), status: 400 };
  }
}

const isOutcome = (value: StayQuery | PageOutcome): value is PageOutcome => 'html' in value || 'redirect' in value || 'raw' in value;

const ROOM_TAKEN = 'Sorry, that room is no longer available for these dates: someone else booked it. Please choose another room.';

/** GET /book/{client_id}: the form; with a stay in the query, the rooms free for it. */
export const searchAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const searched = STAY_FIELDS.some((f) => request.query[f] !== undefined);
  if (!searched) return { html: await searchPage(request, client) };
  const values = stayValues(fromQuery(request.query));
  const stay = await stayOr(request, client, values);
  if (isOutcome(stay)) return stay;
  return { html: await searchPage(request, client, { values, stay }) };
};

/** `Sat 28 Nov 2026, from 15:00`: the check-in day, with the hotel's check-in time where it has one. */
const checkInDay = (client: GuestClient, date: string) => (client.check_in_time ? `${day(date)}, from ${client.check_in_time}` : day(date));

/** The hotel's cancellation policy (client setting); where it has none, the guest is told to ask. */
export function CancellationPolicy({ client }: { client: GuestClient }) {
  return (
    <section class="card" aria-labelledby="cancellation">
      <h2 id="cancellation">Cancellation policy</h2>
      {client.cancellation_policy ? (
        <p class="policy">{client.cancellation_policy}</p>
      ) : (
        <p>The hotel has not published a cancellation policy here. Please ask the hotel about cancelling before you pay.</p>
      )}
    </section>
  );
}

function detailsPage(
  request: Request,
  client: GuestClient,
  stay: StayQuery,
  offered: Offered,
  form: { values?: Partial<Record<GuestField, string>>; errors?: Errors<GuestField> } = {},
) {
  const { room, category, currency, nights } = offered;
  const values = form.values ?? {};
  const errors = form.errors ?? {};
  const total = money(room.total, currency);
  const taxes = taxesLine(client);
  const backToResults = request.links.to(bookPath(client.client_id), stayQuery(stay));
  return (
    <GuestPage title="Your details" hotel={client.name} links={request.links} error={hasErrors(errors)}>
      <ErrorSummary errors={errors} />
      <section class="card" aria-labelledby="choice">
        <h2 id="choice">Your room</h2>
        <Dl
          rows={[
            ['Room', `${room.room_number}, ${category.name}`],
            ['Check-in', checkInDay(client, stay.check_in)],
            ['Check-out', day(stay.check_out)],
            ['Guests', String(stay.guests)],
            ['Per night', money(room.price, currency)],
            ['Total', `${total} for ${plural(nights, 'night')}`],
            ...(taxes ? [['Taxes', client.taxes_included ? 'Included in the price' : 'Not included in the price'] as const] : []),
          ]}
        />
        <AboutCategory category={category} id="amenities" />
        <p>
          <a href={backToResults}>Choose another room</a>
        </p>
      </section>
      <CancellationPolicy client={client} />
      <section class="card" aria-labelledby="guest">
        <h2 id="guest">Guest</h2>
        <form method="post" action={request.links.to(bookPath(client.client_id, '/bookings'))} novalidate aria-labelledby="guest">
          <input type="hidden" name="room_id" value={room.room_id} />
          <input type="hidden" name="check_in" value={stay.check_in} />
          <input type="hidden" name="check_out" value={stay.check_out} />
          <input type="hidden" name="guests" value={String(stay.guests)} />
          {/* One per rendering: a double click or a resubmit of this form is the same booking. */}
          <input type="hidden" name="attempt" value={newBookingAttempt()} />
          <Field label="Name" name="name" value={values.name} error={errors.name} autocomplete="name" />
          <Field label="Email" name="email" type="email" value={values.email} error={errors.email} autocomplete="email" />
          <Field label="Phone" name="phone" type="tel" value={values.phone} error={errors.phone} autocomplete="tel" hint="Optional, in international format, like +44 20 7946 0958" />
          <p class="muted">Once you continue, the room is held for you for {HOLD_MINUTES} minutes while you pay.</p>
          <button type="submit" name="pay" value="checkout" class="wide">
            Book and pay {total}
          </button>
          {client.pay_at_property ? (
            <>
              <button type="submit" name="pay" value="at_property" class="wide secondary">
                Confirm and pay at the hotel
              </button>
              <p class="muted">To pay at the hotel, you confirm the booking with a link we e-mail you within {HOLD_MINUTES} minutes.</p>
            </>
          ) : null}
        </form>
      </section>
    </GuestPage>
  );
}

interface Offered {
  room: Room;
  category: OfferedCategory;
  currency: string;
  nights: number;
}

/** The room among those free for the stay, with its category and the stay's figures; undefined when it is taken. */
async function offeredRoom(clientId: string, stay: StayQuery, roomId: string, now: Date): Promise<Offered | undefined> {
  const result = await searchRooms(clientId, stay, now);
  for (const category of result.categories) {
    const room = category.rooms.find((r) => r.room_id === roomId);
    if (room) return { room, category, currency: result.currency, nights: result.nights };
  }
  return undefined;
}

/** GET /book/{client_id}/details: the chosen room and stay, the cancellation policy and the guest's details form. */
export const detailsAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const values = stayValues(fromQuery(request.query));
  const stay = await stayOr(request, client, values);
  if (isOutcome(stay)) return stay;
  const offered = await offeredRoom(client.client_id, stay, (request.query.room_id ?? '').trim(), request.now);
  if (!offered) return { html: await searchPage(request, client, { values, stay, notice: ROOM_TAKEN }), status: 409 };
  return { html: detailsPage(request, client, stay, offered) };
};

/**
 * POST /book/{client_id}/bookings: the checkout opens (the room held meanwhile) and the guest goes
 * to it; or, where the hotel allows it, the booking is confirmed to be paid at the hotel. The
 * details form posts here, and so does "Try again" after a declined payment (the same room and
 * details, a new attempt).
 */
export const createAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const { form } = request;
  const stayTyped = stayValues(form);
  const stay = await stayOr(request, client, stayTyped);
  if (isOutcome(stay)) return stay;
  const roomId = (form.get('room_id') ?? '').trim();
  const values = Object.fromEntries(GUEST_FIELDS.map((f) => [f, (form.get(f) ?? '').trim()])) as Record<GuestField, string>;
  const guest = { name: values.name, email: values.email, ...(values.phone ? { phone: values.phone } : {}) };
  // A form rendered before the attempt field existed has none: each submit is a booking of its own.
  const input = { room_id: roomId, stay, guest, attempt: form.get('attempt') ?? undefined, source: request.sourceIp };
  const clientId = client.client_id;
  try {
    if (form.get('pay') === 'at_property') {
      const { token } = await bookPayAtProperty(clientId, input, request.baseUrl, request.now);
      return { redirect: bookPath(clientId, `/confirmation/${encodeURIComponent(token)}`) };
    }
    const { checkout_url } = await startCheckout(clientId, input, request.baseUrl, request.now);
    return { redirect: checkout_url };
  } catch (thrown) {
    const error = correctable(thrown);
    const offered = await offeredRoom(clientId, stay, roomId, request.now);
    if (error.status === 409 || !offered) {
      return { html: await searchPage(request, client, { values: stayTyped, stay, notice: ROOM_TAKEN }), status: 409 };
    }
    return { html: detailsPage(request, client, stay, offered, { values, errors: errorsOf(error, GUEST_FIELDS) }), status: error.status };
  }
};

/**
 * A guest booking's stay, as its pages show it; with the hotel, its check-in time and what it
 * says of taxes.
 */
export function stayRowsOf(view: GuestBookingView, extras: { chosenRoom?: string; client?: GuestClient } = {}): [string, string][] {
  const { chosenRoom, client } = extras;
  const taxes = client ? taxesLine(client) : undefined;
  const total = money(view.total, view.currency);
  return [
    // Booked: its room, or, for a paid booking whose room was taken after its hold expired, one
    // from the hotel. Not booked: the room the guest chose.
    ['Room', view.state === 'confirmed' ? (view.room_number ?? 'assigned by the hotel on arrival') : (view.room_number ?? chosenRoom ?? '—')],
    ['Check-in', client ? checkInDay(client, view.check_in) : day(view.check_in)],
    ['Check-out', day(view.check_out)],
    ['Guests', String(view.guests)],
    ['Guest', view.guest_name],
    ['Total', taxes ? `${total}, ${taxes.toLowerCase()}` : total],
  ];
}

/**
 * `14:30 UTC`, or `15:30 hotel time (Europe/Madrid)`, with the date when it is not today's
 * there: until when a held room waits, on the hotel's clock.
 */
export function heldUntil(iso: string, now: Date, timeZone = 'UTC'): string {
  const at = new Date(iso);
  const time = `${localTime(timeZone, at)} ${timeZone === 'UTC' ? 'UTC' : `hotel time (${timeZone})`}`;
  const date = localDate(timeZone, at);
  return date === localDate(timeZone, now) ? time : `${day(date)}, ${time}`;
}

/** The page of a guest booking's confirmation token: what became of it, in the guest's words. */
export const confirmationTitle = (view: GuestBookingView) =>
  ({
    confirmed: 'Booking confirmed',
    awaiting_payment: 'Payment not confirmed yet',
    payment_failed: 'Payment not confirmed',
    awaiting_confirmation: 'Check your e-mail to confirm',
    cancelled: 'Booking not confirmed',
  })[view.state];

/** "What happens next" once the room is booked: the e-mail, check-in, the address, payment, cancelling. */
function WhatHappensNext({ page, client }: { page: GuestBookingPage; client: GuestClient }) {
  const { view } = page;
  const items: ComponentChildren[] = [];
  if (page.email && emailEnabled()) items.push(<>We are sending a confirmation e-mail with these details to {page.email}.</>);
  items.push(
    client.check_in_time ? (
      <>
        Check-in is from {client.check_in_time} on {day(view.check_in)}: give your booking reference or confirmation code at the reception desk.
      </>
    ) : (
      <>Your check-in day is {day(view.check_in)}: give your booking reference or confirmation code at the reception desk.</>
    ),
  );
  if (client.address) {
    items.push(
      <>
        The hotel's address:
        <br />
        <span class="address">{client.address}</span>
      </>,
    );
  }
  items.push(view.payment_status === 'paid' ? <>Your payment of {money(view.total, view.currency)} is done.</> : <>You pay {money(view.total, view.currency)} at the hotel.</>);
  items.push(client.cancellation_policy ? <>Cancellation policy: <span class="policy">{client.cancellation_policy}</span></> : <>To change or cancel your booking, please contact the hotel.</>);
  return (
    <section class="card" aria-labelledby="next">
      <h2 id="next">What happens next</h2>
      <ul class="next">
        {items.map((item) => (
          <li>{item}</li>
        ))}
      </ul>
    </section>
  );
}

/**
 * A declined or cancelled payment: while its hold lasts and the room is still free, "Try again"
 * opens a new checkout for the same room and details (a new attempt of the booking form); after,
 * or once someone else has the room, the free rooms for the same dates and guests.
 */
async function TryAgain({ page, client, request }: { page: GuestBookingPage; client: GuestClient; request: Request }) {
  const { view } = page;
  const stay = { check_in: view.check_in, check_out: view.check_out, guests: view.guests };
  const search = request.links.to(bookPath(client.client_id), stayQuery(stay));
  const retry = page.try_again;
  // Still bookable now: free (the declined checkout released it), and the stay still within the
  // rules (a check-in that is now in the past is not).
  let offered: Offered | undefined;
  let stayStillValid = true;
  try {
    offered = retry ? await offeredRoom(client.client_id, retry.stay, retry.room_id, request.now) : undefined;
  } catch (error) {
    correctable(error);
    stayStillValid = false;
  }
  if (!retry || !offered) {
    return (
      <section class="card" aria-labelledby="again">
        <h2 id="again">Book again</h2>
        <p>
          {retry
            ? `Sorry, room ${page.chosen_room_number} can no longer be booked for these dates${stayStillValid ? ': someone else has booked it meanwhile' : ''}.`
            : `The room was kept for you for ${HOLD_MINUTES} minutes${page.held_until ? `, until ${heldUntil(page.held_until, request.now, client.time_zone)}` : ''}. That time is over, so it is no longer held for you.`}
        </p>
        <p>
          <a href={search} class="button">
            See the free rooms for these dates
          </a>
        </p>
      </section>
    );
  }
  const { guest } = retry;
  return (
    <section class="card" aria-labelledby="again">
      <h2 id="again">Try again</h2>
      <p>
        Room {page.chosen_room_number} is still free. You can pay for it again with the same details until {heldUntil(page.held_until!, request.now, client.time_zone)}, without
        typing anything again.
      </p>
      <form method="post" action={request.links.to(bookPath(client.client_id, '/bookings'))}>
        <input type="hidden" name="room_id" value={retry.room_id} />
        <input type="hidden" name="check_in" value={retry.stay.check_in} />
        <input type="hidden" name="check_out" value={retry.stay.check_out} />
        <input type="hidden" name="guests" value={String(retry.stay.guests)} />
        <input type="hidden" name="name" value={guest.name} />
        <input type="hidden" name="email" value={guest.email} />
        {guest.phone ? <input type="hidden" name="phone" value={guest.phone} /> : null}
        {/* A new attempt of the same choices: another checkout; a double click, the same one. */}
        <input type="hidden" name="attempt" value={newBookingAttempt()} />
        <button type="submit" name="pay" value="checkout" class="wide" aria-describedby="again-total">
          Try again
        </button>
      </form>
      <p id="again-total" class="muted">
        {money(offered.room.total, offered.currency)} for {plural(offered.nights, 'night')}, on the payment provider's page.
      </p>
      <p>
        <a href={search}>Choose another room</a>
      </p>
    </section>
  );
}

async function ConfirmationBody({ page, request, client }: { page: GuestBookingPage; request: Request; client: GuestClient }) {
  const { view } = page;
  const stayRows = stayRowsOf(view, { chosenRoom: page.chosen_room_number, client });
  const again = <a href={request.links.to(bookPath(client.client_id), stayQuery(view))}>Search again</a>;
  if (view.state === 'confirmed') {
    return (
      <>
        <div class="notice success" role="status">
          <p>Thank you, your room is booked. The hotel has your booking.</p>
        </div>
        <section class="card" aria-labelledby="codes">
          <h2 id="codes">Keep these</h2>
          <dl class="codes">
            <dt>Booking reference</dt>
            <dd>{view.booking_reference ?? '—'}</dd>
            <dt>Confirmation code</dt>
            <dd>{view.confirmation_code ?? '—'}</dd>
          </dl>
          <p class="muted">Show them at the reception desk. This page's link shows your booking again: keep it to yourself.</p>
        </section>
        <WhatHappensNext page={page} client={client} />
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">Your stay</h2>
          <Dl
            rows={[
              ...stayRows,
              ['Payment', view.payment_status === 'paid' ? <span class="status-paid">paid</span> : 'to pay at the hotel'],
            ]}
          />
        </section>
      </>
    );
  }
  if (view.state === 'awaiting_confirmation' || view.state === 'cancelled') {
    return (
      <>
        {view.state === 'awaiting_confirmation' ? (
          <div class="notice success" role="status">
            <p>
              We have sent you an e-mail with a link. Open it and press "Confirm booking" before {heldUntil(view.confirm_by!, request.now, client.time_zone)}: the room is
              held for you until then. Without your confirmation the booking is cancelled.
            </p>
          </div>
        ) : (
          <Alert>This booking was not confirmed in time, so it was cancelled and the room released. Nothing was booked.</Alert>
        )}
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">{view.state === 'awaiting_confirmation' ? 'The stay you chose' : 'The stay you had chosen'}</h2>
          <Dl rows={[...stayRows, ['Payment', 'to pay at the hotel']]} />
          {view.state === 'cancelled' ? <p>{again}</p> : null}
        </section>
        {view.state === 'awaiting_confirmation' ? <CancellationPolicy client={client} /> : null}
      </>
    );
  }
  if (view.state === 'awaiting_payment') {
    return (
      <>
        <Alert>The payment provider has not confirmed your payment yet, so the room is not booked yet. If you paid, reload this page in a moment.</Alert>
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">The stay you chose</h2>
          <Dl rows={stayRows} />
        </section>
      </>
    );
  }
  return (
    <>
      <Alert>Your payment did not go through, so the room is not booked. Nothing was charged for this booking.</Alert>
      {await TryAgain({ page, client, request })}
      <section class="card" aria-labelledby="stay-facts">
        <h2 id="stay-facts">The stay you chose</h2>
        <Dl rows={stayRows} />
      </section>
    </>
  );
}

/** GET /book/{client_id}/confirmation/{token}: the booking of that link, and of that hotel only. */
export const confirmationAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const page = await guestBookingPage(client.client_id, request.params.token ?? '', request.now);
  if (!page) throw new AppError(404, 'NOT_FOUND', 'There is no such booking.');
  const title = confirmationTitle(page.view);
  return {
    html: (
      <GuestPage title={title} hotel={client.name} links={request.links}>
        {await ConfirmationBody({ page, request, client })}
      </GuestPage>
    ),
  };
};

/**
 * The QR code library, loaded on the first qr.svg only: a lazy package (infra/bundling.ts), so the
 * booking pages' bundle neither carries nor evaluates it.
 */
let qrcode: Promise<typeof import('qrcode')> | undefined;
const loadQrCode = async () => {
  // A CommonJS package: its exports are the module's default (its types declare them as named).
  const module = (await (qrcode ??= import('qrcode'))) as typeof import('qrcode') & { default?: typeof import('qrcode') };
  return module.default ?? module;
};

/** GET /book/{client_id}/qr.svg: the QR code of the client's booking page, for the reception desk. */
export const qrCodeAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const QRCode = await loadQrCode();
  const svg = await QRCode.toString(bookingPageUrl(request.baseUrl, client.client_id), { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: 320 });
  return { raw: svg, contentType: 'image/svg+xml', cacheSeconds: 3600 };
};

/** GET /book/style.css */
export const stylesheetAction: PublicPageAction = async () => ({ raw: GUEST_CSS, contentType: 'text/css; charset=utf-8', cacheSeconds: 300 });
