/**
 * The guest booking pages' shell: their own, mobile-first, lighter than the dashboard's (no
 * navigation, no session), with the hotel's name in the banner. Rendered by preact, which escapes
 * every text and attribute value (a guest's name, a hotel's name). No script anywhere.
 */
import type { ComponentChildren, VNode } from 'preact';
import type { AppError } from '../errors';
import type { Links } from '../dashboard/layout';

export const GUEST_STYLESHEET_PATH = '/book/style.css';

/**
 * The pages' icon, inline (the CSP's img-src allows data:): no request for it, and none for
 * /favicon.ico, which no route serves (a 404 in the browser's console). A bed on the banner's navy.
 */
export const GUEST_FAVICON = `data:image/svg+xml,${encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='7' fill='#12263f'/><path fill='#fff' d='M6 9h3v8h17v7h-3v-3H9v3H6zM11 14a2.5 2.5 0 1 0 5 0 2.5 2.5 0 1 0-5 0zM18 12h5a3 3 0 0 1 3 3v1h-8z'/></svg>",
)}`;

/** What a search engine shows under the page's title. */
export const guestDescription = (hotel?: string) =>
  `Book a room${hotel ? ` at ${hotel}` : ''} online: choose your dates, see the free rooms with their prices, and pay securely.`;

/** `error`: the page shows a form's problems; its title says so first, as screen readers announce it. */
export function GuestPage({ title, hotel, links, error, children }: { title: string; hotel?: string; links: Links; error?: boolean; children: ComponentChildren }) {
  const fullTitle = `${error ? 'Error: ' : ''}${hotel ? `${title} · ${hotel}` : title}`;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        <meta name="description" content={guestDescription(hotel)} />
        <link rel="icon" type="image/svg+xml" href={GUEST_FAVICON} />
        <link rel="stylesheet" href={links.to(GUEST_STYLESHEET_PATH)} />
      </head>
      <body>
        <header class="bar">
          <p>{hotel ?? 'Hotel booking'}</p>
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
        <footer>
          <p>Secure booking: the payment is made on the payment provider's page.</p>
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

const TITLES: Record<number, string> = {
  400: 'Please check your request',
  403: 'Request refused',
  404: 'Page not found',
  409: 'No longer available',
  429: 'Too many bookings in progress',
  413: 'Too large',
  415: 'Unsupported form',
};

/** Every error of the guest pages, as a page of their own layout; no internal detail on a 5xx. */
export function guestErrorPage(error: AppError, { links, requestId }: { links: Links; requestId: string }): VNode {
  const title = TITLES[error.status] ?? (error.status >= 500 ? 'Something went wrong' : 'Request refused');
  const message =
    error.status === 503
      ? `The booking page or the payment provider did not answer in time. Nothing was booked and no room is held for you; please try again in a moment (request ${requestId}).`
      : error.status >= 500
      ? `The booking page could not answer. Please try again in a moment (request ${requestId}).`
      : error.status === 404
        ? 'There is no booking page here. Please check the link or scan the QR code again.'
        : error.status === 403 && error.code === 'FORBIDDEN'
          ? 'This form was not sent from the booking page itself, so nothing was done.'
          : error.message;
  return (
    <GuestPage title={title} links={links}>
      <p>{message}</p>
    </GuestPage>
  );
}
