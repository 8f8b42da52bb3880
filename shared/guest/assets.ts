/**
 * The guest booking pages' files: the QR code of a client's booking page, for the reception desk
 * (docs/behaviour.md "Guest booking and the reception QR code"), and the pages' stylesheet.
 */
import { guestBookingClient } from '../domain/guest-booking/guest-bookings';
import type { PublicPageAction } from '../dashboard/page-function';
import { GUEST_CSS } from './stylesheet';
import { bookingPageUrl } from './urls';

/**
 * The QR code library, loaded on the first qr.svg only: a lazy package (infra/bundling.ts), so the
 * booking pages' bundle neither carries nor evaluates it.
 */
let qrcode: Promise<typeof import('qrcode')> | undefined;
const loadQrCode = async () => {
  // A CommonJS package: its exports are the module's default (its types declare them as named).
  const module = (await (qrcode ??= import('qrcode'))) as typeof import('qrcode') & { default?: typeof import('qrcode') };
  return module.default ?? module;
};

/** GET /book/{client_id}/qr.svg: the QR code of the client's booking page (its slug's address when it has one), for the reception desk. */
export const qrCodeAction: PublicPageAction = async (request) => {
  const client = await guestBookingClient(request.params.client_id ?? '');
  const QRCode = await loadQrCode();
  const svg = await QRCode.toString(bookingPageUrl(request.baseUrl, client.page), { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: 320 });
  // Short-lived: a new slug changes it.
  return { raw: svg, contentType: 'image/svg+xml', cacheSeconds: 300 };
};

/** The site's robots.txt: the guest booking pages are public pages to find; the dashboard and the API are not. */
export const ROBOTS_TXT = ['User-agent: *', 'Allow: /book/', 'Disallow: /dashboard/', 'Disallow: /api/', ''].join('\n');

/** GET /robots.txt */
export const robotsAction: PublicPageAction = async () => ({ raw: ROBOTS_TXT, contentType: 'text/plain; charset=utf-8', cacheSeconds: 3600 });

/** GET /book/style.css */
export const stylesheetAction: PublicPageAction = async () => ({ raw: GUEST_CSS, contentType: 'text/css; charset=utf-8', cacheSeconds: 300 });
