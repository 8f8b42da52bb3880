/**
 * The guest booking pages (CONTRACT.md "Guest booking and the reception QR code"), public and
 * mobile first: dates and guests, the available rooms by category with the stay's total, the
 * guest's details, then the client's provider checkout (or, where the hotel allows it, a booking
 * paid at the hotel), then the confirmation page. Every rule is the guest-booking use case's
 * (shared/domain/guest-booking/): this file only turns forms into its inputs and its answers
 * (and refusals: the form again, the message next to the field) into pages.
 *
 * Plain GET forms carry the stay from page to page, so the back button and a reload work; the
 * only POST creates the booking. No script: every step is a form.
 */
import {
  checkStay,
  type GuestBookingView,
  type GuestClient,
  guestBookingClient,
  guestBookingOf,
  HOLD_MINUTES,
  newBookingAttempt,
  searchRooms,
  type StayQuery,
  startCheckout,
} from '../domain/guest-booking/guest-bookings';
import { bookPayAtProperty } from '../domain/guest-booking/pay-at-property';
import { AppError } from '../errors';
import { Dl, Field } from '../dashboard/layout';
import type { PageOutcome, PublicPageAction } from '../dashboard/page-function';
import { minorUnits } from '../schemas/payments';
import { Alert, GuestPage } from './layout';
import { bookingPageUrl, bookPath } from './urls';
import { GUEST_CSS } from './stylesheet';

type Request = Parameters<PublicPageAction>[0];
type SearchResult = Awaited<ReturnType<typeof searchRooms>>;
type Room = SearchResult['categories'][number]['rooms'][number];

const STAY_FIELDS = ['check_in', 'check_out', 'guests'] as const;
const GUEST_FIELDS = ['name', 'email', 'phone'] as const;
type StayField = (typeof STAY_FIELDS)[number];
type GuestField = (typeof GUEST_FIELDS)[number];
type Errors<F extends string> = Partial<Record<F | 'form', string>>;

