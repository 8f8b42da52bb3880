/**
 * E-mail to guests in headless Chromium on a phone (390 x 844), docs/behaviour.md "Guest booking and
 * the reception QR code": a guest who pays at the hotel is shown "Check your e-mail to confirm",
 * the PMS hears nothing; the "Confirm your booking" e-mail (read from the SES emulator's `GET
 * /store`, shown in the browser) leads to a page whose button confirms it; only then does the
 * PMS's loopback receiver get booking.confirmed, and the confirmation e-mail arrives. And a guest
 * who pays online gets the confirmation e-mail with the booking reference and code of the
 * confirmation page. Screenshots of every page and e-mail go to test-results/screenshots.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { closePage, hasChromium, launchChromium, payOnCheckoutPage, seriousAxeViolations, shoot } from '../support/browser';
import { emailsTo, emailTo, type SentEmail } from '../support/inbox';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

const PHONE = { width: 390, height: 844 };
const NO_README_SHOTS = new Set<string>();

let stack: TestStack;
let receiver: Receiver;
let clientId: string;
let browser: Browser | undefined;
let guest: BrowserContext;
let bookingUrl: string;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const needsChromium = it.skipIf(!hasChromium);
const address = (who: string) => `${who}-${Math.random().toString(36).slice(2, 10)}@guest.example`;

async function expectAxeClean(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

/** Clicks `target` (a button or a link) and answers the status of the page it leads to, redirects followed. */
async function submit(page: Page, target: Locator): Promise<number | undefined> {
  const [response] = await Promise.all([page.waitForNavigation(), target.click()]);
  await page.waitForLoadState();
  return response?.status();
}

/** Search, "Book" on the room, the guest's details: the details page, ready to choose how to pay. */
async function chooseRoom(page: Page, roomNumber: string, stay: { checkIn: string; checkOut: string }, who: { name: string; email: string }) {
  await page.goto(bookingUrl);
  await page.getByLabel('Check-in').fill(stay.checkIn);
  await page.getByLabel('Check-out').fill(stay.checkOut);
  await page.getByLabel('Guests').fill('1');
  expect(await submit(page, page.getByRole('button', { name: 'Search' }))).toBe(200);
  // Each room here is the only one of its type: booking the type books it.
  const type = { '101': 'double', '201': 'suite' }[roomNumber]!;
  expect(await submit(page, page.locator('section.type').filter({ has: page.getByRole('heading', { name: type, exact: true }) }).getByRole('button', { name: 'Book' }))).toBe(200);
  await page.getByLabel('Name').fill(who.name);
  await page.getByLabel('Email').fill(who.email);
}

/**
 * An e-mail as a mail client shows it: its HTML in a page of its own (a blank one: a page of the
 * service would hold it to the service's CSP, which refuses the e-mail's inline styles).
 */
async function showEmail(email: SentEmail): Promise<Page> {
  const page = await guest.newPage();
  await page.setContent(email.body.html!);
  return page;
}

/**
 * One step of a test, by name: it fails with the step's name when it does not finish in `ms`
 * (some Playwright calls, such as newPage and close, have no timeout of their own), and a test
 * that fails or times out says which step it was in.
 */
