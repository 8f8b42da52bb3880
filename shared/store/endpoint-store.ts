/** Per-client event endpoints: the URL and the signing secret, sealed (shared/secret-box.ts). */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { openSecret, sealSecret } from '../secret-box';
import { db, TABLE } from './dynamo';
import { keys } from './keys';

export type EndpointKind = 'callback' | 'webhook';

export interface EndpointConfig {
  url: string;
  /** The signing secret as stored: sealed. Only the sender opens it. */
  sealed_secret: string;
  updated_at: string;
}

export async function getEndpoint(clientId: string, kind: EndpointKind): Promise<EndpointConfig | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: TABLE, Key: keys.endpoint(clientId, kind), ConsistentRead: true }));
  return Item ? { url: Item.url, sealed_secret: Item.sealed_secret, updated_at: Item.updated_at } : undefined;
}

export async function putEndpoint(clientId: string, kind: EndpointKind, config: { url: string; secret: string; updated_at: string }): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...keys.endpoint(clientId, kind),
        entity: 'endpoint',
        kind,
        url: config.url,
        sealed_secret: await sealSecret(config.secret),
        updated_at: config.updated_at,
      },
    }),
  );
}

export function signingSecretOf(endpoint: EndpointConfig): Promise<string> {
  return openSecret(endpoint.sealed_secret);
}
