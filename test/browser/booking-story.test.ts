/**
 * A booking's whole story in headless Chromium, as the front desk lives it: a paid booking that
 * came without a room, whose notification to the PMS failed; "Assign room" offering rooms with
 * their category and price a night; the booking's page telling each step in words with "Retry"
 * next to a failed notification, and "Retry" bringing the desk back to the booking; the payment's
 * page naming the room. No serious or critical axe violation, nothing wider than a 390 px phone,
 * no id on the pages. Screenshots for the staff guide (docs/screenshots with UPDATE_SCREENSHOTS=1).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

/** The screenshots the staff guide shows. */
const README_SHOTS = new Set<string>(['dashboard-booking-phone']);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const needsChromium = it.skipIf(!hasChromium);

let stack: TestStack;
let receiver: Receiver;
let tenant: Tenant;
let browser: Browser | undefined;
let desk: BrowserContext;
let email: string;
let paid: { orderReference: string; bookingId: string };
let callbacks: typeof import('../../shared/domain/callbacks/deliveries');

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Where the hotel's notifications to its PMS go from now on: a PMS that is gone, or `url`. */
async function callbacksTo(url?: string) {
  let target = url;
  if (!target) {
    const dead = await startReceiver();
    await dead.close();
    target = dead.url;
  }
  await callbacks.configureEndpoint(tenant.clientId, 'callback', { url: target });
}

/** Until none of the booking's notifications to the PMS is still being sent (its page then stops reloading itself). */
async function notificationsSettled(bookingId: string) {
  const { bookingConfirmedDeliveryIds, getDeliveries } = await import('../../shared/store/delivery-store');
  await waitFor('the notifications settled', async () => {
    const deliveries = await getDeliveries(bookingConfirmedDeliveryIds(tenant.clientId, bookingId));
    return deliveries.length > 0 && deliveries.every((d) => d.status !== 'pending' && d.status !== 'retrying') ? deliveries : undefined;
  });
}

