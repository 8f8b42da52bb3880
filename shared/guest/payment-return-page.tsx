/**
 * What verify answers for a guest page's order when the request does not carry its checkout's
 * return secret (docs/reliability.md "Only the guest holds a guest's booking"): an order reference is
 * seen by integrators, receivers and logs, so the page says what became of the payment and
 * nothing more: no guest's name or address, no link to the booking's page. The guest hears of the
 * booking by e-mail, whose link leads to it.
 */
import { contentSecurityPolicy } from '../dashboard/page-function';
import { linksUnder, renderDocument } from '../dashboard/layout';
import { GuestPage } from './layout';
import { bookPath } from './urls';

export const PAYMENT_RECEIVED = 'Your payment was received; your confirmation is on its way by e-mail.';

/** The page, with the guest pages' headers; `baseUrl`: the service's, for its stylesheet and links. */
export function paymentReturnPage(outcome: 'paid' | 'not_paid', clientId: string, baseUrl: string): { headers: Record<string, string>; html: string } {
  const links = linksUnder(new URL(baseUrl).pathname.replace(/\/$/, ''));
  const page =
    outcome === 'paid' ? (
      <GuestPage title="Payment received" links={links}>
        <p>{PAYMENT_RECEIVED}</p>
      </GuestPage>
    ) : (
      <GuestPage title="Payment not completed" links={links}>
        <p>The payment was not completed, so nothing was booked with it.</p>
        <p>
          <a href={links.to(bookPath(clientId))}>Back to the booking page</a>
        </p>
      </GuestPage>
    );
  return {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy(),
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    },
    html: renderDocument(page),
  };
}
