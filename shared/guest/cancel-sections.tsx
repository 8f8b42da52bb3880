/**
 * What a booking's confirmation page says about cancelling it (docs/behaviour.md "Booking changes,
 * cancellations and refunds"): while the free cancellation lasts, until when and a "Cancel
 * booking" button (to a confirmation page of its own); after, to contact the hotel; once
 * cancelled, by whom, when, and what became of the payment.
 */
import type { CancelOffer, GuestBookingPage, GuestClient } from '../domain/guest-booking/guest-bookings';
import { Dl, type Links } from '../dashboard/layout';
import type { Translate } from '../i18n/translator';
import { HotelAddress } from './hotel-info';
import { bookPath } from './urls';

/** `Thu, 26 Nov 2026, 3:00 PM hotel time`: an instant on the hotel's clock (its zone is `t`'s, never named to the guest). */
export function onHotelClock(t: Translate, at: Date | string): string {
  return t('format.onHotelClock', { date: t.day(t.localDate(at)), time: t.time(at) });
}

/** The booking's page, and its cancel page. */
export const confirmationPath = (clientId: string, token: string) => bookPath(clientId, `/confirmation/${encodeURIComponent(token)}`);
export const cancelPath = (clientId: string, token: string) => `${confirmationPath(clientId, token)}/cancel`;

/** What cancelling does with the money, before the guest confirms it. */
export function refundPromise(t: Translate, page: GuestBookingPage): string {
  const { view } = page;
  return view.payment_status === 'paid' ? t('cancel.refundInFull', { total: t.money(view.total, view.currency) }) : t('cancel.nothingCharged');
}

/** How the guest reaches the hotel, as far as the hotel has said. */
export function ContactTheHotel({ t, client }: { t: Translate; client: GuestClient }) {
  return client.address ? (
    <p>
      <HotelAddress t={t} client={client} />
    </p>
  ) : null;
}

/** The confirmed booking's "Cancel booking" while the free cancellation lasts; after it, whom to ask. */
export function CancelSection(props: { t: Translate; offer: CancelOffer; page: GuestBookingPage; client: GuestClient; token: string; links: Links }) {
  const { t, offer, page, client, token, links } = props;
  if (offer.kind === 'closed') {
    return (
      <section class="card" aria-labelledby="cancel">
        <h2 id="cancel">{t('cancel.closedTitle')}</h2>
        <p>{t('cancel.closed', { ended: onHotelClock(t, offer.ended), hotel: client.name })}</p>
        <ContactTheHotel t={t} client={client} />
      </section>
    );
  }
  return (
    <section class="card" aria-labelledby="cancel">
      <h2 id="cancel">{t('cancel.openTitle')}</h2>
      <p>
        {t('cancel.open', { until: onHotelClock(t, offer.until) })} {refundPromise(t, page)}
      </p>
      {/* A plain link's GET changes nothing: the button opens the page that asks to confirm. */}
      <form method="get" action={links.to(cancelPath(client.client_id, token))}>
        <button type="submit" class="secondary wide">
          {t('cancel.submit')}
        </button>
      </form>
    </section>
  );
}

/** What became of the payment of a cancelled booking, in words. */
function PaymentAfterCancel({ t, page, client, token, links }: { t: Translate; page: GuestBookingPage; client: GuestClient; token: string; links: Links }) {
  const { view } = page;
  const refund = view.refund;
  const lines: string[] = [];
  if (refund) {
    const paid = t.moneyMinor(refund.paid_minor, refund.currency);
    if (refund.refunded_minor > 0) {
      lines.push(
        refund.refunded_minor >= refund.paid_minor
          ? t('cancel.refundedInFull', { paid })
          : t('cancel.refundedPart', { refunded: t.moneyMinor(refund.refunded_minor, refund.currency), paid }),
      );
    }
    if (refund.pending_minor > 0) lines.push(t('cancel.refundPending', { amount: t.moneyMinor(refund.pending_minor, refund.currency) }));
    lines.push(refund.refunded_minor + refund.pending_minor > 0 ? t('cancel.refundDelay') : t('cancel.refundFailed'));
  } else if (view.payment_status !== 'paid') {
    lines.push(t('cancel.nothingPaid'));
  } else if (view.cancellation?.by !== 'guest') {
    lines.push(t('cancel.hotelMayRefund'));
  }
  // Cancelled by the guest, paid, nothing refunded: the provider did not take the refund on.
  const askAgain = !refund && view.payment_status === 'paid' && view.cancellation?.by === 'guest';
  return (
    <section class="card" aria-labelledby="payment">
      <h2 id="payment">{t('cancel.yourPayment')}</h2>
      {lines.map((line) => (
        <p>{line}</p>
      ))}
      {askAgain ? (
        <>
          <p>{t('cancel.refundNotYet', { total: t.money(view.total, view.currency) })}</p>
          <form method="post" action={links.to(cancelPath(client.client_id, token))}>
            <button type="submit" class="wide">
              {t('cancel.refundAgain')}
            </button>
          </form>
        </>
      ) : null}
    </section>
  );
}

/** A booking made, then cancelled: by whom and when, the reason the hotel gave, the payment, the stay it was. */
export function CancelledBooking(props: { t: Translate; page: GuestBookingPage; client: GuestClient; token: string; links: Links; stayRows: [string, string][] }) {
  const { t, page, client, links, stayRows } = props;
  const { view } = page;
  const cancellation = view.cancellation!;
  const when = onHotelClock(t, cancellation.at);
  return (
    <>
      <div class="notice success" role="status">
        <p>
          {cancellation.by === 'guest' ? t('cancel.byGuest', { when }) : t('cancel.byHotel', { when })} {t('cancel.released')}
        </p>
        {cancellation.by !== 'guest' && cancellation.reason ? <p>{t('cancel.hotelMessage', { message: cancellation.reason })}</p> : null}
      </div>
      <PaymentAfterCancel {...props} />
      <section class="card" aria-labelledby="stay-facts">
        <h2 id="stay-facts">{t('cancel.hadBooked')}</h2>
        <Dl rows={[[t('booking.reference'), view.booking_reference ?? '—'], ...stayRows]} />
        <p>
          <a href={links.to(bookPath(client.page))}>{t('booking.bookAgain')}</a>
        </p>
      </section>
    </>
  );
}
