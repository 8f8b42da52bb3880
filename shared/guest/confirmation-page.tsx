/**
 * The page of a guest booking's confirmation token (docs/behaviour.md "Guest booking and the
 * reception QR code"): what became of the booking, in the guest's words. Booked: the codes to
 * keep and what happens next; to pay at the hotel: check your e-mail to confirm, or cancelled;
 * paid online but not confirmed yet; after a declined or cancelled payment, "Try again" for the
 * same room and details while its hold lasts. Also the stay's rows and the held-until time the
 * e-mail link's page shows the same way.
 */
import type { ComponentChildren } from 'preact';
import {
  type CancelOffer,
  cancelOffer,
  type GuestBookingPage,
  type GuestBookingView,
  type GuestClient,
  guestBookingClient,
  guestBookingPage,
  HOLD_MINUTES,
  newBookingAttempt,
  type OfferedRoom,
  offeredRoom,
  offeredType,
} from '../domain/guest-booking/guest-bookings';
import { emailEnabled } from '../domain/guest-email/outbox';
import { errors } from '../errors';
import { Dl } from '../dashboard/layout';
import type { PublicPageAction } from '../dashboard/page-function';
import { CancelledBooking, CancelSection, onHotelClock } from './cancel-sections';
import { CancellationPolicy, checkInDay, HotelAddress, priceRows, taxesLine } from './hotel-info';
import { type StayPrice, stayPrice } from '../domain/bookings/stay-price';
import { minorUnits } from '../schemas/payments';
import { nightsBetween } from '../schemas/common';
import { Alert, GuestPage } from './layout';
import { correctable, type Request, stayQuery } from './page-forms';
import { bookPath } from './urls';
import type { MessageKey, Translate } from '../i18n/translator';
import { guestWords, keepsLanguage, pageMenu } from './language';

/**
 * A guest booking's stay, as its pages show it; with the hotel, its check-in time and what it
 * says of taxes.
 */
export function stayRowsOf(t: Translate, view: GuestBookingView, extras: { chosenRoom?: string; client?: GuestClient } = {}): [string, string][] {
  const { chosenRoom, client } = extras;
  const taxes = client && !view.taxes ? taxesLine(t, client) : undefined;
  const total = t.money(view.total, view.currency);
  // Taxed: the room price, its taxes and the total as the details page showed them (stay-price.ts's figures, kept on the booking).
  const price = view.taxes ? pricedView(view, view.taxes) : undefined;
  return [
    // Booked: its room, or, for a paid booking whose room was taken after its hold expired, one
    // from the hotel. Not booked: the room the guest chose.
    [t('booking.room'), view.state === 'confirmed' ? (view.room_number ?? t('booking.roomByHotel')) : (view.room_number ?? chosenRoom ?? '—')],
    [t('field.check_in'), client ? checkInDay(t, client, view.check_in) : t.day(view.check_in)],
    [t('field.check_out'), t.day(view.check_out)],
    [t('booking.guests'), t.count(view.guests)],
    [t('booking.guest'), view.guest_name],
    ...(price
      ? priceRows(t, price, view.currency, nightsBetween(view.check_in, view.check_out))
      : [[t('booking.total'), taxes ? t('booking.totalTaxes', { total, taxes: taxes.toLocaleLowerCase(t.language) }) : total] as [string, string]]),
  ];
}

/** The stay's price rows' figures from what the booking keeps: what the guest pays and the taxes in it. */
function pricedView(view: GuestBookingView, taxes: NonNullable<GuestBookingView['taxes']>): StayPrice {
  const scale = 10 ** minorUnits(view.currency);
  const revenue = Math.round((view.total - taxes.amount) * scale) / scale;
  return { room: taxes.included ? view.total : revenue, taxes: taxes.amount, total: view.total, revenue, included: taxes.included, percent: taxes.percent };
}

/**
 * `3:30 PM hotel time`, with the date when it is not today's there: until when a held room
 * waits, on the hotel's clock (its zone is `t`'s).
 */
export function heldUntil(t: Translate, iso: string, now: Date): string {
  const time = t('format.hotelTime', { time: t.time(iso) });
  const date = t.localDate(iso);
  return date === t.localDate(now) ? time : t('format.dateTime', { date: t.day(date), time });
}

/** The page of a guest booking's confirmation token: what became of it, in the guest's words. */
export const confirmationTitle = (t: Translate, view: GuestBookingView) => t(`booking.title.${view.state}` as MessageKey);

