/**
 * The dashboard's Rates page and `ops rates` (docs/behaviour.md "Rates and restrictions per
 * date"): the calendar by category, plan and night (prices, base prices, closed nights, minimum
 * stays, what was set here), an admin's range set with the API's rules (audited, refusals next to
 * their fields), staff reading only; the CLI setting and showing the same.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardClient, signedInOperator, textOf } from '../support/dashboard-client';
import { runOps } from '../support/ops-cli';
import { addDays, rateSync } from '../support/rate-fixtures';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let clientId: string;
let admin: DashboardClient;
let staff: DashboardClient;
let dir: string;
let stackFile: string;
const TODAY = new Date().toISOString().slice(0, 10);
const D2 = addDays(TODAY, 2);
const D3 = addDays(TODAY, 3);

beforeAll(async () => {
  stack = await startTestStack();
  dir = mkdtempSync(join(tmpdir(), 'rates-'));
  stackFile = join(dir, 'stack.json');
  writeFileSync(stackFile, JSON.stringify(stack.info));
  const { createClientAccount } = await import('../../shared/domain/clients');
  clientId = (await createClientAccount({ name: `Rates ${randomUUID().slice(0, 6)}`, plan: 'premium', currency: 'EUR' })).client_id;
  const { put } = await rateSync(stack, clientId);
  await put('room-categories', { external_source: 'pms', categories: [{ external_category_id: 'dbl', name: 'Double room', base_price: 100 }] });
  await put('rate-plans', {
    external_source: 'pms',
    rate_plans: [
      { external_rate_plan_id: 'BAR', external_category_id: 'dbl', name: 'Flexible' },
      { external_rate_plan_id: 'NR', external_category_id: 'dbl', name: 'Non-refundable' },
    ],
  });
  await put('rates', {
    external_source: 'pms',
    updates: [
      { external_rate_plan_id: 'BAR', date: D2, price: 135.5, min_stay_arrival: 2 },
      { external_rate_plan_id: 'BAR', date: D3, stop_sell: true },
    ],
  });
  [admin, staff] = await Promise.all([signedInOperator(stack, clientId, 'admin'), signedInOperator(stack, clientId, 'staff')]);
});

afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The cells of a plan's row, as text. */
function rowOf(html: string, plan: string): string[] {
  const row = html.match(new RegExp(`<tr><th scope="row">${plan}[\\s\\S]*?</tr>`))?.[0] ?? '';
  return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => textOf(m[1]!));
}

describe('the Rates page', () => {
  it('shows each plan night by night: pushed and base prices, closed nights and minimum stays', async () => {
    const page = await staff.get('/dashboard/rates');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2 id="cat1">Double room</h2>');
    const bar = rowOf(page.text, 'Flexible');
    expect(bar).toHaveLength(14);
    expect(bar[0]).toBe('100.00');
    expect(bar[2]).toBe('135.50 Min 2');
    expect(bar[3]).toBe('100.00 Closed');
    expect(page.text).toMatch(/<td class="base closed">100.00<small>Closed<\/small><\/td>/);
    expect(rowOf(page.text, 'Non-refundable')[2]).toBe('100.00');
    // Staff read; only admins set.
    expect(page.text).not.toContain('Set rates for a range');
    const refused = await staff.request('POST', '/dashboard/rates', { plan: 'pms/BAR', date_from: D2, date_to: D2, price: '1' });
    expect(refused.status).toBe(403);
  });

  it('lets an admin set a range (deltas, weekdays), marks it as set here and records it in the audit', async () => {
    const form = await admin.get('/dashboard/rates');
    expect(form.text).toContain('Set rates for a range');
    expect(form.text).toContain('<option value="pms/NR">Double room: Non-refundable (NR)</option>');
    const set = await admin.request('POST', '/dashboard/rates', { plan: 'pms/NR', date_from: TODAY, date_to: addDays(TODAY, 6), price: '89', stop_sell: '', closed_to_arrival: 'yes' });
    expect(set.status, textOf(set.text).slice(0, 300)).toBe(303);
    const after = await admin.get(`/dashboard/rates?from=${TODAY}`);
    expect(textOf(after.text)).toContain('Rates set: 7 nights changed.');
    const nr = rowOf(after.text, 'Non-refundable');
    expect(nr.slice(0, 7)).toEqual(Array(7).fill('89.00 No arrival set here'));
    expect(nr[7]).toBe('100.00');
    // The PMS's values stay where the form left them.
    expect(rowOf(after.text, 'Flexible')[2]).toBe('135.50 Min 2');
    const audit = await admin.get('/dashboard/audit');
    expect(textOf(audit.text)).toContain(`Set rates of NR from ${TODAY} to ${addDays(TODAY, 6)}`);
  });

  it('answers a refused range with the messages next to the fields, writing nothing', async () => {
    const page = await admin.request('POST', '/dashboard/rates', { plan: 'pms/BAR', date_from: D2, date_to: TODAY, min_stay_arrival: '5', max_stay: '3' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('id="f-date_to-error"');
    expect(page.text).toContain('id="f-min_stay_arrival-error"');
    expect(rowOf(page.text, 'Flexible')[0]).toBe('100.00');
  });
});

describe('ops rates', () => {
  it('sets a range for weekdays and shows it, as the dashboard does', async () => {
    const set = await runOps(stackFile, ['rates', 'set', '--client', clientId, '--source', 'pms', '--plan', 'BAR', '--from', TODAY, '--to', addDays(TODAY, 13), '--days', 'sa,su', '--price', '150', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ external_source: 'pms', received: 1, days_changed: 4, days_stale: 0 });
    const shown = await runOps(stackFile, ['rates', 'show', '--client', clientId, '--from', TODAY, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const { categories } = JSON.parse(shown.stdout);
    const bar = categories[0].plans.find((p: { external_rate_plan_id: string }) => p.external_rate_plan_id === 'BAR');
    const weekend = bar.nights.filter((n: { date: string }) => [0, 6].includes(new Date(`${n.date}T00:00:00Z`).getUTCDay()));
    expect(weekend.map((n: { price: number; set_by: string }) => [n.price, n.set_by])).toEqual(Array(4).fill([150, 'operator']));
    const text = await runOps(stackFile, ['rates', 'show', '--client', clientId]);
    expect(text.stdout).toContain('Double room (pms/dbl)');
    const bad = await runOps(stackFile, ['rates', 'set', '--client', clientId, '--source', 'pms', '--plan', 'GHOST', '--from', TODAY, '--to', TODAY, '--price', '1', '--json']);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout).error.code).toBe('UNKNOWN_REFERENCE');
  });
});
