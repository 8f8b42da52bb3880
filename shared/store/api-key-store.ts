/** Clients and their API keys on the single table. */
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_PLAN, type Plan } from '../../infra/plans';
import type { KeyKind } from '../../infra/routes';
import { batchGet, queryAll, tableItemsOf } from './batch';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { isConditionFailure } from './items';
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
  created_at: string;
}


/** The client settings that are plain values on its profile. */
export type ClientSettings = Pick<ClientRecord, 'booking_horizon_days' | 'below_rate_orders'>;

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

export async function createClient(client: ClientRecord): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...keys.client(client.client_id), ...keys.clientListIndex(client.created_at, client.client_id), entity: 'client', ...client },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function getClient(clientId: string): Promise<ClientRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.client(clientId) }));
  return Item ? toClient(Item) : undefined;
}

/** Sets the given settings on the client's profile; the client as it now stands, undefined when there is none. */
export async function putClientSettings(clientId: string, settings: ClientSettings): Promise<ClientRecord | undefined> {
  const entries = Object.entries(settings).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return getClient(clientId);
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.client(clientId),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:v${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toClient(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Every client, oldest first: the client index gives the ids, the table the records. */
export async function listClients(): Promise<ClientRecord[]> {
  const listed = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.allClients.gsi1pk },
  });
  const ids = listed.map((item) => String(item.pk).slice('CLIENT#'.length));
  const records = new Map((await batchGet(ids.map((id) => keys.client(id)))).map((item) => [item.client_id as string, toClient(item)]));
  return ids.flatMap((id) => records.get(id) ?? []);
}

/** Sets the plan (and the usage key, when the client had none); undefined when no such client. */
export async function updateClientPlan(clientId: string, plan: Plan, usageKey: { usage_key: string; usage_key_id: string }): Promise<ClientRecord | undefined> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: TABLE,
        Key: keys.client(clientId),
        UpdateExpression: 'SET #plan = :plan, usage_key = :usage_key, usage_key_id = :usage_key_id',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': plan, ':usage_key': usageKey.usage_key, ':usage_key_id': usageKey.usage_key_id },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? toClient(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
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
