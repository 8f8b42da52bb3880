/**
 * Decides what a request's API key may do on a route. Domain code: the authorizer function
 * turns the decisions into an API Gateway policy (one route, or every sync route at once for
 * the cached sync authorizer).
 */
import { DEFAULT_API_KEY_CACHE_TTL_SECONDS } from '../../definitions/authorizers';
import { PAYMENT_KEY_PLANS } from '../../definitions/plans';
import type { RouteAuth } from '../../definitions/routes';
import { config } from '../config';
import { logger } from '../observability';
import { type ApiKeyRecord, type ClientRecord, findApiKeyByHash, getClient, touchApiKey } from '../store/api-key-store';
import { hashApiKey, kindOfKey, presentedKey } from './api-keys';

export interface Principal {
  clientId: string;
  keyId: string;
  kind: ApiKeyRecord['kind'];
  scopes: string[];
  /** Allowed browser origins of a payment key (return URLs must use one of them). */
  origins: string[];
  /**
   * The client's usage key (its API Gateway API key value): the authorizer's usageIdentifierKey,
   * which puts the request under the client's plan's rate limits. None for a client that never
   * got one: API Gateway then refuses the request (no valid API key).
   */
  usageKey?: string;
}

export type Denial = { effect: 'deny'; code: 'INSUFFICIENT_SCOPE' | 'ORIGIN_NOT_ALLOWED'; message: string };

export type AuthDecision = { effect: 'missing' } | { effect: 'invalid' } | Denial | { effect: 'allow'; principal: Principal };

/** A presented key that exists, is not revoked and belongs to an existing client. */
export interface ValidKey {
  effect: 'valid';
  key: ApiKeyRecord;
  client: ClientRecord;
}

export type KeyIdentity = { effect: 'missing' } | { effect: 'invalid' } | ValidKey;

/** Default life of a cached lookup: revocation must take effect within 60 s, gateway caches included. */
export const KEY_CACHE_TTL_MS = DEFAULT_API_KEY_CACHE_TTL_SECONDS * 1000;
/** last_used_at is written at most this often per key. */
export const LAST_USED_INTERVAL_MS = 5 * 60_000;

interface CachedKey {
  record: ApiKeyRecord | undefined;
  client: ClientRecord | undefined;
  fetchedAt: number;
}

const cache = new Map<string, CachedKey>();

/** The key and its client (plan, usage key), cached together for API_KEY_CACHE_TTL_SECONDS. */
async function lookup(keyHash: string, now: number): Promise<CachedKey> {
  const hit = cache.get(keyHash);
  if (hit && now - hit.fetchedAt < config().apiKeyCacheTtlSeconds * 1000) return hit;
  const record = await findApiKeyByHash(keyHash);
  const client = record && !record.revoked_at ? await getClient(record.client_id) : undefined;
  if (cache.size > 10_000) cache.clear();
  const entry = { record, client, fetchedAt: now };
  cache.set(keyHash, entry);
  return entry;
}

/**
 * Bookkeeping only: a throttled or failed write is logged and never fails the request. The
 * cached record remembers the attempt, so a container tries again after the interval.
 */
async function recordUse(keyHash: string, record: ApiKeyRecord, now: Date): Promise<void> {
  if (record.last_used_at && now.getTime() - Date.parse(record.last_used_at) <= LAST_USED_INTERVAL_MS) return;
  record.last_used_at = now.toISOString();
  try {
    await touchApiKey(keyHash, now, LAST_USED_INTERVAL_MS);
  } catch (error) {
    logger.warn('last_used_at not recorded', { key_id: record.key_id, error: { name: (error as Error).name, message: (error as Error).message } });
  }
}

/** Lower-cased `scheme://host[:port]`, or undefined when the value is not an origin. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.origin === 'null' ? undefined : url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Which key the request presents, and whether it is valid (headers in lower case). */
export async function identifyKey(headers: Record<string, string | undefined>, now = new Date()): Promise<KeyIdentity> {
  const presented = presentedKey(headers);
  if (!presented) return { effect: 'missing' };

  const claimedKind = kindOfKey(presented.key);
  // x-api-key is accepted for payment keys only.
  if (!claimedKind || (presented.header === 'x-api-key' && claimedKind !== 'payment')) return { effect: 'invalid' };

  const keyHash = hashApiKey(presented.key);
  const { record, client } = await lookup(keyHash, now.getTime());
  if (!record || record.revoked_at || record.kind !== claimedKind || !client) return { effect: 'invalid' };
  // Moving to standard revokes payment keys; this holds even if that revocation was cut short.
  if (record.kind === 'payment' && !PAYMENT_KEY_PLANS.includes(client.plan)) return { effect: 'invalid' };
  await recordUse(keyHash, record, now);
  return { effect: 'valid', key: record, client };
}

/** What a valid key may do on a route. `headers` matter for payment keys only (Origin). */
export function decideRoute(valid: ValidKey, required: RouteAuth, headers: Record<string, string | undefined>): Denial | { effect: 'allow'; principal: Principal } {
  const { key, client } = valid;
  if (required.kind === 'public') throw new Error('Public routes are not authorized');
  if (required.kind !== 'key' && key.kind !== required.kind) {
    return { effect: 'deny', code: 'INSUFFICIENT_SCOPE', message: `A ${key.kind} key cannot call this route; it needs a ${required.kind} key` };
  }
  if ((required.kind === 'sync' || required.kind === 'key') && !key.scopes.includes(required.scope)) {
    return { effect: 'deny', code: 'INSUFFICIENT_SCOPE', message: `The API key lacks the scope ${required.scope}` };
  }
  if (key.kind === 'payment' && headers['origin'] !== undefined) {
    const origin = normalizeOrigin(headers['origin']);
    if (!origin || !key.origins.map(normalizeOrigin).includes(origin)) {
      return { effect: 'deny', code: 'ORIGIN_NOT_ALLOWED', message: 'The Origin is not allowed for this API key' };
    }
  }
  return {
    effect: 'allow',
    principal: {
      clientId: key.client_id,
      keyId: key.key_id,
      kind: key.kind,
      scopes: key.scopes,
      origins: key.origins,
      ...(client.usage_key ? { usageKey: client.usage_key } : {}),
    },
  };
}

/** The decision for one route. */
export async function authorizeRequest(
  headers: Record<string, string | undefined>,
  required: RouteAuth,
  now = new Date(),
): Promise<AuthDecision> {
  const identity = await identifyKey(headers, now);
  return identity.effect === 'valid' ? decideRoute(identity, required, headers) : identity;
}

/** Context keys the authorizer hands to functions (values must be strings). */
export interface AuthorizerContext {
  client_id?: string;
  key_id?: string;
  key_kind?: string;
  scopes?: string;
  /** Space-separated origins (an origin has no spaces). */
  origins?: string;
  /** Set when the key was presented but is not valid; the function answers 401. */
  auth_error?: string;
  /** The denial the ACCESS_DENIED gateway response renders for the routes the policy denies. */
  code?: string;
  message?: string;
}

export function principalFromContext(context: AuthorizerContext | null | undefined): Principal | undefined {
  if (!context?.client_id || !context.key_id || !context.key_kind) return undefined;
  return {
    clientId: context.client_id,
    keyId: context.key_id,
    kind: context.key_kind as Principal['kind'],
    scopes: context.scopes ? context.scopes.split(',') : [],
    origins: context.origins ? context.origins.split(' ') : [],
  };
}
