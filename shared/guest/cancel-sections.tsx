/**
 * What a booking's confirmation page says about cancelling it (docs/behaviour.md "Booking changes,
 * cancellations and refunds"): while the free cancellation lasts, until when and a "Cancel
 * booking" button (to a confirmation page of its own); after, to contact the hotel; once
 * cancelled, by whom, when, and what became of the payment.
 */
import type { CancelOffer, GuestBookingPage, GuestClient } from '../domain/guest-booking/guest-bookings';
import { localDate, localTime } from '../domain/hotel-time';
import { Dl, type Links } from '../dashboard/layout';
import { formatAmount } from '../dashboard/format';
import { day } from './emails';
import { money } from './hotel-info';
import { bookPath } from './urls';

/** `Thu, 26 Nov 2026, 15:00 UTC`, or `…, 15:00 hotel time (Europe/Madrid)`: an instant on the hotel's clock. */
export function onHotelClock(at: Date | string, timeZone: string): string {
  const instant = typeof at === 'string' ? new Date(at) : at;
  return `${day(localDate(timeZone, instant))}, ${localTime(timeZone, instant)} ${timeZone === 'UTC' ? 'UTC' : `hotel time (${timeZone})`}`;
}

/** The booking's page, and its cancel page. */
export const confirmationPath = (clientId: string, token: string) => bookPath(clientId, `/confirmation/${encodeURIComponent(token)}`);
export const cancelPath = (clientId: string, token: string) => `${confirmationPath(clientId, token)}/cancel`;

/** What cancelling does with the money, before the guest confirms it. */
export function refundPromise(page: GuestBookingPage): string {
  const { view } = page;
  return view.payment_status === 'paid'
    ? `Your payment of ${money(view.total, view.currency)} is refunded in full to the card you paid with.`
    : 'Nothing is charged: you were to pay at the hotel.';
}

/** How the guest reaches the hotel, as far as the hotel has said. */
export function ContactTheHotel({ client }: { client: GuestClient }) {
  return client.address ? (
    <p>
      The hotel's address:
      <br />
      <span class="address">{client.address}</span>
    </p>
  ) : null;
}

/** The confirmed booking's "Cancel booking" while the free cancellation lasts; after it, whom to ask. */
export function CancelSection({ offer, page, client, token, links }: { offer: CancelOffer; page: GuestBookingPage; client: GuestClient; token: string; links: Links }) {
  if (offer.kind === 'closed') {
    return (
      <section class="card" aria-labelledby="cancel">
        <h2 id="cancel">Cancel or change your booking</h2>
        <p>Free cancellation ended on {onHotelClock(offer.ended, client.time_zone)}. To cancel or change your booking now, please contact the hotel, {client.name}, with your booking reference.</p>
        <ContactTheHotel client={client} />
      </section>
    );
  }
  return (
    <section class="card" aria-labelledby="cancel">
      <h2 id="cancel">Cancel your booking</h2>
      <p>
        You can cancel this booking free of charge until {onHotelClock(offer.until, client.time_zone)}. {refundPromise(page)}
      </p>
      {/* A plain link's GET changes nothing: the button opens the page that asks to confirm. */}
      <form method="get" action={links.to(cancelPath(client.client_id, token))}>
        <button type="submit" class="secondary wide">
          Cancel booking
        </button>
      </form>
    </section>
  );
}

/** What became of the payment of a cancelled booking, in words. */
function PaymentAfterCancel({ page, client, token, links }: { page: GuestBookingPage; client: GuestClient; token: string; links: Links }) {
  const { view } = page;
  const refund = view.refund;
  const lines: string[] = [];
  if (refund) {
    const paid = formatAmount(refund.paid_minor, refund.currency);
    if (refund.refunded_minor > 0) {
      lines.push(
        refund.refunded_minor >= refund.paid_minor
          ? `Your payment of ${paid} has been refunded in full to the card you paid with.`
          : `${formatAmount(refund.refunded_minor, refund.currency)} of your payment of ${paid} has been refunded to the card you paid with.`,
      );
    }
    if (refund.pending_minor > 0) lines.push(`A refund of ${formatAmount(refund.pending_minor, refund.currency)} is on its way to the card you paid with.`);
    lines.push(
      refund.refunded_minor + refund.pending_minor > 0
        ? 'Refunds usually show on your statement within 5 to 10 business days, depending on your bank.'
        : 'The payment provider could not make the refund. Please contact the hotel about your payment.',
    );
  } else if (view.payment_status !== 'paid') {
    lines.push('Nothing was paid for this booking, so there is nothing to refund.');
  } else if (view.cancellation?.by !== 'guest') {
    lines.push('If the hotel refunds your payment, you will get an e-mail when it does.');
  }
  // Cancelled by the guest, paid, nothing refunded: the provider did not take the refund on.
  const askAgain = !refund && view.payment_status === 'paid' && view.cancellation?.by === 'guest';
  return (
    <section class="card" aria-labelledby="payment">
      <h2 id="payment">Your payment</h2>
      {lines.map((line) => (
        <p>{line}</p>
      ))}
      {askAgain ? (
        <>
          <p>The refund of your payment of {money(view.total, view.currency)} has not gone through yet. Please try again in a moment.</p>
          <form method="post" action={links.to(cancelPath(client.client_id, token))}>
            <button type="submit" class="wide">
              Try the refund again
            </button>
          </form>
        </>
      ) : null}
    </section>
  );
}

/** A booking made, then cancelled: by whom and when, the reason the hotel gave, the payment, the stay it was. */
export function CancelledBooking(props: { page: GuestBookingPage; client: GuestClient; token: string; links: Links; stayRows: [string, string][] }) {
  const { page, client, links, stayRows } = props;
  const { view } = page;
  const cancellation = view.cancellation!;
  const when = onHotelClock(cancellation.at, client.time_zone);
  return (
    <>
      <div class="notice success" role="status">
        <p>
          {cancellation.by === 'guest' ? `You cancelled this booking on ${when}.` : `The hotel cancelled this booking on ${when}.`} The room is no longer held for you.
        </p>
        {cancellation.by !== 'guest' && cancellation.reason ? <p>Message from the hotel: {cancellation.reason}</p> : null}
      </div>
      <PaymentAfterCancel {...props} />
      <section class="card" aria-labelledby="stay-facts">
        <h2 id="stay-facts">The stay you had booked</h2>
        <Dl rows={[['Booking reference', view.booking_reference ?? '—'], ...stayRows]} />
        <p>
          <a href={links.to(bookPath(client.page))}>Book again</a>
        </p>
      </section>
    </>
  );
}
