/**
 * The guest's language on a phone (390 x 844) in headless Chromium (docs/behaviour.md "The guest's
 * language"): a Japanese browser (Accept-Language from the context's locale) gets the pages in
 * Japanese, through the search, the results and the details form to the sandbox checkout; the
 * language menu (plain links, named by the nav's label) switches to French and the cookie keeps
 * it; a browser asking for none of ours gets the hotel's language (German here). Each page: axe
 * clean, no sideways scrolling at 390 px, no IANA zone name, <html lang> right.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { startTestStack, type TestStack } from '../support/stack';

const PHONE = { width: 390, height: 844 };
const ZONE = 'Pacific/Honolulu';
let stack: TestStack;
let browser: Browser | undefined;
let bookingUrl: string;
const needsChromium = it.skipIf(!hasChromium);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const STAY = { checkIn: day(15), checkOut: day(17), guests: '2' };
/** Other dates: the first test's checkout holds room 101 for STAY. */
const LATER = { checkIn: day(40), checkOut: day(42) };

async function expectPageOk(page: Page, language: string, what: string): Promise<void> {
  await expect(page.locator('html').getAttribute('lang'), what).resolves.toBe(language);
  expect(await seriousAxeViolations(page), what).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
  expect(await page.locator('body').innerText(), what).not.toContain(ZONE);
}

/** A phone whose browser asks for `locale`'s language (playwright sends it as Accept-Language). */
async function phone(locale: string): Promise<Page> {
  const context = await browser!.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale });
  return context.newPage();
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount, setClientSettings } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: 'Hale Kai', plan: 'premium', currency: 'USD' });
  await setClientSettings(client.client_id, { time_zone: ZONE, check_in_time: '15:00', taxes_included: false, language: 'de' });
  const { key } = await stack.issueKey(client.client_id, 'sync');
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: { external_source: 'pms', rooms: [{ external_room_id: 'R101', room_number: '101', room_type: 'Ocean view king', price: 289, max_occupancy: 2 }] },
  });
  expect(rooms.status).toBe(200);
  bookingUrl = `${stack.url}/book/${client.client_id}`;
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the guest’s language on a phone (skipped without Chromium)', () => {
  needsChromium('a Japanese browser books in Japanese, to the checkout', async () => {
    const page = await phone('ja-JP');
    await page.goto(bookingUrl);
    await expect(h1(page)).resolves.toBe('お部屋を予約');
    await expectPageOk(page, 'ja', 'search form, ja');
    await page.getByLabel('チェックイン').fill(STAY.checkIn);
    await page.getByLabel('チェックアウト').fill(STAY.checkOut);
    await page.getByLabel('人数').fill(STAY.guests);
    await page.getByRole('button', { name: '検索' }).click();
    await page.waitForLoadState();
    const results = await page.locator('main').innerText();
    // The room type once, with how many are left (room types: the service picks the room).
    expect(results).toMatch(/Ocean view king\s+残り1室/);
    expect(results).toContain('最大2名');
    expect(results).toMatch(/USD\s578\.00（2泊）/);
    expect(results).toContain('税別');
    await expectPageOk(page, 'ja', 'results, ja');
    await shoot(page, 'guest-results-ja', new Set());

    await page.getByRole('button', { name: '予約する' }).click();
    await page.waitForLoadState();
    await expect(h1(page)).resolves.toBe('お客様情報');
    // The hotel's 15:00 as Japanese writes it, on the hotel's own clock, never the zone's name.
    expect(await page.locator('main').innerText()).toMatch(/2026年|2027年/);
    expect(await page.locator('main').innerText()).toContain('15:00から');
    await expectPageOk(page, 'ja', 'details, ja');
    await page.getByLabel('お名前').fill('山田 花子');
    await page.getByLabel('メールアドレス').fill('hanako@example.jp');
    await page.getByRole('button', { name: /予約して.*を支払う/ }).click();
    await page.waitForLoadState();
    // The sandbox checkout speaks the booking's language.
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ja');
    await expect(page.getByRole('button', { name: /USD\s578\.00を支払う/ }).count()).resolves.toBe(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.context().close();
  });

  needsChromium('the language menu switches to French and the cookie keeps it; English is a link away', async () => {
    const page = await phone('ja-JP');
    await page.goto(`${bookingUrl}?check_in=${LATER.checkIn}&check_out=${LATER.checkOut}&guests=1`);
    const menu = page.getByRole('navigation', { name: '言語' });
    await expect(menu.getByRole('link').allTextContents()).resolves.toEqual(['English', 'Français', 'Deutsch', 'Español', 'Italiano', 'Português', '日本語']);
    await expect(menu.getByRole('link', { name: '日本語' }).getAttribute('aria-current')).resolves.toBe('true');
    await menu.getByRole('link', { name: 'Français' }).click();
    await page.waitForLoadState();
    // The same search, now in French.
    await expect(h1(page)).resolves.toBe('Réserver une chambre');
    expect(await page.locator('main').innerText()).toMatch(/Ocean view king\s+1 chambre restante/);
    expect(await page.locator('main').innerText()).toContain('Jusqu’à 2 personnes');
    await expectPageOk(page, 'fr', 'results, fr');
    await shoot(page, 'guest-results-fr', new Set());
    // Kept: a new page of the same browser is French, whatever Accept-Language says.
    await page.goto(bookingUrl);
    await expect(h1(page)).resolves.toBe('Réserver une chambre');
    await page.getByRole('navigation', { name: 'Langue' }).getByRole('link', { name: 'English' }).click();
    await page.waitForLoadState();
    await expect(h1(page)).resolves.toBe('Book a room');
    await expectPageOk(page, 'en', 'search form, en');
    await page.context().close();
  });

  needsChromium('a browser asking for none of our languages gets the hotel’s (German)', async () => {
    const page = await phone('ko-KR');
    await page.goto(`${bookingUrl}?check_in=${LATER.checkIn}&check_out=${LATER.checkOut}&guests=2`);
    await expect(h1(page)).resolves.toBe('Zimmer buchen');
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/Ocean view king\s+1 Zimmer frei/);
    expect(text).toContain('Bis zu 2 Gäste');
    expect(text).toMatch(/578,00\sUSD für 2 Nächte/);
    await expectPageOk(page, 'de', 'results, de');
    await page.context().close();
  });
});
