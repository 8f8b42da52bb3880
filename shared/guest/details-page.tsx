/**
 * The guest booking's second step (docs/behaviour.md "Guest booking and the reception QR code"):
 * the chosen room and stay with the hotel's cancellation policy and the guest's details form,
 * whose POST books: the client's provider checkout opens (the room held meanwhile), or, where the
 * hotel allows it, a booking to pay at the hotel is made. A refusal shows the form again with the
 * messages next to the fields; a room taken meanwhile, the free rooms with a notice.
 */
import {
  bookPayAtProperty,
  type GuestClient,
  guestBookingClient,
  HOLD_MINUTES,
  newBookingAttempt,
  type OfferedRoom,
  offeredType,
  roomTypeOf,
  type StayQuery,
  startCheckout,
} from '../domain/guest-booking/guest-bookings';
import { Dl, ErrorSummary, Field } from '../dashboard/layout';
import type { PublicPageAction } from '../dashboard/page-function';
import { AboutCategory, CancellationPolicy, checkInDay, priceRows, taxesLine } from './hotel-info';
import { stayPrice } from '../domain/bookings/stay-price';
import { GuestPage } from './layout';
import { correctable, type Errors, errorsOf, fromQuery, GUEST_FIELDS, type GuestField, hasErrors, isOutcome, type Request, splitOffer, stayQuery, stayValues } from './page-forms';
import { searchPage, stayOr } from './search-page';
import { bookPath } from './urls';
import type { Translate } from '../i18n/translator';
import { guestWords, keepsLanguage, pageMenu } from './language';


/**
 * A form or link rendered before guests booked room types (or a "Try again" of such a booking)
 * names one room (`room_id`): it books that room's type, so a guest mid-booking across a deploy is
 * not turned away, and no request to the guest pages chooses a room (a specific room is
 * reception's choice). Undefined for no such room. Every page rendered now sends the type.
 */
async function typeOfLegacyRoom(clientId: string, roomId: string | undefined): Promise<string | undefined> {
  const id = roomId?.trim();
  return id ? roomTypeOf(clientId, id) : undefined;
}

function detailsPage(
  t: Translate,
  request: Request,
  client: GuestClient,
  stay: StayQuery,
  offered: OfferedRoom,
  form: { values?: Partial<Record<GuestField, string>>; errors?: Errors<GuestField> } = {},
) {
  const { room, category, currency, nights, plan } = offered;
  const values = form.values ?? {};
  const errors = form.errors ?? {};
  // The room price with the hotel's taxes, as charged (stay-price.ts).
  const price = stayPrice(room.total, client, currency);
  const total = t.money(price.total, currency);
  const taxes = price.taxes > 0 ? undefined : taxesLine(t, client);
  const backToResults = request.links.to(bookPath(client.page), stayQuery(stay));
  return (
    <GuestPage t={t} title={t('details.title')} hotel={client.name} links={request.links} menu={pageMenu(request, client.page)} error={hasErrors(errors)}>
      <ErrorSummary errors={errors} title={t('layout.errorSummary')} />
      <section class="card" aria-labelledby="choice">
        <h2 id="choice">{t('details.yourRoom')}</h2>
        <Dl
          rows={[
            [t('details.room'), category.name],
            [t('field.check_in'), checkInDay(t, client, stay.check_in)],
            [t('field.check_out'), t.day(stay.check_out)],
            [t('field.guests'), t.count(stay.guests)],
            ...(plan
              ? ([
                  [t('details.rate'), plan.name],
                  [t('details.perNight'), plan.nights.map((night) => t('search.nightPrice', { date: t.dayShort(night.date), price: t.money(night.price, currency) })).join(', ')],
                ] as const)
              : ([[t('details.perNight'), t.money(room.price, currency)]] as const)),
            ...priceRows(t, price, currency, nights),
            ...(taxes ? [[t('details.taxes'), client.taxes_included ? t('details.taxesIncluded') : t('details.taxesNotIncluded')] as const] : []),
          ]}
        />
        <AboutCategory t={t} category={category} id="amenities" />
        <p>
          <a href={backToResults}>{t('details.chooseAnother')}</a>
        </p>
      </section>
      <CancellationPolicy t={t} client={client} />
      <section class="card" aria-labelledby="guest">
        <h2 id="guest">{t('details.guest')}</h2>
        <form method="post" action={request.links.to(bookPath(client.page, '/bookings'))} novalidate aria-labelledby="guest">
          <input type="hidden" name="room_type" value={category.name} />
          {plan ? <input type="hidden" name="rate_plan" value={plan.external_rate_plan_id} /> : null}
          <input type="hidden" name="check_in" value={stay.check_in} />
          <input type="hidden" name="check_out" value={stay.check_out} />
          <input type="hidden" name="guests" value={String(stay.guests)} />
          {/* One per rendering: a double click or a resubmit of this form is the same booking. */}
          <input type="hidden" name="attempt" value={newBookingAttempt()} />
          <Field label={t('field.name')} name="name" value={values.name} error={errors.name} autocomplete="name" />
          <Field label={t('field.email')} name="email" type="email" value={values.email} error={errors.email} autocomplete="email" />
          <Field label={t('field.phone')} name="phone" type="tel" value={values.phone} error={errors.phone} autocomplete="tel" hint={t('field.phoneHint')} />
          <p class="muted">{t('details.held', { minutes: HOLD_MINUTES })}</p>
          <button type="submit" name="pay" value="checkout" class="wide">
            {t('details.pay', { total })}
          </button>
          {client.pay_at_property ? (
            <>
              <button type="submit" name="pay" value="at_property" class="wide secondary">
                {t('details.payAtHotel')}
              </button>
              <p class="muted">{t('details.payAtHotelHint', { minutes: HOLD_MINUTES })}</p>
            </>
          ) : null}
        </form>
      </section>
    </GuestPage>
  );
}

