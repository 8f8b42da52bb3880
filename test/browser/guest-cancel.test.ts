/**
 * A guest cancels their own booking in headless Chromium on a phone (390 x 844), docs/behaviour.md
 * "Booking changes, cancellations and refunds": they book and pay online (the sandbox checkout),
 * open their booking from the confirmation e-mail, press "Cancel booking" inside the free
 * cancellation, confirm on the page that asks, and see the booking cancelled and refunded. The
 * PMS's loopback receiver gets booking.cancelled, the webhook receiver payment_order.refunded,
 * and the cancellation e-mail is in the SES emulator. No page scrolls sideways. Screenshots of
 * every page and the e-mail go to test-results/screenshots.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { closePage, hasChromium, launchChromium, payOnCheckoutPage, seriousAxeViolations, shoot } from '../support/browser';
import { emailTo, type SentEmail } from '../support/inbox';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type TestStack } from '../support/stack';

const PHONE = { width: 390, height: 844 };
const NO_README_SHOTS = new Set<string>();

let stack: TestStack;
let callbacks: Receiver;
let webhooks: Receiver;
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

/** The page is no wider than the phone: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${what} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
}

/** Clicks `target` (a button or a link) and answers the status of the page it leads to, redirects followed. */
async function submit(page: Page, target: Locator): Promise<number | undefined> {
  const [response] = await Promise.all([page.waitForNavigation(), target.click()]);
  await page.waitForLoadState();
  return response?.status();
}

/** An e-mail as a mail client shows it: its HTML in a blank page of its own. */
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
const reportStep = () => onTestFailed(() => console.error(`guest-cancel: the failed test was in step "${current}"`));

const eventsAt = (receiver: Receiver, event: string) =>
  receiver.received
    .filter((r) => r.headers['x-service-client'] === clientId)
    .map((r) => JSON.parse(r.rawBody.toString('utf8')))
    .filter((body) => body.event === event);

beforeAll(async () => {
  stack = await startTestStack();
  [callbacks, webhooks] = await Promise.all([startReceiver(), startReceiver()]);
  const { createClientAccount } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: 'Hotel Miramar', plan: 'premium', currency: 'EUR' });
  clientId = client.client_id;
  const { key } = await stack.issueKey(clientId, 'sync');
  bookingUrl = `${stack.url}/book/${clientId}`;
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key,
    body: { external_source: 'pms', rooms: [{ external_room_id: 'R101', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2 }] },
  });
  expect(rooms.status).toBe(200);
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  await configureEndpoint(clientId, 'callback', { url: callbacks.url });
  await configureEndpoint(clientId, 'webhook', { url: webhooks.url });
  const { setClientSettings } = await import('../../shared/domain/clients');
  await setClientSettings(clientId, { check_in_time: '15:00', address: 'Paseo Marítimo 12\n29602 Marbella' });
  if (hasChromium) {
    browser = await launchChromium();
    guest = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  }
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([callbacks?.close(), webhooks?.close()]);
  await stack?.stop();
});

