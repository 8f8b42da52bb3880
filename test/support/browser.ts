/**
 * Headless Chromium for the browser tests, driven by playwright-core, one browser per test file;
 * and an axe-core audit of a page. The browser is Debian's `chromium-headless-shell` package
 * where it is installed (.ci/run installs it), else Debian's `chromium`. Both are built from the
 * same Chromium sources (one version in Debian); the headless shell is the build Playwright runs
 * headless tests in, without the desktop browser's UI layers. Measured on this 2-core machine, the
 * browser project alone: 176 s and 329 CPU-s with `chromium`, 104 s and 182 CPU-s with the shell
 * (Chromium's own processes 194 -> 69 CPU-s; 145 -> 51 renderer processes).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Locator, type Page } from 'playwright-core';

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  // playwright-core gives every launch a fresh temporary profile of its own.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * A new page of its own context `width` px wide, signed in to the dashboard at `url` as `email`
 * (its password `password`), on the Overview. No MFA: the operators these tests make have none.
 */
export async function signedInDashboard(browser: Browser, url: string, email: string, password: string, width = 1280, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, ...options });
  const page = await context.newPage();
  await page.goto(`${url}/dashboard`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const heading = await page.getByRole('heading', { level: 1 }).textContent();
  if (heading !== 'Overview') throw new Error(`signing in as ${email} ended on "${heading}", not the Overview`);
  return page;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's serious and critical violations on the page as it stands (WCAG 2.1 A and AA rules
 * and best practices). The audit runs through the DevTools protocol's evaluate, which the page's
 * CSP (no scripts) does not govern, so the page under test keeps its real policy.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n: { target: string[] }) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Whether an image was drawn: once it has loaded (or failed), true when it decoded to a picture, false
 * when it is broken (a URL or policy that blocked it). A page's text can be there before its images.
 */
export function imageDrawn(image: Locator): Promise<boolean> {
  return image.evaluate(
    (img: HTMLImageElement) =>
      img.complete
        ? img.naturalWidth > 0
        : new Promise<boolean>((resolve) => {
            img.addEventListener('load', () => resolve(img.naturalWidth > 0), { once: true });
            img.addEventListener('error', () => resolve(false), { once: true });
          }),
  );
}

/**
 * What the page's console says of Content Security Policy violations (a form or a redirect after
 * it that the CSP's form-action blocks, a style or an image it refuses), from now on.
 */
export function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/**
 * Closes a page, and sees it closed. Chromium can acknowledge a close that races a navigation's
 * commit and then drop it, and Playwright's page.close() (which has no timeout) never returns
 * (crbug.com/536385539, microsoft/playwright#41900 and #42366; playwright-core 1.65.1 sends the
 * close once). A CI run met it on a page a cross-origin redirect had just brought back from the
 * sandbox checkout. Re-issuing the close destroys such a page, as the fixes proposed upstream do:
 * here through the page's own session (`runBeforeUnload`, which our pages do not use).
 */
export async function closePage(page: Page, { attempts = 5, everyMs = 1_000 } = {}): Promise<void> {
  if (page.isClosed()) return;
  const closed = new Promise<true>((resolve) => page.once('close', () => resolve(true)));
  void page.close().catch(() => undefined);
  for (let attempt = 0; attempt < attempts; attempt++) {
    const done = await Promise.race([closed, new Promise<false>((resolve) => setTimeout(() => resolve(false), everyMs))]);
    if (done || page.isClosed()) return;
    await page.close({ runBeforeUnload: true }).catch(() => undefined);
  }
  throw new Error(`the page at ${page.url()} did not close after ${attempts} attempts`);
}

/**
 * A guest pays a sandbox checkout in a browser, on a page of their own: its page on the sandbox's
 * own origin, "Pay", and the redirect back to the API's verify URL, whose answer sends the guest
 * on to the partner's return page (which need not exist here). Fails on any CSP violation on the
 * way.
 */
export async function payOnSandboxCheckout(context: BrowserContext, checkoutUrl: string, apiUrl: string): Promise<void> {
  const page = await context.newPage();
  try {
    const violations = watchCspViolations(page);
    const opened = await page.goto(checkoutUrl);
    if (opened?.status() !== 200) throw new Error(`the sandbox checkout answered ${opened?.status()}`);
    await pay(page, violations, apiUrl);
  } finally {
    await closePage(page);
  }
}

/**
 * The same on a page already on its way to the checkout (the booking page's "Book and pay" answered
 * with the redirect to it), as the guest's browser follows it; the page is left where verify sent
 * the guest.
 */
export async function payOnCheckoutPage(page: Page, checkoutUrl: string, apiUrl: string): Promise<void> {
  const violations = watchCspViolations(page);
  await page.waitForURL(checkoutUrl);
  await pay(page, violations, apiUrl);
}

async function pay(page: Page, violations: string[], apiUrl: string): Promise<void> {
  const checkout = new URL(page.url()).origin;
  if (checkout === new URL(apiUrl).origin) throw new Error(`the sandbox checkout ${page.url()} is on the API's origin`);
  const verify = `${apiUrl}/api/v1/payments/payment-orders/verify?`;
  const [verified] = await Promise.all([page.waitForResponse((r) => r.url().startsWith(verify)), page.getByRole('button', { name: /^Pay / }).click()]);
  if (verified.status() !== 303) throw new Error(`verify answered ${verified.status()}`);
  // Until the page has committed where verify sent it: Chromium can drop a close that races a
  // cross-origin navigation's commit, and page.close() then never returns (crbug.com/536385539,
  // microsoft/playwright#41900), which a CI run met.
  await page.waitForURL((url) => url.origin !== checkout && !url.href.startsWith(verify), { waitUntil: 'commit' });
  if (violations.length) throw new Error(`CSP violations on the sandbox checkout: ${violations.join(' | ')}`);
}

const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');
const README_SCREENSHOTS = join(process.cwd(), 'docs', 'screenshots');

/**
 * A full-page screenshot in test-results/screenshots; with UPDATE_SCREENSHOTS=1, the ones the
 * README shows (`readmeShots`) are copied to docs/screenshots as well.
 */
export async function shoot(page: Page, name: string, readmeShots: ReadonlySet<string>): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (process.env.UPDATE_SCREENSHOTS === '1' && readmeShots.has(name)) {
    mkdirSync(README_SCREENSHOTS, { recursive: true });
    copyFileSync(file, join(README_SCREENSHOTS, `${name}.png`));
  }
}

/**
 * After a submit whose action asks for the password again (a key, a signing secret, the payment
 * provider): on the "Confirm your password" page, types `password` and confirms, as an operator
 * does; any other page (confirmed in the last 5 minutes) is left as it is.
 */
export async function confirmPasswordIfAsked(page: Page, password: string): Promise<boolean> {
  await page.getByRole('heading', { level: 1 }).waitFor();
  if ((await page.getByRole('heading', { level: 1 }).textContent()) !== 'Confirm your password') return false;
  const form = page.getByRole('form', { name: 'Confirm your password' });
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button').click();
  await page.waitForLoadState();
  return true;
}
