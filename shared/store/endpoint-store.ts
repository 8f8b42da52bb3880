/** Per-client event endpoints: the URL and the signing secret (needed in clear to sign). */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, TABLE } from './dynamo';
import { keys } from './keys';

export type EndpointKind = 'callback' | 'webhook';

export interface EndpointConfig {
  url: string;
  secret: string;
  updated_at: string;
}

export async function getEndpoint(clientId: string, kind: EndpointKind): Promise<EndpointConfig | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.endpoint(clientId, kind), ConsistentRead: true }));
  return Item ? { url: Item.url, secret: Item.secret, updated_at: Item.updated_at } : undefined;
}

export async function putEndpoint(clientId: string, kind: EndpointKind, config: EndpointConfig): Promise<void> {
  await db.send(new PutCommand({ TableName: TABLE, Item: { ...keys.endpoint(clientId, kind), entity: 'endpoint', kind, ...config } }));
}
