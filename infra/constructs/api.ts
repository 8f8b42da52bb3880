import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  type IResource,
  LambdaIntegration,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { authorizerDefinitions, type AuthorizerKind, authorizerOf } from '../../definitions/authorizers';
import { gatewayResponseHeaders, gatewayResponses, methodNotAllowedTemplate } from '../../definitions/gateway-responses';
import { guestRoutes } from '../../definitions/page-routes';
import { type Plan, type PlanLimits, PLANS } from '../../definitions/plans';
import type { Route } from '../../definitions/routes';
import { type PublicRateLimit, PublicRateLimitWebAcl } from './public-rate-limit';

export interface ApiThrottling {
  /** Steady-state requests per second for every method of the stage. */
  rateLimit: number;
  burstLimit: number;
}

export interface ServiceApiProps {
  stage: string;
  routes: readonly Route[];
  /** The function behind each route, by route id. */
  handlers: ReadonlyMap<string, IFunction>;
  authorizerFunction: IFunction;
  /** The sync authorizer's result TTL (1 to 30 s). */
  authorizerCacheTtlSeconds: number;
  throttling: ApiThrottling;
  /** Each plan's usage plan limits (per client: its usage key). */
  planLimits: Readonly<Record<Plan, PlanLimits>>;
  /** The WAF rate-based rules per source IP: on the unkeyed routes, on guest booking POSTs, on the keyed routes. */
  publicRateLimit: PublicRateLimit;
  guestBookingRateLimit: PublicRateLimit;
  keyedRateLimit: PublicRateLimit;
  logRetention: RetentionDays;
}

/**
 * The REST API: one Lambda proxy method per route of the route table, the API key authorizers
 * (definitions/authorizers.ts) on the keyed routes, one usage plan per client plan, a WAF web ACL
 * (AWS managed rule groups, rate limits per source IP), 405 answers for other methods on known paths, and
 * gateway responses that render API Gateway's own errors in the service's error envelope.
 */
