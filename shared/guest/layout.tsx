/**
 * The guest booking pages' shell: their own, mobile-first, lighter than the dashboard's (no
 * navigation, no session), with the hotel's name in the banner. Rendered by preact, which escapes
 * every text and attribute value (a guest's name, a hotel's name). No script anywhere.
 */
import type { ComponentChildren, VNode } from 'preact';
import type { AppError } from '../errors';
import type { Links } from '../dashboard/layout';
import type { ErrorPageContext } from '../dashboard/page-function';
import { type Language, LANGUAGE_COOKIE, LANGUAGE_NAMES, LANGUAGE_PARAMETER, LANGUAGES, negotiateLanguage } from '../i18n/languages';
import { type MessageKey, type Translate, translator } from '../i18n/translator';
import { menuLinks } from './language';

export const GUEST_STYLESHEET_PATH = '/book/style.css';

/**
 * The pages' icon, inline (the CSP's img-src allows data:): no request for it, and none for
 * /favicon.ico, which no route serves (a 404 in the browser's console). A bed on the banner's navy.
 */
export const GUEST_FAVICON = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='#12263f'/><path fill='#fff' d='M6 9h3v8h17v7h-3v-3H9v3H6zM11 14a2.5 2.5 0 1 0 5 0 2.5 2.5 0 1 0-5 0zM18 12h5a3 3 0 0 1 3 3v1h-8z'/></svg>",
)}`;

/** The language menu: each language by its own name, a plain link to the same page in it (no script). */
function LanguageMenu({ t, href }: { t: Translate; href: (language: Language) => string }) {
  return (
    <nav class="languages" aria-label={t('layout.languageMenu')}>
      <ul>
        {LANGUAGES.map((language) => (
          <li>
            <a href={href(language)} lang={language} hreflang={language} aria-current={language === t.language ? 'true' : undefined}>
              {LANGUAGE_NAMES[language]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * `error`: the page shows a form's problems; its title says so first, as screen readers announce it.
 * `menu`: where the language menu's links lead (shared/guest/language.ts menuLinks).
 */
export function GuestPage(props: {
  t: Translate;
  title: string;
  hotel?: string;
  links: Links;
  menu: ((language: Language) => string) | undefined;
  error?: boolean;
  children: ComponentChildren;
}) {
  const { t, title, hotel, links, menu, error, children } = props;
  const named = hotel ? `${title} · ${hotel}` : title;
  return (
    <html lang={t.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{error ? t('layout.errorTitle', { title: named }) : named}</title>
        <meta name="description" content={hotel ? t('layout.descriptionAt', { hotel }) : t('layout.description')} />
        <link rel="icon" type="image/svg+xml" href={GUEST_FAVICON} />
        <link rel="stylesheet" href={links.to(GUEST_STYLESHEET_PATH)} />
      </head>
      <body>
        <header class="bar">
          <p>{hotel ?? t('layout.hotelBooking')}</p>
          {menu ? <LanguageMenu t={t} href={menu} /> : null}
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
        <footer>
          <p>{t('layout.footer')}</p>
        </footer>
      </body>
    </html>
  );
}

/** An error box at the top of a form (what belongs to no single field). */
export function Alert({ children }: { children: ComponentChildren }) {
  return (
    <div class="notice error" role="alert">
      <p>{children}</p>
    </div>
  );
}

const TITLES: Record<number, MessageKey> = {
  400: 'error.400',
  403: 'error.403',
  404: 'error.404',
  409: 'error.409',
  429: 'error.429',
  413: 'error.413',
  415: 'error.415',
};

/** An error's message for guests, in their words; a 4xx of the guest pages' own, else the error's. */
function errorMessage(t: Translate, error: AppError, requestId: string): string {
  if (error.status === 503) return t('error.503Message', { requestId });
  if (error.status >= 500) return t('error.500Message', { requestId });
  if (error.status === 404) return error.message === 'There is no such booking.' ? t('error.noSuchBooking') : error.message === 'No such room' ? t('error.noSuchRoom') : t('error.404Message');
  if (error.status === 403 && error.code === 'FORBIDDEN') return t('error.403Message');
  if (error.status === 413) return t('error.413Message');
  if (error.status === 415) return t('error.415Message');
  // errors.tooManyOpenHolds: its figures from its English sentence.
  const holds = /^You already have (\d+) bookings in progress[^]*try again in (\d+) minutes/.exec(error.message);
  if (error.status === 429 && holds) return t('error.429Message', { open: Number(holds[1]), minutes: Number(holds[2]) });
  return error.message;
}

/**
 * Every error of the guest pages, as a page of their own layout, in the guest's language (their
 * choice or their browser's: the hotel may be unknown); no internal detail on a 5xx.
 */
export async function guestErrorPage(error: AppError, context: ErrorPageContext): Promise<VNode> {
  const language = negotiateLanguage({ chosen: context.query[LANGUAGE_PARAMETER], cookie: context.cookies[LANGUAGE_COOKIE], acceptLanguage: context.acceptLanguage });
  const t = await translator(language);
  const key = TITLES[error.status] ?? (error.status >= 500 ? 'error.500' : 'error.403');
  return (
    <GuestPage t={t} title={t(key)} links={context.links} menu={menuLinks(context.links, context)}>
      <p>{errorMessage(t, error, context.requestId)}</p>
    </GuestPage>
  );
}
