/**
 * The dashboard's search box in headless Chromium, as a receptionist uses it (docs/behaviour.md,
 * "Dashboard search"): on every page, under the hotel's name, it finds a booking by the guest's
 * name, e-mail, booking reference, confirmation code, room number, external booking id and order
 * reference, and opens it; an empty search is answered with the error summary. No serious or
 * critical axe violation on the results page, and nothing scrolls sideways on a 390 px phone.
 * Screenshots: dashboard-search, dashboard-search-phone (docs/screenshots with UPDATE_SCREENSHOTS=1).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { paidRoomBooking } from '../support/paid-orders';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const SHOTS = new Set<string>(['dashboard-search-phone']);
const HOTEL = 'Harbour View Hotel';

let stack: TestStack;
let tenant: Tenant;
let browser: Browser | undefined;
let desk: BrowserContext;
let email: string;
const ids = { zoe: '', lars: '', desk: '', paid: '' };
const keysOf = { reference: '', code: '', order: '' };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const needsChromium = it.skipIf(!hasChromium);

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: HOTEL, plan: 'premium' });
  const [sync, payment] = await Promise.all([stack.issueKey(client.client_id, 'sync'), stack.issueKey(client.client_id, 'payment')]);
  tenant = { clientId: client.client_id, syncKey: sync.key, syncKeyId: sync.key_id, paymentKey: payment.key, paymentKeyId: payment.key_id };
  const { createOperator } = await import('../../shared/domain/operators');
  email = `front-desk-${Math.random().toString(36).slice(2, 8)}@harbour.example`;
  await createOperator({ clientId: tenant.clientId, email, role: 'staff', password: OPERATOR_PASSWORD });

  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ['101', '102', '103'].map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: n === '103' ? 'suite' : 'double', price: 120, max_occupancy: 2 })) },
  });
  expect(rooms.status).toBe(200);
  const roomId = (n: string) => rooms.body.items.find((r: { external_room_id: string }) => r.external_room_id === `R${n}`).id as string;
  const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      bookings: [
        { external_booking_id: 'PMS-20417', external_room_id: 'R101', guest_name: 'Zoë Ångström', guest_email: 'zoe.angstrom@example.com', check_in_date: day(1), check_out_date: day(3), guests: 2, status: 'confirmed' },
        { external_booking_id: 'PMS-20388', external_room_id: 'R102', guest_name: 'Lars Ångström', check_in_date: day(-20), check_out_date: day(-17), guests: 1, status: 'checked_out' },
      ],
    },
  });
  expect(synced.status).toBe(200);
  [ids.zoe, ids.lars] = synced.body.items.map((item: { id: string }) => item.id);

  const { createReceptionBooking } = await import('../../shared/domain/bookings/reception-bookings');
  const made = await createReceptionBooking(tenant.clientId, roomId('103'), {
    guest_name: 'Katherine Johnson',
    guest_email: 'katherine@example.com',
    check_in_date: day(6),
    check_out_date: day(8),
    guests: 2,
    total_amount: 240,
  });
  ids.desk = made.booking.id;
  keysOf.reference = made.booking.booking_reference!;
  keysOf.code = made.booking.confirmation_code!;

  const order = await paidRoomBooking(stack, tenant, { check_in_date: day(10), check_out_date: day(12) });
  ids.paid = order.sync.booking_id;
  keysOf.order = order.orderReference;

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
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Types `q` into the header's search box on `path` and presses Search: the results page. */
async function searchFrom(page: Page, path: string, q: string): Promise<void> {
  await page.goto(`${stack.url}${path}`);
  const box = page.getByRole('search');
  await box.getByLabel('Search').fill(q);
  await box.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Search');
}

/** The guests the results table links to, in order. */
async function foundGuests(page: Page): Promise<string[]> {
  return page.locator('main table tbody tr td:first-child a').allTextContents();
}

