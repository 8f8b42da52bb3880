/**
 * Integrations, as an admin uses it: a sync key made with one scope works with exactly that
 * scope, is shown once and never again; revoking it stops it; a payment key follows the plan
 * rules; callback URLs are checked as the API checks them and their secret is shown once per
 * rotation; every action leaves an audit entry naming the operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOperator, textOf, type DashboardClient } from '../support/dashboard-client';
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
    const refused = await standardAdmin.submit('/dashboard/integrations/keys', { kind: 'payment', origins: 'https://hotel.example' });
    expect(textOf(refused.text)).toContain('Payment keys need the premium plan');
    expect(refused.text).not.toMatch(/svc_pay_/);
  });

  it('creates a payment key with its allowed origins', async () => {
    const page = await admin.submit('/dashboard/integrations/keys', { kind: 'payment', origins: 'https://book.hotel.example, https://hotel.example', name: 'Website' });
    const key = /svc_pay_[A-Za-z0-9_-]{32,}/.exec(page.text)?.[0];
    expect(key).toBeDefined();
    const lookup = await stack.request('GET', '/api/v1/payments/payment-orders/nope', { key, headers: { Origin: 'https://evil.example' } });
    expect(lookup.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(textOf((await admin.get('/dashboard/integrations')).text)).toContain('https://book.hotel.example, https://hotel.example');
  });
});

describe('callback URL and provider', () => {
  it('refuses a URL pointing inside the network, with the reason', async () => {
    const page = await admin.submit('/dashboard/integrations/endpoints/callback', { url: 'https://169.254.169.254/latest' });
    expect(textOf(page.text)).toContain('must not point inside the network');
    expect(page.text).not.toContain('Signing secret:');
  });

  it('saves a callback URL and shows its signing secret once; Rotate secret shows a new one', async () => {
    const saved = await admin.submit('/dashboard/integrations/endpoints/callback', { url: 'http://127.0.0.1:9/pms' });
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
    const bad = await admin.submit('/dashboard/integrations/provider', { provider: 'stripe', account: 'not-an-account' });
    expect(textOf(bad.text)).toContain('Stripe needs the connected account id');
    const good = await admin.submit('/dashboard/integrations/provider', { provider: 'stripe', account: 'acct_1A2b3C4d5E' });
    expect(textOf(good.text)).toContain('Payments now use stripe (acct_1A2b3C4d5E)');
    await admin.submit('/dashboard/integrations/provider', { provider: 'sandbox' });
  });
});
