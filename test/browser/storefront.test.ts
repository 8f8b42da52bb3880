/**
 * The booking page as a storefront on a phone (390 x 844) in headless Chromium (docs/behaviour.md
 * "The guest's booking page as a storefront"), in English, French and Japanese: the landing page
 * (the hotel, its room types with pictures and "from" prices) at the hotel's slug, the results by
 * room type with "N left", the details page with the taxes as an amount, the sandbox checkout
 * charging them, the confirmation and the cancel page; none scrolls sideways, none shows an
 * internal id or a time zone's name. The QR code decodes to the slug's address. Every page is
 * screenshotted to test-results/screenshots (docs/screenshots with UPDATE_SCREENSHOTS=1) as
 * storefront-<page>-<language>.png.
 */
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { startTestStack, type TestStack } from '../support/stack';

const PHONE = { width: 390, height: 844 };
const needsChromium = it.skipIf(!hasChromium);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let stack: TestStack;
let browser: Browser | undefined;
let slug: string;
let picture: Buffer;

/** A 640 x 360 picture of one colour: what the room types' https pictures answer here (no internet). */
function solidPng(rgb: [number, number, number]): Buffer {
  const png = new PNG({ width: 640, height: 360 });
  for (let i = 0; i < png.data.length; i += 4) [png.data[i], png.data[i + 1], png.data[i + 2], png.data[i + 3]] = [...rgb, 255];
  return PNG.sync.write(png);
}

