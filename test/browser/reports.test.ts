/**
 * The Reports page in headless Chromium (docs/behaviour.md "Reports"), as a hotel manager uses it:
 * "Reports" in the navigation, this month by default, a range chosen with "From" and "To", the
 * chart and the three tables, "Download CSV" saving the occupancy table as a file, and a range
 * ending before it starts answered beside "To" with the error summary. No serious or critical axe
 * violation, nothing sideways at 390 px. Screenshots: dashboard-reports-range (1280 px),
 * dashboard-reports-range-phone (docs/screenshots with UPDATE_SCREENSHOTS=1).
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/schemas/common';
import { closePage, hasChromium, launchChromium, seriousAxeViolations, shoot, signedInDashboard } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

const SHOTS = new Set<string>(['dashboard-reports-range-phone']);
const HOTEL = 'Harbour View Hotel';
const ROOMS = ['101', '102', '103', '104', '105', '106', '201', '202', '203', '204'];

let stack: TestStack;
let tenant: Tenant;
let browser: Browser | undefined;
let manager: BrowserContext;
let email: string;
/** A fortnight of last month: every stay in it is in the past, so the figures do not move. */
let from: string;
let to: string;

const needsChromium = it.skipIf(!hasChromium);

beforeAll(async () => {
  stack = await startTestStack();
  const { createClientAccount, setClientSettings } = await import('../../shared/domain/clients');
  const client = await createClientAccount({ name: HOTEL, plan: 'premium' });
  await setClientSettings(client.client_id, { time_zone: 'Europe/Lisbon' });
  const sync = await stack.issueKey(client.client_id, 'sync');
  tenant = { clientId: client.client_id, syncKey: sync.key, syncKeyId: sync.key_id, paymentKey: '', paymentKeyId: '' };
  const { createOperator } = await import('../../shared/domain/operators');
  email = `manager-${Math.random().toString(36).slice(2, 8)}@harbour.example`;
  await createOperator({ clientId: tenant.clientId, email, role: 'staff', password: OPERATOR_PASSWORD });

  const now = new Date();
  from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  to = addDays(from, 13);
  const rooms = await stack.request('PUT', '/api/v1/property-sync/rooms', {
    key: tenant.syncKey,
    body: { external_source: 'pms', rooms: ROOMS.map((n) => ({ external_room_id: `R${n}`, room_number: n, room_type: n < '200' ? 'double' : 'suite', price: n < '200' ? 120 : 180, max_occupancy: 2 })) },
  });
  expect(rooms.status).toBe(200);
  // A realistic fortnight: stays of 1 to 5 nights, busier at the weekends, a cancellation and a no-show.
  const names = ['Ana Silva', 'João Costa', 'Maria Santos', 'Pedro Alves', 'Inês Rocha', 'Rui Lopes', 'Sofia Dias', 'Tiago Reis', 'Marta Cruz', 'Luís Gomes'];
  const bookings = Array.from({ length: 34 }, (_, i) => {
    const room = ROOMS[i % ROOMS.length]!;
    const checkIn = addDays(from, (i * 5) % 14);
    const length = 1 + ((i * 7) % 5);
    const rate = room < '200' ? 120 : 180;
    return {
      external_booking_id: `PMS-${3000 + i}`,
      external_room_id: `R${room}`,
      guest_name: names[i % names.length]!,
      check_in_date: checkIn,
      check_out_date: addDays(checkIn, length),
      guests: 2,
      total_amount: rate * length - (i % 3) * 15,
      status: i === 7 ? 'cancelled' : i === 12 ? 'no_show' : 'checked_out',
    };
  });
  const synced = await stack.request('PUT', '/api/v1/property-sync/bookings', { key: tenant.syncKey, body: { external_source: 'pms', bookings } });
  expect(synced.status).toBe(200);

  if (hasChromium) {
    browser = await launchChromium();
    const page = await signedInDashboard(browser, stack.url, email, OPERATOR_PASSWORD, 1280, { acceptDownloads: true });
    manager = page.context();
    await closePage(page);
  }
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('the Reports page in headless Chromium (skipped without Chromium: .ci/run installs it)', () => {
  needsChromium('shows a chosen range with its chart and tables, and downloads a table as CSV', async () => {
    const page = await manager.newPage();
    await page.goto(`${stack.url}/dashboard`);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Reports' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Reports');
    await expect(page.getByLabel('From', { exact: true }).inputValue()).resolves.toMatch(/^\d{4}-\d{2}-01$/);

    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(to);
    await page.getByRole('button', { name: 'Show report' }).click();
    await expect(page.getByRole('img', { name: /^Occupancy and room revenue per night/ }).count()).resolves.toBe(1);
    for (const name of ['Occupancy and revenue', 'By origin', 'Payments by day']) await expect(page.getByRole('heading', { name }).count()).resolves.toBe(1);
    await expect(page.locator('main table').first().locator('tbody tr').count()).resolves.toBe(15);
    await expect(page.locator('main table').nth(1).locator('tbody tr').first().textContent()).resolves.toContain('PMS');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'dashboard-reports-range', SHOTS);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).first().click()]);
    expect(download.suggestedFilename()).toBe(`occupancy-${from}-to-${to}.csv`);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('date,rooms_in_service,rooms_sold,occupancy_percent,revenue,adr,revpar,currency');
    expect(csv.split('\r\n')).toHaveLength(14 + 3);

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shoot(page, 'dashboard-reports-range-phone', SHOTS);
    await closePage(page);
  });

  needsChromium('answers a range ending before it starts beside "To", with the error summary', async () => {
    const page = await manager.newPage();
    await page.goto(`${stack.url}/dashboard/reports`);
    await page.getByLabel('From', { exact: true }).fill(to);
    await page.getByLabel('To', { exact: true }).fill(from);
    await page.getByRole('button', { name: 'Show report' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('To: To must be the same as or after From');
    await expect(page.locator('#f-to-error').textContent()).resolves.toBe('To must be the same as or after From');
    await expect(page.getByLabel('From', { exact: true }).inputValue()).resolves.toBe(to);
    await closePage(page);
  });
});
