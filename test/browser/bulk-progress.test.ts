/**
 * "Retry all failed and needs review" of more deliveries than one request marks, in headless
 * Chromium: the Deliveries page says the retry is still under way, "N of M sent", while the
 * sweeper has the rest to do, and stops saying so once it is done. The stack's sweeper runs only
 * at its start here (then hourly), so the test runs it when the page has been read.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot, signedInDashboard, watchCspViolations } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { writeFailedDeliveries } from '../support/failed-deliveries';
import { type Receiver, startReceiver, waitFor } from '../support/receiver';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const COUNT = 1_500;

let stack: TestStack;
let receiver: Receiver;
let hotel: Tenant;
let browser: Browser | undefined;
let email: string;

const needsChromium = it.skipIf(!hasChromium);

beforeAll(async () => {
  stack = await startTestStack({ sweepIntervalMs: 60 * 60_000 });
  receiver = await startReceiver();
  hotel = await stack.createTenant();
  const { configureEndpoint } = await import('../../shared/domain/callbacks/deliveries');
  await configureEndpoint(hotel.clientId, 'callback', { url: receiver.url });
  const { createOperator } = await import('../../shared/domain/operators');
  email = `front-desk-${Math.random().toString(36).slice(2, 8)}@hotel.example`;
  await createOperator({ clientId: hotel.clientId, email, role: 'staff', password: OPERATOR_PASSWORD });
  // The PMS was down for a while: 1,500 callbacks failed.
  await writeFailedDeliveries(hotel.clientId, COUNT, { since: new Date(Date.now() - 60_000) });
  if (hasChromium) browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.stop();
});

describe('a retry of all failed deliveries larger than one request, in headless Chromium', () => {
  needsChromium('shows "N of M sent" while the sweeper has the rest to send, and nothing once every delivery is sent', async () => {
    const page = await signedInDashboard(browser!, stack.url, email, OPERATOR_PASSWORD);
    const csp = watchCspViolations(page);
    await page.goto(`${stack.url}/dashboard/deliveries`);
    await page.getByRole('button', { name: 'Retry all failed and needs review' }).click();
    await page.getByRole('heading', { level: 1, name: 'Deliveries' }).waitFor();

    const progress = page.locator('#bulk-progress');
    const text = await progress.textContent();
    const [, sent] = /still under way: ([\d,]+) of 1,500 sent\./.exec(text ?? '') ?? [];
    expect(text).toMatch(/^“Retry all failed and needs review” \(\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\) is still under way: [\d,]+ of 1,500 sent\./);
    const marked = Number(sent!.replace(/,/g, ''));
    expect(marked).toBeGreaterThan(0);
    expect(marked).toBeLessThan(COUNT);
    await expect(progress.getAttribute('role')).resolves.toBe('status');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'dashboard-deliveries-bulk-progress', new Set());

    // The sweeper's runs, as its schedule would make them, until all 1,500 have arrived.
    await waitFor(
      `${COUNT} deliveries`,
      async () => {
        await stack.sweep();
        return new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size >= COUNT ? true : undefined;
      },
      90_000,
    );
    await page.reload();
    await expect(progress.count()).resolves.toBe(0);
    expect(csp).toEqual([]);
    await closePage(page);
  }, 180_000);
});
