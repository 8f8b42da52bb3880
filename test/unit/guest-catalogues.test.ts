/**
 * The guest catalogues (shared/i18n/messages): every message in every language, no language with
 * a message English lacks, each rendering with sample values in its language (ICU MessageFormat,
 * intl-messageformat) without a placeholder left over.
 */
import { describe, expect, it } from 'vitest';
import en from '../../shared/i18n/messages/en';
import { LANGUAGES } from '../../shared/i18n/languages';
import { translator } from '../../shared/i18n/translator';

const catalogues = Object.fromEntries(await Promise.all(LANGUAGES.map(async (language) => [language, (await import(`../../shared/i18n/messages/${language}.ts`)).default as Record<string, string>])));
const keys = Object.keys(en).sort();

/** A sample for each value a message names: numbers where a plural counts, words otherwise. */
function samples(message: string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [, name, type] of message.matchAll(/\{(\w+)(?:,\s*(\w+))?/g)) values[name!] = type === 'plural' || type === 'number' ? 2 : `<${name}>`;
  for (const count of ['nights', 'guests', 'max', 'minutes', 'days', 'open', 'most']) if (count in values) values[count] = 2;
  return values;
}

describe.each(LANGUAGES)('the %s catalogue', (language) => {
  it('has every message of the English one, and no other', () => {
    expect(Object.keys(catalogues[language]!).sort()).toEqual(keys);
  });

  it('renders every message with sample values, every value in its place', async () => {
    const t = await translator(language);
    for (const key of keys) {
      const values = samples(en[key as keyof typeof en]);
      const text = t(key as keyof typeof en, values);
      expect(text.trim(), `${language} ${key}`).not.toBe('');
      expect(text, `${language} ${key}`).not.toMatch(/[{}]/);
      // Each value English names appears in the translation too (counts may be written as words).
      for (const [name, value] of Object.entries(values)) if (typeof value === 'string') expect(text, `${language} ${key} ${name}`).toContain(value);
    }
  });

  it('names no value English does not', () => {
    for (const key of keys) {
      const named = new Set(Object.keys(samples(catalogues[language]![key]!)));
      const english = new Set(Object.keys(samples(en[key as keyof typeof en])));
      expect([...named].filter((name) => !english.has(name)), `${language} ${key}`).toEqual([]);
    }
  });
});
