/** Operator use cases: clients and their API keys. The full key leaves here once. */
import { randomUUID } from 'node:crypto';
import { DEFAULT_PLAN, isPlan, PAYMENT_KEY_PLANS, PLANS, type Plan } from '../../definitions/plans';
import { DELIVERY_SCOPES, KEY_SCOPES, type KeyKind, SYNC_SCOPES } from '../../definitions/scopes';
import { generateApiKey, hashApiKey } from '../auth/api-keys';
import { normalizeOrigin } from '../auth/authorize';
import { errors } from '../errors';
import { BELOW_RATE_ORDERS } from '../schemas/payments';
import { type AppliedSettings, clientSettingsOf, settingsProblems } from './client-settings';
import {
  type ApiKeyRecord,
  type ClientRecord,
  type ClientSettingsChange,
  clientIdsPage,
  createClient,
  getClient,
  listApiKeys,
  listClients,
  putApiKey,
  putClientSettings,
  revokeApiKey,
  updateClientPlan,
} from '../store/api-key-store';
import { type UsageKey, usagePlanKeys } from '../plans/usage-plan-keys';
import { mapConcurrent, type PageKey } from '../store/batch';
import { migrateClientConfig } from '../store/client-config';

export interface IssueKeyInput {
  clientId: string;
  kind: KeyKind;
  scopes?: string[];
  origins?: string[];
  name?: string;
}

export interface IssuedKey {
  key_id: string;
  key: string;
  kind: KeyKind;
  scopes: string[];
  origins: string[];
  name?: string;
}

export interface NewClient {
  name: string;
  /** @default DEFAULT_PLAN */
  plan?: string;
  /** @default USD */
  currency?: string;
  /** The hotel's IANA time zone; @default UTC */
  time_zone?: string;
}

function checkPlan(plan: string): Plan {
  if (!isPlan(plan)) throw errors.unknownPlan(PLANS);
  return plan;
}

