/** Clients and their API keys on the single table. */
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_PLAN, type Plan } from '../../definitions/plans';
import type { KeyKind } from '../../definitions/routes';
import { batchGet, type PageKey, queryAll, queryPage, tableItemsOf } from './batch';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { isConditionFailure } from './items';
import { getConfigItem, unsetConfigItems, updateConfigItem } from './client-config';
import type { BelowRateOrders } from '../schemas/payments';

export interface ClientRecord {
  client_id: string;
  name: string;
  currency: string;
  /** Clients made before plans existed have none: they are `standard` (DEFAULT_PLAN). */
  plan: Plan;
  /**
   * The value of the client's API Gateway API key: the authorizer's usageIdentifierKey, which
   * puts all of the client's requests under its plan's usage plan (rate limits).
   */
  usage_key?: string;
  /** API Gateway's id of that API key (locally the value itself). */
  usage_key_id?: string;
  /** Guests may book on the guest booking page and pay at the property (a dashboard setting); unset: no. */
  pay_at_property?: boolean;
  /** How far ahead guests may book on the booking page, in days; unset: DEFAULT_BOOKING_HORIZON_DAYS. */
  booking_horizon_days?: number;
  /** Whether a room booking paid below its room's rate may lock the room; unset: `lock`. */
  below_rate_orders?: BelowRateOrders;
  /** The hotel's IANA time zone ("America/New_York"): its today, tonight and deadlines; unset: UTC. */
  time_zone?: string;
  /** Whether the guest page's prices include taxes; unset: the page says nothing either way. */
  taxes_included?: boolean;
  /** The cancellation policy in the hotel's words, shown to guests before they pay. */
  cancellation_policy?: string;
  /** Check-in from this local time ("15:00"), told to guests on their confirmation. */
  check_in_time?: string;
  /** The hotel's street address, told to guests on their confirmation. */
  address?: string;
  /** Guests may cancel their own booking (and are refunded in full) until this many hours before check-in; unset: DEFAULT_FREE_CANCELLATION_HOURS. */
  free_cancellation_hours?: number;
  /** The hotel's phone (E.164) and e-mail, told to guests on its pages and e-mails (the e-mail is their Reply-To). */
  phone?: string;
  email?: string;
  /** Taxes on the room price, in percent (0 to 100); unset: none added. */
  tax_percent?: number;
  /** The hotel's own booking-page address, `/book/<slug>` (kept unique by its SLUG# item). */
  slug?: string;
  /** The language of its guests' pages and e-mails when neither the guest nor their browser chose one (shared/i18n/languages.ts); unset: English. */
  language?: string;
  created_at: string;
}


/** The client settings that are plain values on its profile. */
export type ClientSettings = Pick<
  ClientRecord,
  | 'booking_horizon_days'
  | 'below_rate_orders'
  | 'time_zone'
  | 'taxes_included'
  | 'cancellation_policy'
  | 'check_in_time'
  | 'address'
  | 'free_cancellation_hours'
  | 'phone'
  | 'email'
  | 'tax_percent'
  | 'language'
>;

const CLIENT_FIELDS = [
  'client_id',
  'name',
  'currency',
  'plan',
  'usage_key',
  'usage_key_id',
  'pay_at_property',
  'booking_horizon_days',
  'below_rate_orders',
  'time_zone',
  'taxes_included',
  'cancellation_policy',
  'check_in_time',
  'address',
  'free_cancellation_hours',
  'phone',
  'email',
  'tax_percent',
  'slug',
  'language',
  'created_at',
] as const;

function toClient(item: Record<string, unknown>): ClientRecord {
  const record: Record<string, unknown> = { plan: DEFAULT_PLAN };
  for (const field of CLIENT_FIELDS) if (item[field] !== undefined) record[field] = item[field];
  return record as unknown as ClientRecord;
}

export interface ApiKeyRecord {
  key_id: string;
  client_id: string;
  kind: KeyKind;
  scopes: string[];
  origins: string[];
  name?: string;
  created_at: string;
  revoked_at?: string;
  last_used_at?: string;
}

const KEY_FIELDS = ['key_id', 'client_id', 'kind', 'scopes', 'origins', 'name', 'created_at', 'revoked_at', 'last_used_at'] as const;

function toApiKey(item: Record<string, unknown>): ApiKeyRecord {
  const record: Record<string, unknown> = {};
  for (const field of KEY_FIELDS) if (item[field] !== undefined) record[field] = item[field];
  return record as unknown as ApiKeyRecord;
}

/**
 * The client's profile, with its provider settings and endpoints "unset" beside it, all in its
 * configuration partition (shared/store/client-config.ts): its reads never fall back to `CLIENT#`.
 */
export async function createClient(client: ClientRecord): Promise<void> {
  const profile = { ...keys.client(client.client_id), ...keys.clientListIndex(client.created_at, client.client_id), entity: 'client', ...client };
  await db.send(
    new TransactWriteCommand({
      TransactItems: [profile, ...unsetConfigItems(client.client_id)].map((Item) => ({
        Put: { TableName: TABLE, Item, ConditionExpression: 'attribute_not_exists(pk)' },
      })),
    }),
  );
}

/** The client's profile; a client of a version before the configuration partition, at its legacy key. */
export async function getClient(clientId: string): Promise<ClientRecord | undefined> {
  const item = await getConfigItem(keys.client(clientId), keys.legacyClient(clientId));
  return item ? toClient(item) : undefined;
}

