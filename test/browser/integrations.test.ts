/**
 * Integrations, the hotel settings and the reception QR sheet in headless Chromium, as an admin
 * and a receptionist use them: a refused callback URL comes back where it was typed, with the
 * message beside the field and an error summary linking to it; saving a new URL keeps the
 * signing secret; "Revoke" and "Rotate secret" open a confirmation page of their own, whose
 * button is red and whose Cancel changes nothing; the hotel settings save the time zone and what
 * guests are told; staff print the QR sheet and never reach Integrations. Every page: no serious
 * or critical axe violation, nothing wider than a 390 px phone. Screenshots for the staff guide.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, confirmPasswordIfAsked, hasChromium, imageDrawn, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { startTestStack, type Tenant, type TestStack } from '../support/stack';

/** The screenshots the staff guide and the README show (docs/screenshots with UPDATE_SCREENSHOTS=1). */
const README_SHOTS = new Set<string>(['dashboard-integrations-phone', 'dashboard-callback-url-error', 'dashboard-confirm-rotate', 'dashboard-hotel-settings-phone', 'dashboard-qr-sheet-phone']);

let stack: TestStack;
let tenant: Tenant;
let browser: Browser | undefined;
let admin: BrowserContext;
const emails = { admin: '', staff: '' };
const needsChromium = it.skipIf(!hasChromium);
const DESTRUCTIVE_RED = 'rgb(164, 14, 38)';