beforeAll(async () => {
  stack = await startTestStack();
  picture = solidPng([120, 160, 140]);
  const { createClientAccount, setClientSettings } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: 'Hale Kai Hotel', plan: 'premium', currency: 'USD', time_zone: 'Pacific/Honolulu' });
  const key = (await stack.issueKey(client.client_id, 'sync')).key;
  const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key,
    body: {
      external_source: 'pms',
      categories: [
        { external_category_id: 'GDN', name: 'Garden Queen', description: 'A quiet room on the garden with a queen-size bed.', amenities: ['Wi-Fi', 'Air conditioning', 'Lanai'], image_url: 'https://images.example.com/garden.png' },
        { external_category_id: 'OCN', name: 'Ocean King', description: 'A corner room over the ocean with a king-size bed.', amenities: ['Wi-Fi', 'Ocean view'], image_url: 'https://images.example.com/ocean.png' },
      ],
    },
  });
  expect(categories.status).toBe(200);
  const room = (n: string, category: string, price: number) => ({ external_room_id: `R${n}`, room_number: n, room_type: category, price, max_occupancy: 2, external_category_id: category });
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: { external_source: 'pms', rooms: [room('101', 'GDN', 180), room('102', 'GDN', 180), room('103', 'GDN', 180), room('104', 'GDN', 180), room('201', 'OCN', 260), room('202', 'OCN', 260)] },
  });
  expect(rooms.status).toBe(200);
  await setClientSettings(client.client_id, {
    tax_percent: 10,
    phone: '+18085550123',
    email: 'stay@halekai.example',
    address: '2199 Kalia Road, Honolulu, HI 96815',
    check_in_time: '15:00',
    cancellation_policy: 'Free cancellation until 48 hours before arrival.',
  });
  slug = `hale-kai-${Math.random().toString(36).slice(2, 7)}`;
  const { saveClientSlug } = await import('../../shared/domain/operator-actions/hotel-settings');
  const { cliActor } = await import('../../shared/domain/operator-actions/actor');
  await saveClientSlug(cliActor(client.client_id), slug);
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** What every storefront page must pass: nothing wider than the phone, no internal id, no zone name, axe clean. */
async function checkPage(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what}: sideways scroll`).toBeLessThanOrEqual(0);
  const text = await page.locator('body').innerText();
  expect(text, what).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  expect(text, what).not.toContain('guest:');
  expect(text, what).not.toContain('Pacific/Honolulu');
}

/** Into test-results/screenshots; into docs/screenshots too with UPDATE_SCREENSHOTS=1, as every browser test. */
const shot = (page: Page, name: string): Promise<void> => shoot(page, name, new Set([name]));

async function guestPage(language: string): Promise<Page> {
  const context = await browser!.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, locale: language === 'ja' ? 'ja-JP' : language === 'fr' ? 'fr-FR' : 'en-US' });
  await context.route('https://images.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: picture }));
  return context.newPage();
}

describe('the storefront on a phone, in three languages (skipped without Chromium)', () => {
  for (const language of ['en', 'fr', 'ja'] as const) {
    needsChromium(`${language}: landing at the slug, results by type with "left", taxes on the details page and the checkout, confirmation, cancel`, async () => {
      const page = await guestPage(language);
      const stay = { check_in: day(30 + ['en', 'fr', 'ja'].indexOf(language) * 5), check_out: day(33 + ['en', 'fr', 'ja'].indexOf(language) * 5), guests: '2' };

      // The landing page, at the hotel's own address, in the language chosen from the menu's link.
      await page.goto(`${stack.url}/book/${slug}?lang=${language}`);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe(language);
      await expect(page.locator('header.bar p').first().textContent()).resolves.toBe('Hale Kai Hotel');
      const types = page.locator('section.type');
      await expect(types.count()).resolves.toBe(2);
      await expect(types.first().locator('img').getAttribute('loading')).resolves.toBe('lazy');
      await expect(types.first().locator('img').getAttribute('alt')).resolves.toBe('Garden Queen');
      if (language === 'en') {
        await expect(types.first().innerText()).resolves.toContain('from 180.00 USD a night');
        await expect(page.locator('body').innerText()).resolves.toContain('From 3:00 PM');
      }
      await checkPage(page, `landing ${language}`);
      expect(await seriousAxeViolations(page), `landing ${language}`).toEqual([]);
      await shot(page, `storefront-landing-${language}`);

      // Results: each type once, with how many are left.
      await page.goto(`${stack.url}/book/${slug}?check_in=${stay.check_in}&check_out=${stay.check_out}&guests=2`);
      await expect(types.count()).resolves.toBe(2);
      const left = await page.locator('.left').allInnerTexts();
      if (language === 'en') expect(left).toEqual(['2 left']);
      else expect(left).toHaveLength(1);
      await expect(page.locator('ul.rooms').count()).resolves.toBe(0);
      await checkPage(page, `results ${language}`);
      expect(await seriousAxeViolations(page), `results ${language}`).toEqual([]);
      await shot(page, `storefront-results-${language}`);

      // Details of the first type: the room price, the taxes as an amount and the total (3 nights of 180 + 10%).
      await Promise.all([page.waitForURL(/\/details\?/), types.first().getByRole('button').click()]);
      const details = await page.locator('body').innerText();
      if (language === 'en') {
        expect(details).toContain('540.00 USD');
        expect(details).toContain('Taxes (10%)');
        expect(details).toContain('54.00 USD');
        expect(details).toContain('594.00 USD for 3 nights');
      } else expect(details).toMatch(/594[.,]00/);
      await checkPage(page, `details ${language}`);
      await shot(page, `storefront-details-${language}`);

      // The sandbox checkout charges the total with the taxes.
      await page.locator('input[name=name]').fill(language === 'ja' ? '山田 花子' : 'Leilani Kahale');
      await page.locator('input[name=email]').fill(`guest-${language}@example.com`);
      await Promise.all([page.waitForURL(/\/checkout\//), page.locator('button[name=pay][value=checkout]').click()]);
      await expect(page.getByTestId('amount').innerText()).resolves.toMatch(/594[.,]00|594/);
      await expect(page.getByTestId('lines').innerText()).resolves.toContain('10');
      await checkPage(page, `checkout ${language}`);
      await shot(page, `storefront-checkout-${language}`);

      // Paid: the confirmation, then the cancel page.
      await Promise.all([page.waitForURL(/\/confirmation\//), page.getByRole('button', { name: /594/ }).click()]);
      await checkPage(page, `confirmation ${language}`);
      await expect(page.locator('body').innerText()).resolves.toMatch(/594[.,]00/);
      await shot(page, `storefront-confirmation-${language}`);
      await Promise.all([page.waitForURL(/\/cancel\??$/), page.locator('form[action$="/cancel"] button').first().click()]);
      await checkPage(page, `cancel ${language}`);
      await shot(page, `storefront-cancel-${language}`);
      await page.context().close();
    });
  }

  needsChromium("the QR code holds the slug's address", async () => {
    const page = await guestPage('en');
    await page.goto(`${stack.url}/book/${slug}/qr.svg`);
    const png = PNG.sync.read(await page.screenshot());
    const decoded = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data;
    expect(decoded).toBe(`${stack.url}/book/${slug}`);
    await page.context().close();
  });
});
