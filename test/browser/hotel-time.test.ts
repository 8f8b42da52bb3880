/**
 * A hotel whose date is not UTC's, in headless Chromium: on the guest booking page (a phone and a
 * desktop) and at the reception desk (Bookings > New booking), the hotel's local today is accepted
 * and its local yesterday refused, the message beside Check-in and in the error summary; the date
 * pickers start at the local today, and the desk is told which day and zone that is.
 *
 * The server's clock is the real one, so the hotel is put where the date differs from UTC's right
 * now: Pacific/Kiritimati (UTC+14) when UTC's hour is 10 or later, else Pacific/Pago_Pago
 * (UTC-11); neither has daylight saving time, so the expected dates come from the fixed offsets.
 * Screenshots go to test-results/screenshots (and to docs/screenshots with UPDATE_SCREENSHOTS=1).
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../../shared/dashboard/format';
import { addDays } from '../../shared/schemas/common';
import { hasChromium, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';

/** The screenshots the staff guide shows. */
const README_SHOTS = new Set(['hotel-time-guest-past', 'hotel-time-guest-past-phone', 'hotel-time-reception-past', 'hotel-time-reception-past-phone']);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const AHEAD = new Date().getUTCHours() >= 10;
const ZONE = AHEAD ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
const OFFSET_HOURS = AHEAD ? 14 : -11;
/** The hotel's date now, from its zone's fixed offset. */
const localToday = () => new Date(Date.now() + OFFSET_HOURS * 3_600_000).toISOString().slice(0, 10);

let stack: TestStack;
let browser: Browser | undefined;
let clientId: string;
const adminEmail = `reception-${Math.random().toString(36).slice(2, 8)}@hotel.example`;
const needsChromium = it.skipIf(!hasChromium);

