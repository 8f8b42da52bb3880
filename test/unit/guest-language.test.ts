/**
 * The guest's language (docs/behaviour.md "The guest's language"): their choice, else their
 * browser's Accept-Language (q-values, a region counting for its language), else the hotel's; and
 * dates, times and money the way each language writes them, on the hotel's clock.
 */
import { describe, expect, it } from 'vitest';
import { fromAcceptLanguage, languageCookie, negotiateLanguage } from '../../shared/i18n/languages';
import { guestFormat } from '../../shared/i18n/guest-format';
import { translator } from '../../shared/i18n/translator';

describe('Accept-Language', () => {
  it.each([
    ['fr-CA,fr;q=0.9,en;q=0.8', 'fr'],
    ['pt-BR', 'pt'],
    ['en-US,en;q=0.9', 'en'],
    ['de;q=0.5, ja;q=0.8', 'ja'],
    ['nl-NL,nl;q=0.9,de;q=0.4', 'de'],
    ['zh-CN, *;q=0.5', undefined],
    ['ja;q=0, it', 'it'],
    ['es-419', 'es'],
    ['', undefined],
  ])('%j is %s', (header, language) => {
    expect(fromAcceptLanguage(header)).toBe(language);
  });
});

describe('the language of a request', () => {
  it('is the menu’s choice, then the cookie, then the browser’s, then the hotel’s, then English', () => {
    expect(negotiateLanguage({ chosen: 'ja', cookie: 'fr', acceptLanguage: 'de', hotel: 'it' })).toBe('ja');
    expect(negotiateLanguage({ chosen: 'xx', cookie: 'fr', acceptLanguage: 'de', hotel: 'it' })).toBe('fr');
    expect(negotiateLanguage({ cookie: 'zz', acceptLanguage: 'de-AT', hotel: 'it' })).toBe('de');
    expect(negotiateLanguage({ acceptLanguage: 'ko', hotel: 'it' })).toBe('it');
    expect(negotiateLanguage({})).toBe('en');
  });

  it('is kept in a cookie that comes back from the payment provider’s site (SameSite=Lax), __Host- outside the local stack', () => {
    expect(languageCookie('fr', { prefix: '__Host-', secure: true })).toBe('__Host-guest_lang=fr; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure');
    expect(languageCookie('ja', { prefix: '', secure: false })).toBe('guest_lang=ja; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax');
  });
});

describe('figures in the guest’s language', () => {
  const at = '2026-12-04T01:00:00Z'; // 3:00 PM on 3 Dec in Honolulu
  it('writes dates as each language does', () => {
    expect(guestFormat('ja', 'UTC').day('2026-12-04')).toBe('2026年12月4日(金)');
    expect(guestFormat('fr', 'UTC').day('2026-12-04')).toBe('ven. 4 déc. 2026');
    expect(guestFormat('de', 'UTC').day('2026-12-04')).toBe('Fr., 4. Dez. 2026');
    expect(guestFormat('en', 'UTC').dayShort('2026-12-04')).toBe('Fri 4 Dec');
    expect(guestFormat('fr', 'UTC').dayLong('2026-12-04')).toBe('vendredi 4 décembre');
  });

  it('writes times in 12 or 24 hours as the language does, on the hotel’s clock, never naming its zone', async () => {
    expect(guestFormat('en', 'UTC').clock('15:00')).toBe('3:00 PM');
    expect(guestFormat('fr', 'UTC').clock('15:00')).toBe('15:00');
    expect(guestFormat('ja', 'UTC').clock('15:00')).toBe('15:00');
    expect(guestFormat('en', 'Pacific/Honolulu').time(at)).toBe('3:00 PM');
    const en = await translator('en', 'Pacific/Honolulu');
    expect(en.at(at)).toBe(`${en.day('2026-12-03')}, 3:00 PM`);
    expect(en.at(at)).not.toContain('Honolulu');
    const ja = await translator('ja', 'Pacific/Honolulu');
    expect(ja.at(at)).toBe('2026年12月3日(木) 15:00');
  });

  it('writes money with its currency, in the language’s digits', () => {
    expect(guestFormat('en', 'UTC').money(1240.5, 'EUR')).toBe('1,240.50 EUR');
    expect(guestFormat('fr', 'UTC').money(1240.5, 'EUR')).toMatch(/^1\s240,50\sEUR$/);
    expect(guestFormat('de', 'UTC').money(1240.5, 'EUR')).toMatch(/^1\.240,50\sEUR$/);
    expect(guestFormat('ja', 'UTC').moneyMinor(5000, 'JPY')).toMatch(/^JPY\s5,000$/);
    expect(guestFormat('fr', 'UTC').moneyMinor(24000, 'USD')).toMatch(/^240,00\sUSD$/);
  });

  it('counts in the language’s plural forms', async () => {
    const fr = await translator('fr');
    expect(fr('details.totalFor', { total: '100,00 EUR', nights: 1 })).toBe('100,00 EUR pour 1 nuit');
    expect(fr('details.totalFor', { total: '200,00 EUR', nights: 2 })).toBe('200,00 EUR pour 2 nuits');
    expect((await translator('ja'))('search.roomLine', { number: '101', type: 'ツイン', max: 2 })).toBe('101号室、ツイン、最大2名');
  });
});
