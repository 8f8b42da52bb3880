/**
 * Integrations, as an admin uses it: a sync key made with one scope works with exactly that
 * scope, is shown once and never again; revoking it stops it; a payment key follows the plan
 * rules; callback URLs are checked as the API checks them and their secret is shown once per
 * rotation; every action leaves an audit entry naming the operator. Money routing: the Stripe
 * accounts the platform linked (ops CLI) are the only ones an admin can choose; choosing one,
 * creating a payment key and changing a callback or webhook URL ask for the password again (at
 * most 5 minutes old) and are audited with the old and the new value.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isPasswordPrompt, OPERATOR_PASSWORD, passwordPromptForm, signedInOperator, textOf, type DashboardClient } from '../support/dashboard-client';
import { runOps } from '../support/ops-cli';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let clientId: string;
let admin: DashboardClient;

const AVAILABILITY = '/api/v1/property-sync/availability?check_in_date=2031-01-01&check_out_date=2031-01-02&guests=1';
const ROOMS = '/api/v1/property-sync/rooms';
const SYNC_KEY = /svc_sync_[A-Za-z0-9_-]{32,}/;

beforeAll(async () => {
  stack = await startTestStack();
  ({ clientId } = await stack.createTenant());
  admin = await signedInOperator(stack, clientId, 'admin');
});

afterAll(async () => {
  await stack?.stop();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('keys', () => {
  it('creates a sync key with one scope, shown once, that can do exactly that; then revokes it', async () => {
    const page = await admin.submit('/dashboard/integrations/keys', { kind: 'sync', scopes: 'availability:read', name: 'Night audit' });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const key = SYNC_KEY.exec(page.text)?.[0];
    expect(key).toBeDefined();
    expect(textOf(page.text)).toContain('Copy it now: it is not shown again.');

    expect((await stack.request('GET', AVAILABILITY, { key })).status).toBe(200);
    const write = await stack.request('PUT', ROOMS, { key, body: { external_source: 'pms', rooms: [] } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');

    // A reload shows the key's metadata, not the key.
    const reloaded = await admin.get('/dashboard/integrations');
    expect(reloaded.text).not.toContain(key);
    expect(textOf(reloaded.text)).toContain('Night audit');
  });

  it('revokes a key: the page says so and the key is refused (at once when no authorizer cached it)', async () => {
    const page = await admin.submit('/dashboard/integrations/keys', { kind: 'sync', scopes: ['availability:read', 'rooms:write'] });
    const key = SYNC_KEY.exec(page.text)?.[0];
    const keyId = /key id ([0-9a-f-]{36})/.exec(textOf(page.text))?.[1];
    expect(keyId).toBeDefined();
    expect(textOf((await admin.get('/dashboard/integrations')).text)).toContain(`${keyId} availability:read, rooms:write`);

    const revoked = await admin.submit(`/dashboard/integrations/keys/${keyId}/revoke`);
    expect(textOf(revoked.text)).toContain(`Key ${keyId} was revoked`);
    expect(textOf(revoked.text)).toMatch(new RegExp(`${keyId} availability:read, rooms:write .* revoked`));
    expect((await stack.request('GET', AVAILABILITY, { key })).status).toBe(401);

    const audit = textOf((await admin.get('/dashboard/audit')).text);
    expect(audit).toContain('key.create');
    expect(audit).toContain('key.revoke');
    expect(audit).toContain(admin.email);
  });

  it('refuses a sync key without a scope, and a payment key on the standard plan (PLAN_REQUIRED)', async () => {
    const noScope = await admin.submit('/dashboard/integrations/keys', { kind: 'sync' });
    expect(textOf(noScope.text)).toContain('Choose at least one scope');
    expect(noScope.text).not.toMatch(SYNC_KEY);

    const { createClientAccount } = await import('../../shared/domain/clients');
    const standard = await createClientAccount({ name: 'Standard hotel', plan: 'standard' });
    const standardAdmin = await signedInOperator(stack, standard.client_id, 'admin');
    const refused = await standardAdmin.submitConfirmed('/dashboard/integrations/keys', { kind: 'payment', origins: 'https://hotel.example' });
    expect(textOf(refused.text)).toContain('Payment keys need the premium plan');
    expect(refused.text).not.toMatch(/svc_pay_/);
  });

  it('creates a payment key with its allowed origins', async () => {
    const page = await admin.submitConfirmed('/dashboard/integrations/keys', { kind: 'payment', origins: 'https://book.hotel.example, https://hotel.example', name: 'Website' });
    const key = /svc_pay_[A-Za-z0-9_-]{32,}/.exec(page.text)?.[0];
    expect(key).toBeDefined();
    const lookup = await stack.request('GET', '/api/v1/payments/payment-orders/nope', { key, headers: { Origin: 'https://evil.example' } });
    expect(lookup.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(textOf((await admin.get('/dashboard/integrations')).text)).toContain('https://book.hotel.example, https://hotel.example');
  });
});

describe('callback URL and provider', () => {
  it('refuses a URL pointing inside the network, with the reason', async () => {
    const page = await admin.submitConfirmed('/dashboard/integrations/endpoints/callback', { url: 'https://169.254.169.254/latest' });
    expect(textOf(page.text)).toContain('must not point inside the network');
    expect(page.text).not.toContain('Signing secret:');
  });

  it('saves a callback URL and shows its signing secret once; Rotate secret shows a new one', async () => {
    const saved = await admin.submitConfirmed('/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/pms' });
    const first = /Signing secret: <code class="secret">([^<]+)<\/code>/.exec(saved.text)?.[1];
    expect(first).toBeDefined();
    expect(textOf(saved.text)).toContain('Now: http://127.0.0.1:9/pms');

    const rotated = await admin.submit('/dashboard/integrations/endpoints/callback/rotate');
    const second = /Signing secret: <code class="secret">([^<]+)<\/code>/.exec(rotated.text)?.[1];
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const reloaded = await admin.get('/dashboard/integrations');
    expect(reloaded.text).not.toContain(second!);
  });

  it('sets the payment provider through the same rules as the CLI', async () => {
    const { linkStripeAccount } = await import('../../shared/domain/payments/provider-accounts');
    await linkStripeAccount(clientId, 'acct_1A2b3C4d5E');
    const bad = await admin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'not-an-account' });
    expect(textOf(bad.text)).toContain('Stripe needs the connected account id');
    const good = await admin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1A2b3C4d5E' });
    expect(textOf(good.text)).toContain('Payments now use stripe (acct_1A2b3C4d5E)');
    await admin.submitConfirmed('/dashboard/integrations/provider', { provider: 'sandbox' });
  });
});

describe('money routing: linked Stripe accounts and the password asked again', () => {
  let dir: string;
  let stackFile: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'integrations-test-'));
    stackFile = join(dir, 'stack.json');
    writeFileSync(stackFile, JSON.stringify(stack.info));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const link = async (client: string, account: string) => {
    const run = await runOps(stackFile, ['clients', 'link-stripe-account', '--client', client, '--account', account, '--json']);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as { linked_accounts: string[] };
  };

  /** The body rows of the audit table, as text. */
  const auditRows = async (operator: DashboardClient) =>
    ((await operator.get('/dashboard/audit')).text.split('<tbody>')[1] ?? '')
      .split('<tr>')
      .slice(1)
      .map((row) => textOf(row.split('</tr>')[0]!));

  it('offers only the accounts the platform linked, in a select; refuses any other; audits old and new', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const before = await hotelAdmin.get('/dashboard/integrations');
    expect(textOf(before.text)).toContain('No Stripe account is linked to your hotel yet');
    expect(before.text).not.toMatch(/name="account"/);

    // As the platform links them (ops CLI; test/integration/ops.test.ts covers the command itself).
    const { linkStripeAccount } = await import('../../shared/domain/payments/provider-accounts');
    await linkStripeAccount(hotel, 'acct_1LinkedFirst');
    expect((await link(hotel, 'acct_1LinkedSecond')).linked_accounts).toEqual(['acct_1LinkedFirst', 'acct_1LinkedSecond']);
    await linkStripeAccount(clientId, 'acct_1OtherHotels');

    const page = await hotelAdmin.get('/dashboard/integrations');
    const select = /<select id="f-account" name="account"[^>]*>([\s\S]*?)<\/select>/.exec(page.text);
    expect(select, 'a Stripe account select').not.toBeNull();
    expect([...select![1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual(['acct_1LinkedFirst', 'acct_1LinkedSecond']);
    expect(page.text).not.toMatch(/<input[^>]+name="account"/);

    // Every change is published for the ProviderAccountChanged alarm; a refusal or a re-save is not.
    const { metrics } = await import('../../shared/observability');
    const published = vi.spyOn(metrics, 'addMetric');
    const accountChanges = () => published.mock.calls.filter(([name]) => name === 'ProviderAccountChanged').length;

    // Another hotel's linked account, or one never linked, is refused even when posted by hand.
    const { getProviderSettings } = await import('../../shared/store/payment-store');
    for (const account of ['acct_1OtherHotels', 'acct_1NeverLinked']) {
      const refused = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account });
      expect(textOf(refused.text)).toContain(`The Stripe account ${account} is not linked to your hotel`);
      expect(await getProviderSettings(hotel)).toBeUndefined();
    }

    const first = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1LinkedFirst' });
    expect(textOf(first.text)).toContain('Payments now use stripe (acct_1LinkedFirst)');
    const second = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1LinkedSecond' });
    expect(textOf(second.text)).toContain('Payments now use stripe (acct_1LinkedSecond)');
    expect(await getProviderSettings(hotel)).toEqual({ provider: 'stripe', account: 'acct_1LinkedSecond' });
    const again = await hotelAdmin.submitConfirmed('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1LinkedSecond' });
    expect(textOf(again.text)).toContain('Payments already use stripe (acct_1LinkedSecond): nothing changed.');
    expect(accountChanges()).toBe(2);
    published.mockRestore();

    const changes = (await auditRows(hotelAdmin)).filter((row) => row.includes('provider.set'));
    expect(changes).toHaveLength(3);
    expect(changes[0]).toContain('account: acct_1LinkedSecond → acct_1LinkedSecond');
    expect(changes[1]).toContain(hotelAdmin.email);
    expect(changes[1]).toContain('account: acct_1LinkedFirst → acct_1LinkedSecond');
    expect(changes[1]).toContain('provider: stripe → stripe');
    expect(changes[2]).toContain('account: — → acct_1LinkedFirst');
    expect(changes[2]).toContain('provider: — → stripe');
  });

  it('asks for the password before a webhook URL, refuses a wrong one and changes nothing; the right one carries the form through', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const { getEndpoint } = await import('../../shared/store/endpoint-store');
    const url = 'http://127.0.0.1:9/shop?a=1&b=2';

    const prompt = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/webhook', { url });
    expect(isPasswordPrompt(prompt)).toBe(true);
    expect(textOf(prompt.text)).toContain('Confirm your password');
    expect(textOf(prompt.text)).toContain(`To change the webhook URL, enter your password again. You will not be asked again for 5 minutes. New webhook URL ${url}`);
    expect(passwordPromptForm(prompt.text)).toEqual({ action: '/dashboard/integrations/endpoints/webhook', fields: { url } });
    expect(prompt.text).toMatch(/<input id="f-current_password" name="current_password" type="password" required[^>]*autocomplete="current-password"/);
    expect(await getEndpoint(hotel, 'webhook')).toBeUndefined();

    for (const wrong of ['Wrong-horse-42', '']) {
      const refused = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/webhook', { url, current_password: wrong });
      expect(refused.status).toBe(401);
      expect(textOf(refused.text)).toContain('Incorrect password');
      expect(passwordPromptForm(refused.text).fields).toEqual({ url });
      expect(refused.headers.getSetCookie().join('\n')).not.toContain('dashboard_reauth');
      expect(await getEndpoint(hotel, 'webhook')).toBeUndefined();
    }

    const confirmed = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/webhook', { url, current_password: OPERATOR_PASSWORD });
    expect(confirmed.status).toBe(303);
    const cookie = confirmed.headers.getSetCookie().find((c) => c.startsWith('dashboard_reauth='));
    expect(cookie).toMatch(/^dashboard_reauth=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=300$/);
    expect(textOf((await hotelAdmin.get(confirmed.location!)).text)).toContain(`The webhook URL is now ${url}`);
    expect((await getEndpoint(hotel, 'webhook'))?.url).toBe(url);

    // Confirmed: a payment key within 5 minutes goes straight through; a sync key never asks.
    const key = await hotelAdmin.request('POST', '/dashboard/integrations/keys', { kind: 'payment', name: 'Shop' });
    expect(key.status).toBe(303);
    expect((await hotelAdmin.get(key.location!)).text).toMatch(/svc_pay_/);
    const other = await signedInOperator(stack, hotel, 'admin');
    expect((await other.request('POST', '/dashboard/integrations/keys', { kind: 'sync', scopes: 'rooms:write' })).status).toBe(303);
    expect(isPasswordPrompt(await other.request('POST', '/dashboard/integrations/keys', { kind: 'payment' }))).toBe(true);
  });

  it("does not take another operator's confirmation", async () => {
    const { clientId: hotel } = await stack.createTenant();
    const first = await signedInOperator(stack, hotel, 'admin');
    const confirmed = await first.request('POST', '/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/a', current_password: OPERATOR_PASSWORD });
    expect(confirmed.status).toBe(303);
    const second = await signedInOperator(stack, hotel, 'admin');
    second.setCookie('dashboard_reauth', first.cookie('dashboard_reauth')!);
    expect(isPasswordPrompt(await second.request('POST', '/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/b' }))).toBe(true);
    // A made-up token is no confirmation either.
    first.setCookie('dashboard_reauth', 'A'.repeat(43));
    expect(isPasswordPrompt(await first.request('POST', '/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/b' }))).toBe(true);
  });

  it('asks again once the confirmation is more than 5 minutes old; the audit shows the old and the new URL', async () => {
    const { clientId: hotel } = await stack.createTenant();
    const hotelAdmin = await signedInOperator(stack, hotel, 'admin');
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const first = await hotelAdmin.submitConfirmed('/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/old' });
    expect(textOf(first.text)).toContain('The callback URL is now http://127.0.0.1:9/old');

    vi.setSystemTime(start + 5 * 60_000 - 1000);
    const within = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/new' });
    expect(within.status).toBe(303);

    vi.setSystemTime(start + 5 * 60_000 + 1000);
    const late = await hotelAdmin.request('POST', '/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/newer' });
    expect(isPasswordPrompt(late)).toBe(true);
    const reconfirmed = await hotelAdmin.submit('/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/newer', current_password: OPERATOR_PASSWORD });
    expect(textOf(reconfirmed.text)).toContain('The callback URL is now http://127.0.0.1:9/newer');
    vi.useRealTimers();

    const changes = (await auditRows(hotelAdmin)).filter((row) => row.includes('callback.set_url'));
    expect(changes).toHaveLength(3);
    expect(changes[0]).toContain('url: http://127.0.0.1:9/new → http://127.0.0.1:9/newer');
    expect(changes[1]).toContain('url: http://127.0.0.1:9/old → http://127.0.0.1:9/new');
    expect(changes[2]).toContain('url: — → http://127.0.0.1:9/old');
    expect(changes[2]).toContain(hotelAdmin.email);
  });
});