async function expectAxeClean(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

async function expectNoOverflow(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

/** Submits with `button` and answers the status of the page it leads to. */
async function submit(page: Page, button: Locator): Promise<number> {
  const [response] = await Promise.all([page.waitForEvent('response', (r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame()), button.click()]);
  await page.waitForLoadState();
  return response.status();
}

/** The message beside a field, which the field names in aria-describedby. */
async function messageBeside(page: Page, label: string): Promise<string | null> {
  const field = page.getByLabel(label, { exact: true });
  await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
  const id = (await field.getAttribute('id'))!;
  await expect(field.getAttribute('aria-describedby')).resolves.toContain(`${id}-error`);
  return page.locator(`#${id}-error`).textContent();
}

/** The error summary at the top: its links' texts, each pointing at a field. */
async function summaryLinks(page: Page): Promise<{ text: string; href: string | null }[]> {
  const links = page.locator('.error-summary a');
  const count = await links.count();
  const found = [];
  for (let i = 0; i < count; i++) found.push({ text: (await links.nth(i).textContent()) ?? '', href: await links.nth(i).getAttribute('href') });
  return found;
}

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount, issueApiKey } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: 'Lagoon Lodge', plan: 'premium', time_zone: ZONE });
  clientId = client.client_id;
  const sync = await issueApiKey({ clientId, kind: 'sync' });
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: sync.key,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R102', room_number: '102', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R201', room_number: '201', room_type: 'suite', price: 210, max_occupancy: 4 },
      ],
    },
  });
  expect(rooms.status).toBe(200);
  const { createOperator } = await import('../../shared/domain/operators');
  await createOperator({ clientId, email: adminEmail, role: 'admin', password: OPERATOR_PASSWORD });
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe(`a hotel in ${ZONE}, where the date is not UTC's (skipped without Chromium)`, () => {
  needsChromium('the guest page refuses the local yesterday beside Check-in and offers rooms from the local today, on a phone and a desktop', async () => {
    for (const [viewport, suffix] of [
      [PHONE, '-phone'],
      [DESKTOP, ''],
    ] as const) {
      const context = await browser!.newContext({ viewport, ...(viewport === PHONE ? { isMobile: true, hasTouch: true } : {}) });
      const page = await context.newPage();
      await page.goto(`${stack.url}/book/${clientId}`);
      // The date pickers start at the hotel's today, not the guest's or UTC's.
      await expect(page.getByLabel('Check-in').getAttribute('min')).resolves.toBe(localToday());
      await expect(page.getByLabel('Check-out').getAttribute('min')).resolves.toBe(localToday());

      const yesterday = addDays(localToday(), -1);
      await page.getByLabel('Check-in').fill(yesterday);
      await page.getByLabel('Check-out').fill(addDays(localToday(), 2));
      await page.getByLabel('Guests').fill('2');
      expect(await submit(page, page.getByRole('button', { name: 'Search' }))).toBe(400);
      await expect(messageBeside(page, 'Check-in')).resolves.toMatch(/past/);
      await expect(page.getByLabel('Check-in').inputValue()).resolves.toBe(yesterday);
      expect(await summaryLinks(page)).toEqual([{ text: expect.stringMatching(/past/), href: '#f-check_in' }]);
      await expect(page.locator('section.type .offer').count()).resolves.toBe(0);
      await expectAxeClean(page, `the guest page refusing yesterday${suffix}`);
      await expectNoOverflow(page, `the guest page refusing yesterday${suffix}`);
      await shoot(page, `hotel-time-guest-past${suffix}`, README_SHOTS);

      await page.getByLabel('Check-in').fill(localToday());
      expect(await submit(page, page.getByRole('button', { name: 'Search' }))).toBe(200);
      await expect(page.locator('.error-summary').count()).resolves.toBe(0);
      // The room types free from the local today: both doubles and the suite.
      await expect(page.locator('section.type h3').allTextContents()).resolves.toEqual(['double', 'suite']);
      await expect(page.locator('section.type .left').allTextContents()).resolves.toEqual(['2 left', '1 left']);
      await context.close();
    }
  });

  needsChromium('Bookings > New booking says the hotel\'s today and zone, refuses its yesterday beside Check-in and books from its today', async () => {
    for (const [viewport, suffix] of [
      [PHONE, '-phone'],
      [DESKTOP, ''],
    ] as const) {
      const context = await browser!.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${stack.url}/dashboard`);
      await page.getByLabel('Email').fill(adminEmail);
      await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation').getByRole('link', { name: 'Bookings', exact: true }).click();
      expect(await submit(page, page.getByRole('link', { name: 'New booking' }))).toBe(200);

      const checkIn = page.getByLabel('Check-in', { exact: true });
      await expect(checkIn.getAttribute('min')).resolves.toBe(localToday());
      await expect(page.getByText(`Today at the hotel is ${localToday()}`).textContent()).resolves.toContain(ZONE);

      const yesterday = addDays(localToday(), -1);
      await checkIn.fill(yesterday);
      await page.getByLabel('Check-out', { exact: true }).fill(addDays(localToday(), 1));
      await page.getByLabel('Guests', { exact: true }).fill('1');
      expect(await submit(page, page.getByRole('button', { name: 'Find rooms' }))).toBe(400);
      await expect(messageBeside(page, 'Check-in')).resolves.toMatch(new RegExp(`past.*${localToday()}`));
      await expect(checkIn.inputValue()).resolves.toBe(yesterday);
      expect(await summaryLinks(page)).toEqual([{ text: expect.stringMatching(/past/), href: '#f-check_in_date' }]);
      await expect(page.getByRole('radio').count()).resolves.toBe(0);
      await expectAxeClean(page, `New booking refusing yesterday${suffix}`);
      await expectNoOverflow(page, `New booking refusing yesterday${suffix}`);
      await shoot(page, `hotel-time-reception-past${suffix}`, README_SHOTS);

      if (suffix === '') {
        // From the local today, a room and the guest: the booking is made for tonight.
        await checkIn.fill(localToday());
        expect(await submit(page, page.getByRole('button', { name: 'Find rooms' }))).toBe(200);
        await page.getByRole('radio', { name: /^101 / }).check();
        expect(await submit(page, page.getByRole('button', { name: 'Continue' }))).toBe(200);
        await page.getByLabel('Guest name').fill('Tonight Guest');
        await page.getByLabel('Email').fill('tonight@example.com');
        // Created: the answer redirects to the new booking's page.
        await Promise.all([page.waitForURL(/\/dashboard\/bookings\/[0-9a-f-]{36}$/), page.getByRole('button', { name: 'Create booking' }).click()]);
        await expect(page.locator('body').innerText()).resolves.toContain(formatDate(localToday()));
        await expect(page.locator('body').innerText()).resolves.toContain('Tonight Guest');
      }
      await context.close();
    }
  });
});