export class ServiceApi extends Construct {
  readonly restApi: RestApi;
  readonly authorizers: Readonly<Record<AuthorizerKind, RequestAuthorizer>>;
  /** The usage plan of each client plan: the ops CLI registers each client's usage key in one. */
  readonly usagePlans: Readonly<Record<Plan, UsagePlan>>;
  readonly webAcl: PublicRateLimitWebAcl;
  /** The stage's JSON access log (one line per request, every field a string). */
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.accessLogs = accessLogs;

    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: `hotel-integration-${props.stage}`,
      description: 'Hotel integration API: property sync and payment orders',
      endpointTypes: [EndpointType.REGIONAL],
      // Keyed methods require an API key, and the authorizer names it (usageIdentifierKey): the
      // client's usage key, so its plan's usage plan rate limits all of its keys together
      // (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-api-key-source.html).
      apiKeySourceType: ApiKeySourceType.AUTHORIZER,
      // Access and execution logs need the account-level CloudWatch role; without it the stage
      // fails to deploy in an account where no other stack has set it.
      cloudWatchRole: true,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        // The route's resource path (`/book/{client_id}/confirmation/{token}`), never the request's
        // path ($context.path): secrets in paths (confirmation tokens, sandbox checkout references)
        // never reach the logs. No query strings either. Fields:
        // https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-variables-for-access-logging.html
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            ip: AccessLogField.contextIdentitySourceIp(),
            requestTime: AccessLogField.contextRequestTime(),
            method: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            status: AccessLogField.contextStatus(),
            latency: AccessLogField.contextResponseLatency(),
            integrationLatency: AccessLogField.contextIntegrationLatency(),
            responseLength: AccessLogField.contextResponseLength(),
            errorType: AccessLogField.contextErrorResponseType(),
            clientId: AccessLogField.contextAuthorizer('client_id'),
            keyId: AccessLogField.contextAuthorizer('key_id'),
            userAgent: AccessLogField.contextIdentityUserAgent(),
            xrayTraceId: AccessLogField.contextXrayTraceId(),
          }),
        ),
        tracingEnabled: true,
        metricsEnabled: true,
        // Execution logs at ERROR only, and never the data trace: it would log API keys and bodies.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        throttlingRateLimit: props.throttling.rateLimit,
        throttlingBurstLimit: props.throttling.burstLimit,
      },
    });

    // One function behind both (definitions/authorizers.ts). The sync authorizer's result is cached per
    // Authorization header and covers every sync route; with the function's own 30 s key cache a
    // revoked key stops within TTL + 30 s. The payment authorizer is uncached, without identity
    // sources: its answer depends on the Origin header, and the key may come in x-api-key.
    this.authorizers = {
      sync: new RequestAuthorizer(this, 'SyncKeyAuthorizer', {
        handler: props.authorizerFunction,
        identitySources: authorizerDefinitions.sync.identityHeaders.map((name) => IdentitySource.header(name)),
        resultsCacheTtl: Duration.seconds(props.authorizerCacheTtlSeconds),
      }),
      payment: new RequestAuthorizer(this, 'PaymentKeyAuthorizer', {
        handler: props.authorizerFunction,
        identitySources: [],
        resultsCacheTtl: Duration.seconds(0),
      }),
    };

    const resourcesWithMethods = new Set<IResource>();
    for (const route of props.routes) {
      const handler = props.handlers.get(route.id);
      if (!handler) throw new Error(`No function for route ${route.id}`);
      const resource = this.restApi.root.resourceForPath(route.path);
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
      if (!authorizer) {
        const method = resource.addMethod(route.method, integration, {
          operationName: route.id,
          authorizationType: AuthorizationType.NONE,
        });
        acknowledgeUnauthenticated(
          method,
          route.auth.kind === 'dashboard'
            ? `${route.id} is a dashboard page: its function verifies the operator's Cognito tokens (HttpOnly cookies) with aws-jwt-verify on every request.`
            : `${route.id} is public by design: ${route.description}.`,
        );
      } else {
        resource.addMethod(route.method, integration, {
          operationName: route.id,
          authorizationType: AuthorizationType.CUSTOM,
          authorizer: this.authorizers[authorizer.kind],
          // The authorizer's usage key: none (an invalid key) is refused 401 INVALID_API_KEY.
          apiKeyRequired: true,
        });
      }
      resourcesWithMethods.add(resource);
    }

    // API Gateway prefers a resource's specific method over ANY, so ANY answers only the
    // methods a known path does not have.
    const methodNotAllowed = methodNotAllowedIntegration();
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
    }

    // RestApi always adds an `Endpoint` output; the stack outputs the URL as ApiUrl instead.
    this.restApi.node.tryRemoveChild('Endpoint');

    // Per-client rate limits: usage plan throttles apply per API key, before the stage's method
    // throttling (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-request-throttling.html).
    // No quotas: the plans differ only in their rates.
    this.usagePlans = Object.fromEntries(
      PLANS.map((plan) => [
        plan,
        this.restApi.addUsagePlan(`UsagePlan-${plan}`, {
          name: `hotel-integration-${props.stage}-${plan}`,
          description: `Rate limits of the ${plan} plan, per client (its usage key)`,
          throttle: { rateLimit: props.planLimits[plan].rateLimit, burstLimit: props.planLimits[plan].burstLimit },
          apiStages: [{ api: this.restApi, stage: this.restApi.deploymentStage }],
        }),
      ]),
    ) as Record<Plan, UsagePlan>;

    this.webAcl = new PublicRateLimitWebAcl(this, 'PublicRateLimit', {
      stage: props.stage,
      apiStage: this.restApi.deploymentStage,
      // Routes API Gateway lets through without a key: the public ones, and the dashboard's (its
      // session is checked by each function, so without this a flood from one address would cost
      // a Lambda invocation each, from the account's concurrency the payment routes need too).
      publicPaths: props.routes.filter((route) => route.auth.kind === 'public' || route.auth.kind === 'dashboard').map((route) => route.path),
      guestBookingPostPaths: props.routes.filter((route) => guestRoutes.includes(route) && route.method === 'POST').map((route) => route.path),
      keyedPaths: props.routes.filter((route) => authorizerOf(route) !== undefined).map((route) => route.path),
      rateLimit: props.publicRateLimit,
      guestBookingRateLimit: props.guestBookingRateLimit,
      keyedRateLimit: props.keyedRateLimit,
    });

    for (const response of gatewayResponses) {
      this.restApi.addGatewayResponse(response.type, {
        type: ResponseType.of(response.type),
        // None on DEFAULT_4XX / DEFAULT_5XX: they keep API Gateway's own status.
        ...(response.statusCode ? { statusCode: response.statusCode } : {}),
        responseHeaders: { ...gatewayResponseHeaders, ...response.headers },
        templates: { 'application/json': response.template },
      });
    }

    Validations.of(this.restApi).acknowledge(
      {
        id: 'AwsSolutions-APIG2',
        reason: 'Requests are validated in the functions with zod, which produce the contract\'s VALIDATION_ERROR details.',
      },
      {
        id: 'AwsSolutions-COG4',
        reason:
          'API routes are called by PMS integrations and payment clients holding API keys, checked by the Lambda REQUEST authorizer. ' +
          "Dashboard pages are for the operators of the stage's Cognito user pool, but their tokens travel in HttpOnly cookies, which a " +
          'Cognito authorizer cannot read (its identity source is a header): each page function verifies them with aws-jwt-verify.',
      },
    );
    const cloudWatchRole = this.restApi.node.findChild('CloudWatchRole');
    Validations.of(cloudWatchRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The account-level role API Gateway uses for access and execution logs; AWS maintains this managed policy for exactly that purpose.',
    });
  }

  /** The stage's invoke URL, ending with a slash. */
  get url(): string {
    return this.restApi.url;
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
