/**
 * The languages guests are spoken to in (docs/behaviour.md "The guest's language"): the guest's
 * choice (the pages' language menu, kept in a cookie), else the browser's `Accept-Language`, else
 * the hotel's `language` client setting, else English. No dependency: every function may import it.
 */

/** The guest pages', e-mails' and checkouts' languages; Stripe's Checkout speaks each of them. */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** `value` when it is one of ours (a stored booking's language), else `fallback`'s, else English. */
export const languageOr = (value: unknown, fallback?: unknown): Language => (isLanguage(value) ? value : isLanguage(fallback) ? fallback : DEFAULT_LANGUAGE);

/** Each language by its own name, as the language menu lists it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  ja: '日本語',
};

/** The cookie keeping the guest's choice, and the query parameter of the menu's links that sets it. */
export const LANGUAGE_COOKIE = 'guest_lang';
export const LANGUAGE_PARAMETER = 'lang';

/** A year: the guest's choice outlives the visit. */
const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 3600;

/**
 * The cookie keeping a guest's choice. SameSite=Lax, not Strict: the guest comes back from the
 * payment provider's site to the confirmation page, a cross-site navigation that a Strict cookie
 * would miss. `prefix`: `__Host-` outside the local stack (shared/dashboard/cookies.ts).
 */
export function languageCookie(language: Language, scope: { prefix: string; secure: boolean }): string {
  return [`${scope.prefix}${LANGUAGE_COOKIE}=${language}`, 'Path=/', `Max-Age=${LANGUAGE_COOKIE_SECONDS}`, 'HttpOnly', 'SameSite=Lax', ...(scope.secure ? ['Secure'] : [])].join('; ');
}

/**
 * The best of our languages for an `Accept-Language` header (RFC 9110 §12.5.4): by q-value, the
 * header's order breaking ties; a regional tag counts for its language (fr-CA is fr, pt-BR pt);
 * `*` and languages we do not speak are skipped. Undefined when none fits.
 */
export function fromAcceptLanguage(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { language: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((range) => range.q > 0 && !Number.isNaN(range.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges.map((range) => range.language).find(isLanguage);
}

/** The language of a guest's request: their choice (the menu's link, else its cookie), else their browser's, else the hotel's. */
export function negotiateLanguage(input: { chosen?: string; cookie?: string; acceptLanguage?: string; hotel?: string }): Language {
  if (isLanguage(input.chosen)) return input.chosen;
  if (isLanguage(input.cookie)) return input.cookie;
  return fromAcceptLanguage(input.acceptLanguage) ?? (isLanguage(input.hotel) ? input.hotel : DEFAULT_LANGUAGE);
}
