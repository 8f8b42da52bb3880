/**
 * A guest cancels their booking (docs/behaviour.md "Booking changes, cancellations and refunds"):
 * `GET /book/{client_id}/confirmation/{token}/cancel` asks to confirm, on a page of its own, what
 * cancelling does (the room released, the payment refunded in full); its button's POST to the same
 * URL cancels, then leads back to the booking's page, which says it is cancelled
 * (POST-redirect-GET). Plain HTML forms; the page function refuses a POST from another origin.
 * After the free cancellation, or for a booking not confirmed, the page shows no button and the
 * POST is refused with a page that says to contact the hotel.
 */
import { AppError, errors } from '../errors';
import { cancelGuestBooking, cancelOffer, guestBookingClient, guestBookingPage } from '../domain/guest-booking/guest-bookings';
import { Dl } from '../dashboard/layout';
import type { PublicPageAction } from '../dashboard/page-function';
import { cancelPath, confirmationPath, ContactTheHotel, onHotelClock, refundPromise } from './cancel-sections';
import { stayRowsOf } from './confirmation-page';
import { GuestPage } from './layout';
import { guestWords, keepsLanguage, pageMenu } from './language';

/** GET …/confirmation/{token}/cancel: what cancelling does, and the button; else back to the booking's page. */
export const cancelPageAction: PublicPageAction = /* @__PURE__ */ keepsLanguage(async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const token = request.params.token ?? '';
  const page = await guestBookingPage(client.client_id, token, request.now);
  if (!page) throw errors.noSuchBooking();
  const offer = page.view.state === 'confirmed' ? cancelOffer(client, { status: page.booking_status, check_in: page.view.check_in }, request.now) : undefined;
  // Cancelled, ended, or never made: the booking's page says which.
  if (offer?.kind !== 'open') return { redirect: confirmationPath(client.client_id, token) };
  const { view } = page;
  const t = await guestWords(request, client, page.language);
  return {
    html: (
      <GuestPage t={t} title={t('cancel.title')} hotel={client.name} links={request.links} menu={pageMenu(request, client.client_id)}>
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">{t('cancel.cancelling')}</h2>
          <Dl rows={[[t('booking.reference'), view.booking_reference ?? '—'], ...stayRowsOf(t, view, { client })]} />
        </section>
        <p>{refundPromise(t, page)}</p>
        <p>{t('cancel.cannotUndo', { until: onHotelClock(t, offer.until) })}</p>
        <form method="post" action={request.links.to(cancelPath(client.client_id, token))}>
          <button type="submit" class="wide warning">
            {t('cancel.submit')}
          </button>
        </form>
        <p>
          <a href={request.links.to(confirmationPath(client.client_id, token))}>{t('cancel.keep')}</a>
        </p>
      </GuestPage>
    ),
  };
});

/** POST …/confirmation/{token}/cancel: the guest cancels (and is refunded); then the booking's page. */
export const cancelAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const token = request.params.token ?? '';
  try {
    const cancelled = await cancelGuestBooking(client, token, request.now);
    if (!cancelled) throw errors.noSuchBooking();
    return { redirect: confirmationPath(client.client_id, token) };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'BOOKING_NOT_CANCELLABLE') throw error;
    const t = await guestWords(request, client);
    return {
      status: 409,
      html: (
        <GuestPage t={t} title={t('cancel.notCancelled')} hotel={client.name} links={request.links} menu={pageMenu(request, client.client_id)}>
          <div class="notice error" role="alert">
            <p>{t('cancel.tooLate', { hotel: client.name })}</p>
          </div>
          <ContactTheHotel t={t} client={client} />
          <p>
            <a href={request.links.to(confirmationPath(client.client_id, token))}>{t('cancel.back')}</a>
          </p>
        </GuestPage>
      ),
    };
  }
};
