/**
 * "New booking" at the reception desk in headless Chromium, at 1280 px and on a 390 px phone:
 * dates first, then only the rooms free for the stay, then the guest with the total filled in;
 * the error summary's links lead to their fields; a room taken meanwhile is named by its number;
 * axe finds no serious or critical violation and no page scrolls sideways on the phone. Also the
 * Rooms page. Screenshots go to test-results/screenshots (and docs/screenshots with
 * UPDATE_SCREENSHOTS=1, for the staff guide).
 */
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousAxeViolations, shoot, signedInDashboard } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';

/** The screenshots the staff guide shows. */
const GUIDE_SHOTS = new Set<string>(['dashboard-new-booking-phone']);

let stack: TestStack;
let browser: Browser | undefined;
let clientId: string;
let email: string;
const rooms = new Map<string, string>();
/** A date `offset` days after the hotel's today (a UTC hotel). */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const needsChromium = it.skipIf(!hasChromium);
/** A flow of several pages, each audited by axe: well within this on a quiet machine, not on a busy one. */
const FLOW_TIMEOUT = 120_000;

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount } = await import('../../shared/domain/clients');
  const { createOperator } = await import('../../shared/domain/operators');
  clientId = (await createClientAccount({ name: 'Hotel Miradouro', plan: 'premium', currency: 'EUR' })).client_id;
  email = `desk-${randomUUID().slice(0, 8)}@hotel.example`;
  await createOperator({ clientId, email, role: 'staff', password: OPERATOR_PASSWORD });
  const { key } = await stack.issueKey(clientId, 'sync');
  await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key,
    body: { external_source: 'pms', categories: [{ external_category_id: 'DLX', name: 'Deluxe' }, { external_category_id: 'STD', name: 'Standard' }] },
  });
  const put = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', external_category_id: 'DLX', price: 120, max_occupancy: 2 },
        { external_room_id: 'R102', room_number: '102', room_type: 'double', external_category_id: 'STD', price: 90, max_occupancy: 2 },
        { external_room_id: 'R103', room_number: '103', room_type: 'family', external_category_id: 'STD', price: 95, max_occupancy: 4 },
        { external_room_id: 'R104', room_number: '104', room_type: 'double', external_category_id: 'DLX', price: 130, max_occupancy: 2 },
      ],
    },
  });
  expect(put.status).toBe(200);
  for (const item of put.body.items as { external_room_id: string; id: string }[]) rooms.set(item.external_room_id.slice(1), item.id);
  // Room 102 is in the PMS's hands for the nights the desk asks about.
  const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
    key,
    body: { external_source: 'pms', bookings: [{ external_booking_id: 'PMS-7', external_room_id: 'R102', guest_name: 'Grace Hopper', guests: 1, check_in_date: day(0), check_out_date: day(7), status: 'confirmed' }] },
  });
  expect(synced.status).toBe(200);
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const signedInPage = (width: number): Promise<Page> => signedInDashboard(browser!, stack.url, email, OPERATOR_PASSWORD, width);

