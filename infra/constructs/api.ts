import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  ApiKeySourceType,
  EndpointType,
  IdentitySource,
  type IResource,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
  type UsagePlan,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { authorizerDefinitions, type AuthorizerKind, authorizerOf } from '../../definitions/authorizers';
import { gatewayResponseHeaders, gatewayResponses } from '../../definitions/gateway-responses';
import { guestRoutes } from '../../definitions/page-routes';
import { type Plan, type PlanLimits, PLANS } from '../../definitions/plans';
import type { Route } from '../../definitions/routes';
import { type PublicRateLimit, PublicRateLimitWebAcl } from './public-rate-limit';

/** Why no method of the API has a Cognito authorizer (cdk-nag AwsSolutions-COG4). */
export const NO_COGNITO_AUTHORIZER =
  'API routes are called by PMS integrations and payment clients holding API keys, checked by the Lambda REQUEST authorizer. ' +
  "Dashboard pages are for the operators of the stage's Cognito user pool, but their tokens travel in HttpOnly cookies, which a " +
  'Cognito authorizer cannot read (its identity source is a header): each page function verifies them with aws-jwt-verify.';

export interface ApiThrottling {
  /** Steady-state requests per second for every method of the stage. */
  rateLimit: number;
  burstLimit: number;
}

export interface ServiceApiProps {
  stage: string;
  /** The stage's routes on the API: the WAF rules scope by their paths (the area stacks add their methods). */
  routes: readonly Route[];
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
 * The REST API, in the root stack: its stage and access log, the API key authorizers
 * (definitions/authorizers.ts), one usage plan per client plan, a WAF web ACL (AWS managed rule
 * groups, rate limits per source IP), and gateway responses that render API Gateway's own errors
 * in the service's error envelope. The routes' methods are added by the area stacks
 * (infra/area-stack.ts, constructs/api-routes.ts) and bound here.
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
        // No X-Ray segment of API Gateway's own: it records each request's whole URL
        // (`http.request.url`, https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-understanding-xray-traces.html),
        // and a guest's confirmation page has its token in the path, the verify redirect its
        // return secret in the query. The functions are still traced (active tracing on each,
        // without their responses: shared/observability.ts); a trace starts at the function.
        tracingEnabled: false,
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

    // Attached here, to the RestApi construct they belong to; the area stacks' methods name them by id.
    for (const authorizer of Object.values(this.authorizers)) authorizer._attachToApi(this.restApi);

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
      { id: 'AwsSolutions-COG4', reason: NO_COGNITO_AUTHORIZER },
    );
    const cloudWatchRole = this.restApi.node.findChild('CloudWatchRole');
    Validations.of(cloudWatchRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: 'The account-level role API Gateway uses for access and execution logs; AWS maintains this managed policy for exactly that purpose.',
    });
  }

  /**
   * The resource at `path`, in this (the root) stack with every resource above it: an area's
   * stack adds its routes below it (infra/constructs/api-routes.ts), and resources two areas share
   * (`/api/v1`) exist once.
   */
  areaResource(path: string): IResource {
    return this.restApi.root.resourceForPath(path);
  }

  /**
   * Binds a method an area's stack made on the imported API to this RestApi, as a method of its
   * own is bound: the stage's deployment depends on it (so on its nested stack) and counts it, and
   * the deployment's logical id changes with `identity` (what the method is: route, path,
   * authorizer, integration), so that a changed route table is deployed again.
   */
  bindMethod(method: Method, identity: Record<string, string>): void {
    this.restApi._attachMethod(method);
    this.restApi.latestDeployment?.addToLogicalId({ method: identity });
  }

  /** The stage's invoke URL, ending with a slash. */
  get url(): string {
    return this.restApi.url;
  }
}
