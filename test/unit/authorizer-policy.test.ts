/**
 * The authorizer's answers as API Gateway uses them: one cached policy per sync key covering
 * every sync route (Allow what its scopes allow, Deny the rest, one context for all), the
 * client's usage key for an allowed request, and invalid keys allowed without a usage key (API
 * Gateway then answers 401 INVALID_API_KEY). The key store is replaced by an in-memory one.
 */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiKeyRecord, ClientRecord } from '../../shared/store/api-key-store';
import { RATE_SCOPES, routes, SYNC_SCOPES } from '../../definitions/routes';
import { generateApiKey, hashApiKey } from '../../shared/auth/api-keys';

const store = vi.hoisted(() => ({
  keys: new Map<string, unknown>(),
  clients: new Map<string, unknown>(),
  touch: { fails: false, calls: 0 },
}));

vi.mock('../../shared/store/api-key-store', () => ({
  findApiKeyByHash: async (hash: string) => store.keys.get(hash),
  getClient: async (clientId: string) => store.clients.get(clientId),
  touchApiKey: async () => {
    store.touch.calls++;
    if (store.touch.fails) throw Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ThrottlingException' });
  },
}));

let handler: (event: APIGatewayRequestAuthorizerEvent) => Promise<any>;

beforeAll(async () => {
  // The warnings these cases log (a throttled bookkeeping write, a client without a usage key) stay out of the output.
  Object.assign(process.env, { STAGE: 'unit', TABLE_NAME: 'unit', POWERTOOLS_LOG_LEVEL: 'ERROR' });
  ({ handler } = await import('../../functions/authorizer'));
});

beforeEach(() => {
  store.touch.fails = false;
});

const ARN_BASE = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod';
const syncRoutes = routes.filter((r) => r.auth.kind === 'sync');
const arnOf = (route: (typeof routes)[number]) => `${ARN_BASE}/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`;
const availability = routes.find((r) => r.id === 'GetAvailability')!;
const putRooms = routes.find((r) => r.id === 'PutRooms')!;
const getOrder = routes.find((r) => r.id === 'GetPaymentOrder')!;

function client(usageKey: string | null = `uk-${Math.random()}`): ClientRecord {
  const record: ClientRecord = { client_id: `client-${Math.random()}`, name: 'Hotel', currency: 'USD', plan: 'premium', created_at: '2027-01-01T00:00:00.000Z', ...(usageKey ? { usage_key: usageKey } : {}) };
  store.clients.set(record.client_id, record);
  return record;
}

function issue(owner: ClientRecord, kind: 'sync' | 'payment', scopes: string[] = kind === 'sync' ? [...SYNC_SCOPES, ...RATE_SCOPES] : []): string {
  const key = generateApiKey(kind);
  const record: ApiKeyRecord = { key_id: `key-${Math.random()}`, client_id: owner.client_id, kind, scopes, origins: [], created_at: '2027-01-01T00:00:00.000Z' };
  store.keys.set(hashApiKey(key), record);
  return key;
}

function event(route: (typeof routes)[number], headers: Record<string, string>): APIGatewayRequestAuthorizerEvent {
  const path = route.path.replace(/\{[^}]+\}/g, 'PO-1');
  return { type: 'REQUEST', methodArn: `${ARN_BASE}/${route.method}${path}`, resource: route.path, path, httpMethod: route.method, headers } as unknown as APIGatewayRequestAuthorizerEvent;
}

const statement = (result: any, effect: 'Allow' | 'Deny'): string[] =>
  result.policyDocument.Statement.filter((s: any) => s.Effect === effect).flatMap((s: any) => s.Resource);

