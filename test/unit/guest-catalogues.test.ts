/**
 * The guest catalogues (shared/i18n/messages): every message in every language, no language with
 * a message English lacks, each rendering with sample values in its language (ICU MessageFormat,
 * intl-messageformat) without a placeholder left over.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import en from '../../shared/i18n/messages/en';
import { LANGUAGES } from '../../shared/i18n/languages';
import { translator } from '../../shared/i18n/translator';

const catalogues = Object.fromEntries(await Promise.all(LANGUAGES.map(async (language) => [language, (await import(`../../shared/i18n/messages/${language}.ts`)).default as Record<string, string>])));
const keys = Object.keys(en).sort();

/** The values a message names, by their kind (ICU's AST: 1 argument, 2 number, 5 select, 6 plural). */
function argumentsOf(message: string): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (elements: any[]) => {
    for (const element of elements) {
      if ([1, 2, 3, 4, 5, 6].includes(element.type)) found.set(element.value, element.type);
      if (element.options) for (const option of Object.values(element.options) as { value: any[] }[]) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(message, 'en').getAst());
  return found;
}

/** A sample for each value a message names: a count for a plural or a number (and every count English names), a select's `other`, else a marked word. */
function samples(message: string): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, type] of argumentsOf(message)) values[name] = type === 6 || type === 2 ? 2 : type === 5 ? 'unknown' : `<${name}>`;
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
      for (const [name, value] of Object.entries(values)) if (typeof value === 'string' && value !== 'unknown') expect(text, `${language} ${key} ${name}`).toContain(value);
    }
  });

  it('names no value English does not', () => {
    for (const key of keys) {
      const named = new Set(argumentsOf(catalogues[language]![key]!).keys());
      const english = new Set(argumentsOf(en[key as keyof typeof en]).keys());
      expect([...named].filter((name) => !english.has(name)), `${language} ${key}`).toEqual([]);
    }
  });
});
