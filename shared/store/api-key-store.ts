/** Clients and their API keys on the single table. */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { KeyKind } from '../../infra/routes';
import { db, TABLE } from './dynamo';
import { keys } from './keys';
import { isConditionFailure } from './items';

export interface ClientRecord {
  client_id: string;
  name: string;
  currency: string;
  created_at: string;
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

export async function createClient(name: string, currency = 'USD'): Promise<ClientRecord> {
  const client: ClientRecord = { client_id: randomUUID(), name, currency, created_at: new Date().toISOString() };
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: { ...keys.client(client.client_id), entity: 'client', ...client },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return client;
}

export async function getClient(clientId: string): Promise<ClientRecord | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.client(clientId) }));
  return Item ? { client_id: Item.client_id, name: Item.name, currency: Item.currency, created_at: Item.created_at } : undefined;
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

export async function listApiKeys(clientId: string): Promise<ApiKeyRecord[]> {
  const found: ApiKeyRecord[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: TABLE,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.apiKeysOfClient(clientId).gsi1pk },
        ExclusiveStartKey: cursor,
      }),
    );
    found.push(...(page.Items ?? []).map(toApiKey));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return found;
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
