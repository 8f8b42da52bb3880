/**
 * A guest in a real browser: headless Chromium (Debian's `chromium` package, driven by
 * playwright-core) opens the sandbox checkout page of a new payment order, on the sandbox's own
 * origin, presses a button, and follows the provider's redirect to the service's verify URL (the
 * API's origin) and the service's redirect to the partner's return page (a third origin, served here
 * on loopback), with no Content Security Policy violation on the way. The order's status comes from
 * the status lookup, never from the return URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot, watchCspViolations } from '../support/browser';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const ORDERS = '/api/v1/payments/payment-orders';

let stack: TestStack;
let tenant: Tenant;
let partner: { url: string; server: Server };
let browser: Browser | undefined;

/** The partner's site: a return page that shows what it was told (and proves nothing). */
async function startPartnerSite() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://partner.invalid');
    const title = url.pathname === '/thanks' ? 'Thank you for your booking' : 'Your payment did not go through';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  partner = await startPartnerSite();
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (partner) {
    partner.server.closeAllConnections();
    await new Promise((resolve) => partner.server.close(resolve));
  }
  await stack?.stop();
});

async function newOrder() {
  const created = await stack.request('POST', ORDERS, {
    key: tenant.paymentKey,
    body: {
      reference: `WEB-${randomUUID()}`,
      amount_minor: 25900,
      currency: 'EUR',
      customer: { name: 'Grace Hopper', email: 'grace@example.com' },
      success_url: `${partner.url}/thanks?booking=77`,
      cancel_url: `${partner.url}/cart?booking=77`,
    },
  });
  expect(created.status).toBe(201);
  return created.body as { order_reference: string; checkout_url: string };
}

async function orderStatus(orderReference: string): Promise<string> {
  const response = await stack.request('GET', `${ORDERS}/${orderReference}`, { key: tenant.paymentKey });
  expect(response.status).toBe(200);
  return response.body.status;
}

// Debian's chromium is installed by .ci/run; without it there is no browser to drive.
const needsChromium = it.skipIf(!hasChromium);

describe(`sandbox checkout in headless Chromium (skipped without Chromium: apt-get install chromium-headless-shell, as .ci/run does, or chromium)`, () => {
  needsChromium('the guest pays on the hosted page and lands on the success URL; the lookup says paid', async () => {
    const order = await newOrder();
    const page = await browser!.newPage();
    const violations = watchCspViolations(page);
    try {
      const opened = await page.goto(order.checkout_url);
      expect(opened?.status()).toBe(200);
      // Its own origin: neither the API's nor the partner's.
      expect(new URL(page.url()).origin).toBe(stack.sandboxUrl);
      expect(stack.sandboxUrl).not.toBe(new URL(stack.url).origin);
      expect(opened?.headers()['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-/);
      // Its own styles apply under that policy.
      // The amount as people write it, with its currency.
      expect(await page.getByRole('button', { name: 'Pay 259.00 EUR' }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(31, 136, 61)');
      await shoot(page, 'sandbox-checkout', new Set());
      await expect(page.title()).resolves.toContain('259.00 EUR');
      expect(await page.getByTestId('amount').textContent()).toBe('259.00 EUR');
      expect(await page.getByTestId('customer').textContent()).toContain('grace@example.com');

      await Promise.all([page.waitForURL(`${partner.url}/thanks?**`), page.getByRole('button', { name: 'Pay 259.00 EUR' }).click()]);

      const landed = new URL(page.url());
      expect(landed.origin + landed.pathname).toBe(`${partner.url}/thanks`);
      expect([...landed.searchParams]).toEqual([
        ['booking', '77'],
        ['payment', 'success'],
        ['payment_order', order.order_reference],
        ['reference', order.order_reference],
      ]);
      expect(await page.locator('h1').textContent()).toBe('Thank you for your booking');
      expect(await orderStatus(order.order_reference)).toBe('paid');
      expect(violations).toEqual([]);

      // Back on the hosted page the checkout is over: no buttons to press again.
      await page.goto(order.checkout_url);
      expect(await page.getByTestId('state').textContent()).toContain('paid');
      expect(await page.getByRole('button').count()).toBe(0);
    } finally {
      await closePage(page);
    }
  });

  needsChromium('fits a 390 px phone without scrolling sideways, and a session opened before guest checkouts were described shows no guest: reference', async () => {
    const order = await newOrder();
    const phone = await browser!.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await phone.newPage();
    try {
      await page.goto(order.checkout_url);
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      const violations = await seriousAxeViolations(page);
      expect(violations, JSON.stringify(violations)).toEqual([]);

      // Such a session's description is the service's own reference: the page says what it is for instead.
      const { db, TABLE } = await import('../../shared/store/dynamo');
      const { keys } = await import('../../shared/store/keys');
      const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
      const providerReference = new URL(order.checkout_url).pathname.split('/').pop()!;
      await db.send(
        new UpdateCommand({
          TableName: TABLE,
          Key: keys.sandboxSession(providerReference),
          UpdateExpression: 'SET description = :d',
          ExpressionAttributeValues: { ':d': `Payment guest:${'a358bff2'.repeat(4)}` },
        }),
      );
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Room booking');
      await expect(page.locator('body').innerText()).resolves.not.toContain('guest:');
      expect(await overflow()).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  });

  needsChromium('the guest cancels and lands on the cancel URL with payment=failed; the order is cancelled', async () => {
    const order = await newOrder();
    const page = await browser!.newPage();
    const violations = watchCspViolations(page);
    try {
      await page.goto(order.checkout_url);
      await Promise.all([page.waitForURL(`${partner.url}/cart?**`), page.getByRole('button', { name: 'Cancel' }).click()]);
      expect(violations).toEqual([]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('payment')).toBe('failed');
      expect(landed.searchParams.get('payment_order')).toBe(order.order_reference);
      expect(await page.locator('h1').textContent()).toBe('Your payment did not go through');
      expect(await orderStatus(order.order_reference)).toBe('cancelled');
    } finally {
      await closePage(page);
    }
  });
});
