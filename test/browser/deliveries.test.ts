/**
 * The overview and the Deliveries pages in headless Chromium, as the front desk uses them, for a
 * hotel whose date is not UTC's right now: the overview names the hotel's date and zone and flags
 * the arrival its PMS has not received; the deliveries name their guest, room and stay; "Retry"
 * answers with the outcome, and a delivery being sent reloads its page by itself (a meta refresh
 * the CSP lets through) until the outcome shows. axe-core audits each page; none scrolls
 * sideways at 390 px. Screenshots for the staff guide go to docs/screenshots with
 * UPDATE_SCREENSHOTS=1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '../../shared/domain/hotel-time';
import { addDays } from '../../shared/schemas/common';
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot, watchCspViolations } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { paidRoomBooking } from '../support/paid-orders';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

/** The screenshots the staff guide shows. */
const GUIDE_SHOTS = new Set<string>(['dashboard-deliveries-phone']);
/** A zone whose date differs from UTC's now: 14 hours ahead from 10:00 UTC, 11 hours behind before. */
const ZONE = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';

let stack: TestStack;
let receiver: Receiver;
let hotel: Tenant;
let browser: Browser | undefined;
let desk: BrowserContext;
let email: string;
let today: string;
const deliveries = { refused: '', failed: '' };
let dateInFull: (date: string) => string;
let domain: {
  bookings: typeof import('../../shared/domain/bookings/service-bookings');
  callbacks: typeof import('../../shared/domain/callbacks/deliveries');
};

const needsChromium = it.skipIf(!hasChromium);

/** A PMS that answers after a delay, as a slow one does. */
async function startSlowPms(delayMs: number) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'), delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/booking`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const callbacksTo = (url: string) => domain.callbacks.configureEndpoint(hotel.clientId, 'callback', { url });

async function settled(deliveryId: string, status: string): Promise<void> {
  await waitFor(`delivery ${deliveryId} ${status}`, async () => ((await domain.callbacks.showDelivery(deliveryId)).status === status ? true : undefined));
}

/** A reception booking of `room` for the stay; its booking.confirmed delivery id. */
async function deskBooking(guest: string, roomId: string, from: number, nights: number): Promise<string> {
  const confirmed = await domain.bookings.confirmServiceBooking(hotel.clientId, {
    origin: 'reception',
    roomId,
    requireRoom: true,
    guest_name: guest,
    guests: 1,
    check_in_date: addDays(today, from),
    check_out_date: addDays(today, from + nights),
    total_amount: 120 * nights,
    payment_status: 'unpaid',
    payment_method: 'pay_at_property',
  });
  return confirmed.delivery_id!;
}

async function signIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${stack.url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  return page;
}