async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what} at 390 px`).toBeLessThanOrEqual(390);
}

describe('the search box in headless Chromium (skipped without Chromium: .ci/run installs it)', () => {
  needsChromium('finds a booking by each key from any page, under the hotel’s name, and opens it', async () => {
    const page = await desk.newPage();
    const cases: [path: string, q: string, guest: string, foundBy: string][] = [
      ['/dashboard', 'zoe angstrom', 'Zoë Ångström', 'Guest name'],
      ['/dashboard/rooms', 'ZOE.ANGSTROM@example.com', 'Zoë Ångström', 'E-mail'],
      ['/dashboard/bookings', keysOf.reference.toLowerCase(), 'Katherine Johnson', 'Booking reference'],
      ['/dashboard/payments', keysOf.code, 'Katherine Johnson', 'Confirmation code'],
      ['/dashboard/deliveries', '101', 'Zoë Ångström', 'Room number'],
      ['/dashboard/audit', 'pms-20417', 'Zoë Ångström', 'External booking id'],
      [`/dashboard/bookings/${ids.desk}`, keysOf.order, 'Ada Lovelace', 'Order reference'],
    ];
    await page.goto(`${stack.url}/dashboard/bookings`);
    await shoot(page, 'dashboard-search-box', SHOTS);
    for (const [path, q, guest, foundBy] of cases) {
      await searchFrom(page, path, q);
      const banner = (await page.getByRole('banner').textContent()) ?? '';
      expect(banner, path).toContain(HOTEL);
      expect(await foundGuests(page), q).toEqual([guest]);
      await expect(page.locator('main table tbody tr').first().textContent()).resolves.toContain(foundBy);
    }
    // The result opens the booking's page.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/bookings/${ids.paid}`);
    await closePage(page);
  });

  needsChromium('lists the matches latest stay first with their status in words, and says so when nothing matches; no serious axe violation', async () => {
    const page = await desk.newPage();
    await searchFrom(page, '/dashboard', 'Ångström');
    expect(await foundGuests(page)).toEqual(['Zoë Ångström', 'Lars Ångström']);
    const rows = await page.locator('main table tbody tr').allTextContents();
    expect(rows[0]).toContain('Confirmed');
    expect(rows[1]).toContain('Checked out');
    // On the search page its own form is the one field labelled "Search", with what was typed.
    await expect(page.getByLabel('Search').inputValue()).resolves.toBe('Ångström');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'dashboard-search', SHOTS);

    await page.getByLabel('Search').fill('Nobody Here');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('No booking matches “Nobody Here”');

    await page.getByLabel('Search').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('There is a problem');
    // The summary links to the field, whose own message says the same.
    await page.getByRole('link', { name: /Enter a guest's name/ }).click();
    expect(new URL(page.url()).hash).toBe('#f-q');
    await expect(page.locator('#f-q-error').textContent()).resolves.toContain("Enter a guest's name");
    expect(await seriousAxeViolations(page)).toEqual([]);
    await closePage(page);
  });

  needsChromium('fits a 390 px phone: the header with its search box, and the results', async () => {
    const phone = await browser!.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, storageState: await desk.storageState() });
    const page = await phone.newPage();
    for (const path of ['/dashboard', '/dashboard/bookings', `/dashboard/bookings/${ids.zoe}`]) {
      await page.goto(`${stack.url}${path}`);
      await expect(page.getByRole('search').getByLabel('Search').isVisible(), path).resolves.toBe(true);
      await expectNoSidewaysScroll(page, path);
    }
    await shoot(page, 'dashboard-search-box-phone', SHOTS);
    await searchFrom(page, '/dashboard/bookings', 'angstrom');
    expect(await foundGuests(page)).toEqual(['Zoë Ångström', 'Lars Ångström']);
    await expectNoSidewaysScroll(page, 'the results');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'dashboard-search-phone', SHOTS);
    await phone.close();
  });
});
