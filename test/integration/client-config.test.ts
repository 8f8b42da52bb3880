/**
 * A client's configuration lives in its own partition, `CLIENTCONFIG#` (docs/data-model.md
 * "Client configuration"), which no public function may write. Data of versions before kept the
 * profile, provider settings and endpoints in `CLIENT#`: read there while the new item is absent,
 * copied over on the first update (concurrent updates both kept), and moved by
 * `ops clients migrate-config`, after which a legacy item written later is never read.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeFunction, withinInvocation } from '../../infra/local/lambda-runtime';
import { takeTableRefusals } from '../../infra/local/table-guard';
import { findRoute } from '../../definitions/routes';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let dynamo: typeof import('../../shared/store/dynamo');
let keys: typeof import('../../shared/store/keys').keys;
let clientStore: typeof import('../../shared/store/api-key-store');
let paymentStore: typeof import('../../shared/store/payment-store');
let endpointStore: typeof import('../../shared/store/endpoint-store');
let guestStore: typeof import('../../shared/store/guest-booking-store');
let clients: typeof import('../../shared/domain/clients');

beforeAll(async () => {
  stack = await startTestStack();
  dynamo = await import('../../shared/store/dynamo');
  keys = (await import('../../shared/store/keys')).keys;
  clientStore = await import('../../shared/store/api-key-store');
  paymentStore = await import('../../shared/store/payment-store');
  endpointStore = await import('../../shared/store/endpoint-store');
  guestStore = await import('../../shared/store/guest-booking-store');
  clients = await import('../../shared/domain/clients');
});

afterAll(() => stack?.stop());

const get = async (key: { pk: string; sk: string }) => (await dynamo.db.send(new GetCommand({ TableName: dynamo.TABLE, Key: key, ConsistentRead: true }))).Item;
const put = (item: Record<string, unknown>) => dynamo.db.send(new PutCommand({ TableName: dynamo.TABLE, Item: item }));
const remove = (key: { pk: string; sk: string }) => dynamo.db.send(new DeleteCommand({ TableName: dynamo.TABLE, Key: key }));

/** A client as a version before the configuration partition wrote it: profile, provider settings and callback in `CLIENT#`. */
async function legacyClient(): Promise<string> {
  const clientId = randomUUID();
  const createdAt = new Date().toISOString();
  await put({
    ...keys.legacyClient(clientId),
    ...keys.clientListIndex(createdAt, clientId),
    entity: 'client',
    client_id: clientId,
    name: 'Legacy hotel',
    currency: 'EUR',
    plan: 'standard',
    usage_key: 'legacy-usage-key',
    usage_key_id: 'legacy-usage-key',
    created_at: createdAt,
  });
  await put({ ...keys.legacyProviderSettings(clientId), entity: 'provider_settings', provider: 'stripe', account: 'acct_1Legacy' });
  await put({ ...keys.legacyEndpoint(clientId, 'callback'), entity: 'endpoint', kind: 'callback', url: 'https://legacy.example/cb', sealed_secret: 'v2:sealed', updated_at: createdAt });
  return clientId;
}

