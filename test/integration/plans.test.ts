/**
 * docs/behaviour.md "Plans and rate limits", the plan half: payment keys only on premium, moving to
 * standard revokes them (refused within 60 s even when the key's lookup is cached), and every
 * client's usage key registered in its plan's usage plan (locally: the gateway's registry).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
type Domain = {
  clients: typeof import('../../shared/domain/clients');
  usageKeys: typeof import('../../shared/store/usage-key-store');
};
let domain: Domain;

beforeAll(async () => {
  stack = await startTestStack();
  domain = { clients: await import('../../shared/domain/clients'), usageKeys: await import('../../shared/store/usage-key-store') };
});

afterAll(async () => {
  await stack?.stop();
});

const lookupOrder = (key: string) => stack.request('GET', '/api/v1/payments/payment-orders/PO-AAAAAAAAAAAA', { key });

describe('plans', () => {
  it('registers each new client\'s usage key in its plan, and moves it with the plan', async () => {
    const standard = await domain.clients.createClientAccount({ name: 'Standard hotel' });
    expect(standard.plan).toBe('standard');
    expect(standard.usage_key).toMatch(/^[0-9a-f]{40}$/);
    expect(await domain.usageKeys.getUsagePlanOfKey(standard.usage_key!)).toBe('standard');

    const { client } = await domain.clients.setClientPlan(standard.client_id, 'premium');
    expect(client).toMatchObject({ plan: 'premium', usage_key: standard.usage_key });
    expect(await domain.usageKeys.getUsagePlanOfKey(standard.usage_key!)).toBe('premium');
  });

  it('refuses a payment key to a standard client with 403 PLAN_REQUIRED, and refuses unknown plans', async () => {
    const client = await domain.clients.createClientAccount({ name: 'No payments hotel', plan: 'standard' });
    await expect(domain.clients.issueApiKey({ clientId: client.client_id, kind: 'payment' })).rejects.toMatchObject({ status: 403, code: 'PLAN_REQUIRED' });
    await expect(domain.clients.issueApiKey({ clientId: client.client_id, kind: 'sync' })).resolves.toMatchObject({ kind: 'sync' });
    await expect(domain.clients.createClientAccount({ name: 'x', plan: 'gold' })).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    await expect(domain.clients.setClientPlan(client.client_id, 'gold')).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });

  it('moving to standard revokes the payment keys: a key in use is refused with 401 within 60 s', { timeout: 75_000 }, async () => {
    const tenant = await stack.createTenant();
    // In use: the authorizer has its record cached.
    expect((await lookupOrder(tenant.paymentKey)).status).toBe(404);
    const started = Date.now();
    const { revoked } = await domain.clients.setClientPlan(tenant.clientId, 'standard');
    expect(revoked.map((k) => k.key_id)).toEqual([tenant.paymentKeyId]);
    let refused: Awaited<ReturnType<typeof lookupOrder>> | undefined;
    while (Date.now() - started < 60_000) {
      const answer = await lookupOrder(tenant.paymentKey);
      if (answer.status === 401) {
        refused = answer;
        break;
      }
      expect(answer.status).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(refused?.body.error.code).toBe('INVALID_API_KEY');
    // The sync key is untouched.
    const sync = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2031-01-01&check_out_date=2031-01-02&guests=1', { key: tenant.syncKey });
    expect(sync.status).toBe(200);
  });

  it('lists every client with its plan, oldest first', async () => {
    const a = await domain.clients.createClientAccount({ name: 'Listed A', plan: 'premium' });
    const b = await domain.clients.createClientAccount({ name: 'Listed B' });
    const listed = await domain.clients.listClientAccounts();
    const ours = listed.filter((c) => c.client_id === a.client_id || c.client_id === b.client_id);
    expect(ours.map((c) => [c.name, c.plan])).toEqual([
      ['Listed A', 'premium'],
      ['Listed B', 'standard'],
    ]);
  });
});