/** A new client on a plan, with its usage key registered in that plan's usage plan. */
export async function createClientAccount(input: NewClient, now = new Date()): Promise<ClientRecord> {
  const name = input.name.trim();
  const currency = input.currency ?? 'USD';
  if (!name) throw errors.clientNameRequired();
  if (!/^[A-Z]{3}$/.test(currency)) throw errors.clientCurrencyInvalid();
  const plan = checkPlan(input.plan ?? DEFAULT_PLAN);
  const problems = settingsProblems({ time_zone: input.time_zone });
  if (problems.length) throw errors.validation(problems, problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  const clientId = randomUUID();
  const usageKey = await usagePlanKeys().create(clientId, plan);
  const client: ClientRecord = { client_id: clientId, name, currency, plan, ...usageKey, ...(input.time_zone ? { time_zone: input.time_zone } : {}), created_at: now.toISOString() };
  await createClient(client);
  return client;
}

export const listClientAccounts = listClients;

/** Clients of a page of the client index migrated at once. */
const MIGRATE_CONCURRENCY = 8;

/**
 * `ops clients migrate-config` (and the local stack at start): moves every client's profile,
 * provider settings and endpoints from the `CLIENT#` keys of versions before to its
 * `CLIENTCONFIG#` partition (shared/store/client-config.ts). Pages through the client index,
 * `pageSize` entries at a time (never a Scan); at most 8 reads and 4 conditional writes a client.
 * Idempotent: a second run copies nothing.
 */
export async function migrateClientConfigs(pageSize = 100): Promise<{ clients: number; copied: number; unset: number }> {
  const total = { clients: 0, copied: 0, unset: 0 };
  let previous = new Set<string>();
  let start: PageKey | undefined;
  do {
    const page = await clientIdsPage(pageSize, start);
    // A copied profile and its legacy item are both on the index, side by side (one creation
    // time and id): one client, whose two entries a page boundary may split.
    const ids = page.ids.filter((id) => !previous.has(id));
    previous = new Set(page.ids);
    for (const done of await mapConcurrent(ids, MIGRATE_CONCURRENCY, migrateClientConfig)) {
      total.copied += done.copied;
      total.unset += done.unset;
    }
    total.clients += ids.length;
    start = page.next;
  } while (start);
  return total;
}

/**
 * Changes a client's settings (those given; null: back to its default; the others kept) and
 * answers them all as they now apply. 400 VALIDATION_ERROR for a value out of range, 404
 * NOT_FOUND for an unknown client.
 */
export async function setClientSettings(clientId: string, settings: ClientSettingsChange): Promise<AppliedSettings> {
  const problems = settingsProblems(settings);
  if (problems.length) throw errors.validation(problems, problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  const client = await putClientSettings(clientId, settings);
  if (!client) throw errors.clientNotFound(clientId);
  return clientSettingsOf(client);
}

/**
 * Moves a client to a plan: its usage key into that plan's usage plan (its rate limits), and,
 * on a plan without payment keys, its payment keys revoked (they stop working within 60 s, as
 * any revoked key). Safe to repeat after a failure half way.
 */
export async function setClientPlan(clientId: string, plan: string, now = new Date()): Promise<{ client: ClientRecord; revoked: ApiKeyRecord[] }> {
  const target = checkPlan(plan);
  const client = await requireClient(clientId);
  const registry = usagePlanKeys();
  let usageKey: UsageKey;
  if (client.usage_key && client.usage_key_id) {
    usageKey = { usage_key: client.usage_key, usage_key_id: client.usage_key_id };
    await registry.assign(usageKey, target);
  } else {
    // A client made before plans existed gets its usage key now.
    usageKey = await registry.create(clientId, target);
  }
  const updated = await updateClientPlan(clientId, target, usageKey);
  if (!updated) throw errors.clientNotFound(clientId);
  const revoked: ApiKeyRecord[] = [];
  if (!PAYMENT_KEY_PLANS.includes(target)) {
    for (const key of await listApiKeys(clientId)) {
      if (key.kind !== 'payment' || key.revoked_at) continue;
      const done = await revokeApiKey(key.key_id, now);
      if (done) revoked.push(done);
    }
  }
  return { client: updated, revoked };
}

export async function issueApiKey(input: IssueKeyInput, now = new Date()): Promise<IssuedKey> {
  const client = await requireClient(input.clientId);
  if (input.kind === 'payment' && !PAYMENT_KEY_PLANS.includes(client.plan)) {
    throw errors.planRequired(PAYMENT_KEY_PLANS, client.plan);
  }
  let scopes: string[] = [];
  if (input.kind === 'sync') {
    // Without --scopes the spec's five; the delivery scopes only when asked for.
    scopes = input.scopes?.length ? [...new Set(input.scopes)] : [...SYNC_SCOPES];
    const unknown = scopes.filter((s) => !(KEY_SCOPES as readonly string[]).includes(s));
    if (unknown.length) {
      throw errors.unknownScopes(unknown, KEY_SCOPES);
    }
  } else if (input.scopes?.length) {
    // A payment key may carry the delivery scopes (its webhooks), nothing else; none unless asked for.
    scopes = [...new Set(input.scopes)];
    if (scopes.some((s) => !(DELIVERY_SCOPES as readonly string[]).includes(s))) throw errors.paymentKeyScopes();
  }
  const origins: string[] = [];
  for (const value of input.origins ?? []) {
    const origin = normalizeOrigin(value);
    if (!origin) throw errors.notAnOrigin(value);
    if (input.kind !== 'payment') throw errors.originsForPaymentKeys();
    origins.push(origin);
  }
  const key = generateApiKey(input.kind);
  const record: ApiKeyRecord = {
    key_id: randomUUID(),
    client_id: input.clientId,
    kind: input.kind,
    scopes,
    origins: [...new Set(origins)],
    ...(input.name ? { name: input.name } : {}),
    created_at: now.toISOString(),
  };
  await putApiKey(hashApiKey(key), record);
  return { key_id: record.key_id, key, kind: record.kind, scopes: record.scopes, origins: record.origins, ...(record.name ? { name: record.name } : {}) };
}

export async function requireClient(clientId: string): Promise<ClientRecord> {
  const client = await getClient(clientId);
  if (!client) throw errors.clientNotFound(clientId);
  return client;
}

/** The client, or undefined when there is none: for a page that shows what it can without it. */
export const findClient = (clientId: string): Promise<ClientRecord | undefined> => getClient(clientId);

export async function listClientKeys(clientId: string): Promise<ApiKeyRecord[]> {
  await requireClient(clientId);
  return listApiKeys(clientId);
}

/** Revokes a key of `clientId` only (the dashboard): another client's key id is 404, as an unknown one. */
export async function revokeClientKey(clientId: string, keyId: string): Promise<ApiKeyRecord> {
  const owned = (await listApiKeys(clientId)).some((key) => key.key_id === keyId);
  if (!owned) throw errors.noSuchKey();
  return revokeKey(keyId);
}

export async function revokeKey(keyId: string): Promise<ApiKeyRecord> {
  const revoked = await revokeApiKey(keyId);
  if (!revoked) throw errors.apiKeyNotFound(keyId);
  return revoked;
}