describe('client configuration partition', () => {
  it('a new client has its profile, and its provider settings and endpoints unset, in CLIENTCONFIG#; nothing in CLIENT#', async () => {
    const client = await clients.createClientAccount({ name: 'New hotel' });
    const id = client.client_id;
    expect(await get(keys.client(id))).toMatchObject({ pk: `CLIENTCONFIG#${id}`, sk: 'PROFILE', name: 'New hotel' });
    for (const key of [keys.providerSettings(id), keys.endpoint(id, 'callback'), keys.endpoint(id, 'webhook')]) expect(await get(key)).toMatchObject({ unset: true });
    for (const key of [keys.legacyClient(id), keys.legacyProviderSettings(id), keys.legacyEndpoint(id, 'callback')]) expect(await get(key)).toBeUndefined();
    expect(await paymentStore.getProviderSettings(id)).toBeUndefined();
    expect(await endpointStore.getEndpoint(id, 'webhook')).toBeUndefined();

    // A legacy item written later (CLIENT# is writable by the public functions) is never read.
    await put({ ...keys.legacyProviderSettings(id), entity: 'provider_settings', provider: 'stripe', account: 'acct_1Planted' });
    await put({ ...keys.legacyEndpoint(id, 'webhook'), entity: 'endpoint', kind: 'webhook', url: 'https://planted.example', sealed_secret: 'x', updated_at: 'x' });
    expect(await paymentStore.getProviderSettings(id)).toBeUndefined();
    expect(await endpointStore.getEndpoint(id, 'webhook')).toBeUndefined();
  });

  it('reads a legacy client where it is, and the first update copies it whole to CLIENTCONFIG#', async () => {
    const id = await legacyClient();
    expect(await clientStore.getClient(id)).toMatchObject({ client_id: id, name: 'Legacy hotel', plan: 'standard' });
    expect(await paymentStore.getProviderSettings(id)).toEqual({ provider: 'stripe', account: 'acct_1Legacy' });
    expect(await endpointStore.getEndpoint(id, 'callback')).toMatchObject({ client_id: id, url: 'https://legacy.example/cb', sealed_secret: 'v2:sealed' });
    expect(await endpointStore.getEndpoint(id, 'webhook')).toBeUndefined();
    expect((await clientStore.listClients()).filter((c) => c.client_id === id)).toHaveLength(1);

    const settings = await clients.setClientSettings(id, { booking_horizon_days: 30 });
    expect(settings.booking_horizon_days).toBe(30);
    expect(await get(keys.client(id))).toMatchObject({ name: 'Legacy hotel', currency: 'EUR', usage_key: 'legacy-usage-key', booking_horizon_days: 30, gsi1pk: 'CLIENTS' });
    // The legacy item stays as it was; reads no longer reach it.
    expect(await get(keys.legacyClient(id))).not.toHaveProperty('booking_horizon_days');
    expect(await clientStore.getClient(id)).toMatchObject({ booking_horizon_days: 30 });
    // Both index entries, one client.
    expect((await clientStore.listClients()).filter((c) => c.client_id === id)).toEqual([expect.objectContaining({ booking_horizon_days: 30 })]);

    // Whole records are put at the new key.
    await paymentStore.putProviderSettings(id, { provider: 'sandbox' });
    expect(await paymentStore.getProviderSettings(id)).toEqual({ provider: 'sandbox' });
    expect(await get(keys.legacyProviderSettings(id))).toMatchObject({ account: 'acct_1Legacy' });
  });

  it('concurrent updates of a legacy profile: one copies, none loses its change', async () => {
    const id = await legacyClient();
    await Promise.all([
      clients.setClientSettings(id, { booking_horizon_days: 90 }),
      clients.setClientSettings(id, { below_rate_orders: 'manual' }),
      guestStore.putPayAtProperty(id, true),
    ]);
    expect(await clientStore.getClient(id)).toMatchObject({ booking_horizon_days: 90, below_rate_orders: 'manual', pay_at_property: true, name: 'Legacy hotel' });
    expect(await clientStore.putClientSettings(randomUUID(), { booking_horizon_days: 5 })).toBeUndefined();
  });

  it('the admins’ integrations page may copy and update a legacy profile; a public function may write no configuration', async () => {
    const id = await legacyClient();
    const integrations = routeFunction(findRoute('DashboardIntegrations'));
    expect(await withinInvocation(integrations, () => guestStore.putPayAtProperty(id, true))).toBe(true);
    expect(await get(keys.client(id))).toMatchObject({ pay_at_property: true });

    const other = await legacyClient();
    const guestBooking = routeFunction(findRoute('GuestBookingSearch'));
    const denied = expect.objectContaining({ name: 'AccessDeniedException', message: expect.stringContaining(`partition key CLIENTCONFIG#${other}`) });
    await expect(withinInvocation(guestBooking, () => guestStore.putPayAtProperty(other, true))).rejects.toEqual(denied);
    await expect(withinInvocation(guestBooking, () => paymentStore.putProviderSettings(other, { provider: 'sandbox' }))).rejects.toEqual(denied);
    expect(takeTableRefusals()).toHaveLength(2);
    // Reading, as every public function does, still works.
    expect(await withinInvocation(guestBooking, () => clientStore.getClient(other))).toMatchObject({ client_id: other });
  });

  it('the authorizer finds a legacy client’s profile: its keys work', async () => {
    const tenant = await stack.createTenant();
    const profile = (await get(keys.client(tenant.clientId)))!;
    await put({ ...profile, ...keys.legacyClient(tenant.clientId) });
    await remove(keys.client(tenant.clientId));
    const answer = await stack.request('GET', '/api/v1/property-sync/availability?check_in_date=2027-01-10&check_out_date=2027-01-12&guests=2', { key: tenant.syncKey });
    expect(answer.status).toBe(200);
  });

  it('migrate-config copies every legacy item and writes the unset ones; a second run changes nothing', async () => {
    const id = await legacyClient();
    const first = await clients.migrateClientConfigs(25);
    expect(first.clients).toBeGreaterThan(0);
    expect(first.copied).toBeGreaterThanOrEqual(3);
    expect(await get(keys.client(id))).toMatchObject({ name: 'Legacy hotel', gsi1pk: 'CLIENTS' });
    expect(await get(keys.providerSettings(id))).toMatchObject({ provider: 'stripe', account: 'acct_1Legacy' });
    expect(await get(keys.endpoint(id, 'callback'))).toMatchObject({ url: 'https://legacy.example/cb', sealed_secret: 'v2:sealed' });
    expect(await get(keys.endpoint(id, 'webhook'))).toMatchObject({ unset: true });
    const { migrateClientConfig } = await import('../../shared/store/client-config');
    expect(await migrateClientConfig(id)).toEqual({ copied: 0, unset: 0 });

    // Migrated: a legacy item written since is not read.
    await put({ ...keys.legacyEndpoint(id, 'webhook'), entity: 'endpoint', kind: 'webhook', url: 'https://planted.example', sealed_secret: 'x', updated_at: 'x' });
    expect(await endpointStore.getEndpoint(id, 'webhook')).toBeUndefined();
    expect((await clientStore.listClients()).filter((c) => c.client_id === id)).toHaveLength(1);
  });
});