/** How far the page is wider than its window (0 or less: no sideways scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

beforeAll(async () => {
  // A PMS that cannot be reached fails a delivery after two quick retries.
  process.env.CALLBACK_RETRY_DELAYS_SECONDS = '0,0';
  stack = await startTestStack();
  receiver = await startReceiver();
  ({ dateInFull } = await import('../../shared/dashboard/pages/overview'));
  domain = {
    bookings: await import('../../shared/domain/bookings/service-bookings'),
    callbacks: await import('../../shared/domain/callbacks/deliveries'),
  };
  hotel = await stack.createTenant();
  const { setClientSettings } = await import('../../shared/domain/clients');
  await setClientSettings(hotel.clientId, { time_zone: ZONE });
  today = localDate(ZONE, new Date());
  const { createOperator } = await import('../../shared/domain/operators');
  email = `front-desk-${Math.random().toString(36).slice(2, 8)}@hotel.example`;
  await createOperator({ clientId: hotel.clientId, email, role: 'staff', password: OPERATOR_PASSWORD });

  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: hotel.syncKey,
    body: {
      external_source: 'pms',
      rooms: ['101', '102', '103', '104', '105'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: 'double', price: 120, max_occupancy: 2 })),
    },
  });
  expect(rooms.status).toBe(200);
  const { listRooms } = await import('../../shared/store/room-store');
  const roomId = new Map((await listRooms(hotel.clientId)).map((room) => [room.room_number, room.id]));
  const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
    key: hotel.syncKey,
    body: {
      external_source: 'pms',
      bookings: [
        { external_booking_id: 'PMS-1', external_room_id: 'R101', guest_name: 'Grace Hopper', check_in_date: today, check_out_date: addDays(today, 3), guests: 2, status: 'confirmed' },
        { external_booking_id: 'PMS-2', external_room_id: 'R105', guest_name: 'Alan Turing', check_in_date: addDays(today, -2), check_out_date: today, guests: 1, status: 'confirmed' },
      ],
    },
  });
  expect(synced.status).toBe(200);

  // The PMS refuses one arrival (422), is unreachable for a later stay, and takes the others.
  await callbacksTo(receiver.url);
  receiver.respondWith(422);
  deliveries.refused = await deskBooking('Ana Silva', roomId.get('102')!, 0, 2);
  await settled(deliveries.refused, 'needs_review');
  await settled(await deskBooking('Mei Tanaka', roomId.get('103')!, 0, 1), 'delivered');
  const gone = await startReceiver();
  await gone.close();
  await callbacksTo(gone.url);
  deliveries.failed = await deskBooking('Kofi Mensah', roomId.get('104')!, 3, 2);
  await settled(deliveries.failed, 'failed');
  await callbacksTo(receiver.url);
  // An order paid on the hotel's website today, told to it by webhook.
  await domain.callbacks.configureEndpoint(hotel.clientId, 'webhook', { url: receiver.url });
  await paidRoomBooking(stack, hotel, { check_in_date: addDays(today, 7), check_out_date: addDays(today, 9) });

  if (hasChromium) {
    browser = await launchChromium();
    desk = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await closePage(await signIn(desk));
  }
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

describe(`the overview and Deliveries of a hotel in ${ZONE}, in headless Chromium`, () => {
  needsChromium("shows the hotel's date and zone, and flags the arrival its PMS has not received", async () => {
    const page = await desk.newPage();
    const csp = watchCspViolations(page);
    await page.goto(`${stack.url}/dashboard`);
    await expect(page.locator('main').textContent()).resolves.toContain(`Today is ${dateInFull(today)} (${ZONE}).`);
    const arrivals = page.getByRole('region', { name: /Arrivals today/ });
    await expect(arrivals.getByRole('heading').textContent()).resolves.toBe('Arrivals today (3)');
    const ana = arrivals.getByRole('listitem').filter({ hasText: 'Ana Silva' });
    await expect(ana.textContent()).resolves.toMatch(/Room 102 .*Not yet in your PMS: your PMS refused it/);
    await expect(ana.getByRole('button', { name: "Retry sending Ana Silva's booking to your PMS" }).isVisible()).resolves.toBe(true);
    for (const guest of ['Grace Hopper', 'Mei Tanaka']) {
      await expect(arrivals.getByRole('listitem').filter({ hasText: guest }).textContent()).resolves.not.toContain('Not yet in your PMS');
    }
    const attention = page.getByRole('region', { name: 'Deliveries needing attention' });
    await expect(attention.textContent()).resolves.toMatch(/Booking confirmed · Kofi Mensah · Room 104 · .* · Failed/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'dashboard-overview-local', GUIDE_SHOTS);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shoot(page, 'dashboard-overview-local-phone', GUIDE_SHOTS);
    expect(csp).toEqual([]);
    await closePage(page);
  });

  needsChromium('lists the deliveries by guest, room and stay, in words, and says what "Retry all" includes', async () => {
    const page = await desk.newPage();
    await page.goto(`${stack.url}/dashboard/deliveries`);
    const rows = page.getByRole('row');
    await expect(rows.filter({ hasText: 'Ana Silva' }).textContent()).resolves.toMatch(/Booking confirmed.*Ana Silva · Room 102 · .*Needs review.*HTTP 422/);
    await expect(rows.filter({ hasText: 'Kofi Mensah' }).textContent()).resolves.toMatch(/Booking confirmed.*Kofi Mensah · Room 104 · .*Failed/);
    await expect(rows.filter({ hasText: 'Order paid' }).textContent()).resolves.toMatch(/Order paid.*Ada Lovelace · no room yet · .*Delivered/);
    const retryAll = page.getByRole('button', { name: 'Retry all failed and needs review' });
    await expect(retryAll.getAttribute('aria-describedby')).resolves.toBe('retry-all-hint');
    await expect(page.locator('#retry-all-hint').textContent()).resolves.toMatch(/Failed .* or Needs review/);
    expect(await page.locator('main').textContent()).not.toMatch(/booking\.confirmed|needs_review|payment_order/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'dashboard-deliveries', GUIDE_SHOTS);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await shoot(page, 'dashboard-deliveries-phone', GUIDE_SHOTS);
    await closePage(page);
  });

  needsChromium("Retry on a delivery's page answers with its outcome, without a reload", async () => {
    const page = await desk.newPage();
    await page.goto(`${stack.url}/dashboard/deliveries/${deliveries.refused}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking confirmed: Ana Silva');
    await expect(page.locator('p.outcome').textContent()).resolves.toMatch(/^Needs review: your PMS refused it \(HTTP 422\)\./);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'dashboard-delivery', GUIDE_SHOTS);

    // The PMS takes it now: the page the Retry leads to shows the outcome.
    await page.getByRole('button', { name: 'Retry', exact: true }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Booking confirmed for Ana Silva: queued again and delivered; your PMS accepted it.');
    await expect(page.locator('p.outcome').textContent()).resolves.toMatch(/^Delivered: your PMS accepted it \(HTTP 200\) on /);
    await expect(page.getByRole('button', { name: 'Retry', exact: true }).count()).resolves.toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // And the overview no longer flags her arrival.
    await page.goto(`${stack.url}/dashboard`);
    await expect(page.getByRole('region', { name: /Arrivals today/ }).textContent()).resolves.not.toContain('Not yet in your PMS');
    await closePage(page);
  });

  needsChromium('reloads the page of a delivery being sent by itself until its outcome shows', async () => {
    const slow = await startSlowPms(8000);
    try {
      await callbacksTo(slow.url);
      const id = await domain.callbacks.retryDelivery(deliveries.failed).then((d) => d.delivery_id);
      const page = await desk.newPage();
      const csp = watchCspViolations(page);
      let loads = 0;
      page.on('load', () => loads++);
      await page.goto(`${stack.url}/dashboard/deliveries/${id}`);
      await expect(page.locator('p.outcome').textContent()).resolves.toMatch(/^Sending… This page reloads itself every 2 seconds until the outcome is known\./);
      await expect(page.locator('meta[http-equiv="refresh"]').getAttribute('content')).resolves.toBe('2');
      // A timed reload is what axe calls meta-refresh (WCAG 2.2.1): the page lets its reader stop it.
      await page.getByRole('link', { name: 'Stop reloading' }).click();
      await expect(page.locator('p.outcome').textContent()).resolves.toBe('Sending… Check again to see the outcome.');
      expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // No reload by hand: the page reloads itself until the PMS has answered.
      await page.goto(`${stack.url}/dashboard/deliveries/${id}`);
      expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(1);
      loads = 0;
      await page.locator('p.outcome', { hasText: 'Delivered: your PMS accepted it' }).waitFor({ timeout: 20_000 });
      expect(loads).toBeGreaterThan(0);
      expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(csp).toEqual([]);
      await closePage(page);
    } finally {
      await callbacksTo(receiver.url);
      await slow.close();
    }
  }, 60_000);
});
