/**
 * The guest booking's first page (docs/behaviour.md "Guest booking and the reception QR code" and
 * "What guests compare"), public and mobile first: the stay's dates and guests, then the rooms
 * free for them by category (what the PMS says of each: description and amenities), each with
 * its price a night, the stay's total and a "Book" button to the details page. No script: every
 * step is a form.
 */
import { checkStay, type GuestClient, guestBookingClient, type RoomSearch, searchRooms, type StayQuery } from '../domain/guest-booking/guest-bookings';
import { hotelClock } from '../domain/hotel-time';
import { ErrorSummary, Field } from '../dashboard/layout';
import type { PageOutcome, PublicPageAction } from '../dashboard/page-function';
import { day } from './emails';
import { AboutCategory, money, plural, taxesLine } from './hotel-info';
import { Alert, GuestPage } from './layout';
import { correctable, type Errors, errorsOf, fromQuery, hasErrors, isOutcome, type Request, STAY_FIELDS, type StayField, stayValues } from './page-forms';
import { bookPath } from './urls';
import { formatDayShort } from '../dashboard/format';
import { rateRuleInWords } from './rate-words';
import type { OfferedRoomFigures, RefusedCategory } from '../domain/guest-booking/room-search';

function StayForm({ request, client, values, errors }: { request: Request; client: GuestClient; values: Record<StayField, string>; errors: Errors<StayField> }) {
  // The date picker starts at the hotel's today; the service still checks every date it is sent.
  const { today } = hotelClock(client.time_zone, request.now);
  return (
    <section class="card" aria-labelledby="stay">
      <h2 id="stay">Your stay</h2>
      <ErrorSummary errors={errors} />
      {/* novalidate: every rule is checked (and explained) by the service, the same for every browser. */}
      <form method="get" action={request.links.to(bookPath(client.page))} novalidate aria-labelledby="stay">
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

/** A room sold on rate plans: each plan the stay can be booked on, its price each night and its total, cheapest first. */
function RoomPlans({ room, id, currency }: { room: OfferedRoomFigures; id: string; currency: string }) {
  return (
    <li class="planned">
      <p id={id}>
        Room {room.room_number}, {room.room_type}, up to {plural(room.max_occupancy, 'guest')}
      </p>
      <ul class="plans" aria-label={`Rates: room ${room.room_number}`}>
        {room.plans!.map((plan, p) => (
          <li>
            <p id={`${id}p${p + 1}`}>
              <b>{plan.name}</b>
              <br />
              {plan.nights.map((night) => `${formatDayShort(night.date)}: ${money(night.price, currency)}`).join(', ')}
              <br />
              <b>{money(plan.total, currency)}</b> in total
            </p>
            {/* The room and the plan in one value: a button sends one (the details page reads both). */}
            <button name="offer" value={`${room.room_id}~${plan.external_rate_plan_id}`} aria-describedby={`${id} ${id}p${p + 1}`}>
              Book {plan.name}
            </button>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** Room types free for the dates that cannot be booked for this stay, and why, in words. */
function Refusals({ refused }: { refused: RefusedCategory[] }) {
  if (!refused.length) return null;
  return (
    <div class="notice" role="note" aria-label="Rooms not bookable for this stay">
      {refused.map((category) => (
        <p>
          <b>{category.name}:</b> {[...new Set(category.blocked_by.map((rule, i) => rateRuleInWords(rule.restriction, rule.date, category.limits[i]!)))].join('. ')}.
        </p>
      ))}
    </div>
  );
}

function Results({ request, client, stay, result }: { request: Request; client: GuestClient; stay: StayQuery; result: RoomSearch }) {
  const count = result.categories.reduce((n, c) => n + c.rooms.length, 0);
  const taxes = taxesLine(client);
  let index = 0;
  return (
    <section aria-labelledby="results">
      <h2 id="results">Available rooms</h2>
      <p class="muted">
        {day(stay.check_in)} to {day(stay.check_out)}: {plural(result.nights, 'night')}, {plural(stay.guests, 'guest')}.
      </p>
      <Refusals refused={result.refused} />
      {count === 0 ? (
        <p>No room is free for these dates and guests. Please try other dates.</p>
      ) : (
        <>
          <p>
            Each room shows its price a night and the total for your {plural(result.nights, 'night')}, in {result.currency}.{taxes ? ` ${taxes}.` : ''}
          </p>
          {/* One form for every room: the stay once, each "Book" button sends its room. */}
          <form method="get" action={request.links.to(bookPath(client.page, '/details'))}>
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
                    return room.plans ? (
                      <RoomPlans room={room} id={id} currency={result.currency} />
                    ) : (
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

/** The search page: the stay's form (as typed, with its messages), a notice on top, and the rooms free for `stay`. */
export async function searchPage(
  request: Request,
  client: GuestClient,
  options: { values?: Record<StayField, string>; errors?: Errors<StayField>; stay?: StayQuery; notice?: string } = {},
) {
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
export async function stayOr(request: Request, client: GuestClient, values: Record<StayField, string>): Promise<StayQuery | PageOutcome> {
  try {
    return checkStay(values, request.now, client.booking_horizon_days, client.time_zone);
  } catch (error) {
    return { html: await searchPage(request, client, { values, errors: errorsOf(correctable(error), STAY_FIELDS) }), status: 400 };
  }
}

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