/**
 * An UpdateItem of the client's profile (copied from its legacy key first if only there): a field
 * given null is removed. Undefined when there is no such client.
 */
export async function updateClientProfile(clientId: string, fields: Record<string, unknown>): Promise<ClientRecord | undefined> {
  const entries = Object.entries(fields).map(([name, value], i) => ({ name: `#f${i}`, field: name, value: `:v${i}`, given: value }));
  const set = entries.filter((e) => e.given !== null);
  const removed = entries.filter((e) => e.given === null);
  const attributes = await updateConfigItem(keys.client(clientId), keys.legacyClient(clientId), {
    UpdateExpression: [
      set.length ? `SET ${set.map((e) => `${e.name} = ${e.value}`).join(', ')}` : '',
      removed.length ? `REMOVE ${removed.map((e) => e.name).join(', ')}` : '',
    ].join(' ').trim(),
    ExpressionAttributeNames: Object.fromEntries(entries.map((e) => [e.name, e.field])),
    ...(set.length ? { ExpressionAttributeValues: Object.fromEntries(set.map((e) => [e.value, e.given])) } : {}),
  });
  return attributes ? toClient(attributes) : undefined;
}

/** Settings to change: a value sets it, null removes it (its default applies again), one left out is kept. */
export type ClientSettingsChange = { [K in keyof ClientSettings]?: ClientSettings[K] | null };

/** Sets the given settings on the client's profile; the client as it now stands, undefined when there is none. */
export async function putClientSettings(clientId: string, settings: ClientSettingsChange): Promise<ClientRecord | undefined> {
  const entries = Object.entries(settings).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return getClient(clientId);
  return updateClientProfile(clientId, Object.fromEntries(entries));
}

/**
 * Every client, oldest first: the client index gives the ids, the table the records. A profile
 * copied from its legacy key is listed twice by the index (both carry the entry), once here; a
 * client not moved yet is read at its legacy key.
 */
export async function listClients(): Promise<ClientRecord[]> {
  const listed = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.allClients.gsi1pk },
  });
  const ids = [...new Set(listed.map((item) => keys.clientIdOfProfile(String(item.pk))))];
  const records = new Map((await batchGet(ids.map((id) => keys.client(id)))).map((item) => [item.client_id as string, toClient(item)]));
  const legacy = ids.filter((id) => !records.has(id));
  if (legacy.length) for (const item of await batchGet(legacy.map((id) => keys.legacyClient(id)))) records.set(item.client_id as string, toClient(item));
  return ids.flatMap((id) => records.get(id) ?? []);
}

/** A page of client ids from the client index, oldest first, and where the next page starts. */
export async function clientIdsPage(limit: number, start?: PageKey): Promise<{ ids: string[]; next?: PageKey }> {
  const { items, next } = await queryPage(
    { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': keys.allClients.gsi1pk } },
    { limit, ...(start ? { start } : {}) },
  );
  return { ids: [...new Set(items.map((item) => keys.clientIdOfProfile(String(item.pk))))], ...(next ? { next } : {}) };
}

/** Sets the plan (and the usage key, when the client had none); undefined when no such client. */
export async function updateClientPlan(clientId: string, plan: Plan, usageKey: { usage_key: string; usage_key_id: string }): Promise<ClientRecord | undefined> {
  return updateClientProfile(clientId, { plan, usage_key: usageKey.usage_key, usage_key_id: usageKey.usage_key_id });
}

/** Stores a new key by its hash, with a pointer from its id; both or neither. */
export async function putApiKey(keyHash: string, record: ApiKeyRecord): Promise<void> {
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: {
              ...keys.apiKeyByHash(keyHash),
              ...keys.apiKeyClientIndex(record.client_id, record.key_id),
              entity: 'api_key',
              ...record,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.apiKeyById(record.key_id), entity: 'api_key_id', key_hash: keyHash, client_id: record.client_id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
}

export async function findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
  const { Item } = await db.send(
    new GetCommand({ TableName: TABLE, Key: keys.apiKeyByHash(keyHash), ConsistentRead: true }),
  );
  return Item ? toApiKey(Item) : undefined;
}

/** A client's keys: the key index names them (it projects keys only), the table holds them. */
export async function listApiKeys(clientId: string): Promise<ApiKeyRecord[]> {
  const listed = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.apiKeysOfClient(clientId).gsi1pk },
  });
  return (await tableItemsOf(listed)).map(toApiKey);
}

/** Marks a key revoked; returns undefined when no such key exists. */
export async function revokeApiKey(keyId: string, now = new Date()): Promise<ApiKeyRecord | undefined> {
  const { Item: pointer } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.apiKeyById(keyId) }));
  if (!pointer) return undefined;
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: keys.apiKeyByHash(pointer.key_hash as string),
      UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': now.toISOString() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return Attributes ? toApiKey(Attributes) : undefined;
}

/**
 * Records that a key was used, at most once per interval: the conditional write is skipped
 * by DynamoDB when the stored time is recent, so a busy key does not cost a write per request.
 */
export async function touchApiKey(keyHash: string, now: Date, intervalMs: number): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.apiKeyByHash(keyHash),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :since)',
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':since': new Date(now.getTime() - intervalMs).toISOString(),
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
