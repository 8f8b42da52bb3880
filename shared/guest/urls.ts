/** Where the guest booking pages are (the dashboard links to them without loading them). */

/** `/book/{client_id}` and the paths under it. */
export const bookPath = (clientId: string, rest = '') => `/book/${encodeURIComponent(clientId)}${rest}`;

/** The booking page's public URL: what the QR code holds and the dashboard shows. */
export const bookingPageUrl = (baseUrl: string, clientId: string) => `${baseUrl}${bookPath(clientId)}`;

/** The QR code of the booking page (image/svg+xml). */
export const qrCodePath = (clientId: string) => bookPath(clientId, '/qr.svg');
