/**
 * A guest on a phone (390 x 844) in headless Chromium, as CONTRACT.md "Guest booking and the
 * reception QR code" has it: dates and guests, "Search", the rooms by category with the stay's
 * total, "Book", "Name", "Email", "Phone", the sandbox provider's checkout on its own origin (as
 * Stripe's is: the booking form's redirect there is held to the page's CSP form-action, which names
 * it; no CSP violation on the way), the confirmation page with booking reference and confirmation code; the PMS's loopback receiver gets booking.confirmed
 * (paid, with the room) and the API stops offering the room. A second guest is not offered the
 * room while the first pays; the form errors; 404; the QR code decodes to the booking page's URL
 * (read from a screenshot with jsQR), also from the dashboard's printable sheet; axe-core on every
 * page. Screenshots go to test-results/screenshots (and to docs/screenshots with
 * UPDATE_SCREENSHOTS=1, for the README).
 */
import jsQR from 'jsqr';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, seriousAxeViolations, shoot, watchCspViolations } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

/** The screenshots the README shows. */
const README_SHOTS = new Set(['guest-search-results', 'guest-confirmation']);
const PHONE = { width: 390, height: 844 };

let stack: TestStack;
let receiver: Receiver;
let tenant: Pick<Tenant, 'clientId' | 'syncKey'>;
let browser: Browser | undefined;
let guest: BrowserContext;
let bookingUrl: string;
const adminEmail = `front-office-${Math.random().toString(36).slice(2, 8)}@hotel.example`;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const STAY = { checkIn: day(21), checkOut: day(24), guests: '2' };
const needsChromium = it.skipIf(!hasChromium);

async function expectAxeClean(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

/** Nothing wider than the phone. */
async function expectNoOverflow(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

/** The text a QR code in a screenshot holds (jsQR on the decoded PNG). */
async function decodeQr(target: Page | Locator): Promise<string | undefined> {
  const png = PNG.sync.read(await target.screenshot());
  return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data;
}

/** Submits with `button` and answers the status of the page it leads to. */
async function submit(page: Page, button: Locator): Promise<number> {
  const [response] = await Promise.all([page.waitForEvent('response', (r) => r.request().isNavigationRequest() && r.request().frame() === page.mainFrame()), button.click()]);
  await page.waitForLoadState();
  return response.status();
}

async function searchStay(page: Page, stay: { checkIn: string; checkOut: string; guests: string }): Promise<number> {
  await page.goto(bookingUrl);
  await page.getByLabel('Check-in').fill(stay.checkIn);
  await page.getByLabel('Check-out').fill(stay.checkOut);
  await page.getByLabel('Guests').fill(stay.guests);
  return submit(page, page.getByRole('button', { name: 'Search' }));
}

const offeredRooms = async (page: Page) => (await page.getByRole('listitem').allTextContents()).map((text) => /Room (\S+),/.exec(text)?.[1]);

async function availableRoomNumbers(checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, { key: tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

beforeAll(async () => {
  stack = await startTestStack({ sweepIntervalMs: 200 });
  receiver = await startReceiver();
  // A hotel of its own name and currency (the screenshots show them).
  const { createClientAccount } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: 'Hotel Miramar', plan: 'premium', currency: 'EUR' });
  tenant = { clientId: client.client_id, syncKey: (await stack.issueKey(client.client_id, 'sync')).key };
  bookingUrl = `${stack.url}/book/${tenant.clientId}`;
  const categories = await stack.request('PUT', '/api/v1/property-sync/room-categories', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      categories: [
        { external_category_id: 'DBL', name: 'Double room', base_price: 120, max_occupancy: 2 },
        { external_category_id: 'STE', name: 'Garden suite', base_price: 210, max_occupancy: 4 },
      ],
    },
  });
  expect(categories.status).toBe(200);
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', external_category_id: 'DBL', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R102', external_category_id: 'DBL', room_number: '102', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R201', external_category_id: 'STE', room_number: '201', room_type: 'suite', price: 210, max_occupancy: 4 },
      ],
    },
  });
  expect(rooms.status).toBe(200);
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  await configureEndpoint(tenant.clientId, 'callback', { url: receiver.url });
  const { createOperator } = await import('../../shared/domain/operators');
  await createOperator({ clientId: tenant.clientId, email: adminEmail, role: 'admin', password: OPERATOR_PASSWORD });
  if (hasChromium) {
    browser = await launchChromium();
    guest = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  }
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

