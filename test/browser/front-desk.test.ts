/**
 * The front desk's money and time (CONTRACT.md), as the staff of a hotel in Honolulu (UTC-10, no
 * daylight saving time) use the dashboard in headless Chromium at 1280 px: no staff page says
 * "UTC" (times in the hotel's zone, "28 Nov 2026, 14:05"; dates "Fri 4 Dec 2026"); the money of
 * a booking in words with its balance due, paid, then partly refunded, then refunded; and a
 * refund that opens a page of its own and refunds nothing before "Confirm refund"; a declined
 * first checkout (an order of its own) in the story of the booking a later order paid for.
 * Screenshots go to test-results/screenshots.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, shoot, signedInDashboard } from '../support/browser';
import { hotelWithRooms } from '../support/hotel-rooms';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { declinedRoomOrder, orderStatus, paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const ZONE = 'Pacific/Honolulu';
const NO_SHOTS = new Set<string>();
const needsChromium = it.skipIf(!hasChromium);

let stack: TestStack;
let browser: Browser | undefined;
let tenant: Tenant;
let paid: Awaited<ReturnType<typeof paidRoomBooking>>;
const email = `desk-${Math.random().toString(36).slice(2, 8)}@hotel.example`;

/** A date `days` from the hotel's today (Honolulu is UTC-10 all year). */
const hotelDay = (days: number) => new Date(Date.now() - 10 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  stack = await startTestStack();
  ({ tenant } = await hotelWithRooms(stack));
  const { setClientSettings } = await import('../../shared/domain/clients');
  await setClientSettings(tenant.clientId, { time_zone: ZONE });
  const { createOperator } = await import('../../shared/domain/operators');
  await createOperator({ clientId: tenant.clientId, email, role: 'admin', password: OPERATOR_PASSWORD });
  paid = await paidRoomBooking(stack, tenant, { check_in_date: hotelDay(3), check_out_date: hotelDay(5) });
  // Something on the audit page, the deliveries and the integrations too.
  await stack.request('PUT', '/api/v1/property-sync/bookings', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      bookings: [{ external_booking_id: 'PMS-1', external_room_id: 'R102', guest_name: 'Kai Akana', check_in_date: hotelDay(0), check_out_date: hotelDay(2), guests: 2, status: 'confirmed', total_amount: 240, payment_status: 'unpaid' }],
    },
  });
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

const signedInPage = (): Promise<Page> => signedInDashboard(browser!, stack.url, email, OPERATOR_PASSWORD);

const fact = (page: Page, term: string) => page.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]').textContent();

