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
import type { Language } from '../i18n/languages';
import { translator } from '../i18n/translator';
import { menuLinks } from './language';

/**
 * The page, with the guest pages' headers, in the guest's `language`; `baseUrl`: the service's, for
 * its stylesheet and links. Its language menu leads to the hotel's booking page.
 */
export async function paymentReturnPage(outcome: 'paid' | 'not_paid', clientId: string, baseUrl: string, language: Language): Promise<{ headers: Record<string, string>; html: string }> {
  const links = linksUnder(new URL(baseUrl).pathname.replace(/\/$/, ''));
  const t = await translator(language);
  const menu = menuLinks(links, {}, bookPath(clientId));
  const page =
    outcome === 'paid' ? (
      <GuestPage t={t} title={t('return.paidTitle')} links={links} menu={menu}>
        <p>{t('return.paid')}</p>
      </GuestPage>
    ) : (
      <GuestPage t={t} title={t('return.notPaidTitle')} links={links} menu={menu}>
        <p>{t('return.notPaid')}</p>
        <p>
          <a href={links.to(bookPath(clientId))}>{t('return.back')}</a>
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