async function signIn(context: BrowserContext, email: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${stack.url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${stack.url}/dashboard`);
  return page;
}

/** No serious or critical axe violation, and nothing wider than the viewport (tables scroll in their own box). */
async function expectUsable(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Whether the element is wholly inside the viewport as the page now stands. */
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

const backgroundOf = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).evaluate((button) => getComputedStyle(button).backgroundColor);

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await stack.createTenant();
  const { updateClientProfile } = await import('../../shared/store/api-key-store');
  await updateClientProfile(tenant.clientId, { name: 'Hotel Miramar' });
  const { createOperator } = await import('../../shared/domain/operators');
  const suffix = Math.random().toString(36).slice(2, 8);
  emails.admin = `manager-${suffix}@hotel.example`;
  emails.staff = `reception-${suffix}@hotel.example`;
  await createOperator({ clientId: tenant.clientId, email: emails.admin, role: 'admin', password: OPERATOR_PASSWORD });
  await createOperator({ clientId: tenant.clientId, email: emails.staff, role: 'staff', password: OPERATOR_PASSWORD });
  if (hasChromium) {
    browser = await launchChromium();
    admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('Integrations, hotel settings and the QR sheet in headless Chromium (skipped without Chromium)', () => {
  needsChromium('a refused callback URL comes back at its form, beside the field, as typed; a new URL keeps the secret', async () => {
    const page = await signIn(admin, emails.admin);
    await page.goto(`${stack.url}/dashboard/integrations`);
    await expectUsable(page, 'Integrations');

    const typed = 'https://10.0.0.5/hooks/booking';
    await page.locator('#f-callback_url').fill(typed);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Save callback URL' }).click()]);
    expect(answer.status()).toBe(400);
    await page.waitForLoadState();
    // The browser opens the answer at the callback's own form: the summary and the field in view.
    expect(new URL(page.url()).hash).toBe('#endpoint-callback');
    expect(await inView(page, 'section[aria-labelledby="endpoint-callback"] .error-summary')).toBe(true);
    expect(await inView(page, '#f-callback_url')).toBe(true);
    await expect(page.locator('#f-callback_url').inputValue()).resolves.toBe(typed);
    await expect(page.locator('#f-callback_url-error').textContent()).resolves.toContain('The URL must not point inside the network');
    await expect(page.locator('#f-callback_url').getAttribute('aria-describedby')).resolves.toContain('f-callback_url-error');
    await expectUsable(page, 'Integrations with a refused URL');
    await shoot(page, 'dashboard-callback-url-error', README_SHOTS);
    // The summary's link leads to the field.
    await page.locator('.error-summary a[href="#f-callback_url"]').click();
    expect(new URL(page.url()).hash).toBe('#f-callback_url');

    // A good URL: the password once, then the secret shown once.
    await page.locator('#f-callback_url').fill('http://127.0.0.1:9/pms');
    await page.getByRole('button', { name: 'Save callback URL' }).click();
    await page.locator('#f-current_password').fill(OPERATOR_PASSWORD);
    await page.getByRole('button', { name: 'Confirm and save callback URL' }).click();
    const secret = (await page.locator('code.secret').textContent())?.trim();
    expect(secret).toMatch(/^whsec_/);
    // Another URL keeps it: no new secret, and the page says so.
    await page.locator('#f-callback_url').fill('http://127.0.0.1:9/pms/v2');
    await page.getByRole('button', { name: 'Save callback URL' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('The signing secret has not changed');
    expect(await page.locator('code.secret').count()).toBe(0);
    const { getEndpoint, signingSecretOf } = await import('../../shared/store/endpoint-store');
    expect(await signingSecretOf((await getEndpoint(tenant.clientId, 'callback'))!)).toBe(secret);
    await page.reload();
    await shoot(page, 'dashboard-integrations', README_SHOTS);

    await page.setViewportSize({ width: 390, height: 844 });
    await expectUsable(page, 'Integrations at 390 px');
    await shoot(page, 'dashboard-integrations-phone', README_SHOTS);
    await closePage(page);
  }, 90_000);

  needsChromium('"Revoke" and "Rotate secret" open a confirmation page with a red button; Cancel changes nothing', async () => {
    const page = await admin.newPage();
    await page.goto(`${stack.url}/dashboard/integrations`);
    const form = page.getByRole('form', { name: 'Create sync key' });
    await form.getByRole('checkbox', { name: 'bookings:write' }).check();
    await form.getByLabel('Name').fill('Front desk PMS');
    await form.getByRole('button', { name: 'Create key' }).click();
    await confirmPasswordIfAsked(page, OPERATOR_PASSWORD);
    const key = (await page.locator('code.secret').textContent())?.trim() ?? '';
    expect(key).toMatch(/^svc_sync_/);

    const row = () => page.getByRole('row').filter({ hasText: 'Front desk PMS' });
    const revoke = row().getByRole('button', { name: 'Revoke' });
    expect(await revoke.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(DESTRUCTIVE_RED);
    await revoke.click();
    expect(new URL(page.url()).pathname).toMatch(/\/dashboard\/integrations\/keys\/[0-9a-f-]{36}\/revoke$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Revoke this sync key?');
    const words = (await page.locator('main').textContent()) ?? '';
    expect(words).toContain('Front desk PMS');
    expect(words).toContain('This cannot be undone.');
    expect(await backgroundOf(page, 'Revoke key')).toBe(DESTRUCTIVE_RED);
    await expectUsable(page, 'Revoke confirmation');
    await shoot(page, 'dashboard-confirm-revoke', README_SHOTS);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectUsable(page, 'Revoke confirmation at 390 px');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('link', { name: 'Cancel' }).click();
    expect(new URL(page.url()).hash).toBe('#sync-keys');
    await expect(row().textContent()).resolves.toContain('active');
    const read = `/api/v1/property-sync/availability?check_in_date=2031-01-01&check_out_date=2031-01-02&guests=1`;
    const write = await stack.request('PUT', '/api/v1/property-sync/bookings', { key, body: { external_source: 'pms', bookings: [] } });
    expect(write.status).toBe(200);

    await row().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('was revoked');
    await expect(row().textContent()).resolves.toContain('revoked');
    expect((await stack.request('GET', read, { key: tenant.syncKey })).status).toBe(200);

    // Rotate: its page tells what the receiver will do.
    await page.locator('section[aria-labelledby="endpoint-callback"]').getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Rotate the callback signing secret?');
    // The old secret keeps working for the overlap; the page says for how long, and what happens after.
    expect((await page.locator('main').textContent()) ?? '').toContain('The current secret keeps working beside it for 24 hours');
    expect((await page.locator('main').textContent()) ?? '').toContain('a receiver still using the old one rejects every callback');
    expect(await backgroundOf(page, 'Rotate secret')).toBe(DESTRUCTIVE_RED);
    await expectUsable(page, 'Rotate confirmation');
    await shoot(page, 'dashboard-confirm-rotate', README_SHOTS);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('The callback signing secret was rotated: the previous secret works until');
    expect((await page.locator('code.secret').textContent())?.trim()).toMatch(/^whsec_/);
    await closePage(page);
  }, 90_000);

  needsChromium('hotel settings: an unknown zone is refused beside the field; the time zone and what guests are told are saved', async () => {
    const page = await admin.newPage();
    await page.goto(`${stack.url}/dashboard/integrations`);
    await page.getByRole('link', { name: 'Change hotel settings' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Hotel settings');
    await expect(page.getByLabel('Time zone').inputValue()).resolves.toBe('UTC');
    await expectUsable(page, 'Hotel settings');

    // A zone the list does not offer, as a hand-made form would send it.
    await page.locator('#f-time_zone').evaluate((select: HTMLSelectElement) => {
      select.add(new Option('Mars/Base', 'Mars/Base', true, true));
    });
    await page.getByLabel('Cancellation policy').fill('Free cancellation until 48 hours before arrival.');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.locator('.error-summary').textContent()).resolves.toContain('“Mars/Base” is not a time zone');
    await expect(page.locator('#f-time_zone-error').textContent()).resolves.toContain("choose your hotel's time zone from the list");
    await expect(page.getByLabel('Cancellation policy').inputValue()).resolves.toBe('Free cancellation until 48 hours before arrival.');
    await expectUsable(page, 'Hotel settings with an error');
    await shoot(page, 'dashboard-hotel-settings-error', README_SHOTS);

    await page.getByLabel('Time zone').selectOption('America/New_York');
    await page.getByRole('radio', { name: /^Yes/ }).check();
    await page.getByLabel('Check-in from').fill('15:00');
    await page.getByLabel('Address').fill('1 Ocean Drive\nMiami Beach, FL 33139');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Hotel settings saved');
    await expect(page.getByLabel('Time zone').inputValue()).resolves.toBe('America/New_York');
    await expect(page.getByLabel('Check-in from').inputValue()).resolves.toBe('15:00');
    expect((await page.locator('main').textContent()) ?? '').toMatch(/It is now \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} in America\/New_York/);
    await shoot(page, 'dashboard-hotel-settings', README_SHOTS);
    await page.setViewportSize({ width: 390, height: 844 });
    await expectUsable(page, 'Hotel settings at 390 px');
    await shoot(page, 'dashboard-hotel-settings-phone', README_SHOTS);
    await closePage(page);
  }, 90_000);

  needsChromium('staff open the QR sheet from Rooms and print only the sheet; Integrations answers them 403', async () => {
    const staff = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signIn(staff, emails.staff);
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Rooms', exact: true }).click();
    await page.getByRole('link', { name: 'Print the reception QR code' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Reception QR code');
    const sheet = page.locator('.qr-sheet');
    const url = `${stack.url}/book/${tenant.clientId}`;
    await expect(sheet.textContent()).resolves.toBe(`Hotel MiramarScan to book your room${url}`);
    // The QR code image loaded (the CSP allows the service's own images).
    expect(await imageDrawn(sheet.locator('img'))).toBe(true);
    await expectUsable(page, 'QR sheet');
    await shoot(page, 'dashboard-qr-sheet', README_SHOTS);

    // In print: the sheet alone, no header, navigation or instructions.
    await page.emulateMedia({ media: 'print' });
    for (const hidden of ['header.top', 'nav.nav', 'p.no-print', 'main > h1']) {
      expect(await page.locator(hidden).first().isVisible(), hidden).toBe(false);
    }
    expect(await sheet.isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });

    await page.setViewportSize({ width: 390, height: 844 });
    await expectUsable(page, 'QR sheet at 390 px');
    await shoot(page, 'dashboard-qr-sheet-phone', README_SHOTS);

    for (const path of ['/dashboard/integrations', '/dashboard/settings']) {
      const refused = await page.goto(`${stack.url}${path}`);
      expect(refused?.status(), path).toBe(403);
    }
    await staff.close();
  }, 90_000);
});
