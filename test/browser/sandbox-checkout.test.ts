/**
 * A guest in a real browser: headless Chromium (Debian's `chromium` package, driven by
 * playwright-core) opens the sandbox checkout page of a new payment order, presses a button, and
 * follows the provider's and the service's redirects to the partner's return page, served here
 * on loopback. The order's status comes from the status lookup, never from the return URL.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
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
  if (hasChromium) {
    // playwright-core gives every launch a fresh temporary profile of its own.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }
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

describe(`sandbox checkout in headless Chromium (skipped without ${CHROMIUM}: apt-get install chromium, as .ci/run does)`, () => {
  needsChromium('the guest pays on the hosted page and lands on the success URL; the lookup says paid', async () => {
    const order = await newOrder();
    const page = await browser!.newPage();
    try {
      const opened = await page.goto(order.checkout_url);
      expect(opened?.status()).toBe(200);
      await expect(page.title()).resolves.toContain('259 EUR');
      expect(await page.getByTestId('amount').textContent()).toBe('259 EUR');
      expect(await page.getByTestId('customer').textContent()).toContain('grace@example.com');

      await Promise.all([page.waitForURL(`${partner.url}/thanks?**`), page.getByRole('button', { name: 'Pay 259 EUR' }).click()]);

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

      // Back on the hosted page the checkout is over: no buttons to press again.
      await page.goto(order.checkout_url);
      expect(await page.getByTestId('state').textContent()).toContain('paid');
      expect(await page.getByRole('button').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  needsChromium('the guest cancels and lands on the cancel URL with payment=failed; the order is cancelled', async () => {
    const order = await newOrder();
    const page = await browser!.newPage();
    try {
      await page.goto(order.checkout_url);
      await Promise.all([page.waitForURL(`${partner.url}/cart?**`), page.getByRole('button', { name: 'Cancel' }).click()]);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('payment')).toBe('failed');
      expect(landed.searchParams.get('payment_order')).toBe(order.order_reference);
      expect(await page.locator('h1').textContent()).toBe('Your payment did not go through');
      expect(await orderStatus(order.order_reference)).toBe('cancelled');
    } finally {
      await page.close();
    }
  });
});
