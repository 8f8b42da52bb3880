/**
 * A guest on a phone (390 x 844) in headless Chromium, as docs/behaviour.md "Guest booking and the
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
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot, watchCspViolations } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

/** The screenshots the README shows. */
const README_SHOTS = new Set(['guest-search-results', 'guest-details', 'guest-confirmation', 'guest-declined', 'sandbox-checkout-phone']);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const POLICY = 'Free cancellation until 48 hours before arrival. After that, the first night is charged.';
const ADDRESS = 'Hotel Miramar\nPasseig de la Ribera 7\n08870 Sitges';

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
// Each test is a guest's whole visit in a real browser: minutes on a busy machine, not seconds.

/** The value of a term in a list of facts (dt and its dd) within `scope`. */
const fact = (scope: Locator, term: string) => scope.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]').textContent();

/** A stay's date as the pages write it: `Sat, 28 Nov 2026`. */
const written = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

async function expectAxeClean(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

/** Nothing wider than the viewport (a phone's 390 px): the page never scrolls sideways. */
async function expectNoOverflow(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

/** No internal reference in what a person reads: no `guest:` order reference, no UUID. */
async function expectNothingInternal(page: Page, what: string): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text, what).not.toContain('guest:');
  expect(text, what).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
}

/** Every check a guest page must pass: axe, no sideways scrolling, nothing internal. */
async function expectGuestPageOk(page: Page, what: string): Promise<void> {
  await expectAxeClean(page, what);
  await expectNoOverflow(page, what);
  await expectNothingInternal(page, what);
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
  // The browser's own date pickers: Playwright fills them with the date as the picker sends it.
  await expect(page.getByLabel('Check-in').getAttribute('type')).resolves.toBe('date');
  await expect(page.getByLabel('Check-out').getAttribute('type')).resolves.toBe('date');
  await page.getByLabel('Check-in').fill(stay.checkIn);
  await page.getByLabel('Check-out').fill(stay.checkOut);
  await page.getByLabel('Guests').fill(stay.guests);
  return submit(page, page.getByRole('button', { name: 'Search' }));
}

/** The room types the results offer (each a card); the type of each room of the hotel; the types offered, by name. */
const roomItems = (page: Page) => page.locator('section.type');
const TYPE_OF: Record<string, string> = { '101': 'Double room', '102': 'Double room', '201': 'Garden suite' };
const roomItem = (page: Page, number: string) => roomItems(page).filter({ has: page.getByRole('heading', { name: TYPE_OF[number]!, exact: true }) });
const offeredRooms = async (page: Page) => page.locator('section.type h3').allTextContents();

async function availableRoomNumbers(checkIn: string, checkOut: string): Promise<string[]> {
  const response = await stack.request('GET', `/api/v1/property-sync/availability?check_in_date=${checkIn}&check_out_date=${checkOut}&guests=1`, { key: tenant.syncKey });
  expect(response.status).toBe(200);
  return response.body.available_rooms.map((r: { room_number: string }) => r.room_number);
}

