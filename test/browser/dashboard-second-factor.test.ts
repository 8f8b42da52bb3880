/**
 * The dashboard's second factor in headless Chromium, on a 390 px phone and at 1280 px: an
 * operator created with `--mfa required` sets up an authenticator app after the password (QR code
 * and key), signs in again with a code on the "Code" page, and finds TOTP on under Security;
 * another operator turns it on from the Security page. No serious axe violation, nothing refused
 * by the CSP. Screenshots go to test-results/screenshots.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, imageDrawn, launchChromium, seriousAxeViolations, shoot } from '../support/browser';
import { OPERATOR_PASSWORD } from '../support/dashboard-client';
import { startTestStack, type TestStack } from '../support/stack';
import { totpCode, wrongCode } from '../support/totp';

/** None of these is in the README. */
const README_SHOTS = new Set<string>();

let stack: TestStack;
let clientId: string;
let browser: Browser | undefined;

const needsChromium = it.skipIf(!hasChromium);

beforeAll(async () => {
  stack = await startTestStack();
  ({ clientId } = await stack.createTenant());
  if (hasChromium) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function operator(mfa?: 'required'): Promise<string> {
  const { createOperator } = await import('../../shared/domain/operators');
  const email = `totp-${Math.random().toString(36).slice(2, 10)}@hotel.example`;
  await createOperator({ clientId, email, role: 'staff', password: OPERATOR_PASSWORD, mfa });
  return email;
}

/** A page that records what the CSP refused. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; refused: string[] }> {
  const page = await context.newPage();
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) refused.push(message.text());
  });
  return { page, refused };
}

async function signInWithPassword(page: Page, email: string) {
  await page.goto(`${stack.url}/dashboard`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The key the set-up page shows, as a person would copy it. */
const keyOnPage = async (page: Page) => ((await page.locator('code.secret').textContent()) ?? '').replace(/\s/g, '');

async function expectTidy(page: Page, label: string) {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${label}: ${JSON.stringify(violations)}`).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${label} overflows`).toBeLessThanOrEqual(0);
}

describe('the second factor in headless Chromium (skipped without Chromium)', () => {
  needsChromium('--mfa required on a phone: set-up after the password, then the Code page at every sign-in', async () => {
    const email = await operator('required');
    const context = await browser!.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const { page, refused } = await watchedPage(context);

    await signInWithPassword(page, email);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set up two-step verification');
    const qr = page.getByRole('img', { name: `QR code that adds ${email} to an authenticator app` });
    await expect(qr.isVisible()).resolves.toBe(true);
    // The QR code was drawn (a data: image the CSP allows), not a broken image.
    await expect(imageDrawn(qr)).resolves.toBe(true);
    await expectTidy(page, 'set-up page');
    await shoot(page, 'dashboard-mfa-setup-phone', README_SHOTS);
    // Nothing opens before the set-up is done.
    expect((await context.cookies()).map((c) => c.name).sort()).toEqual(['dashboard_mfa_setup', 'dashboard_mfa_setup_page']);
    // A reload shows the page again with the same key, never a raw error.
    const shown = await keyOnPage(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set up two-step verification');
    await expect(keyOnPage(page)).resolves.toBe(shown);

    const key = await keyOnPage(page);
    await page.getByLabel('Code').fill(wrongCode(key));
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('That code is not right');
    await expect(page.getByLabel('Code').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Code').fill(totpCode(key));
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sign in');
    await expect(page.getByRole('status').textContent()).resolves.toContain('Two-step verification is on.');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(OPERATOR_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Code');
    await expect(page.getByLabel('Code').getAttribute('inputmode')).resolves.toBe('numeric');
    await expectTidy(page, 'Code page');
    await shoot(page, 'dashboard-code-phone', README_SHOTS);
    await page.getByLabel('Code').fill(totpCode(key));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');

    await page.getByRole('link', { name: 'Security' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Security');
    await expect(page.locator('main').textContent()).resolves.toContain('On: after your password, a code from your authenticator app');
    await expectTidy(page, 'Security page');
    await shoot(page, 'dashboard-security-phone', README_SHOTS);
    expect(refused).toEqual([]);
    await context.close();
  });

  needsChromium('signing in again while set-up is pending keeps the same key; a code from that key completes the set-up', async () => {
    const email = await operator('required');
    const first = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const { page: firstPage } = await watchedPage(first);
    await signInWithPassword(firstPage, email);
    await expect(firstPage.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set up two-step verification');
    const scanned = await keyOnPage(firstPage);
    expect(scanned).toMatch(/^[A-Z2-7]{16,}$/);
    await first.close();

    // Another browser (nothing of the first one's cookies): the same key, so the app already scanned works.
    const again = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const { page } = await watchedPage(again);
    await signInWithPassword(page, email);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set up two-step verification');
    await expect(keyOnPage(page)).resolves.toBe(scanned);
    await page.getByLabel('Code').fill(totpCode(scanned));
    await page.getByRole('button', { name: 'Turn on and continue' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Two-step verification is on.');
    // Set up: the next sign-in asks for a code from that key, no set-up again.
    await signInWithPassword(page, email);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Code');
    await page.getByLabel('Code').fill(totpCode(scanned));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await again.close();
  });

  needsChromium('the Security page turns TOTP on for a signed-in operator', async () => {
    const email = await operator();
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, refused } = await watchedPage(context);
    await signInWithPassword(page, email);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await page.getByRole('link', { name: 'Security' }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('Off: your password alone signs you in');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set up an authenticator app');
    await expectTidy(page, 'Security set-up page');
    await shoot(page, 'dashboard-security-setup', README_SHOTS);
    await page.getByLabel('Code').fill(totpCode(await keyOnPage(page)));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('Two-step verification is on.');
    await expect(page.locator('main').textContent()).resolves.toContain('On: after your password');
    await shoot(page, 'dashboard-security-on', README_SHOTS);
    expect(refused).toEqual([]);
    await context.close();
  });
});
