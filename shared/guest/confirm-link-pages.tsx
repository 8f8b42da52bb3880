/**
 * The link of the "Confirm your booking" e-mail of a booking paid at the hotel (docs/behaviour.md
 * "Guest booking and the reception QR code"), for the guest who opens it:
 * `GET /book/{client_id}/confirm/{link}` shows the booking and a "Confirm booking" button, whose
 * POST to the same URL confirms it, then leads to the booking's page (POST-redirect-GET).
 *
 * Opening the link changes nothing on purpose: mail scanners and link previews fetch the links of
 * an e-mail before (or without) the guest, and a GET that confirmed would confirm every booking
 * whatever address it was made with. Only the button's POST does.
 */
import { confirmPayAtProperty, guestBookingClient, payAtPropertyLink, type PayAtPropertyOutcome } from '../domain/guest-booking/guest-bookings';
import { errors } from '../errors';
import { Dl } from '../dashboard/layout';
import type { PublicPageAction } from '../dashboard/page-function';
import { Alert, GuestPage } from './layout';
import { heldUntil, stayRowsOf } from './confirmation-page';
import { CancellationPolicy } from './hotel-info';
import { bookPath } from './urls';
import { guestWords, keepsLanguage, pageMenu } from './language';

const confirmationPage = (clientId: string, token: string) => bookPath(clientId, `/confirmation/${encodeURIComponent(token)}`);

/** GET /book/{client_id}/confirm/{token}: the pending booking with its button; any other, its own page. */
export const confirmLinkAction: PublicPageAction = /* @__PURE__ */ keepsLanguage(async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const link = await payAtPropertyLink(client.client_id, request.params.token ?? '', request.now);
  if (!link) throw errors.noSuchBooking();
  const { view, token } = link;
  if (view.state !== 'awaiting_confirmation') return { redirect: confirmationPage(client.client_id, token) };
  // The e-mail's link may be opened in another browser: the page speaks the booking's language.
  const t = await guestWords(request, client, link.language);
  return {
    html: (
      <GuestPage t={t} title={t('confirmLink.title')} hotel={client.name} links={request.links} menu={pageMenu(request, client.client_id)}>
        <section class="card" aria-labelledby="stay-facts">
          <h2 id="stay-facts">{t('booking.yourStay')}</h2>
          <Dl rows={[...stayRowsOf(t, view, { client }), [t('booking.payment'), t('booking.payAtHotel')]]} />
        </section>
        <CancellationPolicy t={t} client={client} />
        <p>{t('confirmLink.heldUntil', { until: heldUntil(t, view.confirm_by!, request.now) })}</p>
        <form method="post" action={request.links.to(bookPath(client.page, `/confirm/${encodeURIComponent(request.params.token ?? '')}`))}>
          <button type="submit" class="wide">
            {t('confirmLink.submit')}
          </button>
        </form>
      </GuestPage>
    ),
  };
});

const REFUSALS: Record<Exclude<PayAtPropertyOutcome, 'confirmed' | 'ended'>, 'confirmLink.roomTaken'> = {
  room_taken: 'confirmLink.roomTaken',
};

/** POST /book/{client_id}/confirm/{token}: the guest confirms; then the booking's page. */
export const confirmLinkSubmitAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const confirmed = await confirmPayAtProperty(client.client_id, request.params.token ?? '', request.baseUrl, request.now);
  if (!confirmed) throw errors.noSuchBooking();
  // Confirmed (now or before), or ended: the booking's page says which.
  if (confirmed.outcome !== 'room_taken') return { redirect: confirmationPage(client.client_id, confirmed.token) };
  const t = await guestWords(request, client);
  return {
    status: 409,
    html: (
      <GuestPage t={t} title={t('confirmLink.notMade')} hotel={client.name} links={request.links} menu={pageMenu(request, client.client_id)}>
        <Alert>{t(REFUSALS[confirmed.outcome])}</Alert>
        <p>
          <a href={request.links.to(bookPath(client.page))}>{t('booking.searchAgain')}</a>
        </p>
      </GuestPage>
    ),
  };
};