let current = 'setup';
async function step<T>(label: string, run: () => Promise<T>, ms = 45_000): Promise<T> {
  current = label;
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`step "${label}" did not finish in ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([run(), hung]);
  } finally {
    clearTimeout(timer);
  }
}
const reportStep = () => onTestFailed(() => console.error(`guest-email: the failed test was in step "${current}"`));

const callbacks = () => receiver.received.filter((r) => r.headers['x-service-client'] === clientId).map((r) => JSON.parse(r.rawBody.toString('utf8')));

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  const { createClientAccount } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: 'Hotel Miramar', plan: 'premium', currency: 'EUR' });
  clientId = client.client_id;
  const { key } = await stack.issueKey(clientId, 'sync');
  bookingUrl = `${stack.url}/book/${clientId}`;
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: {
      external_source: 'pms',
      rooms: [
        { external_room_id: 'R101', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 },
        { external_room_id: 'R201', room_number: '201', room_type: 'suite', price: 210, max_occupancy: 4 },
      ],
    },
  });
  expect(rooms.status).toBe(200);
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  await configureEndpoint(clientId, 'callback', { url: receiver.url });
  const { setPayAtProperty } = await import('../../shared/domain/guest-booking/guest-bookings');
  await setPayAtProperty(clientId, true);
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

describe('e-mail to guests on a phone in headless Chromium (skipped without Chromium: .ci/run installs it)', () => {
  needsChromium('pay at the hotel stays unseen by the PMS until the e-mail link is opened and confirmed; then booking.confirmed arrives', async () => {
    reportStep();
    let page = await step('open a page', () => guest.newPage(), 15_000);
    const who = { name: 'Grace Hopper', email: address('desk') };
    const stay = { checkIn: day(25), checkOut: day(27) };
    await step('search and choose room 201', () => chooseRoom(page, '201', stay, who));
    await expect(page.getByText(/confirm the booking with a link we e-mail you/).count()).resolves.toBe(1);
    expect(await submit(page, page.getByRole('button', { name: 'Confirm and pay at the hotel' }))).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check your e-mail to confirm');
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/We have sent you an e-mail with a link\. Open it and press "Confirm booking" before (?:\w{3}, \d{1,2} \w{3,4} \d{4}, )?\d{1,2}:\d\d [AP]M hotel time/);
    const bookingPage = page.url();
    await expectAxeClean(page, 'the pending booking');
    await shoot(page, 'guest-email-pending', NO_README_SHOTS);

    // The e-mail, as the guest's mail client shows it.
    const request = await step('the "Confirm your booking" e-mail', () => emailTo(who.email, /^Confirm your booking/, 30_000));
    await step('close the page', () => closePage(page), 15_000);
    page = await step('show the e-mail', () => showEmail(request), 15_000);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Confirm your booking');
    await shoot(page, 'guest-email-confirm-your-booking', NO_README_SHOTS);
    await new Promise((r) => setTimeout(r, 500));
    expect(callbacks()).toEqual([]);

    // Opening the link shows the booking and its button; it changes nothing by itself.
    expect(await submit(page, page.getByRole('link', { name: 'Confirm your booking' }))).toBe(200);
    expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/book/${clientId}/confirm/[A-Za-z0-9_-]{43}$`));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Confirm your booking');
    await expect(page.locator('dl').textContent()).resolves.toMatch(/^Room201Check-in\w{3}, \d+ \w{3,4} \d{4}Check-out\w{3}, \d+ \w{3,4} \d{4}Guests1GuestGrace HopperTotal420\.00 EURPaymentTo pay at the hotel$/);
    await expectAxeClean(page, 'the confirm page');
    await shoot(page, 'guest-email-confirm-page', NO_README_SHOTS);
    await new Promise((r) => setTimeout(r, 500));
    expect(callbacks()).toEqual([]);

    expect(await submit(page, page.getByRole('button', { name: 'Confirm booking' }))).toBe(200);
    expect(page.url()).toBe(bookingPage);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking confirmed');
    const codes = (await page.locator('dl.codes dd').allTextContents()).map((t) => t.trim());
    expect(codes[0]).toMatch(/^BK-/);
    await shoot(page, 'guest-email-confirmed', NO_README_SHOTS);

    const [confirmed] = await step('booking.confirmed at the PMS', () => waitFor('booking.confirmed', async () => (callbacks().length ? callbacks() : undefined), 30_000));
    expect(confirmed).toMatchObject({ event: 'booking.confirmed', booking: { booking_reference: codes[0], confirmation_code: codes[1], payment_method: 'pay_at_property', payment_status: 'unpaid' } });

    const confirmation = await step('the confirmation e-mail', () => emailTo(who.email, /^Booking confirmed/, 30_000));
    await step('close the page', () => closePage(page), 15_000);
    page = await step('show the confirmation e-mail', () => showEmail(confirmation), 15_000);
    await expect(page.locator('body').textContent()).resolves.toContain(codes[0]!);
    await shoot(page, 'guest-email-booking-confirmed', NO_README_SHOTS);
    expect(await submit(page, page.getByRole('link', { name: 'See your booking' }))).toBe(200);
    expect(page.url()).toBe(bookingPage);
    await step('close the page', () => closePage(page), 15_000);
  }, 150_000);

  needsChromium('a guest who pays online gets the confirmation e-mail with the booking reference and code of the confirmation page', async () => {
    reportStep();
    const page = await step('open a page', () => guest.newPage(), 15_000);
    const who = { name: 'Ada Lovelace', email: address('online') };
    await step('search and choose room 101', () => chooseRoom(page, '101', { checkIn: day(30), checkOut: day(33) }, who));
    const [checkout] = await step('Book and pay', () =>
      Promise.all([page.waitForResponse((r) => r.url().endsWith('/bookings') && r.request().method() === 'POST'), page.getByRole('button', { name: /^Book and pay/ }).click()]),
    );
    // The checkout's URL: the answer's redirect, or the link of the page it answers instead.
    const checkoutUrl = checkout.status() === 303 ? checkout.headers().location! : (await step('read the checkout link', () => page.locator('a[href*="/checkout/"]').first().getAttribute('href')))!;
    // The guest's browser follows the redirect to the checkout, and pays there.
    if (checkout.status() !== 303) await step('open the checkout link', () => page.goto(checkoutUrl));
    await step('pay on the sandbox checkout', () => payOnCheckoutPage(page, checkoutUrl, stack.url), 60_000);
    await step('close the page', () => closePage(page), 15_000);

    const email = await step('the confirmation e-mail', () => emailTo(who.email, /^Booking confirmed/, 30_000));
    const view = await step('open a page for the booking', () => guest.newPage(), 15_000);
    await step('open "See your booking"', () => view.goto(/See your booking: (\S+)/.exec(email.body.text!)![1]!));
    await expect(step('read the heading', () => view.getByRole('heading', { level: 1 }).textContent())).resolves.toBe('Booking confirmed');
    const [reference, code] = (await step('read the codes', () => view.locator('dl.codes dd').allTextContents())).map((t) => t.trim());
    expect(email.body.text).toContain(`Booking reference: ${reference}`);
    expect(email.body.text).toContain(`Confirmation code: ${code}`);
    expect(email.body.text).toContain('Total: 360.00 EUR');
    await step('close the booking page', () => closePage(view), 15_000);
    const mail = await step('show the e-mail', () => showEmail(email), 15_000);
    await step('screenshot the e-mail', () => shoot(mail, 'guest-email-paid-confirmation', NO_README_SHOTS));
    expect(await step('list the e-mails to the guest', () => emailsTo(who.email), 15_000)).toHaveLength(1);
    await step('close the e-mail', () => closePage(mail), 15_000);
  }, 150_000);
});
