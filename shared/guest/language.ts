/**
 * The language a guest page speaks (docs/behaviour.md "The guest's language"): the language menu's
 * link (`?lang=fr`, which the page keeps in a cookie), else the cookie, else `Accept-Language`,
 * else the hotel's setting. A booking's own pages and e-mails speak the language it was made in.
 */
import type { GuestClient } from '../domain/guest-booking/guest-bookings';
import type { PageOutcome, PublicPageAction } from '../dashboard/page-function';
import type { Links } from '../dashboard/layout';
import { isLanguage, type Language, LANGUAGE_COOKIE, LANGUAGE_PARAMETER, languageCookie, LANGUAGES, negotiateLanguage } from '../i18n/languages';
import { type Translate, translator } from '../i18n/translator';
import { bookPath as bookPathOf } from './urls';
import { HOST_PREFIX, parseCookies } from '../dashboard/cookies';

type Request = Parameters<PublicPageAction>[0];

/**
 * The language of a guest's request, with the hotel's as the last resort; a booking's own page
 * speaks the language it was `booked` in unless the guest chose another (menu or cookie).
 */
export function languageOf(request: Pick<Request, 'query' | 'cookies' | 'acceptLanguage'>, hotel?: string, booked?: string): Language {
  const chosen = request.query[LANGUAGE_PARAMETER];
  const cookie = request.cookies[LANGUAGE_COOKIE];
  if (!isLanguage(chosen) && !isLanguage(cookie) && isLanguage(booked)) return booked;
  return negotiateLanguage({ chosen, cookie, acceptLanguage: request.acceptLanguage, hotel });
}

/** The guest's words for a page of `client`'s: their language, the hotel's clock. */
export function guestWords(request: Request, client: Pick<GuestClient, 'language' | 'time_zone'>, booked?: string): Promise<Translate> {
  return translator(languageOf(request, client.language, booked), client.time_zone);
}

/**
 * A guest page action that keeps the language the menu's link chose (`?lang=`) in a cookie; the
 * action itself reads it from the request (languageOf). Call it marked `/* @__PURE__ *\/`: a
 * module-level call esbuild cannot drop would keep the whole page in every bundle importing the
 * module for something else (guest-cancel's import of confirmation-page.tsx).
 */
export function keepsLanguage(action: PublicPageAction): PublicPageAction {
  return async (request) => {
    const outcome: PageOutcome = await action(request);
    const chosen = request.query[LANGUAGE_PARAMETER];
    if (!isLanguage(chosen) || 'raw' in outcome) return outcome;
    const cookie = languageCookie(chosen, { prefix: request.cookieScope.prefix, secure: request.cookieScope.secure });
    return { ...outcome, cookies: [...(outcome.cookies ?? []), cookie] };
  };
}

/**
 * Where each language of the menu leads: the same page (a GET's path and query) in that language;
 * from a form's answer (a POST), `fallback` (the hotel's booking page).
 */
export function menuLinks(links: Links, page: { path?: string; query?: Record<string, string> }, fallback?: string): ((language: Language) => string) | undefined {
  const path = page.path ?? fallback;
  if (!path) return undefined;
  const query = page.path ? page.query ?? {} : {};
  return (language) => links.to(path, { ...query, [LANGUAGE_PARAMETER]: language });
}

export { LANGUAGES };

/** The menu of a guest page of `clientId`'s: the same page in each language; from a form's answer, the hotel's booking page. */
export const pageMenu = (request: Request, clientId: string) => menuLinks(request.links, request, bookPathOf(clientId));

/**
 * The language of a guest request outside the guest pages' function (the return from a checkout):
 * its cookie (with or without the `__Host-` prefix: a language is no secret), else `Accept-Language`.
 */
export function languageOfHeaders(headers: Record<string, string | undefined>): Language {
  const cookies = parseCookies(headers.cookie);
  return negotiateLanguage({ cookie: cookies[`${HOST_PREFIX}${LANGUAGE_COOKIE}`] ?? cookies[LANGUAGE_COOKIE], acceptLanguage: headers['accept-language'] });
}