beforeAll(async () => {
  stack = await startTestStack();
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
        {
          external_category_id: 'DBL',
          name: 'Double room',
          base_price: 120,
          max_occupancy: 2,
          description: 'A quiet room facing the garden, with a queen-size bed.',
          amenities: ['Free Wi-Fi', 'Air conditioning', 'Rain shower'],
        },
        { external_category_id: 'STE', name: 'Garden suite', base_price: 210, max_occupancy: 4, description: 'Two rooms and a private terrace over the sea.', amenities: ['Terrace', 'Bathtub', 'Espresso machine'] },
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
  // What guests compare: taxes, the cancellation policy, check-in time and the address.
  const { setClientSettings } = await import('../../shared/domain/clients');
  await setClientSettings(tenant.clientId, { taxes_included: true, cancellation_policy: POLICY, check_in_time: '15:00', address: ADDRESS });
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
    await expectGuestPageOk(page, 'the search form');

    expect(await searchStay(page, STAY)).toBe(200);
    expect(await offeredRooms(page)).toEqual(['Double room', 'Garden suite']);
    const double = roomItem(page, '101');
    // Each room: its price a night and the stay's total, with the currency; taxes as the hotel says.
    await expect(double.locator('.offer p').innerText()).resolves.toBe('Up to 2 guests\n120.00 EUR a night\n360.00 EUR for 3 nights');
    await expect(double.locator('.left').innerText()).resolves.toBe('2 left');
    await expect(roomItem(page, '201').innerText()).resolves.toContain('210.00 EUR a night\n630.00 EUR for 3 nights');
    await expect(page.getByText('Each room type shows its price a night and the total for your 3 nights, in EUR. Taxes included.').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 3 }).allTextContents()).resolves.toEqual(['Double room', 'Garden suite']);
    // Each category as the PMS describes it: its description and amenities.
    const doubles = page.getByRole('region', { name: 'Double room' });
    await expect(doubles.getByText('A quiet room facing the garden, with a queen-size bed.').isVisible()).resolves.toBe(true);
    await expect(doubles.getByRole('list', { name: 'Amenities: Double room' }).getByRole('listitem').allTextContents()).resolves.toEqual(['Free Wi-Fi', 'Air conditioning', 'Rain shower']);
    await expect(page.getByRole('region', { name: 'Garden suite' }).getByText('Two rooms and a private terrace over the sea.').isVisible()).resolves.toBe(true);
    await expectGuestPageOk(page, 'the results');
    await shoot(page, 'guest-search-results', README_SHOTS);

    expect(await submit(page, double.getByRole('button', { name: 'Book' }))).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your details');
    const chosen = page.getByRole('region', { name: 'Your room' });
    await expect(fact(chosen, 'Room')).resolves.toBe('Double room');
    await expect(fact(chosen, 'Per night')).resolves.toBe('120.00 EUR');
    await expect(fact(chosen, 'Total')).resolves.toBe('360.00 EUR for 3 nights');
    await expect(fact(chosen, 'Taxes')).resolves.toBe('Included in the price');
    await expect(fact(chosen, 'Check-in')).resolves.toMatch(/, from 3:00 PM$/);
    // The cancellation policy, before the button that pays.
    const policy = page.getByRole('region', { name: 'Cancellation policy' });
    await expect(policy.innerText()).resolves.toContain(POLICY);
    const pay = page.getByRole('button', { name: /^Book and pay 360\.00 EUR$/ });
    const [policyBox, payBox] = await Promise.all([policy.boundingBox(), pay.boundingBox()]);
    expect(policyBox!.y).toBeLessThan(payBox!.y);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    await expectGuestPageOk(page, 'the guest details');
    await shoot(page, 'guest-details', README_SHOTS);
    // The checkout is on the sandbox's own origin: the form's redirect crosses origins, as with Stripe.
    await Promise.all([page.waitForURL(`${stack.sandboxUrl}/checkout/**`), pay.click()]);
    expect(new URL(page.url()).origin).not.toBe(new URL(stack.url).origin);
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('360.00 EUR');
    // It names the hotel and the stay, never the order's reference.
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Hotel Miramar: room 101, 3 nights, ${written(STAY.checkIn)} to ${written(STAY.checkOut)}`);
    expect(blocked).toEqual([]);
    await shoot(page, 'sandbox-checkout-phone', README_SHOTS);
    await expectGuestPageOk(page, 'the sandbox checkout');

    // While the first guest is on the checkout, the room is held: a second guest is not offered it.
    const second = await browser!.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const secondPage = await second.newPage();
    expect(await searchStay(secondPage, STAY)).toBe(200);
    expect(await offeredRooms(secondPage)).toEqual(['Double room', 'Garden suite']);
    await second.close();

    // Its form posts to its own origin, whose answer sends the guest back to the API's verify URL, then to the confirmation.
    await Promise.all([page.waitForURL(`${bookingUrl}/confirmation/**`), page.getByRole('button', { name: /^Pay / }).click()]);
    expect(blocked).toEqual([]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking confirmed');
    const main = page.locator('main');
    const reference = ((await fact(main, 'Booking reference')) ?? '').trim();
    const code = ((await fact(main, 'Confirmation code')) ?? '').trim();
    expect(reference).toMatch(/\S{6,}/);
    expect(code).toMatch(/\S{4,}/);
    await expect(fact(main, 'Payment')).resolves.toBe('Paid');
    await expect(fact(main, 'Room')).resolves.toBe('101');
    await expect(fact(main, 'Total')).resolves.toBe('360.00 EUR, taxes included');
    // What happens next: the e-mail, check-in time, the hotel's address, the payment, the policy.
    await expect(page.getByRole('region', { name: 'What happens next' }).getByRole('listitem').allInnerTexts()).resolves.toEqual([
      'We are sending a confirmation e-mail with these details to ada@example.com.',
      `Check-in is from 3:00 PM on ${written(STAY.checkIn)}: give your booking reference or confirmation code at the reception desk.`,
      `The hotel's address:\n${ADDRESS}`,
      'Your payment of 360.00 EUR is done.',
      `Cancellation policy: ${POLICY}`,
    ]);
    await expectGuestPageOk(page, 'the confirmation');
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
    await closePage(page);
  }, 120_000);

  needsChromium('shows the form again with the message next to the field (400) for every rule, and for the guest details', async () => {
    const page = await guest.newPage();
    const cases = [
      // A date picker sends only real dates; a link (or a browser without one) may send anything.
      { stay: { ...STAY, checkIn: '2031-02-30', checkOut: '2031-03-02' }, field: 'Check-in', byLink: true },
      { stay: { ...STAY, checkIn: '28/11/2031' }, field: 'Check-in', byLink: true },
      { stay: { ...STAY, checkIn: day(-1) }, field: 'Check-in' },
      { stay: { ...STAY, checkOut: STAY.checkIn }, field: 'Check-out' },
      { stay: { ...STAY, checkOut: day(21 + 31) }, field: 'Check-out' },
      { stay: { ...STAY, guests: '0' }, field: 'Guests' },
    ];
    for (const { stay, field, byLink } of cases) {
      const status = byLink
        ? (await page.goto(`${bookingUrl}?${new URLSearchParams({ check_in: stay.checkIn, check_out: stay.checkOut, guests: stay.guests })}`))?.status()
        : await searchStay(page, stay);
      expect(status, JSON.stringify(stay)).toBe(400);
      const input = page.getByLabel(field);
      await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
      // The message is the field's accessible description, right after it.
      const message = page.locator(`#${await input.getAttribute('id')}-error`);
      await expect(message.textContent()).resolves.toBeTruthy();
      expect(await input.getAttribute('aria-describedby')).toContain(await message.getAttribute('id'));
      await expect(page.locator('[aria-invalid="true"]').count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'Book' }).count()).resolves.toBe(0);
      // The error summary on top says the same and leads to the field.
      const summary = page.locator('.error-summary');
      await expect(summary.getByRole('link').textContent()).resolves.toBe(await message.textContent());
      await expect(summary.getByRole('link').getAttribute('href')).resolves.toBe(`#${await input.getAttribute('id')}`);
      await expect(page.title()).resolves.toMatch(/^Error: Book a room/);
    }
    await expect(page.locator('#f-check_in-error').count()).resolves.toBe(0);
    await expectAxeClean(page, 'the form with an error');
    await shoot(page, 'guest-form-errors', README_SHOTS);

    expect(await searchStay(page, { ...STAY, checkIn: day(50), checkOut: day(51) })).toBe(200);
    expect(await submit(page, roomItem(page, '102').getByRole('button', { name: 'Book' }))).toBe(200);
    await page.getByLabel('Email').fill('not an address');
    expect(await submit(page, page.getByRole('button', { name: /^Book and pay/ }))).toBe(400);
    for (const field of ['Name', 'Email']) {
      const input = page.getByLabel(field);
      await expect(input.getAttribute('aria-invalid'), field).resolves.toBe('true');
      await expect(page.locator(`#${await input.getAttribute('id')}-error`).textContent(), field).resolves.toBeTruthy();
    }
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe('not an address');
    // The summary links to each field; following a link puts the cursor in it.
    const summary = page.locator('.error-summary');
    await expect(summary.getByRole('link').allTextContents()).resolves.toEqual(['Enter your name', 'Enter an e-mail address in the right format, like name@example.com']);
    await summary.getByRole('link', { name: /e-mail address/ }).click();
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('f-email');
    await expectGuestPageOk(page, 'the guest details with errors');
    await closePage(page);
  }, 120_000);

  needsChromium('a declined payment: the room chosen, not "assigned by the hotel"; "Try again" keeps the room and the details, and pays', async () => {
    const page = await guest.newPage();
    const blocked = watchCspViolations(page);
    const stay = { checkIn: day(40), checkOut: day(42), guests: '2' };
    expect(await searchStay(page, stay)).toBe(200);
    expect(await submit(page, roomItem(page, '102').getByRole('button', { name: 'Book' }))).toBe(200);
    await page.getByLabel('Name').fill('Grace Hopper');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Phone').fill('+1 415 555 0123');
    await Promise.all([page.waitForURL(`${stack.sandboxUrl}/checkout/**`), page.getByRole('button', { name: /^Book and pay/ }).click()]);
    await Promise.all([page.waitForURL(`${bookingUrl}/confirmation/**`), page.getByRole('button', { name: 'Simulate a declined card' }).click()]);
    const declinedUrl = page.url();

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment not confirmed');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Your payment did not go through, so the room is not booked. Nothing was charged for this booking.');
    const chosen = page.getByRole('region', { name: 'The stay you chose' });
    await expect(fact(chosen, 'Room')).resolves.toMatch(/^10[12]$/);
    await expect(fact(chosen, 'Guest')).resolves.toBe('Grace Hopper');
    await expect(page.locator('main').innerText()).resolves.not.toContain('assigned by the hotel');
    const again = page.getByRole('region', { name: 'Try again' });
    await expect(again.innerText()).resolves.toMatch(/A Double room is still free\. You can pay for it again with the same details until (?:\w{3}, \d{1,2} \w{3,4} \d{4}, )?\d{1,2}:\d\d [AP]M hotel time/);
    await expect(again.getByRole('button', { name: 'Try again' }).isVisible()).resolves.toBe(true);
    await expect(again.getByRole('link', { name: 'Choose another room' }).getAttribute('href')).resolves.toBe(
      `/book/${tenant.clientId}?${new URLSearchParams({ check_in: stay.checkIn, check_out: stay.checkOut, guests: stay.guests })}`,
    );
    await expectGuestPageOk(page, 'the declined payment');
    await shoot(page, 'guest-declined', README_SHOTS);

    // "Try again": a new checkout for the same room, stay and guest, nothing typed again.
    await Promise.all([page.waitForURL(`${stack.sandboxUrl}/checkout/**`), again.getByRole('button', { name: 'Try again' }).click()]);
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('240.00 EUR');
    await expect(page.getByTestId('customer').textContent()).resolves.toBe('Grace Hopper · grace@example.com');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(new RegExp(`^Hotel Miramar: room 10[12], 2 nights, ${written(stay.checkIn)} to ${written(stay.checkOut)}$`));
    await expectGuestPageOk(page, 'the second checkout');
    await Promise.all([page.waitForURL(`${bookingUrl}/confirmation/**`), page.getByRole('button', { name: /^Pay / }).click()]);
    expect(page.url()).not.toBe(declinedUrl);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking confirmed');
    // The service picked a double: the other one and the suite stay free.
    const booked = (await fact(page.locator('main'), 'Room'))!;
    expect(booked).toMatch(/^10[12]$/);
    await expect(fact(page.locator('main'), 'Guest')).resolves.toBe('Grace Hopper');
    expect(await availableRoomNumbers(stay.checkIn, stay.checkOut)).toEqual([booked === '101' ? '102' : '101', '201']);
    // The declined attempt's page still offers the type: the hotel's other double is free.
    await page.goto(declinedUrl);
    await expect(page.getByRole('region', { name: 'Try again' }).innerText()).resolves.toContain('A Double room is still free');
    await expectGuestPageOk(page, 'the declined payment, one double since booked');
    expect(blocked).toEqual([]);
    await closePage(page);
  }, 120_000);

  needsChromium('at 1280 px too: the results, details, checkout and confirmation fit, pass axe and show nothing internal', async () => {
    const desktop = await browser!.newContext({ viewport: DESKTOP });
    const page = await desktop.newPage();
    const stay = { checkIn: day(45), checkOut: day(46), guests: '1' };
    expect(await searchStay(page, stay)).toBe(200);
    await expectGuestPageOk(page, 'the results at 1280 px');
    await shoot(page, 'guest-search-results-desktop', README_SHOTS);
    expect(await submit(page, roomItem(page, '201').getByRole('button', { name: 'Book' }))).toBe(200);
    await expect(page.getByRole('region', { name: 'Cancellation policy' }).innerText()).resolves.toContain(POLICY);
    await page.getByLabel('Name').fill('Alan Turing');
    await page.getByLabel('Email').fill('alan@example.com');
    await expectGuestPageOk(page, 'the details at 1280 px');
    await Promise.all([page.waitForURL(`${stack.sandboxUrl}/checkout/**`), page.getByRole('button', { name: /^Book and pay 210\.00 EUR$/ }).click()]);
    await expectGuestPageOk(page, 'the checkout at 1280 px');
    await Promise.all([page.waitForURL(`${bookingUrl}/confirmation/**`), page.getByRole('button', { name: /^Pay / }).click()]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking confirmed');
    await expectGuestPageOk(page, 'the confirmation at 1280 px');
    await desktop.close();
  }, 120_000);

  needsChromium('answers an unknown hotel with a 404 page', async () => {
    const page = await guest.newPage();
    const response = await page.goto(`${stack.url}/book/00000000-0000-4000-8000-000000000000`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Page not found');
    await expectGuestPageOk(page, 'the 404 page');
    await closePage(page);
  }, 120_000);

  needsChromium('the QR code decodes to the booking page, as served and on the dashboard\'s printable sheet', async () => {
    const page = await guest.newPage();
    const svg = await page.goto(`${bookingUrl}/qr.svg`);
    expect(svg?.headers()['content-type']).toBe('image/svg+xml');
    expect(await decodeQr(page)).toBe(bookingUrl);
    await closePage(page);

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
  }, 120_000);
});
