/**
 * REQUEST authorizer for every keyed route (definitions/authorizers.ts: a cached one for sync routes,
 * an uncached one for payment routes; both run this function).
 *
 * - Missing key: throw "Unauthorized": the UNAUTHORIZED gateway response, 401 MISSING_API_KEY.
 *   (On sync routes API Gateway answers that itself when the Authorization header is absent.)
 * - Unknown, malformed or revoked key: Allow WITHOUT a usageIdentifierKey. Every keyed method
 *   requires an API key taken from the authorizer (apiKeySource AUTHORIZER), so API Gateway
 *   refuses the request with the INVALID_API_KEY gateway response (401 INVALID_API_KEY) and no
 *   route function runs: "API Gateway reads the key and compares it against the keys in the usage
 *   plan ... Otherwise, it throws an InvalidKeyParameter exception"
 *   (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-api-key-source.html).
 *   Neither a Deny nor the thrown "Unauthorized" can carry this code: a gateway response has one
 *   static status (Deny is ACCESS_DENIED, 403), and its template is not VTL, so it cannot branch
 *   on a missing header either ("A GatewayResponse mapping template isn't processed by the
 *   Velocity Template Language (VTL) engine",
 *   https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-swagger-extensions-gateway-responses.responseTemplates.html).
 *   The context still says `auth_error`, so the function's first middleware answers 401 too if
 *   such a request ever reached it.
 * - Wrong kind, scope or origin: Deny with the code and message in the context (ACCESS_DENIED, 403).
 * - Allowed: the client's usage key as usageIdentifierKey, so its plan's usage plan limits it.
 *
 * The sync authorizer's result is cached per Authorization header and applied to every sync
 * route (serverless/serverless#6176), so its policy covers them all: Allow for the routes the
 * key's scopes allow, Deny for the others, with one context for all of them. Its denial message
 * therefore names what the key lacks, not the route called.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { type Route, routes } from '../definitions/routes';
import { type AuthorizerContext, decideRoute, type Denial, identifyKey } from '../shared/auth/authorize';
import { lowerCaseHeaders } from '../shared/http/headers';
import { logger, tracingAfterFirstResponse } from '../shared/observability';

const syncRoutes = routes.filter((r) => r.auth.kind === 'sync');

/** `arn:aws:execute-api:{region}:{account}:{apiId}/{stage}/{METHOD}/{path}` of a route, path parameters as `*`. */
function routeArn(methodArn: string, route: Route): string {
  const [api, stage] = methodArn.split('/');
  return `${api}/${stage}/${route.method}${route.path.replace(/\{[^}]+\}/g, '*')}`;
}

function result(
  principalId: string,
  statements: { effect: 'Allow' | 'Deny'; resources: string[] }[],
  context: AuthorizerContext,
  usageIdentifierKey?: string,
): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: statements
        .filter((s) => s.resources.length > 0)
        .map((s) => ({ Action: 'execute-api:Invoke', Effect: s.effect, Resource: s.resources })),
    },
    context: context as APIGatewayAuthorizerResult['context'],
    ...(usageIdentifierKey ? { usageIdentifierKey } : {}),
  };
}

/** One denial for every denied route of a policy: the code is the same; the message must hold for each. */
function sharedDenial(denied: { route: Route; denial: Denial }[]): Pick<AuthorizerContext, 'code' | 'message'> {
  const messages = [...new Set(denied.map((d) => d.denial.message))];
  if (messages.length === 1) return { code: denied[0]!.denial.code, message: messages[0] };
  const lacking = denied.map((d) => (d.route.auth.kind === 'sync' ? d.route.auth.scope : d.route.id));
  return { code: denied[0]!.denial.code, message: `The API key lacks the scope this route needs (it lacks ${lacking.join(', ')})` };
}

export const handler = tracingAfterFirstResponse(async (event: APIGatewayRequestAuthorizerEvent, lambdaContext?: Context): Promise<APIGatewayAuthorizerResult> => {
  if (lambdaContext) logger.addContext(lambdaContext);
  const route = routes.find((r) => r.method === event.httpMethod && r.path === event.resource);
  if (!route || route.auth.kind === 'public') {
    return result('anonymous', [{ effect: 'Deny', resources: [event.methodArn] }], { code: 'NOT_FOUND', message: 'No such route' });
  }
  const headers = lowerCaseHeaders(event.headers);
  const identity = await identifyKey(headers);
  if (identity.effect === 'missing') {
    logger.info('authorization', { route: route.id, decision: 'missing' });
    throw new Error('Unauthorized');
  }
  // The routes this answer holds for: every sync route when the result is cached, else the one called.
  const covered = route.auth.kind === 'sync' ? syncRoutes : [route];
  if (identity.effect === 'invalid') {
    logger.info('authorization', { route: route.id, decision: 'invalid' });
    return result('anonymous', [{ effect: 'Allow', resources: covered.map((r) => routeArn(event.methodArn, r)) }], { auth_error: 'INVALID_API_KEY' });
  }

  const decisions = covered.map((r) => ({ route: r, decision: decideRoute(identity, r.auth, headers) }));
  const allowed = decisions.filter((d) => d.decision.effect === 'allow').map((d) => d.route);
  const denied = decisions.flatMap((d) => (d.decision.effect === 'deny' ? [{ route: d.route, denial: d.decision }] : []));
  const { key, client } = identity;
  const context: AuthorizerContext = {
    client_id: key.client_id,
    key_id: key.key_id,
    key_kind: key.kind,
    scopes: key.scopes.join(','),
    origins: key.origins.join(' '),
    ...(denied.length ? sharedDenial(denied) : {}),
  };
  const decision = decisions.find((d) => d.route === route)!.decision.effect;
  logger.info('authorization', { route: route.id, decision, key_id: key.key_id });
  if (decision === 'allow' && !client.usage_key) {
    // API Gateway refuses a request without a usage key (401 INVALID_API_KEY): `clients set-plan` gives the client one.
    logger.warn('client has no usage key; set its plan to give it one', { client_id: client.client_id });
  }
  return result(
    key.key_id,
    [
      { effect: 'Allow', resources: allowed.map((r) => routeArn(event.methodArn, r)) },
      { effect: 'Deny', resources: denied.map((d) => routeArn(event.methodArn, d.route)) },
    ],
    context,
    allowed.length ? client.usage_key : undefined,
  );
});
