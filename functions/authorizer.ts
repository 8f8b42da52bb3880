/**
 * REQUEST authorizer for every keyed route. Result caching is off in API Gateway (see the
 * stack); key lookups are cached here for 30 s, so a revoked key stops within 60 s.
 *
 * Missing key: throw "Unauthorized" (gateway response 401 MISSING_API_KEY).
 * Wrong kind, scope or origin: Deny with the code in the context (gateway response 403).
 * Unknown or revoked key: API Gateway cannot answer a second 401 code from an authorizer, so
 * the request goes on with `auth_error` and the function's middleware answers 401 INVALID_API_KEY
 * before reading anything else.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { routes } from '../infra/routes';
import { authorizeRequest, type AuthorizerContext } from '../shared/auth/authorize';
import { lowerCaseHeaders } from '../shared/http/headers';
import { logger } from '../shared/observability';

function policy(principalId: string, effect: 'Allow' | 'Deny', resource: string, context: object): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] },
    context: context as APIGatewayAuthorizerResult['context'],
  };
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const route = routes.find((r) => r.method === event.httpMethod && r.path === event.resource);
  if (!route || route.auth.kind === 'public') {
    return policy('anonymous', 'Deny', event.methodArn, { code: 'NOT_FOUND', message: 'No such route' });
  }
  const decision = await authorizeRequest(lowerCaseHeaders(event.headers), route.auth);
  logger.info('authorization', { route: route.id, decision: decision.effect, key_id: decision.effect === 'allow' ? decision.principal.keyId : undefined });
  switch (decision.effect) {
    case 'missing':
      throw new Error('Unauthorized');
    case 'invalid':
      return policy('anonymous', 'Allow', event.methodArn, { auth_error: 'INVALID_API_KEY' } satisfies AuthorizerContext);
    case 'deny':
      return policy('anonymous', 'Deny', event.methodArn, { code: decision.code, message: decision.message });
    case 'allow': {
      const { principal } = decision;
      const context: AuthorizerContext = {
        client_id: principal.clientId,
        key_id: principal.keyId,
        key_kind: principal.kind,
        scopes: principal.scopes.join(','),
        origins: principal.origins.join(' '),
      };
      return policy(principal.keyId, 'Allow', event.methodArn, context);
    }
  }
};
