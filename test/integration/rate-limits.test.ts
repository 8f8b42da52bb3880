/**
 * docs/behaviour.md "Plans and rate limits" and "Credentials" through the local gateway: per-client
 * token buckets from the plans' limits, the sync authorizer's cached policy (one per key, for
 * every sync route), revocation through both caches, and invalid keys refused before any route
 * function runs. The caches run with short TTLs here (the same code paths; the stack's TTLs are
 * checked in test/infra/gateway.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_LIMITS } from '../../definitions/plans';
import type { ClientRecord } from '../../shared/store/api-key-store';
import { type ApiResponse, startTestStack, type TestStack } from '../support/stack';

const GATEWAY_TTL_SECONDS = 4;
const KEY_CACHE_TTL_SECONDS = 4;

let stack: TestStack;
let domain: typeof import('../../shared/domain/clients');

const availability = '/api/v1/property-sync/availability?check_in_date=2027-03-01&check_out_date=2027-03-03&guests=2';

beforeAll(async () => {
  process.env.AUTHORIZER_CACHE_TTL_SECONDS = String(GATEWAY_TTL_SECONDS);
  process.env.API_KEY_CACHE_TTL_SECONDS = String(KEY_CACHE_TTL_SECONDS);
  stack = await startTestStack({ planLimits: DEFAULT_PLAN_LIMITS });
  domain = await import('../../shared/domain/clients');
});

afterAll(async () => {
  await stack?.stop();
});

async function newClient(plan: 'standard' | 'premium'): Promise<ClientRecord> {
  return domain.createClientAccount({ name: `Rate limit hotel ${plan}`, plan });
}

function expectEnvelope(response: ApiResponse, status: number, code: string) {
  expect(response.status, response.text.slice(0, 200)).toBe(status);
  expect(response.body.error.code).toBe(code);
  expect(response.headers.get('x-request-id')).toBe(response.body.error.request_id);
}

describe('per-client rate limits', () => {
  it('answers a standard client over its limit 429 RATE_LIMITED, never 5xx, while another client is served', async () => {
    const noisy = await newClient('standard');
    const quiet = await newClient('standard');
    const noisyKey = (await stack.issueKey(noisy.client_id, 'sync')).key;
    const quietKey = (await stack.issueKey(quiet.client_id, 'sync')).key;
    // Load the functions first, so that the burst below measures the limits, not module loading.
    expect((await stack.request('GET', availability, { key: quietKey })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000)); // The quiet client's bucket is full again.

    const started = performance.now();
    const [burst, others] = await Promise.all([
      Promise.all(Array.from({ length: 200 }, () => stack.request('GET', availability, { key: noisyKey }))),
      Promise.all(Array.from({ length: 10 }, () => stack.request('GET', availability, { key: quietKey }))),
    ]);
    const seconds = (performance.now() - started) / 1000;

    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429), 'only 200 and 429').toEqual([]);
    const served = statuses.filter((s) => s === 200).length;
    const { rateLimit, burstLimit } = DEFAULT_PLAN_LIMITS.standard;
    expect(served).toBeGreaterThanOrEqual(burstLimit);
    expect(served).toBeLessThanOrEqual(burstLimit + Math.ceil(rateLimit * seconds) + 1);
    for (const limited of burst.filter((r) => r.status === 429)) {
      expectEnvelope(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(others.map((r) => r.status)).toEqual(others.map(() => 200));
  });

  it('gives a premium client its higher limit', async () => {
    const premium = await newClient('premium');
    const key = (await stack.issueKey(premium.client_id, 'sync')).key;
    const burst = await Promise.all(Array.from({ length: DEFAULT_PLAN_LIMITS.standard.burstLimit * 2 }, () => stack.request('GET', availability, { key })));
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 200));
  });
});

describe('the cached sync authorizer', () => {
  it('never applies a cached policy to a route the key may not call, nor refuses one it may', async () => {
    const owner = await newClient('premium');
    const narrow = (await stack.issueKey(owner.client_id, 'sync', { scopes: ['availability:read'] })).key;
    expect((await stack.request('GET', availability, { key: narrow })).status).toBe(200);
    const denied = await stack.request('PUT', '/api/v1/property-sync/rooms', { key: narrow, body: { external_source: 'pms', rooms: [] } });
    expectEnvelope(denied, 403, 'INSUFFICIENT_SCOPE');
    expect(denied.body.error.message).toContain('rooms:write');
    // And the other way round: a policy first made for a denied route.
    const other = (await stack.issueKey(owner.client_id, 'sync', { scopes: ['availability:read'] })).key;
    expectEnvelope(await stack.request('PUT', '/api/v1/property-sync/rooms', { key: other, body: { external_source: 'pms', rooms: [] } }), 403, 'INSUFFICIENT_SCOPE');
    expect((await stack.request('GET', availability, { key: other })).status).toBe(200);
  });

  it('runs the authorizer once per key for every sync route within the TTL', async () => {
    const owner = await newClient('premium');
    const key = (await stack.issueKey(owner.client_id, 'sync')).key;
    const before = stack.gateway.invocations('authorizer');
    expect((await stack.request('GET', availability, { key })).status).toBe(200);
    const put = await stack.request('PUT', '/api/v1/property-sync/room-categories', { key, body: { external_source: 'pms', room_categories: [] } });
    expect([401, 403, 429]).not.toContain(put.status);
    expect((await stack.request('GET', availability, { key })).status).toBe(200);
    expect(stack.gateway.invocations('authorizer') - before).toBe(1);
  });

  it('refuses a revoked sync key within both caches\' lives (under 60 s), though it served it from the cache right after', async () => {
    const owner = await newClient('premium');
    const issued = await stack.issueKey(owner.client_id, 'sync');
    expect((await stack.request('GET', availability, { key: issued.key })).status).toBe(200);
    const revokedAt = performance.now();
    await domain.revokeKey(issued.key_id);
    // Still the cached policy: the cache is on.
    expect((await stack.request('GET', availability, { key: issued.key })).status).toBe(200);
    let response: ApiResponse;
    do {
      await new Promise((r) => setTimeout(r, 250));
      response = await stack.request('GET', availability, { key: issued.key });
    } while (response.status === 200 && performance.now() - revokedAt < 60_000);
    expectEnvelope(response, 401, 'INVALID_API_KEY');
    expect((performance.now() - revokedAt) / 1000).toBeLessThan(GATEWAY_TTL_SECONDS + KEY_CACHE_TTL_SECONDS + 2);
  });
});

describe('keys refused before any route function runs', () => {
  it('answers invalid keys 401 INVALID_API_KEY and missing ones 401 MISSING_API_KEY without invoking the route function', async () => {
    const before = stack.gateway.invocations('GetAvailability');
    for (const key of [`svc_sync_${'A'.repeat(43)}`, 'not-a-key']) expectEnvelope(await stack.request('GET', availability, { key }), 401, 'INVALID_API_KEY');
    expectEnvelope(await stack.request('GET', '/api/v1/payments/payment-orders/PO-1', { key: `svc_pay_${'B'.repeat(43)}` }), 401, 'INVALID_API_KEY');
    const authorizerRuns = stack.gateway.invocations('authorizer');
    expectEnvelope(await stack.request('GET', availability), 401, 'MISSING_API_KEY');
    // A sync route without Authorization is refused before its (cached) authorizer runs.
    expect(stack.gateway.invocations('authorizer')).toBe(authorizerRuns);
    expect(stack.gateway.invocations('GetAvailability')).toBe(before);
  });
});
