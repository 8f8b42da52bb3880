/**
 * Headless Chromium for the browser tests: Debian's `chromium` package (installed by .ci/run)
 * driven by playwright-core, one browser per test file; and an axe-core audit of a page.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export function launchChromium(): Promise<Browser> {
  // playwright-core gives every launch a fresh temporary profile of its own.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
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