/** GET /book/{client_id}/details: the chosen room and stay, the cancellation policy and the guest's details form. */
export const detailsAction: PublicPageAction = /* @__PURE__ */ keepsLanguage(async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const t = await guestWords(request, client);
  const values = stayValues(fromQuery(request.query));
  const stay = await stayOr(request, client, t, values);
  if (isOutcome(stay)) return stay;
  // The room type, with its plan where it is sold on rate plans: `offer` = `<type>~<external_rate_plan_id>`.
  const [offer, ratePlanId] = splitOffer(request.query.offer ?? '');
  const roomType = request.query.room_id && !offer ? await typeOfLegacyRoom(client.client_id, request.query.room_id) : offer;
  const offered = roomType === undefined ? undefined : await offeredType(client.client_id, stay, roomType, request.now, ratePlanId);
  if (!offered) return { html: await searchPage(request, client, t, { values, stay, notice: t('search.roomTaken') }), status: 409 };
  return { html: detailsPage(t, request, client, stay, offered) };
});

/**
 * POST /book/{client_id}/bookings: the checkout opens (the room held meanwhile) and the guest goes
 * to it; or, where the hotel allows it, the booking is confirmed to be paid at the hotel. The
 * details form posts here, and so does "Try again" after a declined payment (the same room type
 * and details, a new attempt).
 */
export const createAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const t = await guestWords(request, client);
  const { form } = request;
  const stayTyped = stayValues(form);
  const stay = await stayOr(request, client, t, stayTyped);
  if (isOutcome(stay)) return stay;
  const ratePlanId = form.get('rate_plan') || undefined;
  const roomType = form.get('room_type') || (await typeOfLegacyRoom(client.client_id, form.get('room_id') ?? undefined));
  if (roomType === undefined) return { html: await searchPage(request, client, t, { values: stayTyped, stay, notice: t('search.roomTaken') }), status: 409 };
  const values = Object.fromEntries(GUEST_FIELDS.map((f) => [f, (form.get(f) ?? '').trim()])) as Record<GuestField, string>;
  const guest = { name: values.name, email: values.email, ...(values.phone ? { phone: values.phone } : {}) };
  // A form rendered before the attempt field existed has none: each submit is a booking of its own.
  // The language the pages speak now is the booking's: its checkout and e-mails speak it.
  const input = { room_type: roomType, rate_plan: ratePlanId, stay, guest, attempt: form.get('attempt') ?? undefined, source: request.sourceIp, language: t.language };
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
    const offered = await offeredType(clientId, stay, roomType, request.now, ratePlanId);
    if (error.status === 409 || !offered) {
      return { html: await searchPage(request, client, t, { values: stayTyped, stay, notice: t('search.roomTaken') }), status: 409 };
    }
    return { html: detailsPage(t, request, client, stay, offered, { values, errors: errorsOf(t, error, GUEST_FIELDS) }), status: error.status };
  }
};
