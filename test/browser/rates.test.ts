/**
 * Rate plans in headless Chromium (docs/behaviour.md "Rates and restrictions per date"): a guest
 * on a phone (390 px) chooses among a room's plans, sees each night's price and the total, is told
 * in words why a room type cannot take the stay, and pays the chosen plan's total on the checkout;
 * an admin reads the Rates calendar at 1280 px and sets a range with its form. Screenshots go to
 * test-results/screenshots (docs/screenshots with UPDATE_SCREENSHOTS=1); each is looked at.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousAxeViolations, shoot, watchCspViolations } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { addDays, rateSync, weekdayAhead } from '../support/rate-fixtures';
import { startTestStack, type TestStack } from '../support/stack';

const SHOTS = new Set(['rates-calendar', 'guest-rate-plans-phone']);
const needsChromium = it.skipIf(!hasChromium);
const FRI = weekdayAhead(5, 10);
const SUN = addDays(FRI, 2);
const longDay = (date: string) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`)).replace(',', '');

let stack: TestStack;
let browser: Browser | undefined;
let clientId: string;
const adminEmail = 'rates-admin@hotel.example';

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount } = await import('../../shared/domain/clients');
  clientId = (await createClientAccount({ name: 'Hotel Miramar', plan: 'premium', currency: 'EUR' })).client_id;
  const { put } = await rateSync(stack, clientId);
  await put('room-categories', {
    external_source: 'pms',
    categories: [
      { external_category_id: 'DBL', name: 'Double room', base_price: 120, description: 'A quiet room facing the garden.' },
      { external_category_id: 'STE', name: 'Garden suite', base_price: 210 },
    ],
  });
  await put('rooms', {
    external_source: 'pms',
    rooms: [
      { external_room_id: 'R101', external_category_id: 'DBL', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
      { external_room_id: 'R201', external_category_id: 'STE', room_number: '201', room_type: 'suite', price: 210, max_occupancy: 4 },
    ],
  });
  await put('rate-plans', {
    external_source: 'pms',
    rate_plans: [
      { external_rate_plan_id: 'FLEX', external_category_id: 'DBL', name: 'Flexible, breakfast included' },
      { external_rate_plan_id: 'SAVER', external_category_id: 'DBL', name: 'Saver, non-refundable' },
      { external_rate_plan_id: 'SUITE', external_category_id: 'STE', name: 'Suite rate' },
    ],
  });
  await put('rates', {
    external_source: 'pms',
    updates: [
      { external_rate_plan_id: 'FLEX', date_from: addDays(FRI, -7), date_to: addDays(FRI, 20), price: 140 },
      { external_rate_plan_id: 'FLEX', date_from: addDays(FRI, -7), date_to: addDays(FRI, 20), days: ['fr', 'sa'], price: 165 },
      { external_rate_plan_id: 'SAVER', date_from: addDays(FRI, -7), date_to: addDays(FRI, 20), price: 118 },
      { external_rate_plan_id: 'SAVER', date: addDays(FRI, 9), closed_to_departure: true },
      { external_rate_plan_id: 'SAVER', date: addDays(FRI, 7), stop_sell: true },
      { external_rate_plan_id: 'SUITE', date: FRI, min_stay_arrival: 3 },
      { external_rate_plan_id: 'SUITE', date: addDays(FRI, 8), min_stay_arrival: 2, max_stay: 7 },
    ],
  });
  const { createOperator } = await import('../../shared/domain/operators');
  await createOperator({ clientId, email: adminEmail, role: 'admin', password: OPERATOR_PASSWORD });
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function submit(page: Page, click: () => Promise<void>): Promise<number | undefined> {
  const [response] = await Promise.all([page.waitForNavigation(), click()]);
  return response?.status();
}

describe('rate plans in the browser (skipped without Chromium)', () => {
  needsChromium('a guest on a phone chooses a plan, sees its nights and total, reads why the suite cannot be had, and pays that total', async () => {
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const blocked = watchCspViolations(page);
    await page.goto(`${stack.url}/book/${clientId}?${new URLSearchParams({ check_in: FRI, check_out: SUN, guests: '2' })}`);
    const rates = page.getByRole('list', { name: 'Rates: Double room' }).getByRole('listitem');
    await expect(rates.allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Saver, non-refundable\n.*118\.00 EUR.*118\.00 EUR\n236\.00 EUR in total/),
      expect.stringMatching(/^Flexible, breakfast included\n.*165\.00 EUR.*165\.00 EUR\n330\.00 EUR in total/),
    ]);
    await expect(page.getByRole('note', { name: 'Rooms not bookable for this stay' }).innerText()).resolves.toContain(`Garden suite: Stays arriving on ${longDay(FRI)} are at least 3 nights.`);
    expect(await seriousAxeViolations(page)).toEqual([]);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(wide).toBeLessThanOrEqual(0);
    await shoot(page, 'guest-rate-plans-phone', SHOTS);

    expect(await submit(page, () => page.getByRole('button', { name: 'Book Flexible, breakfast included' }).click())).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your details');
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    const pay = page.getByRole('button', { name: 'Book and pay 330.00 EUR' });
    await Promise.all([page.waitForURL(`${stack.sandboxUrl}/checkout/**`), pay.click()]);
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('330.00 EUR');
    expect(blocked).toEqual([]);
    await context.close();
  });

  needsChromium('an admin reads the Rates calendar at 1280 px and sets a range with its form', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${stack.url}/dashboard`);
    await page.getByLabel('Email').fill(adminEmail);
    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Rates', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Rates' }).waitFor();
    const double = page.getByRole('region', { name: 'Double room' });
    await expect(double.getByRole('row').nth(1).getByRole('rowheader').textContent()).resolves.toBe('Flexible, breakfast included');
    await expect(page.getByRole('region', { name: 'Garden suite' }).getByText('Min 3').count()).resolves.toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByLabel('Rate plan').selectOption('pms/SUITE');
    await page.getByLabel('From').fill(addDays(FRI, 1));
    await page.getByLabel('To', { exact: true }).fill(addDays(FRI, 2));
    await page.getByLabel('Price a night').fill('199');
    await page.getByLabel('Closed (not for sale)').selectOption('yes');
    expect(await submit(page, () => page.getByRole('button', { name: 'Set rates' }).click())).toBe(200);
    await expect(page.getByText('Rates set: 2 nights changed.').isVisible()).resolves.toBe(true);
    await shoot(page, 'rates-calendar', SHOTS);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(wide).toBeLessThanOrEqual(0);
    await context.close();
  });
});
