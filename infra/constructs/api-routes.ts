import { createHash } from 'node:crypto';
import { Validations } from 'aws-cdk-lib';
import {
  AuthorizationType,
  type IAuthorizer,
  type IResource,
  LambdaIntegration,
  Method,
  MockIntegration,
  PassthroughBehavior,
  Resource,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { authorizerOf } from '../../definitions/authorizers';
import { methodNotAllowedTemplate } from '../../definitions/gateway-responses';
import type { Route } from '../../definitions/routes';
import { NO_COGNITO_AUTHORIZER, type ServiceApi } from './api';

export interface ApiRoutesProps {
  /** The stage's REST API, in the root stack. */
  api: ServiceApi;
  /** The resource (created by the root stack) the routes hang below: each route's path starts with it. */
  basePath: string;
  /** Single paths outside it the area serves too (infra/route-areas.ts `paths`), created by the root stack like the base. */
  paths?: readonly string[];
  routes: readonly Route[];
  /** The function behind each route, by route id. */
  handlers: ReadonlyMap<string, IFunction>;
}

/**
 * One area's methods on the stage's REST API, from a nested stack: one Lambda proxy method per
 * route, behind the API key authorizers (definitions/authorizers.ts) on the keyed routes, and 405
 * answers for other methods on the area's paths. The API is imported by id
 * (RestApi.fromRestApiAttributes), the area's base resource by id and path; the resources below
 * it are the area's own. Each method is then bound to the root stack's RestApi, whose deployment
 * waits for every method (a DependsOn on this nested stack) and changes with them.
 */
export class ApiRoutes extends Construct {

  constructor(scope: Construct, id: string, props: ApiRoutesProps) {
    super(scope, id);
    const { api } = props;
    const shared = api.areaResource(props.basePath);
    const restApi = RestApi.fromRestApiAttributes(this, 'RestApi', { restApiId: api.restApi.restApiId, rootResourceId: api.restApi.restApiRootResourceId });
    const base = Resource.fromResourceAttributes(this, 'Base', { restApi, resourceId: shared.resourceId, path: shared.path });
    // Plain references to the root stack's authorizers: an Authorizer construct attaches itself to
    // one RestApi construct, and the root's RestApi is theirs (ServiceApi).
    const authorizers = Object.fromEntries(
      Object.entries(api.authorizers).map(([kind, authorizer]) => [kind, { authorizerId: authorizer.authorizerId, authorizationType: AuthorizationType.CUSTOM } satisfies IAuthorizer]),
    ) as Record<keyof typeof api.authorizers, IAuthorizer>;

    // A single path of the area's outside its base: the root stack creates it, as it does the base.
    const ownPaths = new Map<string, IResource>();
    const ownPath = (path: string) => {
      let resource = ownPaths.get(path);
      if (!resource) {
        const created = api.areaResource(path);
        ownPaths.set(path, (resource = Resource.fromResourceAttributes(this, `Path${ownPaths.size}`, { restApi, resourceId: created.resourceId, path: created.path })));
      }
      return resource;
    };
    const resourcesWithMethods = new Set<IResource>();
    for (const route of props.routes) {
      const under = route.path === props.basePath || route.path.startsWith(`${props.basePath}/`);
      if (!under && !props.paths?.includes(route.path)) throw new Error(`${route.id} (${route.path}) is not under ${props.basePath}`);
    }
    for (const route of props.routes) {
      const handler = props.handlers.get(route.id);
      if (!handler) throw new Error(`No function for route ${route.id}`);
      const resource = props.paths?.includes(route.path) ? ownPath(route.path) : base.resourceForPath(route.path.slice(props.basePath.length + 1));
      // One invoke permission per function for this API (its ARN with `/*/*/*`: any stage, method
      // and path of this REST API), not one per method: 72 methods made 72 AWS::Lambda::Permission
      // resources and brought the stack to 489 of CloudFormation's 500 resources a stack
      // (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html).
      // Only this API may invoke the function, and only the methods that integrate it do
      // (https://docs.aws.amazon.com/apigateway/latest/developerguide/arn-format-reference.html,
      // execute-api ARNs; https://docs.aws.amazon.com/lambda/latest/dg/services-apigateway.html,
      // the resource-based policy API Gateway needs).
      const integration = new LambdaIntegration(handler, { scopePermissionToMethod: false });
      const authorizer = authorizerOf(route);
      let method: Method;
      if (!authorizer) {
        method = resource.addMethod(route.method, integration, { operationName: route.id, authorizationType: AuthorizationType.NONE });
        acknowledgeUnauthenticated(
          method,
          route.auth.kind === 'dashboard'
            ? `${route.id} is a dashboard page: its function verifies the operator's Cognito tokens (HttpOnly cookies) with aws-jwt-verify on every request.`
            : `${route.id} is public by design: ${route.description}.`,
        );
      } else {
        method = resource.addMethod(route.method, integration, {
          operationName: route.id,
          authorizationType: AuthorizationType.CUSTOM,
          authorizer: authorizers[authorizer.kind],
          // The authorizer's usage key: none (an invalid key) is refused 401 INVALID_API_KEY.
          apiKeyRequired: true,
        });
        Validations.of(method).acknowledge({ id: 'AwsSolutions-COG4', reason: NO_COGNITO_AUTHORIZER });
      }
      api.bindMethod(method, { route: route.id, method: route.method, path: route.path, function: handler.node.id, authorizer: authorizer?.kind ?? 'none' });
      resourcesWithMethods.add(resource);
    }

    // API Gateway prefers a resource's specific method over ANY, so ANY answers only the
    // methods a known path does not have.
    const methodNotAllowed = methodNotAllowedIntegration();
    const mockVersion = createHash('sha256').update(methodNotAllowedTemplate).digest('hex').slice(0, 16);
    for (const resource of resourcesWithMethods) {
      const method = resource.addMethod('ANY', methodNotAllowed, {
        authorizationType: AuthorizationType.NONE,
        methodResponses: [
          {
            statusCode: '405',
            responseParameters: {
              'method.response.header.Content-Type': true,
              'method.response.header.X-Request-Id': true,
            },
          },
        ],
      });
      acknowledgeUnauthenticated(method, 'Mock integration that only answers 405 METHOD_NOT_ALLOWED; it reaches no backend.');
      api.bindMethod(method, { method: 'ANY', path: resource.path, integration: `405 ${mockVersion}` });
    }
  }
}

function acknowledgeUnauthenticated(method: Method, reason: string): void {
  Validations.of(method).acknowledge(
    { id: 'AwsSolutions-APIG4', reason },
    { id: 'AwsSolutions-COG4', reason },
  );
}

/** Answers 405 in the error envelope, with the request id in the body and X-Request-Id. */
function methodNotAllowedIntegration(): MockIntegration {
  const statusOnly = '{"statusCode": 405}';
  return new MockIntegration({
    // A mock learns its status code from the request template. A body of a type without a
    // template would reach the mock untransformed and make it fail with a 500
    // (aws/aws-cdk#16323); rejecting it (415, rendered by the gateway responses) keeps it a 4xx.
    passthroughBehavior: PassthroughBehavior.WHEN_NO_TEMPLATES,
    requestTemplates: {
      'application/json': statusOnly,
      'application/x-www-form-urlencoded': statusOnly,
      'text/plain': statusOnly,
    },
    integrationResponses: [
      {
        statusCode: '405',
        responseTemplates: { 'application/json': methodNotAllowedTemplate },
        responseParameters: {
          'method.response.header.Content-Type': "'application/json'",
          'method.response.header.X-Request-Id': 'context.requestId',
        },
      },
    ],
  });
}
