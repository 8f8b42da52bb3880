/**
 * Decides what a request's API key may do on a route. Pure domain code: the authorizer
 * function turns the decision into an API Gateway policy.
 */
import type { RouteAuth } from '../../infra/routes';
import { type ApiKeyRecord, findApiKeyByHash, touchApiKey } from '../store/api-key-store';
import { hashApiKey, kindOfKey, presentedKey } from './api-keys';

export interface Principal {
  clientId: string;
  keyId: string;
  kind: ApiKeyRecord['kind'];
  scopes: string[];
  /** Allowed browser origins of a payment key (return URLs must use one of them). */
  origins: string[];
}

export type AuthDecision =
  | { effect: 'missing' }
  | { effect: 'invalid' }
  | { effect: 'deny'; code: 'INSUFFICIENT_SCOPE' | 'ORIGIN_NOT_ALLOWED'; message: string }
  | { effect: 'allow'; principal: Principal };

/** Revocation must take effect within 60 s; cached lookups live half that. */
export const KEY_CACHE_TTL_MS = 30_000;
/** last_used_at is written at most this often per key. */
export const LAST_USED_INTERVAL_MS = 5 * 60_000;

interface CachedKey {
  record: ApiKeyRecord | undefined;
  fetchedAt: number;
}

const cache = new Map<string, CachedKey>();

async function lookup(keyHash: string, now: number): Promise<ApiKeyRecord | undefined> {
  const hit = cache.get(keyHash);
  if (hit && now - hit.fetchedAt < KEY_CACHE_TTL_MS) return hit.record;
  const record = await findApiKeyByHash(keyHash);
  if (cache.size > 10_000) cache.clear();
  cache.set(keyHash, { record, fetchedAt: now });
  return record;
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

export async function authorizeRequest(
  headers: Record<string, string | undefined>,
  required: RouteAuth,
  now = new Date(),
): Promise<AuthDecision> {
  const presented = presentedKey(headers);
  if (!presented) return { effect: 'missing' };

  const claimedKind = kindOfKey(presented.key);
  // x-api-key is accepted for payment keys only.
  if (!claimedKind || (presented.header === 'x-api-key' && claimedKind !== 'payment')) return { effect: 'invalid' };

  const keyHash = hashApiKey(presented.key);
  const record = await lookup(keyHash, now.getTime());
  if (!record || record.revoked_at || record.kind !== claimedKind) return { effect: 'invalid' };

  if (!record.last_used_at || now.getTime() - Date.parse(record.last_used_at) > LAST_USED_INTERVAL_MS) {
    record.last_used_at = now.toISOString();
    await touchApiKey(keyHash, now, LAST_USED_INTERVAL_MS);
  }

  if (required.kind === 'public') throw new Error('Public routes are not authorized');
  if (record.kind !== required.kind) {
    return {
      effect: 'deny',
      code: 'INSUFFICIENT_SCOPE',
      message: `A ${record.kind} key cannot call this route; it needs a ${required.kind} key`,
    };
  }
  if (required.kind === 'sync' && !record.scopes.includes(required.scope)) {
    return { effect: 'deny', code: 'INSUFFICIENT_SCOPE', message: `The API key lacks the scope ${required.scope}` };
  }
  if (record.kind === 'payment' && headers['origin'] !== undefined) {
    const origin = normalizeOrigin(headers['origin']);
    if (!origin || !record.origins.map(normalizeOrigin).includes(origin)) {
      return { effect: 'deny', code: 'ORIGIN_NOT_ALLOWED', message: 'The Origin is not allowed for this API key' };
    }
  }
  return {
    effect: 'allow',
    principal: { clientId: record.client_id, keyId: record.key_id, kind: record.kind, scopes: record.scopes, origins: record.origins },
  };
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