/** No serious or critical axe violation, and (on a phone) nothing wider than the screen. */
async function expectTidy(page: Page, what: string) {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} scrolls sideways`).toBeLessThanOrEqual(0);
}

const offered = async (page: Page) => (await page.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).labels?.[0]?.firstChild?.textContent ?? ''))).map((t) => t.trim());

describe('New booking in headless Chromium (skipped without Chromium: .ci/run installs it)', () => {
  for (const width of [1280, 390]) {
    needsChromium(`dates first, then only the free rooms, then the guest with the total filled in, at ${width} px`, async () => {
      const page = await signedInPage(width);
      const phone = width < 500;
      await page.goto(`${stack.url}/dashboard/bookings`);
      await page.getByRole('link', { name: 'New booking' }).click();
      await expect(page.getByRole('heading', { level: 2 }).first().textContent()).resolves.toBe('Dates and guests');
      expect(await page.getByRole('radio').count()).toBe(0);
      // Each width books a stay of its own, in the nights the PMS has room 102 for.
      const from = phone ? 4 : 1;
      await page.getByLabel('Check-in', { exact: true }).fill(day(from));
      await page.getByLabel('Check-out', { exact: true }).fill(day(from + 2));
      await page.getByLabel('Guests', { exact: true }).fill('2');
      await expectTidy(page, `dates at ${width} px`);
      if (!phone) await shoot(page, 'dashboard-new-booking-dates', GUIDE_SHOTS);

      await page.getByRole('button', { name: 'Find rooms' }).click();
      // A plain GET: the step is an address of its own.
      expect(new URL(page.url()).searchParams.get('check_in_date')).toBe(day(from));
      expect(await offered(page)).toEqual(['101 · Deluxe · 120.00 EUR a night', '103 · Standard · 95.00 EUR a night', '104 · Deluxe · 130.00 EUR a night']);
      await expect(page.locator('main').textContent()).resolves.toContain('240.00 EUR for 2 nights');
      await expectTidy(page, `rooms at ${width} px`);
      await shoot(page, phone ? 'dashboard-new-booking-phone' : 'dashboard-new-booking-rooms', GUIDE_SHOTS);

      const room = phone ? '104' : '101';
      await page.getByRole('radio', { name: new RegExp(`^${room} · `) }).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByLabel('Total (EUR)', { exact: true }).inputValue()).resolves.toBe(phone ? '260.00' : '240.00');
      await page.getByLabel('Guest name', { exact: true }).fill(phone ? 'Walk-in Phone' : 'Walk-in Desk');
      await page.getByLabel('Email', { exact: true }).fill('');
      // Neither e-mail nor phone: the summary says so, and its link leads to the field.
      await page.getByRole('button', { name: 'Create booking' }).click();
      const alert = page.locator('.error-summary');
      await expect(alert.textContent()).resolves.toContain('Enter an email address or a phone number');
      await expect(page.getByLabel('Guest name', { exact: true }).inputValue()).resolves.toBe(phone ? 'Walk-in Phone' : 'Walk-in Desk');
      await expectTidy(page, `details with an error at ${width} px`);
      await shoot(page, phone ? 'dashboard-new-booking-details-phone' : 'dashboard-new-booking-details', GUIDE_SHOTS);
      await alert.getByRole('link', { name: 'Enter an email address or a phone number' }).click();
      expect(new URL(page.url()).hash).toBe('#f-guest_email');
      await expect(page.locator('#f-guest_email').isVisible()).resolves.toBe(true);
      await expect(page.locator('#f-guest_email').getAttribute('aria-invalid')).resolves.toBe('true');

      await page.getByLabel('Phone', { exact: true }).fill('+351 21 123 4567');
      await page.getByLabel('Total (EUR)', { exact: true }).fill(phone ? '250.00' : '220.00');
      await page.getByRole('button', { name: 'Create booking' }).click();
      await expect(page.getByRole('status').textContent()).resolves.toMatch(/Booking BK-[A-Z0-9]{8} created\. Confirmation code: [A-Z0-9]{6}\./);
      await expectTidy(page, `the new booking at ${width} px`);
      await page.context().close();
    }, FLOW_TIMEOUT);
  }

  needsChromium('names a room taken while the desk was choosing by its number, and offers the rooms free now', async () => {
    const page = await signedInPage(1280);
    const stay = { check_in_date: day(10), check_out_date: day(12), guests: '2' };
    await page.goto(`${stack.url}/dashboard/bookings/new?${new URLSearchParams(stay)}`);
    await page.getByRole('radio', { name: /^103 · / }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Guest name', { exact: true }).fill('Slow Guest');
    await page.getByLabel('Email', { exact: true }).fill('slow@example.com');
    const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
    await createReceptionBooking(clientId, rooms.get('103')!, { ...stay, guest_name: 'Quick Guest', guest_phone: '+14155550123' });

    await page.getByRole('button', { name: 'Create booking' }).click();
    const message = 'Room 103 was booked by someone else while you were choosing; choose another room';
    await expect(page.locator('.error-summary').textContent()).resolves.toContain(message);
    expect(await offered(page)).toEqual(['101 · Deluxe · 120.00 EUR a night', '102 · Standard · 90.00 EUR a night', '104 · Deluxe · 130.00 EUR a night']);
    await expect(page.getByLabel('Guest name', { exact: true }).inputValue()).resolves.toBe('Slow Guest');
    expect(await page.content()).not.toContain(rooms.get('103')!);
    await expectTidy(page, 'the room taken meanwhile');
    await shoot(page, 'dashboard-new-booking-room-taken', GUIDE_SHOTS);
    await page.getByRole('radio', { name: /^102 · / }).check();
    await page.getByRole('button', { name: 'Create booking' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('created');
    await page.context().close();
  }, FLOW_TIMEOUT);

  needsChromium('lists the rooms in words with their prices, and "Add room" errors in the GOV.UK pattern', async () => {
    const page = await signedInPage(1280);
    await page.goto(`${stack.url}/dashboard/rooms`);
    const row = page.getByRole('row').filter({ hasText: '103' }).first();
    await expect(row.textContent()).resolves.toContain('95.00 EUR');
    await expect(row.textContent()).resolves.toMatch(/(Free|Occupied) tonight/);
    await expectTidy(page, 'rooms');
    await shoot(page, 'dashboard-rooms', GUIDE_SHOTS);
    await page.getByRole('button', { name: 'Add room' }).click();
    await expect(page.locator('.error-summary').textContent()).resolves.toContain('Enter the room number');
    await page.locator('.error-summary').getByRole('link', { name: 'Enter the room number' }).click();
    await expect(page.locator('#f-room_number').isVisible()).resolves.toBe(true);
    await expectTidy(page, 'Add room with errors');
    await page.setViewportSize({ width: 390, height: 844 });
    await expectTidy(page, 'rooms at 390 px');
    await page.context().close();
  }, FLOW_TIMEOUT);
});
