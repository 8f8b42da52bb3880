import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
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
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { gatewayResponseHeaders, gatewayResponses, methodNotAllowedTemplate } from '../gateway-responses';
import type { Route } from '../routes';

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
  throttling: ApiThrottling;
  logRetention: RetentionDays;
}

/**
 * The REST API: one Lambda proxy method per route of the route table, one API key authorizer
 * for the non-public routes, 405 answers for other methods on known paths, and gateway
 * responses that render API Gateway's own errors in the service's error envelope.
 */
export class ServiceApi extends Construct {
  readonly restApi: RestApi;
  readonly authorizer: RequestAuthorizer;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: `hotel-integration-${props.stage}`,
      description: 'Hotel integration API: property sync and payment orders',
      endpointTypes: [EndpointType.REGIONAL],
      // Access and execution logs need the account-level CloudWatch role; without it the stage
      // fails to deploy in an account where no other stack has set it.
      cloudWatchRole: true,
      deployOptions: {
        stageName: props.stage,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            ip: AccessLogField.contextIdentitySourceIp(),
            requestTime: AccessLogField.contextRequestTime(),
            method: AccessLogField.contextHttpMethod(),
            path: AccessLogField.contextPath(),
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

    // Caching is disabled on purpose (TTL 0, no identity sources). The authorizer caches key
    // lookups in memory for 30 s itself, so a revoked key stops working within 60 s, and
    // API Gateway never reuses a policy computed for one route on another route
    // (serverless/serverless#6176). With no identity sources API Gateway also does not
    // reject a request before the authorizer runs, so a missing key still gets our envelope
    // and payment keys may come in x-api-key as well as Authorization.
    this.authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: props.authorizerFunction,
      identitySources: [],
      resultsCacheTtl: Duration.seconds(0),
    });

    const resourcesWithMethods = new Set<IResource>();
    for (const route of props.routes) {
      const handler = props.handlers.get(route.id);
      if (!handler) throw new Error(`No function for route ${route.id}`);
      const resource = this.restApi.root.resourceForPath(route.path);
      const integration = new LambdaIntegration(handler, { allowTestInvoke: false });
      if (route.auth.kind === 'public') {
        const method = resource.addMethod(route.method, integration, {
          operationName: route.id,
          authorizationType: AuthorizationType.NONE,
        });
        acknowledgeUnauthenticated(method, `${route.id} is public by design: ${route.description}.`);
      } else {
        resource.addMethod(route.method, integration, {
          operationName: route.id,
          authorizationType: AuthorizationType.CUSTOM,
          authorizer: this.authorizer,
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

    for (const response of gatewayResponses) {
      this.restApi.addGatewayResponse(response.type, {
        type: ResponseType.of(response.type),
        statusCode: response.statusCode,
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
        reason: 'Callers are PMS integrations and payment clients holding API keys, checked by the Lambda REQUEST authorizer; there are no Cognito users.',
      },
    );
    Validations.of(this.restApi.deploymentStage).acknowledge({
      id: 'AwsSolutions-APIG3',
      reason: 'WAF is out of scope for this stack; stage throttling limits abuse. Attach a web ACL per environment if needed.',
    });
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
