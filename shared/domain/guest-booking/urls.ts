/**
 * The guest booking pages' public URLs the use cases hand out: a booking's confirmation page (the
 * provider checkout's return URL, the confirmation e-mail's link) and the "Confirm your booking"
 * e-mail's link. `baseUrl` is the service's public base, with or without a trailing slash.
 */
const base = (baseUrl: string) => baseUrl.replace(/\/$/, '');

/** `${baseUrl}/book/{client_id}/confirmation/{token}`: the booking's page. */
export const confirmationUrl = (baseUrl: string, clientId: string, token: string) => `${base(baseUrl)}/book/${clientId}/confirmation/${token}`;

/** `${baseUrl}/book/{client_id}/confirm/{secret}`: the page whose button confirms a booking paid at the hotel. */
export const confirmLinkUrl = (baseUrl: string, clientId: string, secret: string) => `${base(baseUrl)}/book/${clientId}/confirm/${secret}`;