/** "What happens next" once the room is booked: the e-mail, check-in, the address, payment, cancelling. */
function WhatHappensNext({ t, page, client, offer }: { t: Translate; page: GuestBookingPage; client: GuestClient; offer: CancelOffer | undefined }) {
  const { view } = page;
  const items: ComponentChildren[] = [];
  if (page.email && emailEnabled()) items.push(t('booking.emailSent', { email: page.email }));
  items.push(
    client.check_in_time
      ? t('booking.checkInFrom', { time: t.clock(client.check_in_time), date: t.day(view.check_in) })
      : t('booking.checkInDay', { date: t.day(view.check_in) }),
  );
  if (client.address) items.push(<HotelAddress t={t} client={client} />);
  const total = t.money(view.total, view.currency);
  items.push(view.payment_status === 'paid' ? t('booking.paymentDone', { total }) : t('booking.payOnArrival', { total }));
  // The hotel's own policy where it has one; the section below says until when the guest can cancel here.
  if (client.cancellation_policy) items.push(<>{t('booking.policyLine')} <span class="policy">{client.cancellation_policy}</span></>);
  else if (offer?.kind === 'open') items.push(t('booking.cancelUntil', { until: onHotelClock(t, offer.until) }));
  else items.push(t('booking.contactToChange'));
  return (
    <section class="card" aria-labelledby="next">
      <h2 id="next">{t('booking.next')}</h2>
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
async function TryAgain({ t, page, client, request }: { t: Translate; page: GuestBookingPage; client: GuestClient; request: Request }) {
  const { view } = page;
  const stay = { check_in: view.check_in, check_out: view.check_out, guests: view.guests };
  const search = request.links.to(bookPath(client.page), stayQuery(stay));
  const retry = page.try_again;
  // Still bookable now: free (the declined checkout released it), and the stay still within the
  // rules (a check-in that is now in the past is not).
  let offered: OfferedRoom | undefined;
  let stayStillValid = true;
  try {
    offered = !retry
      ? undefined
      : 'room_type' in retry
        ? await offeredType(client.client_id, retry.stay, retry.room_type, request.now, retry.rate_plan)
        : await offeredRoom(client.client_id, retry.stay, retry.room_id, request.now, retry.rate_plan);
  } catch (error) {
    correctable(error);
    stayStillValid = false;
  }
  if (!retry || !offered) {
    return (
      <section class="card" aria-labelledby="again">
        <h2 id="again">{t('booking.bookAgain')}</h2>
        <p>
          {retry
            ? 'room_type' in retry
              ? t(stayStillValid ? 'booking.typeGoneTaken' : 'booking.typeGone', { type: retry.room_type })
              : t(stayStillValid ? 'booking.roomGoneTaken' : 'booking.roomGone', { number: page.chosen_room_number ?? '' })
            : page.held_until
              ? t('booking.holdOverUntil', { minutes: HOLD_MINUTES, until: heldUntil(t, page.held_until, request.now) })
              : t('booking.holdOver', { minutes: HOLD_MINUTES })}
        </p>
        <p>
          <a href={search} class="button">
            {t('booking.seeFreeRooms')}
          </a>
        </p>
      </section>
    );
  }
  const { guest } = retry;
  return (
    <section class="card" aria-labelledby="again">
      <h2 id="again">{t('booking.tryAgain')}</h2>
      <p>
        {'room_type' in retry
          ? t('booking.typeStillFree', { type: retry.room_type, until: heldUntil(t, page.held_until!, request.now) })
          : t('booking.stillFree', { number: page.chosen_room_number ?? '', until: heldUntil(t, page.held_until!, request.now) })}
      </p>
      <form method="post" action={request.links.to(bookPath(client.page, '/bookings'))}>
        {'room_type' in retry ? <input type="hidden" name="room_type" value={retry.room_type} /> : <input type="hidden" name="room_id" value={retry.room_id} />}
        {retry.rate_plan ? <input type="hidden" name="rate_plan" value={retry.rate_plan} /> : null}
        <input type="hidden" name="check_in" value={retry.stay.check_in} />
        <input type="hidden" name="check_out" value={retry.stay.check_out} />
        <input type="hidden" name="guests" value={String(retry.stay.guests)} />
        <input type="hidden" name="name" value={guest.name} />
        <input type="hidden" name="email" value={guest.email} />
        {guest.phone ? <input type="hidden" name="phone" value={guest.phone} /> : null}
        {/* A new attempt of the same choices: another checkout; a double click, the same one. */}
        <input type="hidden" name="attempt" value={newBookingAttempt()} />
        <button type="submit" name="pay" value="checkout" class="wide" aria-describedby="again-total">
          {t('booking.tryAgain')}
        </button>
      </form>
      <p id="again-total" class="muted">
        {t('booking.againTotal', { total: t.money(stayPrice(offered.room.total, client, offered.currency).total, offered.currency), nights: offered.nights })}
      </p>
      <p>
        <a href={search}>{t('details.chooseAnother')}</a>
      </p>
    </section>
  );
}

async function ConfirmationBody({ t, page, request, client }: { t: Translate; page: GuestBookingPage; request: Request; client: GuestClient }) {
  const { view } = page;
  const stayRows = stayRowsOf(t, view, { chosenRoom: page.chosen_room_number, client });
  const again = <a href={request.links.to(bookPath(client.page), stayQuery(view))}>{t('booking.searchAgain')}</a>;
  const token = request.params.token ?? '';
  const payment = t('booking.payment');
  if (view.state === 'booking_cancelled') return <CancelledBooking t={t} page={page} client={client} token={token} links={request.links} stayRows={stayRows} />;
  if (view.state === 'confirmed') {
    const offer = cancelOffer(client, { status: page.booking_status, check_in: view.check_in }, request.now);
    return (
      <>
        <div class="notice success" role="status">
          <p>{t('booking.thanks')}</p>
        </div>
        <section class="card" aria-labelledby="codes">
          <h2 id="codes">{t('booking.keep')}</h2>
          <dl class="codes">
            <dt>{t('booking.reference')}</dt>
            <dd>{view.booking_reference ?? '—'}</dd>
            <dt>{t('booking.code')}</dt>
            <dd>{view.confirmation_code ?? '—'}</dd>
          </dl>
          <p class="muted">{t('booking.showThem')}</p>
        </section>
        <WhatHappensNext t={t} page={page} client={client} offer={offer} />
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">{t('booking.yourStay')}</h2>
          <Dl rows={[...stayRows, [payment, view.payment_status === 'paid' ? <span class="status-paid">{t('booking.paid')}</span> : t('booking.payAtHotel')]]} />
        </section>
        {offer ? <CancelSection t={t} offer={offer} page={page} client={client} token={token} links={request.links} /> : null}
      </>
    );
  }
  if (view.state === 'awaiting_confirmation' || view.state === 'cancelled') {
    return (
      <>
        {view.state === 'awaiting_confirmation' ? (
          <div class="notice success" role="status">
            <p>{t('booking.checkEmail', { until: heldUntil(t, view.confirm_by!, request.now) })}</p>
          </div>
        ) : (
          <Alert>{t('booking.notConfirmedInTime')}</Alert>
        )}
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">{view.state === 'awaiting_confirmation' ? t('booking.chosenStay') : t('booking.hadChosenStay')}</h2>
          <Dl rows={[...stayRows, [payment, t('booking.payAtHotel')]]} />
          {view.state === 'cancelled' ? <p>{again}</p> : null}
        </section>
        {view.state === 'awaiting_confirmation' ? <CancellationPolicy t={t} client={client} /> : null}
      </>
    );
  }
  if (view.state === 'awaiting_payment') {
    return (
      <>
        <Alert>{t('booking.awaitingPayment')}</Alert>
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">{t('booking.chosenStay')}</h2>
          <Dl rows={stayRows} />
        </section>
      </>
    );
  }
  return (
    <>
      <Alert>{t('booking.paymentFailed')}</Alert>
      {await TryAgain({ t, page, client, request })}
      <section class="card" aria-labelledby="stay-facts">
        <h2 id="stay-facts">{t('booking.chosenStay')}</h2>
        <Dl rows={stayRows} />
      </section>
    </>
  );
}

/** GET /book/{client_id}/confirmation/{token}: the booking of that link, and of that hotel only. */
export const confirmationAction: PublicPageAction = /* @__PURE__ */ keepsLanguage(async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const page = await guestBookingPage(client.client_id, request.params.token ?? '', request.now);
  if (!page) throw errors.noSuchBooking();
  const t = await guestWords(request, client, page.language);
  return {
    html: (
      <GuestPage t={t} title={confirmationTitle(t, page.view)} hotel={client.name} links={request.links} menu={pageMenu(request, client.page)}>
        {await ConfirmationBody({ t, page, request, client })}
      </GuestPage>
    ),
  };
});
