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
  offeredType,
} from '../domain/guest-booking/guest-bookings';
import { emailEnabled } from '../domain/guest-email/outbox';
import { localDate, localTime } from '../domain/hotel-time';
import { errors } from '../errors';
import { Dl } from '../dashboard/layout';
import type { PublicPageAction } from '../dashboard/page-function';
import { CancelledBooking, CancelSection, onHotelClock } from './cancel-sections';
import { day } from './emails';
import { CancellationPolicy, checkInDay, money, plural, priceRows, taxesLine } from './hotel-info';
import { minorUnits } from '../schemas/payments';
import { stayPrice } from '../domain/bookings/stay-price';
import { nightsBetween } from '../schemas/common';
import { Alert, GuestPage } from './layout';
import { correctable, type Request, stayQuery } from './page-forms';
import { bookPath } from './urls';

/**
 * A guest booking's stay, as its pages show it; with the hotel, its check-in time and what it
 * says of taxes.
 */
export function stayRowsOf(view: GuestBookingView, extras: { chosenRoom?: string; client?: GuestClient } = {}): [string, string][] {
  const { chosenRoom, client } = extras;
  const taxes = client && !view.taxes ? taxesLine(client) : undefined;
  const total = money(view.total, view.currency);
  const scale = 10 ** minorUnits(view.currency);
  // The room price, its taxes and the total as the details page showed them (one computation: stay-price.ts's figures, kept on the booking).
  const price = view.taxes
    ? { room: view.taxes.included ? view.total : Math.round((view.total - view.taxes.amount) * scale) / scale, taxes: view.taxes.amount, total: view.total, included: view.taxes.included, percent: view.taxes.percent }
    : undefined;
  return [
    // Booked: its room, or, for a paid booking whose room was taken after its hold expired, one
    // from the hotel. Not booked: the room the guest chose.
    ['Room', view.state === 'confirmed' ? (view.room_number ?? 'assigned by the hotel on arrival') : (view.room_number ?? chosenRoom ?? '—')],
    ['Check-in', client ? checkInDay(client, view.check_in) : day(view.check_in)],
    ['Check-out', day(view.check_out)],
    ['Guests', String(view.guests)],
    ['Guest', view.guest_name],
    ...(price
      ? priceRows({ ...price, revenue: price.total - price.taxes }, view.currency, nightsBetween(view.check_in, view.check_out))
      : [['Total', taxes ? `${total}, ${taxes.toLowerCase()}` : total] as [string, string]]),
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
    booking_cancelled: 'Booking cancelled',
  })[view.state];

/** "What happens next" once the room is booked: the e-mail, check-in, the address, payment, cancelling. */
function WhatHappensNext({ page, client, offer }: { page: GuestBookingPage; client: GuestClient; offer: CancelOffer | undefined }) {
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
  // The hotel's own policy where it has one; the section below says until when the guest can cancel here.
  if (client.cancellation_policy) items.push(<>Cancellation policy: <span class="policy">{client.cancellation_policy}</span></>);
  else if (offer?.kind === 'open') items.push(<>You can cancel free of charge until {onHotelClock(offer.until, client.time_zone)} (below). To change your booking, please contact the hotel.</>);
  else items.push(<>To change or cancel your booking, please contact the hotel.</>);
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
  const search = request.links.to(bookPath(client.page), stayQuery(stay));
  const retry = page.try_again;
  // Still bookable now: free (the declined checkout released it), and the stay still within the
  // rules (a check-in that is now in the past is not).
  let offered: OfferedRoom | undefined;
  let stayStillValid = true;
  try {
    offered = retry ? await offeredType(client.client_id, retry.stay, retry.room_type, request.now, retry.rate_plan) : undefined;
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
            ? `Sorry, no ${retry.room_type} room can be booked for these dates any more${stayStillValid ? ': someone else has booked the last one meanwhile' : ''}.`
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
        A {retry.room_type} room is still free. You can pay for it again with the same details until {heldUntil(page.held_until!, request.now, client.time_zone)}, without
        typing anything again.
      </p>
      <form method="post" action={request.links.to(bookPath(client.page, '/bookings'))}>
        <input type="hidden" name="room_type" value={retry.room_type} />
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
          Try again
        </button>
      </form>
      <p id="again-total" class="muted">
        {money(stayPrice(offered.room.total, client, offered.currency).total, offered.currency)} for {plural(offered.nights, 'night')}, on the payment provider's page.
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
  const again = <a href={request.links.to(bookPath(client.page), stayQuery(view))}>Search again</a>;
  const token = request.params.token ?? '';
  if (view.state === 'booking_cancelled') return <CancelledBooking page={page} client={client} token={token} links={request.links} stayRows={stayRows} />;
  if (view.state === 'confirmed') {
    const offer = cancelOffer(client, { status: page.booking_status, check_in: view.check_in }, request.now);
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
        <WhatHappensNext page={page} client={client} offer={offer} />
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">Your stay</h2>
          <Dl
            rows={[
              ...stayRows,
              ['Payment', view.payment_status === 'paid' ? <span class="status-paid">paid</span> : 'to pay at the hotel'],
            ]}
          />
        </section>
        {offer ? <CancelSection offer={offer} page={page} client={client} token={token} links={request.links} /> : null}
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
  if (!page) throw errors.noSuchBooking();
  const title = confirmationTitle(page.view);
  return {
    html: (
      <GuestPage title={title} hotel={client.name} links={request.links}>
        {await ConfirmationBody({ page, request, client })}
      </GuestPage>
    ),
  };
};