/** `240.00 EUR`: an amount in the currency's major units, with its own decimals. */
export function money(amount: number, currency: string): string {
  return `${amount.toFixed(minorUnits(currency))} ${currency}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;


/** The stay as typed, to show the form again (never coerced: the use case judges it). */
function stayValues(source: { get(name: string): string | null | undefined }): Record<StayField, string> {
  return Object.fromEntries(STAY_FIELDS.map((f) => [f, (source.get(f) ?? '').trim()])) as Record<StayField, string>;
}

const fromQuery = (query: Record<string, string>) => ({ get: (name: string) => query[name] });

/** A refusal's details by field; what belongs to no field of the form goes on top of it. */
function errorsOf<F extends string>(error: AppError, fields: readonly F[]): Errors<F> {
  const errors: Errors<F> = {};
  for (const detail of error.details ?? []) {
    const field = fields.find((f) => detail.path === f);
    if (field) errors[field] ??= detail.message;
    else errors.form ??= detail.message;
  }
  if (Object.keys(errors).length === 0) errors.form = error.message;
  return errors;
}

/**
 * A refusal a guest can correct (4xx but 404, and but 429: too many bookings in progress, whose
 * page says when to try again); anything else is thrown on to the error page.
 */
function correctable(error: unknown): AppError {
  if (error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 404 && error.status !== 429) return error;
  throw error;
}

function StayForm({ request, clientId, values, errors }: { request: Request; clientId: string; values: Record<StayField, string>; errors: Errors<StayField> }) {
  return (
    <section class="card" aria-labelledby="stay">
      <h2 id="stay">Your stay</h2>
      {errors.form ? <Alert>{errors.form}</Alert> : null}
      {/* novalidate: every rule is checked (and explained) by the service, the same for every browser. */}
      <form method="get" action={request.links.to(bookPath(clientId))} novalidate aria-labelledby="stay">
        <div class="row">
          <Field label="Check-in" name="check_in" value={values.check_in} error={errors.check_in} autocomplete="off" hint="YYYY-MM-DD" />
          <Field label="Check-out" name="check_out" value={values.check_out} error={errors.check_out} autocomplete="off" hint="YYYY-MM-DD" />
        </div>
        <Field label="Guests" name="guests" type="number" min="1" step="1" value={values.guests} error={errors.guests} />
        <button type="submit" class="wide">
          Search
        </button>
      </form>
    </section>
  );
}

function Results({ request, clientId, stay, result }: { request: Request; clientId: string; stay: StayQuery; result: SearchResult }) {
  const count = result.categories.reduce((n, c) => n + c.rooms.length, 0);
  let index = 0;
  return (
    <section aria-labelledby="results">
      <h2 id="results">Available rooms</h2>
      <p class="muted">
        {stay.check_in} to {stay.check_out}: {plural(result.nights, 'night')}, {plural(stay.guests, 'guest')}. {count === 0 ? '' : 'Prices are for the whole stay.'}
      </p>
      {count === 0 ? (
        <p>No room is free for these dates and guests. Please try other dates.</p>
      ) : (
        // One form for every room: the stay once, each "Book" button sends its room.
        <form method="get" action={request.links.to(bookPath(clientId, '/details'))}>
          <input type="hidden" name="check_in" value={stay.check_in} />
          <input type="hidden" name="check_out" value={stay.check_out} />
          <input type="hidden" name="guests" value={String(stay.guests)} />
          {result.categories.map((category) => (
            <>
              <h3>{category.name}</h3>
              <ul class="rooms">
                {category.rooms.map((room) => {
                  const id = `r${++index}`;
                  return (
                    <li>
                      <p id={id}>
                        Room {room.room_number}, {room.room_type}, up to {plural(room.max_occupancy, 'guest')}
                        <br />
                        <b>{money(room.total, result.currency)}</b>
                      </p>
                      <button name="room_id" value={room.room_id} aria-describedby={id}>
                        Book
                      </button>
                    </li>
                  );
                })}
              </ul>
            </>
          ))}
        </form>
      )}
    </section>
  );
}

async function searchPage(request: Request, client: GuestClient, options: { values?: Record<StayField, string>; errors?: Errors<StayField>; stay?: StayQuery; notice?: string } = {}) {
  const values = options.values ?? { check_in: '', check_out: '', guests: '' };
  const result = options.stay ? await searchRooms(client.client_id, options.stay, request.now) : undefined;
  return (
    <GuestPage title="Book a room" hotel={client.name} links={request.links}>
      {options.notice ? <Alert>{options.notice}</Alert> : null}
      <StayForm request={request} clientId={client.client_id} values={values} errors={options.errors ?? {}} />
      {options.stay && result ? <Results request={request} clientId={client.client_id} stay={options.stay} result={result} /> : null}
    </GuestPage>
  );
}

/** The stay of a request, or the search form again with the messages next to the fields (400). */
async function stayOr(request: Request, client: GuestClient, values: Record<StayField, string>): Promise<StayQuery | PageOutcome> {
  try {
    return checkStay(values, request.now, client.booking_horizon_days);
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

function detailsPage(request: Request, client: GuestClient, stay: StayQuery, room: Room, currency: string, nights: number, form: { values?: Partial<Record<GuestField, string>>; errors?: Errors<GuestField> } = {}) {
  const values = form.values ?? {};
  const errors = form.errors ?? {};
  const total = money(room.total, currency);
  const backToResults = request.links.to(bookPath(client.client_id), { check_in: stay.check_in, check_out: stay.check_out, guests: String(stay.guests) });
  return (
    <GuestPage title="Your details" hotel={client.name} links={request.links}>
      <section class="card" aria-labelledby="choice">
        <h2 id="choice">Your room</h2>
        <Dl
          rows={[
            ['Room', `${room.room_number}, ${room.room_type}`],
            ['Check-in', stay.check_in],
            ['Check-out', stay.check_out],
            ['Guests', String(stay.guests)],
            ['Total', `${total} (${plural(nights, 'night')})`],
          ]}
        />
        <p>
          <a href={backToResults}>Choose another room</a>
        </p>
      </section>
      <section class="card" aria-labelledby="guest">
        <h2 id="guest">Guest</h2>
        {errors.form ? <Alert>{errors.form}</Alert> : null}
        <form method="post" action={request.links.to(bookPath(client.client_id, '/bookings'))} novalidate aria-labelledby="guest">
          <input type="hidden" name="room_id" value={room.room_id} />
          <input type="hidden" name="check_in" value={stay.check_in} />
          <input type="hidden" name="check_out" value={stay.check_out} />
          <input type="hidden" name="guests" value={String(stay.guests)} />
          {/* One per rendering: a double click or a resubmit of this form is the same booking. */}
          <input type="hidden" name="attempt" value={newBookingAttempt()} />
          <Field label="Name" name="name" value={values.name} error={errors.name} autocomplete="name" />
          <Field label="Email" name="email" type="email" value={values.email} error={errors.email} autocomplete="email" />
          <Field label="Phone" name="phone" type="tel" value={values.phone} error={errors.phone} autocomplete="tel" hint="Optional, in international form: +44 20 7946 0000" />
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

/** The room among those free for the stay, with the stay's figures; undefined when it is taken. */
async function offeredRoom(clientId: string, stay: StayQuery, roomId: string, now: Date) {
  const result = await searchRooms(clientId, stay, now);
  for (const category of result.categories) {
    const room = category.rooms.find((r) => r.room_id === roomId);
    if (room) return { room, currency: result.currency, nights: result.nights };
  }
  return undefined;
}

/** GET /book/{client_id}/details: the chosen room and stay, and the guest's details form. */
export const detailsAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const values = stayValues(fromQuery(request.query));
  const stay = await stayOr(request, client, values);
  if (isOutcome(stay)) return stay;
  const offered = await offeredRoom(client.client_id, stay, (request.query.room_id ?? '').trim(), request.now);
  if (!offered) return { html: await searchPage(request, client, { values, stay, notice: ROOM_TAKEN }), status: 409 };
  return { html: detailsPage(request, client, stay, offered.room, offered.currency, offered.nights) };
};

/**
 * POST /book/{client_id}/bookings: the checkout opens (the room held meanwhile) and the guest goes
 * to it; or, where the hotel allows it, the booking is confirmed to be paid at the hotel.
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
    return { html: detailsPage(request, client, stay, offered.room, offered.currency, offered.nights, { values, errors: errorsOf(error, GUEST_FIELDS) }), status: error.status };
  }
};

/** A guest booking's stay, as its pages show it. */
export function stayRowsOf(view: GuestBookingView): [string, string][] {
  return [
    // A paid booking whose room was taken after its hold expired gets one from the hotel.
    ['Room', view.room_number ?? 'assigned by the hotel on arrival'],
    ['Check-in', view.check_in],
    ['Check-out', view.check_out],
    ['Guests', String(view.guests)],
    ['Guest', view.guest_name],
    ['Total', money(view.total, view.currency)],
  ];
}

/** `14:30 UTC` (with the date when it is not `now`'s): until when a held room waits. */
export function heldUntil(iso: string, now: Date): string {
  const time = `${iso.slice(11, 16)} UTC`;
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
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

function ConfirmationBody({ view, request, clientId }: { view: GuestBookingView; request: Request; clientId: string }) {
  const stayRows = stayRowsOf(view);
  const again = <a href={request.links.to(bookPath(clientId))}>Search again</a>;
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
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">Your stay</h2>
          <Dl rows={[...stayRows, ['Payment', view.payment_status === 'paid' ? <span class="status-paid">paid</span> : 'to pay at the hotel']]} />
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
              We have sent you an e-mail with a link. Open it and press "Confirm booking" before {heldUntil(view.confirm_by!, request.now)}: the room is held for you until
              then. Without your confirmation the booking is cancelled.
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
      </>
    );
  }
  return (
    <>
      <Alert>
        {view.state === 'awaiting_payment'
          ? 'The payment provider has not confirmed your payment yet, so the room is not booked yet. If you paid, reload this page in a moment.'
          : 'Your payment was not confirmed, so the room is not booked. Nothing was charged by this booking.'}
      </Alert>
      <section class="card" aria-labelledby="stay-facts">
        <h2 id="stay-facts">The stay you chose</h2>
        <Dl rows={stayRows} />
        <p>{again}</p>
      </section>
    </>
  );
}

/** GET /book/{client_id}/confirmation/{token}: the booking of that link, and of that hotel only. */
export const confirmationAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const view = await guestBookingOf(client.client_id, request.params.token ?? '', request.now);
  if (!view) throw new AppError(404, 'NOT_FOUND', 'There is no such booking.');
  const title = confirmationTitle(view);
  return {
    html: (
      <GuestPage title={title} hotel={client.name} links={request.links}>
        <ConfirmationBody view={view} request={request} clientId={client.client_id} />
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