async function expectNoSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} at 390 px`).toBeLessThanOrEqual(0);
}

async function expectAccessible(page: Page, what: string) {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

/** What the page shows a person (its main part), where no id may appear. */
const shown = async (page: Page) => (await page.locator('main').innerText()).replace(/\s+/g, ' ');

beforeAll(async () => {
  // A PMS that is gone fails a notification after three quick attempts.
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  receiver = await startReceiver();
  tenant = await stack.createTenant();
  callbacks = await import('../../shared/domain/callbacks/deliveries');
  const { createOperator } = await import('../../shared/domain/operators');
  email = `maria-${Math.random().toString(36).slice(2, 8)}@hotel.example`;
  await createOperator({ clientId: tenant.clientId, email, role: 'staff', password: OPERATOR_PASSWORD });

  const sync = (path: string, body: unknown) => stack.request('PUT', `/api/v1/property-sync/${path}`, { key: tenant.syncKey, body });
  expect((await sync('room-categories', { external_source: 'pms', categories: [{ external_category_id: 'DLX', name: 'Deluxe', base_price: 120, max_occupancy: 2 }] })).status).toBe(200);
  const rooms = await sync('rooms', {
    external_source: 'pms',
    rooms: [
      { external_room_id: 'R101', room_number: '101', room_type: 'double', external_category_id: 'DLX', price: 120, max_occupancy: 2 },
      { external_room_id: 'R102', room_number: '102', room_type: 'double', external_category_id: 'DLX', price: 120, max_occupancy: 2 },
      { external_room_id: 'R201', room_number: '201', room_type: 'Family suite', price: 180, max_occupancy: 4 },
    ],
  });
  expect(rooms.status).toBe(200);

  // The PMS is down when a guest pays for a stay with no room chosen.
  await callbacksTo();
  const order = await paidRoomBooking(stack, tenant, { check_in_date: day(4), check_out_date: day(6), guests: 2 });
  paid = { orderReference: order.orderReference, bookingId: order.sync.booking_id };
  await notificationsSettled(paid.bookingId);

  if (hasChromium) {
    browser = await launchChromium();
    desk = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await desk.newPage();
    await page.goto(`${stack.url}/dashboard`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await closePage(page);
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

describe("a booking's whole story in headless Chromium (skipped without Chromium: .ci/run installs it)", () => {
  needsChromium('"Assign room" offers the free rooms with their category and price a night', async () => {
    const page = await desk.newPage();
    await page.goto(`${stack.url}/dashboard/bookings/${paid.bookingId}`);
    await expect(shown(page)).resolves.toContain('Room No room yet');
    await page.getByRole('button', { name: 'Assign room' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Assign room');
    const options = await page.getByLabel('Room', { exact: true }).locator('option').allInnerTexts();
    expect(options).toEqual(['Choose a room', '101 · Deluxe · 120.00 USD a night', '102 · Deluxe · 120.00 USD a night', '201 · Family suite · 180.00 USD a night']);

    await page.getByLabel('Room', { exact: true }).selectOption({ label: '102 · Deluxe · 120.00 USD a night' });
    await expectAccessible(page, 'Assign room');
    await shoot(page, 'dashboard-assign-room', README_SHOTS);

    // Nothing chosen: the error at the top, linked to the field, and next to it.
    await page.getByLabel('Room', { exact: true }).selectOption({ label: 'Choose a room' });
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'There is a problem' }).innerText()).resolves.toContain('Choose a room');
    await expectAccessible(page, 'Assign room with an error');
    await page.getByLabel('Room', { exact: true }).selectOption({ label: '102 · Deluxe · 120.00 USD a night' });
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect(page.getByRole('status').innerText()).resolves.toContain('Room 102 assigned');
    await expect(shown(page)).resolves.toContain('Room Room 102 (Deluxe)');
    await closePage(page);
  });

  needsChromium("tells the booking's story in words, newest first, with Retry on a failed notification that brings the desk back", async () => {
    await notificationsSettled(paid.bookingId);
    const page = await desk.newPage();
    await page.goto(`${stack.url}/dashboard/bookings/${paid.bookingId}`);
    const story = await page.locator('ol.story > li').allInnerTexts();
    const lines = story.map((line) => line.replace(/\s+/g, ' '));
    expect(lines[0]).toMatch(/Sending to your PMS with room 102 failed after 3 attempts/);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`Room 102 \\(Deluxe\\) assigned by ${email.replace(/\./g, '\\.')}`)));
    // The first notification, without a room, is replaced by the one with the room: no Retry for it.
    expect(lines).toContainEqual(expect.stringMatching(/Sending to your PMS without a room failed after 3 attempts .*no need to retry: the later one, with room 102, replaces it/));
    await expect(page.locator('ol.story').getByRole('button', { name: 'Retry' }).count()).resolves.toBe(1);
    expect(lines).toContainEqual(expect.stringMatching(/Booked online and paid 240\.00 USD \(order /));
    expect(lines.at(-1)).toMatch(/Payment order .+ opened for 240\.00 USD/);
    expect(await shown(page)).not.toMatch(UUID);
    expect(await shown(page)).not.toContain('No operator has acted');
    await expectAccessible(page, 'the booking page');

    // The PMS is back: "Retry" on the newest failure, and the desk is back on the booking.
    await callbacksTo(receiver.url);
    const [answer] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/retry')),
      page.locator('ol.story > li').first().getByRole('button', { name: 'Retry' }).click(),
    ]);
    expect(answer.status()).toBe(303);
    await page.waitForLoadState();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/bookings/${paid.bookingId}`);
    await expect(page.getByRole('status').innerText()).resolves.toMatch(/queued again/);
    await notificationsSettled(paid.bookingId);
    await page.reload();
    const after = (await page.locator('ol.story > li').allInnerTexts()).map((line) => line.replace(/\s+/g, ' '));
    expect(after).toContainEqual(expect.stringMatching(/Sent to your PMS with room 102: delivered/));
    expect(after).toContainEqual(expect.stringMatching(new RegExp(`Sent a notification to your PMS again \\(it had failed\\), by ${email.replace(/\./g, '\\.')}`)));
    await shoot(page, 'dashboard-booking', README_SHOTS);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expectNoSidewaysScroll(page, 'the booking page');
    await expectAccessible(page, 'the booking page at 390 px');
    await shoot(page, 'dashboard-booking-phone', README_SHOTS);
    await closePage(page);
  });

  needsChromium("names the assigned room on the payment's page, amounts with their currency, statuses in words", async () => {
    const page = await desk.newPage();
    await page.goto(`${stack.url}/dashboard/payments/${paid.orderReference}`);
    const text = await shown(page);
    expect(text).toContain('Room Room 102 (Deluxe)');
    expect(text).not.toMatch(/awaiting a room/i);
    expect(text).toMatch(/Amount 240\.00 USD Status Paid/);
    await expectAccessible(page, 'the payment page');
    await shoot(page, 'dashboard-payment', README_SHOTS);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expectNoSidewaysScroll(page, 'the payment page');
    await expectAccessible(page, 'the payment page at 390 px');
    await closePage(page);
  });
});
