/**
 * The two REQUEST authorizers in front of the keyed routes, defined once for the CDK stack and
 * the local gateway. Both run the same function (functions/authorizer.ts).
 *
 * - `sync`: result caching on, keyed by the `Authorization` header. API Gateway caches ONE policy
 *   per identity and applies it to every method of the authorizer, so the function answers a
 *   policy for every sync route the key may call (Allow) and may not call (Deny), and a context
 *   that holds for all of them. A request without the header is refused 401 by API Gateway itself,
 *   without invoking the function: "If a specified identity source is missing, null, or empty, API
 *   Gateway returns a 401 Unauthorized response without calling the authorizer Lambda function"
 *   (https://docs.aws.amazon.com/apigateway/latest/developerguide/configure-api-gateway-lambda-authorization-with-console.html).
 * - `payment`: uncached and without identity sources, because its answer depends on more than the
 *   key (the `Origin` header) and the key may come in `x-api-key` as well as `Authorization`.
 *
 * Revocation reaches a cached policy within the result TTL plus the function's own key cache
 * (API_KEY_CACHE_TTL_SECONDS, at most 30 s): at most 60 s, as docs/behaviour.md "Credentials" requires.
 */
import type { Route } from './routes';

export type AuthorizerKind = 'sync' | 'payment';

/** The sync authorizer's result TTL (stack prop `authorizerCacheTtlSeconds`; locally AUTHORIZER_CACHE_TTL_SECONDS). */
export const DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS = 20;
/** API Gateway's result TTL range we accept: 0 would turn the cache off, over 30 would break the 60 s revocation bound. */
export const MAX_AUTHORIZER_CACHE_TTL_SECONDS = 30;
/** The authorizer function's in-memory cache of key lookups (shared/auth/authorize.ts). */
export const DEFAULT_API_KEY_CACHE_TTL_SECONDS = 30;
/** docs/behaviour.md "Credentials": a revoked key stops working within this, authorizer caches included. */
export const REVOCATION_BOUND_SECONDS = 60;

export interface AuthorizerDefinition {
  kind: AuthorizerKind;
  /** Request headers that key the result cache (API Gateway identity sources); empty: uncached. */
  identityHeaders: readonly string[];
  cached: boolean;
}

export const authorizerDefinitions: Readonly<Record<AuthorizerKind, AuthorizerDefinition>> = {
  sync: { kind: 'sync', identityHeaders: ['Authorization'], cached: true },
  payment: { kind: 'payment', identityHeaders: [], cached: false },
};

/** The authorizer in front of a route; undefined for a public route or a dashboard page (its function checks the session). */
export function authorizerOf(route: Route): AuthorizerDefinition | undefined {
  if (route.auth.kind === 'sync' || route.auth.kind === 'payment') return authorizerDefinitions[route.auth.kind];
  // The deliveries API takes either kind of key, payment keys in x-api-key too: the uncached one.
  return route.auth.kind === 'key' ? authorizerDefinitions.payment : undefined;
}

export function checkAuthorizerCacheTtl(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_AUTHORIZER_CACHE_TTL_SECONDS) {
    throw new Error(`authorizerCacheTtlSeconds must be a whole number from 1 to ${MAX_AUTHORIZER_CACHE_TTL_SECONDS}`);
  }
  return seconds;
}
