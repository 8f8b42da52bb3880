/**
 * Staff change one booking's dates and cancel another in headless Chromium on a phone-sized
 * screen (390 px), as the front desk does (docs/behaviour.md "Booking changes, cancellations and
 * refunds"): "Change", the new dates, "Change"; "Cancel booking", a reason on the confirmation
 * page, "Cancel booking". The availability API follows at once; no page scrolls sideways or has a
 * serious axe violation. Screenshots go to test-results/screenshots.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatDate } from '../../shared/dashboard/format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const README_SHOTS = new Set<string>();

let stack: TestStack;
let tenant: Tenant;
let browser: Browser | undefined;
let staff: BrowserContext;
let staffEmail: string;
const bookings = { moving: '', leaving: '' };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** A date as the dashboard writes it: "Fri 4 Dec 2026". */
const written = (date: string) => formatDate(date);
const needsChromium = it.skipIf(!hasChromium);

async function freeRooms(checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, { key: tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

/** Nothing wider than the phone (tables scroll in their own box), and no serious or critical axe violation. */
async function fitsThePhone(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} at 390 px`).toBeLessThanOrEqual(0);
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  const { createOperator } = await import('../../shared/domain/operators');
  staffEmail = `desk-${Math.random().toString(36).slice(2, 8)}@hotel.example`;
  await createOperator({ clientId: tenant.clientId, email: staffEmail, role: 'staff', password: OPERATOR_PASSWORD });
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ['101', '102'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })) },
  });
  expect(rooms.status).toBe(200);
  const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
  const roomId = (n: string) => rooms.body.items.find((item: { external_room_id: string }) => item.external_room_id === `R${n}`).id as string;
  const guest = (name: string, checkIn: string, checkOut: string) => ({ guest_name: name, guest_email: 'guest@example.com', check_in_date: checkIn, check_out_date: checkOut, guests: 2, total_amount: 240 });
  bookings.moving = (await createReceptionBooking(tenant.clientId, roomId('101'), guest('Mary Jackson', day(10), day(12)))).booking.id;
  bookings.leaving = (await createReceptionBooking(tenant.clientId, roomId('102'), guest('Dorothy Vaughan', day(14), day(16)))).booking.id;
  if (hasChromium) {
    browser = await launchChromium();
    staff = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await staff.newPage();
    await page.goto(`${stack.url}/dashboard`);
    await page.getByLabel('Email').fill(staffEmail);
    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await closePage(page);
  }
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('booking changes on the dashboard, on a phone (skipped without Chromium: .ci/run installs it)', () => {
  needsChromium("staff change a booking's dates with \"Change\": the old nights are free, the new ones taken", async () => {
    const page = await staff.newPage();
    await page.goto(`${stack.url}/dashboard/bookings/${bookings.moving}`);
    await page.getByRole('button', { name: 'Change', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Change booking');
    await expect(page.getByLabel('Check-in').inputValue()).resolves.toBe(day(10));
    await page.getByLabel('Check-in').fill(day(20));
    await page.getByLabel('Check-out').fill(day(23));
    await page.getByRole('button', { name: 'Find free rooms' }).click();
    // Only free rooms, both totals shown before confirming; "Recalculate the total" is the default.
    await expect(page.getByLabel('Room').locator('option').count()).resolves.toBeGreaterThan(0);
    await expect(page.getByLabel(/^Recalculate the total: /).isChecked()).resolves.toBe(true);
    await expect(page.getByText(/^Keep the total: /).count()).resolves.toBe(1);
    await fitsThePhone(page, 'Change booking');
    await shoot(page, 'dashboard-booking-change-phone', README_SHOTS);
    await page.getByRole('button', { name: 'Confirm change' }).click();

    await expect(page.getByRole('status').textContent()).resolves.toContain(`Booking changed: ${written(day(20))} to ${written(day(23))}, 3 nights, 2 guests.`);
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toContain(written(day(20)));
    expect(main).toContain('Changed to');
    await fitsThePhone(page, 'the changed booking');
    await shoot(page, 'dashboard-booking-changed-phone', README_SHOTS);
    expect(await freeRooms(day(10), day(12))).toContain('101');
    expect(await freeRooms(day(20), day(23))).not.toContain('101');
    await closePage(page);
  });

  needsChromium('staff cancel another booking with a reason on its confirmation page: the room is free at once', async () => {
    const page = await staff.newPage();
    expect(await freeRooms(day(14), day(16))).not.toContain('102');
    await page.goto(`${stack.url}/dashboard/bookings/${bookings.leaving}`);
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Cancel this booking?');
    await page.getByLabel('Reason').fill('Guest called to cancel');
    await fitsThePhone(page, 'Cancel this booking?');
    await shoot(page, 'dashboard-booking-cancel-phone', README_SHOTS);
    await page.getByRole('button', { name: 'Cancel booking' }).click();

    await expect(page.getByRole('status').textContent()).resolves.toContain('Booking cancelled');
    const main = (await page.locator('main').textContent()) ?? '';
    expect(main).toContain('Cancelled');
    expect(main).toContain('Guest called to cancel');
    expect(main).toContain(staffEmail);
    // Nothing left to do to it.
    await expect(page.getByRole('button', { name: 'Cancel booking' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Change', exact: true }).count()).resolves.toBe(0);
    await fitsThePhone(page, 'the cancelled booking');
    await shoot(page, 'dashboard-booking-cancelled-phone', README_SHOTS);
    expect(await freeRooms(day(14), day(16))).toContain('102');
    await closePage(page);
  });
});
