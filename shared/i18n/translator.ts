/**
 * A guest's words: the messages of their language's catalogue (shared/i18n/messages/<language>.ts,
 * ICU MessageFormat, rendered by intl-messageformat) with the figures of shared/i18n/guest-format.ts.
 * Only the language asked for is loaded, on its first use in a container, and each message is
 * parsed on its first use: a function's bundle carries neither the catalogues nor the library
 * (infra/bundling.ts: both are built beside it and imported when needed).
 */
import type { IntlMessageFormat } from 'intl-messageformat';
import { guestFormat, type GuestFormat, INTL_LOCALES } from './guest-format';
import { DEFAULT_LANGUAGE, type Language } from './languages';
import type { Catalogue, MessageKey } from './messages/en';

export type { MessageKey };
export type MessageValues = Record<string, string | number>;

/** `t('search.title')`, `t('results.nights', { nights: 2 })`; with the language's figures: `t.day(date)`, `t.money(amount, currency)`. */
export interface Translate extends GuestFormat {
  (key: MessageKey, values?: MessageValues): string;
  language: Language;
  /** An instant as a date and a time on the hotel's clock, as the language joins them. */
  at(at: string | Date): string;
}

const LOADERS: Readonly<Record<Language, () => Promise<{ default: Catalogue }>>> = {
  en: () => import('guest-messages/en'),
  fr: () => import('guest-messages/fr'),
  de: () => import('guest-messages/de'),
  es: () => import('guest-messages/es'),
  it: () => import('guest-messages/it'),
  pt: () => import('guest-messages/pt'),
  ja: () => import('guest-messages/ja'),
};

type Render = (key: MessageKey, values?: MessageValues) => string;
const renderers = new Map<Language, Promise<Render>>();

async function loadRenderer(language: Language): Promise<Render> {
  const [{ IntlMessageFormat: Format }, { default: catalogue }] = await Promise.all([import('intl-messageformat'), LOADERS[language]()]);
  const parsed = new Map<MessageKey, IntlMessageFormat>();
  return (key, values) => {
    let message = parsed.get(key);
    if (!message) parsed.set(key, (message = new Format(catalogue[key], INTL_LOCALES[language])));
    return String(message.format(values));
  };
}

/** The messages of `language` (parsed as used), loaded once per container. */
function rendererOf(language: Language): Promise<Render> {
  let renderer = renderers.get(language);
  if (!renderer) {
    renderer = loadRenderer(language);
    // A failed load is tried again by the next request, not remembered.
    renderer.catch(() => renderers.delete(language));
    renderers.set(language, renderer);
  }
  return renderer;
}

/** A guest's words in `language`, with times on the clock of the hotel's `timeZone`. */
export async function translator(language: Language = DEFAULT_LANGUAGE, timeZone = 'UTC'): Promise<Translate> {
  const render = await rendererOf(language);
  const format = guestFormat(language, timeZone);
  const t = ((key: MessageKey, values?: MessageValues) => render(key, values)) as Translate;
  return Object.assign(t, format, {
    language,
    at: (at: string | Date) => render('format.dateTime', { date: format.day(format.localDate(at)), time: format.time(at) }),
  });
}
