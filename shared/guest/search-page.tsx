/**
 * The guest booking's first page (docs/behaviour.md "Guest booking and the reception QR code",
 * "What guests compare" and "The guest's booking page as a storefront"), public and mobile first:
 * before a search, the hotel (its room types with "from" prices, what to know) and the stay's
 * form; after, the room types free for the stay (room-types.tsx), each once with its price a
 * night, the stay's total and a "Book" button to the details page. No script: every step is a form.
 */
import { checkStay, FROM_PRICE_NIGHTS, type GuestClient, guestBookingClient, hotelShowcase, type RoomSearch, searchRooms, type StayQuery } from '../domain/guest-booking/guest-bookings';
import { hotelClock } from '../domain/hotel-time';
import { Dl, ErrorSummary, Field } from '../dashboard/layout';
import type { PageOutcome, PublicPageAction } from '../dashboard/page-function';
import { Showcase, TypeResults } from './room-types';
import { Alert, GuestPage } from './layout';
import { correctable, type Errors, errorsOf, fromQuery, hasErrors, isOutcome, type Request, STAY_FIELDS, type StayField, stayValues } from './page-forms';
import { bookPath } from './urls';
import type { Translate } from '../i18n/translator';
import { guestWords, keepsLanguage, pageMenu } from './language';
import { rateRuleInWords } from './rate-words';
import type { RefusedCategory } from '../domain/guest-booking/room-search';

function StayForm({ t, request, client, values, errors }: { t: Translate; request: Request; client: GuestClient; values: Record<StayField, string>; errors: Errors<StayField> }) {
  // The date picker starts at the hotel's today; the service still checks every date it is sent.
  const { today } = hotelClock(client.time_zone, request.now);
  return (
    <section class="card" aria-labelledby="stay">
      <h2 id="stay">{t('search.yourStay')}</h2>
      <ErrorSummary errors={errors} title={t('layout.errorSummary')} />
      {/* novalidate: every rule is checked (and explained) by the service, the same for every browser. */}
      <form method="get" action={request.links.to(bookPath(client.page))} novalidate aria-labelledby="stay">
        <div class="row">
          <Field label={t('field.check_in')} name="check_in" type="date" min={today} value={values.check_in} error={errors.check_in} autocomplete="off" />
          <Field label={t('field.check_out')} name="check_out" type="date" min={today} value={values.check_out} error={errors.check_out} autocomplete="off" />
        </div>
        <Field label={t('field.guests')} name="guests" type="number" min="1" step="1" value={values.guests} error={errors.guests} />
        <button type="submit" class="wide">
          {t('search.submit')}
        </button>
      </form>
    </section>
  );
}

/** Room types free for the dates that cannot be booked for this stay, and why, in words. */
function Refusals({ t, refused }: { t: Translate; refused: RefusedCategory[] }) {
  if (!refused.length) return null;
  return (
    <div class="notice" role="note" aria-label={t('search.notBookable')}>
      {refused.map((category) => (
        <p>
          <b>{category.name}:</b> {[...new Set(category.blocked_by.map((rule, i) => rateRuleInWords(t, rule.restriction, rule.date, category.limits[i]!)))].join('. ')}.
        </p>
      ))}
    </div>
  );
}

function Results({ t, request, client, stay, result }: { t: Translate; request: Request; client: GuestClient; stay: StayQuery; result: RoomSearch }) {
  return (
    <section aria-labelledby="results">
      <h2 id="results">{t('search.results')}</h2>
      <p class="muted">{t('search.summary', { checkIn: t.day(stay.check_in), checkOut: t.day(stay.check_out), nights: result.nights, guests: stay.guests })}</p>
      <Refusals t={t} refused={result.refused} />
      {result.categories.length === 0 ? <p>{t('search.none')}</p> : <TypeResults t={t} request={request} client={client} stay={stay} result={result} />}
    </section>
  );
}

/** What the hotel tells guests before they book: where it is, check-in, how to reach it (those it has set), its policy. */
function AboutHotel({ t, client }: { t: Translate; client: GuestClient }) {
  const rows: [string, string][] = [
    ...(client.address ? [[t('landing.address'), client.address] as [string, string]] : []),
    ...(client.check_in_time ? [[t('field.check_in'), t('landing.checkInFrom', { time: t.clock(client.check_in_time) })] as [string, string]] : []),
    ...(client.phone ? [[t('landing.phone'), client.phone] as [string, string]] : []),
    ...(client.email ? [[t('landing.email'), client.email] as [string, string]] : []),
  ];
  return (
    <section class="card" aria-labelledby="hotel">
      <h2 id="hotel">{t('landing.goodToKnow')}</h2>
      {rows.length ? <Dl rows={rows} /> : null}
      <h3>{t('hotel.policy')}</h3>
      <p class="policy">{client.cancellation_policy ?? t('hotel.noPolicy')}</p>
    </section>
  );
}

/** The search page: the stay's form (as typed, with its messages), a notice on top, and the rooms free for `stay`. */
export async function searchPage(
  request: Request,
  client: GuestClient,
  t: Translate,
  options: { values?: Record<StayField, string>; errors?: Errors<StayField>; stay?: StayQuery; notice?: string } = {},
) {
  const values = options.values ?? { check_in: '', check_out: '', guests: '' };
  const errors = options.errors ?? {};
  const result = options.stay ? await searchRooms(client.client_id, options.stay, request.now) : undefined;
  // Before a search (the landing page): the hotel, its room types with their "from" prices, what to know.
  const types = options.stay ? undefined : await hotelShowcase(client, request.now);
  return (
    <GuestPage t={t} title={t('search.title')} hotel={client.name} links={request.links} menu={pageMenu(request, client.page)} error={hasErrors(errors)}>
      {options.notice ? <Alert>{options.notice}</Alert> : null}
      {types && client.address ? <p class="address">{client.address}</p> : null}
      <StayForm t={t} request={request} client={client} values={values} errors={errors} />
      {options.stay && result ? <Results t={t} request={request} client={client} stay={options.stay} result={result} /> : null}
      {types ? (
        <>
          <Showcase t={t} client={client} types={types} nights={FROM_PRICE_NIGHTS} />
          <AboutHotel t={t} client={client} />
        </>
      ) : null}
    </GuestPage>
  );
}

/** The stay of a request, or the search form again with the messages next to the fields (400). */
export async function stayOr(request: Request, client: GuestClient, t: Translate, values: Record<StayField, string>): Promise<StayQuery | PageOutcome> {
  try {
    return checkStay(values, request.now, client.booking_horizon_days, client.time_zone);
  } catch (error) {
    return { html: await searchPage(request, client, t, { values, errors: errorsOf(t, correctable(error), STAY_FIELDS) }), status: 400 };
  }
}

/** GET /book/{client_id}: the form; with a stay in the query, the rooms free for it. */
export const searchAction: PublicPageAction = /* @__PURE__ */ keepsLanguage(async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const t = await guestWords(request, client);
  const searched = STAY_FIELDS.some((f) => request.query[f] !== undefined);
  if (!searched) return { html: await searchPage(request, client, t) };
  const values = stayValues(fromQuery(request.query));
  const stay = await stayOr(request, client, t, values);
  if (isOutcome(stay)) return stay;
  return { html: await searchPage(request, client, t, { values, stay }) };
});
