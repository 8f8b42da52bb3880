/**
 * The REQUEST authorizers in front of keyed routes, run as API Gateway runs them: the sync one's
 * result cached per identity source (the Authorization header) and its policy applied to each
 * route by its method ARN; then the usage key it names (apiKeySource AUTHORIZER) must be in a
 * usage plan, whose rate limits throttle it.
 */
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import type { AuthorizerDefinition } from '../../definitions/authorizers';
import type { GatewayResponseType } from '../../definitions/gateway-responses';
import type { Plan, PlanLimits } from '../../definitions/plans';
import { type Invoker, invokeBounded } from './bounded-invoke';
import type { TemplateContext } from './gateway-responses';
import { supportFunction } from './lambda-runtime';
import type { TokenBuckets } from './limits';
import { type ProxyRequest, STAGE } from './proxy-event';

/** A REQUEST authorizer's result cache: one result per identity, for the authorizer's TTL. */
export class AuthorizerResultCache {
  private readonly results = new Map<string, { result: APIGatewayAuthorizerResult; expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  get(identity: string): APIGatewayAuthorizerResult | undefined {
    const hit = this.results.get(identity);
    if (hit && hit.expiresAt > performance.now()) return hit.result;
    this.results.delete(identity);
    return undefined;
  }

  set(identity: string, result: APIGatewayAuthorizerResult): void {
    if (this.results.size > 10_000) this.results.clear();
    this.results.set(identity, { result, expiresAt: performance.now() + this.ttlMs });
  }
}

function arnPattern(resource: string): RegExp {
  const escaped = resource.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** API Gateway's policy evaluation: an explicit Deny wins; otherwise an Allow must match. */
function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  const statements = result.policyDocument?.Statement ?? [];
  let allowed = false;
  for (const statement of statements as { Effect: string; Resource: string | string[] }[]) {
    const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
    if (!resources.some((r) => arnPattern(r).test(methodArn))) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

/** A request header by name, in any case (API Gateway's identity sources ignore case). */
function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/** What the authorization step keeps between requests. */
export interface AuthorizationState extends Invoker {
  authorizerResults: AuthorizerResultCache;
  buckets: TokenBuckets;
  planOfKey(usageKey: string): Promise<Plan | undefined>;
}

/**
 * The outcome: refused with that gateway response (and API Gateway's status where the type keeps
 * it), or allowed, with what the proxy event's `requestContext.authorizer` carries.
 */
export type Authorization = { refused: GatewayResponseType; status?: number } | { allowed: Record<string, unknown> };

/**
 * Runs `authorizer` for the request. `context.authorizer` is set from the authorizer's result
 * (the gateway responses it refuses with may render it).
 */
export async function authorizeRequest(
  state: AuthorizationState,
  authorizer: AuthorizerDefinition,
  { request, requestContext }: ProxyRequest,
  planLimits: Readonly<Record<Plan, PlanLimits>>,
  context: TemplateContext,
): Promise<Authorization> {
  const methodArn = `arn:aws:execute-api:us-east-1:000000000000:local/${STAGE}/${request.httpMethod}${request.path}`;
  // A cached authorizer is keyed by its identity sources; without one of them API Gateway answers
  // 401 and never invokes it (definitions/authorizers.ts).
  const identity = authorizer.identityHeaders.map((name) => headerValue(request.headers, name));
  if (authorizer.cached && identity.some((value) => !value)) return { refused: 'UNAUTHORIZED' };
  const cacheKey = authorizer.cached ? JSON.stringify([authorizer.kind, ...identity]) : undefined;
  let result = cacheKey ? state.authorizerResults.get(cacheKey) : undefined;
  if (!result) {
    try {
      result = (await invokeBounded(state, supportFunction('authorizer'), { type: 'REQUEST', methodArn, ...request, requestContext }, 10_000, 10_000)) as APIGatewayAuthorizerResult;
    } catch (error) {
      if ((error as Error).message === 'Unauthorized') return { refused: 'UNAUTHORIZED' };
      console.error('authorizer failed:', (error as Error).message);
      return { refused: 'AUTHORIZER_FAILURE' };
    }
    if (cacheKey) state.authorizerResults.set(cacheKey, result);
  }
  // The (possibly cached) policy applied to this route by its method ARN.
  context.authorizer = { ...result.context };
  if (!policyAllows(result, methodArn)) return { refused: 'ACCESS_DENIED' };
  // Every keyed method requires an API key, and the authorizer names it (apiKeySource AUTHORIZER):
  // none, or one in no usage plan, is INVALID_API_KEY; then the key's usage plan throttles.
  const usageKey = result.usageIdentifierKey ?? undefined;
  let plan: Plan | undefined;
  try {
    plan = usageKey ? await state.planOfKey(usageKey) : undefined;
  } catch (error) {
    console.error('usage plan lookup failed:', (error as Error).message);
    return { refused: 'DEFAULT_5XX', status: 500 };
  }
  if (!usageKey || !plan) return { refused: 'INVALID_API_KEY' };
  if (!state.buckets.take(usageKey, planLimits[plan])) return { refused: 'THROTTLED' };
  return { allowed: { ...result.context, principalId: result.principalId, integrationLatency: 0 } };
}
