/**
 * The guest booking pages' shell: their own, mobile-first, lighter than the dashboard's (no
 * navigation, no session), with the hotel's name in the banner. Rendered by preact, which escapes
 * every text and attribute value (a guest's name, a hotel's name). No script anywhere.
 */
import type { ComponentChildren, VNode } from 'preact';
import type { AppError } from '../errors';
import type { Links } from '../dashboard/layout';

export const GUEST_STYLESHEET_PATH = '/book/style.css';

export function GuestPage({ title, hotel, links, children }: { title: string; hotel?: string; links: Links; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{hotel ? `${title} · ${hotel}` : title}</title>
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
  413: 'Too large',
  415: 'Unsupported form',
};

/** Every error of the guest pages, as a page of their own layout; no internal detail on a 5xx. */
export function guestErrorPage(error: AppError, { links, requestId }: { links: Links; requestId: string }): VNode {
  const title = TITLES[error.status] ?? (error.status >= 500 ? 'Something went wrong' : 'Request refused');
  const message =
    error.status >= 500
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