describe('the cached sync policy', () => {
  it('allows the routes of the key\'s scopes and denies the others, whichever route was called first', async () => {
    const owner = client();
    const key = issue(owner, 'sync', ['availability:read']);
    for (const called of [availability, putRooms]) {
      const result = await handler(event(called, { Authorization: `Bearer ${key}` }));
      expect(statement(result, 'Allow')).toEqual([arnOf(availability)]);
      expect(statement(result, 'Deny').sort()).toEqual(syncRoutes.filter((r) => r !== availability).map(arnOf).sort());
      expect(result.usageIdentifierKey).toBe(owner.usage_key);
      expect(result.context).toMatchObject({ client_id: owner.client_id, key_kind: 'sync', scopes: 'availability:read', code: 'INSUFFICIENT_SCOPE' });
      for (const scope of SYNC_SCOPES.filter((s) => s !== 'availability:read')) expect(result.context.message).toContain(scope);
    }
  });

  it('names the one scope a key lacks, and has no denial for a key with every scope', async () => {
    const owner = client();
    const narrow = await handler(event(availability, { authorization: `Bearer ${issue(owner, 'sync', [...SYNC_SCOPES, ...RATE_SCOPES].filter((s) => s !== 'rooms:write'))}` }));
    expect(statement(narrow, 'Deny')).toEqual([arnOf(putRooms)]);
    expect(narrow.context.message).toBe('The API key lacks the scope rooms:write');
    const full = await handler(event(availability, { authorization: `Bearer ${issue(owner, 'sync')}` }));
    expect(statement(full, 'Allow').sort()).toEqual(syncRoutes.map(arnOf).sort());
    expect(statement(full, 'Deny')).toEqual([]);
    expect(full.context.code).toBeUndefined();
  });

  it('denies every sync route to a payment key', async () => {
    const owner = client();
    const result = await handler(event(putRooms, { authorization: `Bearer ${issue(owner, 'payment')}` }));
    expect(statement(result, 'Allow')).toEqual([]);
    expect(statement(result, 'Deny').sort()).toEqual(syncRoutes.map(arnOf).sort());
    expect(result.context).toMatchObject({ code: 'INSUFFICIENT_SCOPE', message: 'A payment key cannot call this route; it needs a sync key' });
    expect(result.usageIdentifierKey).toBeUndefined();
  });
});

describe('invalid and missing keys', () => {
  it('allows an unknown, malformed or revoked key without a usage key, so API Gateway answers INVALID_API_KEY', async () => {
    const owner = client();
    const revoked = issue(owner, 'sync');
    (store.keys.get(hashApiKey(revoked)) as ApiKeyRecord).revoked_at = '2027-01-02T00:00:00.000Z';
    for (const presented of [generateApiKey('sync'), 'svc_sync_short', revoked, `Basic ${issue(owner, 'sync')}`]) {
      const authorization = presented.startsWith('Basic') ? presented : `Bearer ${presented}`;
      const result = await handler(event(availability, { authorization }));
      expect(result.usageIdentifierKey).toBeUndefined();
      expect(result.context).toEqual({ auth_error: 'INVALID_API_KEY' });
      expect(statement(result, 'Deny')).toEqual([]);
    }
  });

  it('throws Unauthorized without a key', async () => {
    await expect(handler(event(availability, {}))).rejects.toThrow('Unauthorized');
    await expect(handler(event(getOrder, { 'x-api-key': ' ' }))).rejects.toThrow('Unauthorized');
  });

  it('gives no usage key for a client that has none (API Gateway refuses it until the client gets a plan)', async () => {
    const result = await handler(event(availability, { authorization: `Bearer ${issue(client(null), 'sync')}` }));
    expect(statement(result, 'Allow')).toContain(arnOf(availability));
    expect(result.usageIdentifierKey).toBeUndefined();
  });
});

describe('the uncached payment policy', () => {
  it('treats a payment key of a client no longer on premium as invalid, even if its revocation was cut short', async () => {
    const owner = client();
    const key = issue(owner, 'payment');
    store.clients.set(owner.client_id, { ...owner, plan: 'standard' });
    const result = await handler(event(getOrder, { 'x-api-key': key }));
    expect(result.context).toEqual({ auth_error: 'INVALID_API_KEY' });
    expect(result.usageIdentifierKey).toBeUndefined();
  });

  it('covers the called route only, path parameters as wildcards', async () => {
    const owner = client();
    const result = await handler(event(getOrder, { 'x-api-key': issue(owner, 'payment') }));
    expect(result.policyDocument.Statement).toEqual([{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: [`${ARN_BASE}/GET/api/v1/payments/payment-orders/*`] }]);
    expect(result.usageIdentifierKey).toBe(owner.usage_key);
  });

  it('denies a sync key', async () => {
    const result = await handler(event(getOrder, { authorization: `Bearer ${issue(client(), 'sync')}` }));
    expect(statement(result, 'Deny')).toEqual([arnOf(getOrder)]);
    expect(result.context.code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('last_used_at bookkeeping', () => {
  it('never fails the request when the write is throttled', async () => {
    store.touch.fails = true;
    const calls = store.touch.calls;
    const result = await handler(event(availability, { authorization: `Bearer ${issue(client(), 'sync')}` }));
    expect(store.touch.calls).toBe(calls + 1);
    expect(statement(result, 'Allow')).toContain(arnOf(availability));
  });
});