describe('guest booking on a phone in headless Chromium (skipped without Chromium: .ci/run installs it)', () => {
  needsChromium('search, book, pay on the checkout: confirmation page, booking.confirmed to the PMS, the room gone; a second guest is not offered the held room', async () => {
    const page = await guest.newPage();
    const blocked = watchCspViolations(page);
    await page.goto(bookingUrl);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Book a room');
    await expectAxeClean(page, 'the search form');

    expect(await searchStay(page, STAY)).toBe(200);
    expect(await offeredRooms(page)).toEqual(['101', '102', '201']);
    const double = page.getByRole('listitem').filter({ hasText: 'Room 101' });
    await expect(double.textContent()).resolves.toContain('360.00 EUR');
    await expect(page.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(['Double room', 'Garden suite']);
    await expect(page.getByRole('listitem').filter({ hasText: 'Room 201' }).textContent()).resolves.toContain('630.00 EUR');
    await expectAxeClean(page, 'the results');
    await expectNoOverflow(page, 'the results');
    await shoot(page, 'guest-search-results', README_SHOTS);

    expect(await submit(page, double.getByRole('button', { name: 'Book' }))).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your details');
    await expect(page.locator('main').textContent()).resolves.toContain('101, double');
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    await expectAxeClean(page, 'the guest details');
    await shoot(page, 'guest-details', README_SHOTS);
    // The checkout is on the sandbox's own origin: the form's redirect crosses origins, as with Stripe.
    await Promise.all([page.waitForURL(`${stack.sandboxUrl}/checkout/**`), page.getByRole('button', { name: /^Book and pay 360\.00 EUR$/ }).click()]);
    expect(new URL(page.url()).origin).not.toBe(new URL(stack.url).origin);
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('360 EUR');
    expect(blocked).toEqual([]);
    await shoot(page, 'guest-sandbox-checkout', README_SHOTS);
    await expectNoOverflow(page, 'the sandbox checkout');

    // While the first guest is on the checkout, the room is held: a second guest is not offered it.
    const second = await browser!.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const secondPage = await second.newPage();
    expect(await searchStay(secondPage, STAY)).toBe(200);
    expect(await offeredRooms(secondPage)).toEqual(['102', '201']);
    await second.close();

    // Its form posts to its own origin, whose answer sends the guest back to the API's verify URL, then to the confirmation.
    await Promise.all([page.waitForURL(`${bookingUrl}/confirmation/**`), page.getByRole('button', { name: /^Pay / }).click()]);
    expect(blocked).toEqual([]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking confirmed');
    const fact = (term: string) => page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]').textContent();
    const reference = ((await fact('Booking reference')) ?? '').trim();
    const code = ((await fact('Confirmation code')) ?? '').trim();
    expect(reference).toMatch(/\S{6,}/);
    expect(code).toMatch(/\S{4,}/);
    await expect(fact('Payment')).resolves.toBe('paid');
    await expect(fact('Room')).resolves.toBe('101');
    await expectAxeClean(page, 'the confirmation');
    await expectNoOverflow(page, 'the confirmation');
    await shoot(page, 'guest-confirmation', README_SHOTS);

    // The PMS is told: booking.confirmed, paid, with the room.
    const received = await waitFor('booking.confirmed at the PMS', async () => receiver.received.find((r) => r.headers['x-service-event'] === 'booking.confirmed'));
    const payload = JSON.parse(received.rawBody.toString('utf8'));
    expect(payload).toMatchObject({
      event: 'booking.confirmed',
      hotel_id: tenant.clientId,
      booking: {
        booking_reference: reference,
        confirmation_code: code,
        guest_name: 'Ada Lovelace',
        guest_email: 'ada@example.com',
        guests: 2,
        check_in_date: STAY.checkIn,
        check_out_date: STAY.checkOut,
        status: 'confirmed',
        payment_status: 'paid',
      },
      room: { room_number: '101', external_room_id: 'R101' },
    });
    expect(await availableRoomNumbers(STAY.checkIn, STAY.checkOut)).toEqual(['102', '201']);

    // The link shows the booking again; the stylesheet loaded under the CSP and no script ran.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking confirmed');
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.bar')!).backgroundColor)).toBe('rgb(18, 38, 63)');
    expect(blocked).toEqual([]);
    await page.close();
  });

  needsChromium('shows the form again with the message next to the field (400) for every rule, and for the guest details', async () => {
    const page = await guest.newPage();
    const cases = [
      { stay: { ...STAY, checkIn: '2031-02-30', checkOut: '2031-03-02' }, field: 'Check-in' },
      { stay: { ...STAY, checkIn: day(-1) }, field: 'Check-in' },
      { stay: { ...STAY, checkOut: STAY.checkIn }, field: 'Check-out' },
      { stay: { ...STAY, checkOut: day(21 + 31) }, field: 'Check-out' },
      { stay: { ...STAY, guests: '0' }, field: 'Guests' },
    ];
    for (const { stay, field } of cases) {
      expect(await searchStay(page, stay), JSON.stringify(stay)).toBe(400);
      const input = page.getByLabel(field);
      await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
      // The message is the field's accessible description, right after it.
      const message = page.locator(`#${await input.getAttribute('id')}-error`);
      await expect(message.textContent()).resolves.toBeTruthy();
      expect(await input.getAttribute('aria-describedby')).toContain(await message.getAttribute('id'));
      await expect(page.locator('[aria-invalid="true"]').count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'Book' }).count()).resolves.toBe(0);
    }
    await expectAxeClean(page, 'the form with an error');
    await shoot(page, 'guest-form-errors', README_SHOTS);

    expect(await searchStay(page, { ...STAY, checkIn: day(50), checkOut: day(51) })).toBe(200);
    expect(await submit(page, page.getByRole('listitem').filter({ hasText: 'Room 102' }).getByRole('button', { name: 'Book' }))).toBe(200);
    await page.getByLabel('Email').fill('not an address');
    expect(await submit(page, page.getByRole('button', { name: /^Book and pay/ }))).toBe(400);
    for (const field of ['Name', 'Email']) {
      const input = page.getByLabel(field);
      await expect(input.getAttribute('aria-invalid'), field).resolves.toBe('true');
      await expect(page.locator(`#${await input.getAttribute('id')}-error`).textContent(), field).resolves.toBeTruthy();
    }
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe('not an address');
    await expectAxeClean(page, 'the guest details with errors');
    await page.close();
  });

  needsChromium('answers an unknown hotel with a 404 page', async () => {
    const page = await guest.newPage();
    const response = await page.goto(`${stack.url}/book/00000000-0000-4000-8000-000000000000`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    await expectAxeClean(page, 'the 404 page');
    await page.close();
  });

  needsChromium('the QR code decodes to the booking page, as served and on the dashboard\'s printable sheet', async () => {
    const page = await guest.newPage();
    const svg = await page.goto(`${bookingUrl}/qr.svg`);
    expect(svg?.headers()['content-type']).toBe('image/svg+xml');
    expect(await decodeQr(page)).toBe(bookingUrl);
    await page.close();

    const admin = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const dashboard = await admin.newPage();
    await dashboard.goto(`${stack.url}/dashboard/integrations`);
    await dashboard.getByLabel('Email').fill(adminEmail);
    await dashboard.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await dashboard.getByRole('button', { name: 'Sign in' }).click();
    await dashboard.goto(`${stack.url}/dashboard/integrations`);
    const section = dashboard.getByRole('region', { name: 'Guest booking' });
    await expect(section.getByRole('link', { name: bookingUrl }).getAttribute('href')).resolves.toBe(bookingUrl);
    const image = section.getByRole('img', { name: `QR code of the booking page ${bookingUrl}` });
    await expect(image.evaluate((img: HTMLImageElement) => img.naturalWidth)).resolves.toBeGreaterThan(0);
    await section.getByRole('link', { name: 'Printable QR code for the reception desk' }).click();
    await expect(dashboard.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Reception QR code');
    expect(await decodeQr(dashboard.getByRole('img', { name: `QR code of the booking page ${bookingUrl}` }))).toBe(bookingUrl);
    await expectAxeClean(dashboard, 'the printable sheet');
    await dashboard.emulateMedia({ media: 'print' });
    await expect(dashboard.getByRole('navigation', { name: 'Dashboard' }).isVisible()).resolves.toBe(false);
    await expect(dashboard.getByText(bookingUrl).isVisible()).resolves.toBe(true);
    await shoot(dashboard, 'dashboard-reception-qr-print', README_SHOTS);
    await admin.close();
  });
});