describe(`the front desk of a hotel in ${ZONE} (skipped without Chromium)`, () => {
  needsChromium('no staff page says "UTC": every time is the hotel\'s, "28 Nov 2026, 14:05"', async () => {
    const page = await signedInPage();
    const pages = [
      '/dashboard',
      '/dashboard/rooms',
      '/dashboard/rates',
      '/dashboard/bookings',
      `/dashboard/bookings/${paid.sync.booking_id}`,
      `/dashboard/bookings/${paid.sync.booking_id}/refund`,
      `/dashboard/bookings/${paid.sync.booking_id}/cancel`,
      '/dashboard/bookings/new',
      '/dashboard/payments',
      '/dashboard/reports',
      `/dashboard/payments/${paid.orderReference}`,
      '/dashboard/deliveries',
      '/dashboard/integrations',
      '/dashboard/settings',
      '/dashboard/audit',
      '/dashboard/security',
      '/dashboard/search?q=Ada',
    ];
    for (const path of pages) {
      const response = await page.goto(`${stack.url}${path}`);
      expect(response?.status(), path).toBeLessThan(400);
      const text = await page.locator('body').innerText();
      expect(text, path).not.toContain('UTC');
    }
    await page.goto(`${stack.url}/dashboard/payments/${paid.orderReference}`);
    await expect(fact(page, 'Paid')).resolves.toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d$/);
    await page.context().close();
  });

  needsChromium('the money in words with the balance due; "Refund" asks on a page of its own and refunds only on "Confirm refund"', async () => {
    const page = await signedInPage();
    const booking = `${stack.url}/dashboard/bookings/${paid.sync.booking_id}`;
    await page.goto(booking);
    await expect(fact(page, 'Payment')).resolves.toBe('Paid');
    await expect(fact(page, 'Total')).resolves.toBe('240.00 USD');
    await expect(fact(page, 'Balance due')).resolves.toBe('0.00 USD');

    // "Refund" with the amount left empty: a page stating the whole amount, nothing refunded yet.
    await page.getByRole('form', { name: 'Refund' }).getByRole('button', { name: 'Refund' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Refund');
    await expect(page.locator('main').innerText()).resolves.toContain('This refunds 240.00 USD (the whole payment) to the guest');
    expect((await orderStatus(stack, tenant, paid.orderReference)).body.status).toBe('paid');
    await shoot(page, 'front-desk-refund-confirm', NO_SHOTS);

    // Part of it, with a reason: partly refunded, the rest due again.
    await page.getByLabel('Amount to refund (USD)').fill('90');
    await page.getByLabel('Reason for the refund').fill('Room not ready at check-in');
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await expect(page.locator('.notice').first().innerText()).resolves.toContain('Refunded 90.00 USD.');
    await expect(fact(page, 'Payment')).resolves.toBe('Partly refunded');
    await expect(fact(page, 'Balance due')).resolves.toBe('90.00 USD');
    await shoot(page, 'front-desk-partly-refunded', NO_SHOTS);
    await page.goto(`${stack.url}/dashboard/bookings`);
    // The list of all bookings (the paid booking awaits a room too, in the table above it).
    const row = page.getByRole('row').filter({ hasText: 'Ada Lovelace' }).last();
    await expect(row.innerText()).resolves.toContain('Partly refunded');

    // The rest: refunded.
    await page.goto(booking);
    await page.getByRole('form', { name: 'Refund' }).getByRole('button', { name: 'Refund' }).click();
    await expect(page.locator('main').innerText()).resolves.toContain('This refunds 150.00 USD (all that is left) to the guest');
    await page.getByRole('button', { name: 'Confirm refund' }).click();
    await expect(fact(page, 'Payment')).resolves.toBe('Refunded');
    await expect(fact(page, 'Balance due')).resolves.toBe('240.00 USD');
    expect((await orderStatus(stack, tenant, paid.orderReference)).body.status).toBe('refunded');

    // A booking from the PMS, not paid: "Unpaid", the whole total due.
    await page.goto(`${stack.url}/dashboard/bookings`);
    await expect(page.getByRole('row').filter({ hasText: 'Kai Akana' }).first().innerText()).resolves.toContain('Unpaid');
    // The audit says the refund in words and currency, never field names.
    await page.goto(`${stack.url}/dashboard/audit`);
    const audit = await page.locator('main').innerText();
    expect(audit).toContain('Refunded 90.00 USD ("Room not ready at check-in")');
    expect(audit).not.toMatch(/amount minor|refund_|repeated:/);
    await page.context().close();
  });

  needsChromium("the story's declined attempt: a first checkout declined, then paid on a new order; both in the story in words, in hotel time", async () => {
    const stay = { check_in_date: hotelDay(8), check_out_date: hotelDay(10) };
    const declined = await declinedRoomOrder(stack, tenant, stay, { name: 'Ada Lovelace', email: 'Ada@example.com' });
    const later = await paidRoomBooking(stack, tenant, stay);
    const page = await signedInPage();
    await page.goto(`${stack.url}/dashboard/bookings/${later.sync.booking_id}`);
    const story = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
    expect(story).toContain(`Payment order ${declined} opened for 240.00 USD`);
    expect(story).toContain(`Payment attempt 1 on order ${declined} declined (Sandbox (test payments))`);
    expect(story).toContain(`Payment order ${later.orderReference} opened for 240.00 USD`);
    expect(story).toContain('Payment attempt 1 paid (Sandbox (test payments))');
    // Newest first: the paid attempt above the declined one, each at a time in the hotel's zone.
    expect(story.indexOf('Payment attempt 1 paid')).toBeLessThan(story.indexOf(`Payment attempt 1 on order ${declined} declined`));
    const declinedRow = page.locator('li').filter({ hasText: `on order ${declined} declined` }).last();
    await expect(declinedRow.innerText()).resolves.toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d/);
    expect(story).not.toContain('UTC');
    await shoot(page, 'front-desk-story-declined', NO_SHOTS);

    // The declined order's page names the booking its stay has now.
    await page.goto(`${stack.url}/dashboard/payments/${declined}`);
    await expect(fact(page, 'Status')).resolves.toBe('Failed');
    const link = page.locator('dd a', { hasText: 'Open the booking' });
    await expect(link.getAttribute('href')).resolves.toBe(`/dashboard/bookings/${later.sync.booking_id}`);
    await page.context().close();
  });
});
