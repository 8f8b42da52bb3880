/** Per-client event endpoints: the URL and the signing secret, sealed (shared/secrets/sealed-secrets.ts). */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { openSecret, sealSecret } from '../secrets/sealed-secrets';
import { getConfigItem } from './client-config';
import { db, TABLE } from './dynamo';
import { isConditionFailure } from './items';
import { keys } from './keys';

export type EndpointKind = 'callback' | 'webhook';

export interface EndpointConfig {
  /** The client and kind the record was looked up by: the context its secret must open under. */
  client_id: string;
  kind: EndpointKind;
  url: string;
  /** The signing secret as stored: sealed for this client and kind. Only the sender opens it. */
  sealed_secret: string;
  updated_at: string;
}

/** The client's endpoint; undefined when it set none (an "unset" item), of a client before the configuration partition at its legacy key. */
export async function getEndpoint(clientId: string, kind: EndpointKind): Promise<EndpointConfig | undefined> {
  const Item = await getConfigItem(keys.endpoint(clientId, kind), keys.legacyEndpoint(clientId, kind), true);
  return Item?.url ? { client_id: clientId, kind, url: Item.url, sealed_secret: Item.sealed_secret, updated_at: Item.updated_at } : undefined;
}

/** Puts the whole record at its key in the configuration partition (a legacy item is shadowed from then on). */
export async function putEndpoint(clientId: string, kind: EndpointKind, config: { url: string; secret: string; updated_at: string }): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        ...keys.endpoint(clientId, kind),
        entity: 'endpoint',
        kind,
        url: config.url,
        sealed_secret: await sealSecret(config.secret, { client_id: clientId, kind }),
        updated_at: config.updated_at,
      },
    }),
  );
}

/**
 * Points the endpoint at another URL, its sealed signing secret kept as it is (the seal names the
 * client and the kind, not the URL). False, and nothing written, when the record changed its
 * secret since `endpoint` was read (a rotation in between).
 */
export async function putEndpointUrl(endpoint: EndpointConfig, url: string, updatedAt: string): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.endpoint(endpoint.client_id, endpoint.kind), entity: 'endpoint', kind: endpoint.kind, url, sealed_secret: endpoint.sealed_secret, updated_at: updatedAt },
        // Read at its legacy key: the new key has no record yet.
        ConditionExpression: 'attribute_not_exists(pk) OR sealed_secret = :sealed',
        ExpressionAttributeValues: { ':sealed': endpoint.sealed_secret },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// Opened secrets, per container: a KMS Decrypt per delivery would add latency and cost. Keyed by
// the context and the sealed text, so a new secret is a miss at once; the TTL bounds how long a
// secret stays in memory, and how long sending goes on after the key is disabled.
const OPENED_TTL_MS = 5 * 60_000;
const OPENED_MAX = 256;
const opened = new Map<string, { secret: string; until: number }>();

/** The endpoint's signing secret in clear; throws SecretCannotBeOpenedError if it does not open for this client and kind. */
export async function signingSecretOf(endpoint: EndpointConfig, now = Date.now()): Promise<string> {
  const cacheKey = JSON.stringify([endpoint.client_id, endpoint.kind, endpoint.sealed_secret]);
  const hit = opened.get(cacheKey);
  if (hit && hit.until > now) return hit.secret;
  opened.delete(cacheKey);
  const secret = await openSecret(endpoint.sealed_secret, { client_id: endpoint.client_id, kind: endpoint.kind });
  // Oldest first out: a Map iterates in insertion order.
  while (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value as string);
  opened.set(cacheKey, { secret, until: now + OPENED_TTL_MS });
  return secret;
}
