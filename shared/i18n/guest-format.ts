/**
 * How guests read dates, times, counts and money, in their language (docs/behaviour.md "The
 * guest's language"): every figure through `Intl`, times on the hotel's clock (its zone, never
 * named to the guest), 12 or 24 hours as the language writes them. English keeps the dashboard's
 * writing (shared/dashboard/format.ts: "Fri 4 Dec 2026", "240.00 USD") with 12-hour times
 * ("3:00 PM"); French reads "ven. 4 déc. 2026", "15:00", "240,00 USD"; Japanese "2026年12月4日(金)".
 */
import { formatPrice } from '../dashboard/format';
import { localDate } from '../domain/hotel-time';
import { majorAmount, minorUnits } from '../schemas/payments';
import type { Language } from './languages';

/** The locale `Intl` writes each language's dates and numbers with; English dates as the dashboard writes them. */
export const INTL_LOCALES: Readonly<Record<Language, string>> = { en: 'en-GB', fr: 'fr-FR', de: 'de-DE', es: 'es-ES', it: 'it-IT', pt: 'pt-BR', ja: 'ja-JP' };
/** Times: English guests read "3:00 PM" (en-GB would write "3:00 pm" or "15:00"). */
const TIME_LOCALES: Readonly<Record<Language, string>> = { ...INTL_LOCALES, en: 'en-US' };

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d${locale}${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) cache.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n${locale}${JSON.stringify(options)}`;
  let format = cache.get(key) as Intl.NumberFormat | undefined;
  if (!format) cache.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

/** A calendar date (`YYYY-MM-DD`) at UTC noon: no zone moves it to another day. */
const calendar = (date: string) => new Date(`${date}T12:00:00Z`);

export interface GuestFormat {
  /** A stay's date: "Fri 4 Dec 2026", "ven. 4 déc. 2026", "2026年12月4日(金)". */
  day(date: string): string;
  /** A night in a list of nights: "Fri 4 Dec", "ven. 4 déc.", "12月4日(金)". */
  dayShort(date: string): string;
  /** A date in a sentence: "Friday 4 December", "vendredi 4 décembre", "12月4日金曜日". */
  dayLong(date: string): string;
  /** A time of day the hotel set (`HH:MM`, its own clock): "3:00 PM", "15:00". */
  clock(hhmm: string): string;
  /** An instant's time on the hotel's clock: "3:30 PM". */
  time(at: string | Date): string;
  /** An instant's date on the hotel's clock (`YYYY-MM-DD`), to compare or pass to `day`. */
  localDate(at: string | Date): string;
  /** An amount in major units with its currency: "1,240.50 EUR", "1 240,50 EUR", "EUR 1,240.50". */
  money(amountMajor: number, currency: string): string;
  /** An amount in minor units with its currency. */
  moneyMinor(amountMinor: number, currency: string): string;
  /** A count: "1,500", "1 500". */
  count(n: number): string;
}

export function guestFormat(language: Language, timeZone: string): GuestFormat {
  const locale = INTL_LOCALES[language];
  // English without the comma after the weekday in short dates, as the dashboard writes them (formatDayShort).
  const english = (text: string) => (language === 'en' ? text.replace(',', '') : text);
  const instant = (at: string | Date) => (typeof at === 'string' ? new Date(at) : at);
  const money = (amountMajor: number, currency: string) => {
    if (language === 'en') return formatPrice(amountMajor, currency);
    const digits = minorUnits(currency);
    return numberFormat(locale, { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amountMajor);
  };
  return {
    day: (date) => dateFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(calendar(date)),
    dayShort: (date) => english(dateFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(calendar(date))),
    dayLong: (date) => english(dateFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(calendar(date))),
    clock: (hhmm) => dateFormat(TIME_LOCALES[language], { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(new Date(`2000-01-01T${hhmm}:00Z`)),
    time: (at) => dateFormat(TIME_LOCALES[language], { hour: 'numeric', minute: '2-digit', timeZone }).format(instant(at)),
    localDate: (at) => localDate(timeZone, instant(at)),
    money,
    moneyMinor: (amountMinor, currency) => money(majorAmount(amountMinor, currency), currency),
    count: (n) => numberFormat(locale, {}).format(n),
  };
}