describe('a guest cancels on a phone in headless Chromium (skipped without Chromium: .ci/run installs it)', () => {
  needsChromium('pays online, then cancels from the confirmation page inside the free window: refunded, the PMS and the webhook URL hear of it, the e-mail arrives', async () => {
    reportStep();
    const who = { name: 'Ada Lovelace', email: address('cancel') };
    let page = await step('open a page', () => guest.newPage(), 15_000);
    await step('search and choose room 101', async () => {
      await page.goto(bookingUrl);
      await page.getByLabel('Check-in').fill(day(30));
      await page.getByLabel('Check-out').fill(day(32));
      await page.getByLabel('Guests').fill('1');
      expect(await submit(page, page.getByRole('button', { name: 'Search' }))).toBe(200);
      // Room 101 is the hotel's one double: booking the type books it.
      expect(await submit(page, page.locator('section.type').filter({ hasText: 'double' }).getByRole('button', { name: 'Book' }))).toBe(200);
      await page.getByLabel('Name').fill(who.name);
      await page.getByLabel('Email').fill(who.email);
    });
    const [checkout] = await step('Book and pay', () =>
      Promise.all([page.waitForResponse((r) => r.url().endsWith('/bookings') && r.request().method() === 'POST'), page.getByRole('button', { name: /^Book and pay/ }).click()]),
    );
    const checkoutUrl = checkout.status() === 303 ? checkout.headers().location! : (await step('read the checkout link', () => page.locator('a[href*="/checkout/"]').first().getAttribute('href')))!;
    // The guest's browser follows the redirect to the checkout, and pays there.
    if (checkout.status() !== 303) await step('open the checkout link', () => page.goto(checkoutUrl));
    await step('pay on the sandbox checkout', () => payOnCheckoutPage(page, checkoutUrl, stack.url), 60_000);
    await step('close the page', () => closePage(page), 15_000);

    // The booking's page, from the confirmation e-mail's link.
    const confirmation = await step('the confirmation e-mail', () => emailTo(who.email, /^Booking confirmed/, 30_000));
    const link = /See your booking: (\S+)/.exec(confirmation.body.text!)![1]!;
    page = await step('open a page for the booking', () => guest.newPage(), 15_000);
    await step('open "See your booking"', () => page.goto(link));
    await expect(step('read the heading', () => page.getByRole('heading', { level: 1 }).textContent())).resolves.toBe('Booking confirmed');
    const offer = page.locator('section', { has: page.getByRole('heading', { name: 'Cancel your booking' }) });
    await expect(offer.textContent()).resolves.toMatch(
      /You can cancel this booking free of charge until \w{3}, \d{1,2} \w{3,4} \d{4}, 3:00 PM hotel time\. Your payment of 240\.00 EUR is refunded in full to the card you paid with\./,
    );
    await step('check the booking page', async () => {
      await expectAxeClean(page, 'the booking page');
      await expectNoSidewaysScroll(page, 'the booking page');
      await shoot(page, 'guest-cancel-booking', NO_README_SHOTS);
    });

    // "Cancel booking" asks first, on a page of its own; asking changes nothing.
    expect(await step('press "Cancel booking"', () => submit(page, offer.getByRole('button', { name: 'Cancel booking' })))).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Cancel your booking?');
    await expect(page.locator('main').textContent()).resolves.toContain('You cannot undo this');
    await step('check the page that asks', async () => {
      await expectAxeClean(page, 'the page that asks');
      await expectNoSidewaysScroll(page, 'the page that asks');
      await shoot(page, 'guest-cancel-confirm', NO_README_SHOTS);
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(eventsAt(callbacks, 'booking.cancelled')).toEqual([]);

    expect(await step('confirm "Cancel booking"', () => submit(page, page.getByRole('button', { name: 'Cancel booking' })))).toBe(200);
    expect(page.url()).toBe(link);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Booking cancelled');
    await expect(page.getByRole('status').textContent()).resolves.toMatch(/^You cancelled this booking on \w{3}, \d{1,2} \w{3,4} \d{4}, \d{1,2}:\d\d [AP]M hotel time\. The room is no longer held for you\.$/);
    await expect(page.locator('main').textContent()).resolves.toContain('Your payment of 240.00 EUR has been refunded in full to the card you paid with.');
    await expect(page.getByRole('button', { name: 'Cancel booking' }).count()).resolves.toBe(0);
    await step('check the cancelled booking', async () => {
      await expectAxeClean(page, 'the cancelled booking');
      await expectNoSidewaysScroll(page, 'the cancelled booking');
      await shoot(page, 'guest-cancel-cancelled', NO_README_SHOTS);
    });
    const reference = (await page.locator('dl.facts dd').first().textContent())!.trim();
    expect(reference).toMatch(/^BK-/);
    await step('close the page', () => closePage(page), 15_000);

    const [cancelled] = await step('booking.cancelled at the PMS', () =>
      waitFor('booking.cancelled', async () => (eventsAt(callbacks, 'booking.cancelled').length ? eventsAt(callbacks, 'booking.cancelled') : undefined), 30_000),
    );
    expect(cancelled).toMatchObject({ event: 'booking.cancelled', booking: { booking_reference: reference, status: 'cancelled', cancellation_reason: 'Cancelled by the guest', sequence: 2 } });
    const [refunded] = await step('payment_order.refunded at the webhook URL', () =>
      waitFor('payment_order.refunded', async () => (eventsAt(webhooks, 'payment_order.refunded').length ? eventsAt(webhooks, 'payment_order.refunded') : undefined), 30_000),
    );
    expect(refunded).toMatchObject({ payment_order: { status: 'refunded', amount_minor: 24000, amount_refunded_minor: 24000, currency: 'EUR' }, refund: { amount_minor: 24000 } });

    const email = await step('the cancellation e-mail', () => emailTo(who.email, /^Booking cancelled/, 30_000));
    expect(email.subject).toContain(reference);
    expect(email.body.text).toContain('Your payment of 240.00 EUR will be refunded in full');
    const mail = await step('show the e-mail', () => showEmail(email), 15_000);
    await expect(mail.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your booking has been cancelled');
    await step('screenshot the e-mail', () => shoot(mail, 'guest-cancel-email', NO_README_SHOTS));
    await step('close the e-mail', () => closePage(mail), 15_000);
  }, 180_000);
});
