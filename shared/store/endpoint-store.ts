/**
 * Per-client event endpoints: the URL and the signing secret, sealed (shared/secrets/sealed-secrets.ts),
 * and after a rotation the previous secret, sealed as it was, with the end of its overlap: it
 * signs beside the new one until then, is ignored once that time has passed, and is left out by
 * the next write.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { openSecret, sealSecret, SecretCannotBeOpenedError } from '../secrets/sealed-secrets';
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
  /** The secret before the last rotation, sealed as it was; valid until `previous_valid_until`. */
  sealed_previous_secret?: string;
  previous_valid_until?: string;
  updated_at: string;
}

/** The previous secret's attributes, while its overlap lasts at `at`; none once it ended. */
function previousWhileValid(endpoint: Pick<EndpointConfig, 'sealed_previous_secret' | 'previous_valid_until'>, at: string) {
  const { sealed_previous_secret, previous_valid_until } = endpoint;
  return sealed_previous_secret && previous_valid_until && Date.parse(previous_valid_until) > Date.parse(at) ? { sealed_previous_secret, previous_valid_until } : {};
}

/** The client's endpoint; undefined when it set none (an "unset" item), of a client before the configuration partition at its legacy key. */
export async function getEndpoint(clientId: string, kind: EndpointKind): Promise<EndpointConfig | undefined> {
  const Item = await getConfigItem(keys.endpoint(clientId, kind), keys.legacyEndpoint(clientId, kind), true);
  if (!Item?.url) return undefined;
  return {
    client_id: clientId,
    kind,
    url: Item.url,
    sealed_secret: Item.sealed_secret,
    ...(Item.sealed_previous_secret ? { sealed_previous_secret: Item.sealed_previous_secret, previous_valid_until: Item.previous_valid_until } : {}),
    updated_at: Item.updated_at,
  };
}

/**
 * Puts the whole record at its key in the configuration partition (a legacy item is shadowed from
 * then on): the secret replaced at once, no previous one kept.
 */
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
 * client and the kind, not the URL), a previous secret kept while its overlap lasts. False, and
 * nothing written, when the record changed its secret since `endpoint` was read (a rotation in
 * between).
 */
export async function putEndpointUrl(endpoint: EndpointConfig, url: string, updatedAt: string): Promise<boolean> {
  return putIfSecretUnchanged(endpoint, { url, sealed_secret: endpoint.sealed_secret, ...previousWhileValid(endpoint, updatedAt), updated_at: updatedAt });
}

/**
 * Rotates the endpoint's secret: `secret` becomes the one it signs with, and the one it had
 * stays valid beside it until `previousValidUntil` (sealed as it is: the seal names the client
 * and the kind). A secret older than that is dropped. False, and nothing written, when the
 * record changed its secret since `endpoint` was read.
 */
export async function putRotatedSecret(endpoint: EndpointConfig, secret: string, previousValidUntil: string, updatedAt: string): Promise<boolean> {
  return putIfSecretUnchanged(endpoint, {
    url: endpoint.url,
    sealed_secret: await sealSecret(secret, { client_id: endpoint.client_id, kind: endpoint.kind }),
    sealed_previous_secret: endpoint.sealed_secret,
    previous_valid_until: previousValidUntil,
    updated_at: updatedAt,
  });
}

/**
 * Writes the endpoint's record as `fields` say, only if its secret is still the one `endpoint`
 * was read with; false, and nothing written, otherwise.
 */
async function putIfSecretUnchanged(endpoint: EndpointConfig, fields: Record<string, unknown>): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: TABLE,
        Item: { ...keys.endpoint(endpoint.client_id, endpoint.kind), entity: 'endpoint', kind: endpoint.kind, ...fields },
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

/**
 * The secrets the endpoint signs with at `now`: the current one and, while its overlap lasts,
 * the previous one. A previous secret that does not open is left out (the current one signs
 * alone); the current one throws SecretCannotBeOpenedError as signingSecretOf does.
 */
export async function signingSecretsOf(endpoint: EndpointConfig, now = new Date()): Promise<{ current: string; previous?: { secret: string; valid_until: string } }> {
  const current = await signingSecretOf(endpoint, now.getTime());
  const { sealed_previous_secret: sealed, previous_valid_until: until } = previousWhileValid(endpoint, now.toISOString());
  if (!sealed || !until) return { current };
  try {
    return { current, previous: { secret: await signingSecretOf({ ...endpoint, sealed_secret: sealed }, now.getTime()), valid_until: until } };
  } catch (error) {
    if (error instanceof SecretCannotBeOpenedError) return { current };
    throw error;
  }
}
