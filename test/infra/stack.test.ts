/**
 * Template assertions for the deployed stack. Bundling is skipped (aws:cdk:bundling-stacks),
 * so this synthesizes in a couple of seconds; `npm run synth` covers the real bundles.
 */
import { type CfnElement, Validations } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { gatewayResponseHeaders, gatewayResponses, methodNotAllowedTemplate } from '../../definitions/gateway-responses';
import { callbackQueue } from '../../definitions/queues';
import type { ProviderSecret } from '../../definitions/route-access';
import { type Route, routes, routesOfStage, sandboxRoutes, servedByApi } from '../../definitions/routes';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS, DEFAULT_SUPPORTED_CURRENCIES } from '../../definitions/service-defaults';
import { DELIVERY_METRICS } from '../../definitions/metrics';
import { SIGNING_SECRET_CONTEXT_CONDITIONS } from '../../infra/constructs/signing-secrets-key';
import { HotelIntegrationStack } from '../../infra/stack';
import { DEFAULT_THROTTLING } from '../../infra/stage-settings';
import { isWriteAction, supportFunctionAccess, type TableAccess } from '../../definitions/table-access';
import { indexProjection, tableDefinition } from '../../definitions/table';
import { keys } from '../../shared/store/keys';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

// Raw CloudFormation JSON.
type CfnJson = any;
interface CfnResourceJson {
  Type: string;
  Properties: CfnJson;
}

const app = testApp();
// With the sandbox provider, so that the whole route table is deployed and checked.
const stack = new HotelIntegrationStack(app, 'HotelIntegration-test', { stage: 'test', sandboxPayments: true });
/** Every route this stage deploys: the API's, the dashboard's and the sandbox checkout's. */
const stageRoutes = routesOfStage({ sandboxPayments: true });
/** Those API Gateway serves: all but the sandbox checkout's, on a function URL of its own (test/infra/payment-safety.test.ts). */
const gatewayRoutes = stageRoutes.filter(servedByApi);
const template = mergedTemplate(stack);
const json = template.toJSON() as { Resources: Record<string, CfnResourceJson>; Outputs: Record<string, CfnJson> };
const resources = json.Resources;

const logicalId = (construct: IConstruct) => logicalIdOf(construct);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const fnOf = (routeId: string) => {
  const fn = stack.routeFunctions.get(routeId);
  if (!fn) throw new Error(`no function for ${routeId}`);
  return fn;
};
/** The function construct a route's function is named after: several routes may share one. */
const functionIdOf = (route: Route) => route.function ?? route.id;
/** Each route function once (routes that share one map to the same). */
const routeFunctions = [...new Set(stack.routeFunctions.values())];
/** The routes a function serves. */
const routesOf = (fn: (typeof routeFunctions)[number]) => stageRoutes.filter((r) => stack.routeFunctions.get(r.id) === fn);
/** The Stripe secrets a function is named and may read: its route's, and the sweeper's (it finishes refunds). */
const providerSecretsOf = (fn: unknown, route: Route | undefined): readonly ProviderSecret[] =>
  route?.access.providerSecrets ?? (fn === stack.deliverySweeperFunction ? ['stripeSecretKey'] : []);
const allFunctions = [
  ...routeFunctions,
  stack.authorizerFunction,
  stack.callbackSenderFunction,
  stack.deliverySweeperFunction,
];

/** Every policy statement attached to a function's role. */
function statementsOf(fn: (typeof allFunctions)[number]): CfnJson[] {
  const roleId = logicalId(fn.role!);
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: CfnJson) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}
const actionsOf = (statements: CfnJson[]): string[] => statements.flatMap((s) => [s.Action].flat());

/** `/a/b/{c}` of an AWS::ApiGateway::Resource reference, rebuilt from ParentId and PathPart. */
const restApiId = logicalId(stack.api.restApi);
function pathOf(ref: CfnJson): string {
  if (ref['Fn::GetAtt']?.[0] === restApiId && ref['Fn::GetAtt'][1] === 'RootResourceId') return '';
  const resource = resources[ref.Ref];
  if (resource?.Type !== 'AWS::ApiGateway::Resource') throw new Error(`not a resource: ${JSON.stringify(ref)}`);
  return `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}`;
}
const methods = ofType('AWS::ApiGateway::Method').map(([id, m]) => ({
  id,
  httpMethod: m.Properties.HttpMethod as string,
  path: pathOf(m.Properties.ResourceId),
  props: m.Properties,
}));
const routePaths = [...new Set(gatewayRoutes.map((r) => r.path))];

describe('functions', () => {
  it('has exactly one Lambda per route function (a route\'s own, or the one its resource\'s routes share), plus the authorizer, the callback sender and the delivery sweeper', () => {
    const functionIds = ofType('AWS::Lambda::Function').map(([id]) => id);
    // No custom-resource helper functions are expected: every Lambda is one of ours.
    expect(functionIds.sort()).toEqual(allFunctions.map(logicalId).sort());
    const declaredFunctions = new Set(stageRoutes.map(functionIdOf));
    expect(functionIds).toHaveLength(declaredFunctions.size + 3);
    expect(new Set(stageRoutes.map((r) => r.id)).size).toBe(stageRoutes.length);
    // Every route of the stage has its function, named after the route's `function` (else its id).
    expect([...stack.routeFunctions.keys()].sort()).toEqual(stageRoutes.map((r) => r.id).sort());
    for (const route of stageRoutes) expect(fnOf(route.id).node.id, route.id).toBe(`${functionIdOf(route)}Function`);
    expect(routeFunctions.map((fn) => fn.node.id).sort()).toEqual([...declaredFunctions].map((id) => `${id}Function`).sort());
    // Some routes do share one: the test would not notice otherwise.
    expect(declaredFunctions.size).toBeLessThan(stageRoutes.length);
  });

  it('gives routes that share a function the same handler, auth, access, timeout and description (the function is built from one of them)', () => {
    for (const fn of routeFunctions) {
      const [first, ...others] = routesOf(fn);
      expect(first, fn.node.id).toBeDefined();
      const shape = (r: Route) => ({ handler: r.handler, auth: r.auth, access: r.access, timeoutSeconds: r.timeoutSeconds, description: r.description, origin: r.origin });
      for (const route of others) expect(shape(route), `${route.id} shares ${first!.id}'s function`).toEqual(shape(first!));
    }
  });

  it('runs every function on nodejs24.x, arm64, with active tracing, 512 MB and its own log group', () => {
    // Lambda runtimes: https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html (nodejs22.x
    // is deprecated in April 2027; nodejs24.x is supported). Every function of the template, the
    // CDK's own included, not only ours.
    const runtimes = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function').map((r) => r.Properties.Runtime);
    expect(runtimes.length).toBeGreaterThanOrEqual(allFunctions.length);
    expect(new Set(runtimes)).toEqual(new Set(['nodejs24.x']));
    for (const fn of allFunctions) {
      const props = resources[logicalId(fn)]!.Properties;
      expect(props.Runtime).toBe('nodejs24.x');
      expect(props.Architectures).toEqual(['arm64']);
      expect(props.TracingConfig).toEqual({ Mode: 'Active' });
      expect(props.MemorySize).toBe(512);
      expect(props.LoggingConfig.LogGroup).toEqual({ Ref: logicalId(fn.logGroup) });
      expect(resources[logicalId(fn.logGroup)]!.Properties.RetentionInDays).toBe(30);
    }
  });

  it('gives API functions their route timeout (28 s for sync writes, else 10 s) and the sender and sweeper 60 s', () => {
    for (const route of routes) {
      expect(resources[logicalId(fnOf(route.id))]!.Properties.Timeout).toBe(route.timeoutSeconds ?? 10);
    }
    expect(routes.filter((r) => r.method === 'PUT').every((r) => r.timeoutSeconds === 28)).toBe(true);
    expect(resources[logicalId(stack.authorizerFunction)]!.Properties.Timeout).toBe(10);
    expect(resources[logicalId(stack.callbackSenderFunction)]!.Properties.Timeout).toBe(60);
    expect(resources[logicalId(stack.deliverySweeperFunction)]!.Properties.Timeout).toBe(60);
  });

  it('runs the delivery sweeper every minute', () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties.ScheduleExpression).toBe('rate(1 minute)');
    expect(rules[0]![1].Properties.Targets[0].Arn).toEqual({ 'Fn::GetAtt': [logicalId(stack.deliverySweeperFunction), 'Arn'] });
  });

  it('sets the common environment on every function', () => {
    for (const fn of allFunctions) {
      expect(resources[logicalId(fn)]!.Properties.Environment.Variables).toMatchObject({
        POWERTOOLS_SERVICE_NAME: 'hotel-integration-api',
        POWERTOOLS_METRICS_NAMESPACE: 'HotelIntegration',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        // Traces keep neither responses nor error messages (Powertools Tracer reads these): no secrets in X-Ray.
        POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
        POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
        STAGE: 'test',
        TABLE_NAME: { Ref: logicalId(stack.table) },
      });
      // Source maps are not loaded at cold start (infra/constructs/service-function.ts); the .map ships in the asset.
      expect(resources[logicalId(fn)]!.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    }
  });

  it('lets X-Ray keep no response and no error message of any traced function in the template', () => {
    const traced = Object.values(resources).filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.TracingConfig?.Mode === 'Active');
    expect(traced.length).toBe(allFunctions.length);
    for (const fn of traced) expect(fn.Properties.Environment.Variables).toMatchObject({ POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false', POWERTOOLS_TRACER_CAPTURE_ERROR: 'false' });
  });

  it('gives CALLBACK_QUEUE_URL only to functions that enqueue callbacks, and the sender its retry delays', () => {
    const queueUrl = { Ref: logicalId(stack.callbacks.queue) };
    for (const route of stageRoutes) {
      const env = resources[logicalId(fnOf(route.id))]!.Properties.Environment.Variables;
      if (route.access.enqueuesCallbacks) expect(env.CALLBACK_QUEUE_URL).toEqual(queueUrl);
      else expect(env).not.toHaveProperty('CALLBACK_QUEUE_URL');
    }
    expect(resources[logicalId(stack.callbackSenderFunction)]!.Properties.Environment.Variables).toMatchObject({
      CALLBACK_QUEUE_URL: queueUrl,
      CALLBACK_RETRY_DELAYS_SECONDS: DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS.join(','),
    });
  });

  it('names the Stripe secret parameters only to the functions that talk to Stripe', () => {
    const stripeRoutes = routes.filter((r) => r.access.providerSecrets?.length).map((r) => r.id);
    expect(stripeRoutes.sort()).toEqual(['CreatePaymentOrder', 'RefundPaymentOrder', 'StripeWebhook', 'VerifyPaymentOrder']);
    const keyParameter = '/hotel-integration/test/stripe/secret-key';
    const webhookParameter = '/hotel-integration/test/stripe/webhook-secret';
    for (const fn of allFunctions) {
      const env = resources[logicalId(fn)]!.Properties.Environment.Variables;
      const route = stageRoutes.find((r) => stack.routeFunctions.get(r.id) === fn);
      const secrets = providerSecretsOf(fn, route);
      if (secrets.includes('stripeSecretKey')) expect(env.STRIPE_SECRET_KEY_PARAMETER).toBe(keyParameter);
      else expect(env).not.toHaveProperty('STRIPE_SECRET_KEY_PARAMETER');
      if (secrets.includes('stripeWebhookSecret')) expect(env.STRIPE_WEBHOOK_SECRET_PARAMETER).toBe(webhookParameter);
      else expect(env).not.toHaveProperty('STRIPE_WEBHOOK_SECRET_PARAMETER');
      // Only names: never a secret value in the template.
      expect(env).not.toHaveProperty('STRIPE_SECRET_KEY');
      expect(env).not.toHaveProperty('STRIPE_WEBHOOK_SECRET');
    }
    expect(resources[logicalId(fnOf('StripeWebhook'))]!.Properties.Environment.Variables).toMatchObject({
      STRIPE_SECRET_KEY_PARAMETER: keyParameter,
      STRIPE_WEBHOOK_SECRET_PARAMETER: webhookParameter,
    });
  });

  it('gives SUPPORTED_CURRENCIES to the payment order functions', () => {
    const paymentRoutes = routes.filter((r) => r.path.startsWith('/api/v1/payments/'));
    expect(paymentRoutes.map((r) => r.id)).toContain('CreatePaymentOrder');
    for (const route of paymentRoutes) {
      expect(resources[logicalId(fnOf(route.id))]!.Properties.Environment.Variables.SUPPORTED_CURRENCIES).toBe(
        DEFAULT_SUPPORTED_CURRENCIES.join(','),
      );
    }
  });
});

describe('table', () => {
  it('is one on-demand table with the shared key schema, GSIs, TTL, PITR and SSE, retained on delete', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    const key = (hash: string, range: string) => [
      { AttributeName: hash, KeyType: 'HASH' },
      { AttributeName: range, KeyType: 'RANGE' },
    ];
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: key(tableDefinition.partitionKey, tableDefinition.sortKey),
        GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: key(index.partitionKey, index.sortKey),
          // Each index's own projection: test/infra/timeouts-and-indexes.test.ts.
          Projection: indexProjection(index),
        })),
        TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true },
      },
    });
  });
});

describe('callback queue', () => {
  const queueId = logicalId(stack.callbacks.queue);
  const dlqId = logicalId(stack.callbacks.deadLetterQueue);

  it('has a main queue redriving to its DLQ, both encrypted by SQS', () => {
    template.resourceCountIs('AWS::SQS::Queue', 2);
    expect(resources[queueId]!.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      VisibilityTimeout: callbackQueue.visibilityTimeoutSeconds,
      MessageRetentionPeriod: callbackQueue.retentionDays * 86_400,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: callbackQueue.maxReceiveCount },
    });
    expect(resources[dlqId]!.Properties).toMatchObject({
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: callbackQueue.retentionDays * 86_400,
    });
  });

  it('denies non-TLS access to both queues', () => {
    for (const id of [queueId, dlqId]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 'sqs:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('feeds the sender in batches with partial batch failures', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [queueId, 'Arn'] },
      FunctionName: { Ref: logicalId(stack.callbackSenderFunction) },
      BatchSize: callbackQueue.batchSize,
      MaximumBatchingWindowInSeconds: callbackQueue.maxBatchingWindowSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });
});

describe('API', () => {
  // The two authorizers themselves: test/infra/gateway.test.ts.
  const authorizerIds = new Set(ofType('AWS::ApiGateway::Authorizer').map(([id]) => id));

  it('has one method per route, integrated with its own function', () => {
    for (const route of gatewayRoutes) {
      const found = methods.filter((m) => m.httpMethod === route.method && m.path === route.path);
      expect(found, `${route.method} ${route.path}`).toHaveLength(1);
      const integration = found[0]!.props.Integration;
      expect(integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(integration.Uri)).toContain(`"${logicalId(fnOf(route.id))}"`);
    }
  });

  it('puts the authorizer on every keyed route and on no public or dashboard one', () => {
    for (const route of gatewayRoutes) {
      const method = methods.find((m) => m.httpMethod === route.method && m.path === route.path)!;
      // Dashboard pages verify the operator's Cognito cookies in their function.
      if (route.auth.kind === 'public' || route.auth.kind === 'dashboard') {
        expect(method.props.AuthorizationType, route.id).toBe('NONE');
        expect(method.props.AuthorizerId, route.id).toBeUndefined();
      } else {
        expect(method.props.AuthorizationType, route.id).toBe('CUSTOM');
        expect(authorizerIds.has(method.props.AuthorizerId?.Ref), route.id).toBe(true);
      }
    }
  });

  it('answers 405 METHOD_NOT_ALLOWED through an ANY mock on every route path, and has no other methods', () => {
    const anyMethods = methods.filter((m) => m.httpMethod === 'ANY');
    expect(anyMethods.map((m) => m.path).sort()).toEqual([...routePaths].sort());
    expect(methods).toHaveLength(gatewayRoutes.length + routePaths.length);
    for (const method of anyMethods) {
      expect(method.props.AuthorizationType).toBe('NONE');
      expect(method.props.Integration).toMatchObject({
        Type: 'MOCK',
        PassthroughBehavior: 'WHEN_NO_TEMPLATES',
        RequestTemplates: { 'application/json': '{"statusCode": 405}' },
        IntegrationResponses: [
          {
            StatusCode: '405',
            ResponseTemplates: { 'application/json': methodNotAllowedTemplate },
            ResponseParameters: {
              'method.response.header.Content-Type': "'application/json'",
              'method.response.header.X-Request-Id': 'context.requestId',
            },
          },
        ],
      });
      expect(method.props.MethodResponses).toEqual([
        expect.objectContaining({ StatusCode: '405' }),
      ]);
    }
  });

  it('renders every gateway response of the definitions with its status, headers and template', () => {
    template.resourceCountIs('AWS::ApiGateway::GatewayResponse', gatewayResponses.length);
    for (const response of gatewayResponses) {
      const headers = { ...gatewayResponseHeaders, ...response.headers };
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: response.type,
        StatusCode: response.statusCode ?? Match.absent(),
        ResponseTemplates: { 'application/json': response.template },
        ResponseParameters: Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [`gatewayresponse.header.${name}`, value]),
        ),
      });
    }
  });

  it('deploys the stage with JSON access logs, metrics, throttling, and neither data trace nor X-Ray tracing of URLs', () => {
    template.resourceCountIs('AWS::ApiGateway::Stage', 1);
    const stage = ofType('AWS::ApiGateway::Stage')[0]![1].Properties;
    expect(stage.StageName).toBe('test');
    // API Gateway's X-Ray segment keeps the whole request URL (guest tokens, return secrets):
    // https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-understanding-xray-traces.html
    expect(stage.TracingEnabled).toBe(false);
    expect(stage.MethodSettings).toEqual([
      expect.objectContaining({
        HttpMethod: '*',
        ResourcePath: '/*',
        DataTraceEnabled: false,
        MetricsEnabled: true,
        LoggingLevel: 'ERROR',
        ThrottlingRateLimit: DEFAULT_THROTTLING.rateLimit,
        ThrottlingBurstLimit: DEFAULT_THROTTLING.burstLimit,
      }),
    ]);
    expect(stage.AccessLogSetting.DestinationArn['Fn::GetAtt'][1]).toBe('Arn');
    const format = JSON.parse(stage.AccessLogSetting.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      ip: '$context.identity.sourceIp',
      method: '$context.httpMethod',
      resourcePath: '$context.resourcePath',
      status: '$context.status',
      latency: '$context.responseLatency',
      responseLength: '$context.responseLength',
    });
    // Never the request's own path: it carries confirmation tokens (test/infra/housekeeping.test.ts).
    expect(stage.AccessLogSetting.Format).not.toContain('$context.path');
  });

  it('outputs the stack endpoints under fixed keys without exports', () => {
    expect(Object.keys(json.Outputs).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'CallbackDlqUrl',
      'CallbackQueueUrl',
      'SandboxCheckoutUrl',
      'SandboxPayments',
      'SecretsKeyArn',
      'TableName',
      'UsagePlanPremiumId',
      'UsagePlanStandardId',
      'UserPoolClientId',
      'UserPoolId',
    ]);
    for (const key of Object.keys(json.Outputs)) {
      expect(json.Outputs[key].Export, key).toBeUndefined();
    }
    expect(json.Outputs.TableName.Value).toEqual({ Ref: logicalId(stack.table) });
    expect(json.Outputs.CallbackQueueUrl.Value).toEqual({ Ref: logicalId(stack.callbacks.queue) });
    expect(json.Outputs.CallbackDlqUrl.Value).toEqual({ Ref: logicalId(stack.callbacks.deadLetterQueue) });
    expect(JSON.stringify(json.Outputs.ApiUrl.Value)).toContain(restApiId);
  });
});

describe('sealed signing secrets', () => {
  const keyId = () => logicalId(stack.signingSecretsKey.key);
  const keyArn = () => ({ 'Fn::GetAtt': [keyId(), 'Arn'] });
  const senderRoleArn = () => ({ 'Fn::GetAtt': [logicalId(stack.callbackSenderFunction.role!), 'Arn'] });
  const DECRYPTING = /^kms:(\*|Decrypt|ReEncrypt\*|ReEncryptFrom)$/;
  const ENCRYPTING = /^kms:(\*|Encrypt|ReEncrypt\*|ReEncryptTo|GenerateDataKey.*)$/;
  const reachesKey = (statement: CfnJson) => [statement.Resource].flat().some((r: CfnJson) => r === '*' || JSON.stringify(r).includes(keyId()));
  /** The functions of the routes that seal signing secrets (the dashboard's Integrations page). */
  const sealing = () => routeFunctions.filter((fn) => routesOf(fn).some((r) => r.access.sealsSigningSecrets));

  it('are sealed with a customer-managed KMS key that rotates every year, kept with the table, under a stage alias', () => {
    expect(json.Resources[keyId()]).toMatchObject({
      Type: 'AWS::KMS::Key',
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: { EnableKeyRotation: true, RotationPeriodInDays: 365 },
    });
    // The other customer-managed key is the alarm topic's (test/infra/monitoring.test.ts).
    expect(ofType('AWS::KMS::Key').map(([id]) => id).sort()).toEqual([keyId(), logicalId(stack.monitoring.topicKey)].sort());
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/hotel-integration/test/signing-secrets', TargetKeyId: keyArn() });
    expect(json.Outputs.SecretsKeyArn.Value).toEqual(keyArn());
  });

  it('the callback sender may Decrypt, only under a {client_id, kind} encryption context', () => {
    const sender = stack.callbackSenderFunction;
    expect(resources[logicalId(sender)]!.Properties.Environment.Variables.SECRETS_KMS_KEY_ARN).toEqual(keyArn());
    const onKey = statementsOf(sender).filter((s) => JSON.stringify(s.Resource).includes(keyId()));
    expect(onKey).toEqual([
      {
        Effect: 'Allow',
        Action: 'kms:Decrypt',
        Resource: keyArn(),
        Condition: {
          'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['client_id', 'kind'] },
          Null: { 'kms:EncryptionContext:client_id': 'false' },
          StringEquals: { 'kms:EncryptionContext:kind': ['callback', 'webhook'] },
        },
      },
    ]);
  });

  it('no other role of the stack can decrypt with it, and the key policy denies everyone else', () => {
    const senderRoleId = logicalId(stack.callbackSenderFunction.role!);
    for (const [id, policy] of ofType('AWS::IAM::Policy')) {
      if (policy.Properties.Roles.some((r: CfnJson) => r.Ref === senderRoleId)) continue;
      for (const statement of policy.Properties.PolicyDocument.Statement as CfnJson[]) {
        expect(reachesKey(statement) && actionsOf([statement]).some((a) => DECRYPTING.test(a)), `${id}: ${JSON.stringify(statement)}`).toBe(false);
      }
    }
    // The key's ARN goes to the sender and to the functions that seal (next test), to no other.
    for (const fn of allFunctions.filter((f) => f !== stack.callbackSenderFunction && !sealing().includes(f))) {
      expect(resources[logicalId(fn)]!.Properties.Environment.Variables.SECRETS_KMS_KEY_ARN, logicalId(fn)).toBeUndefined();
    }
    for (const fn of allFunctions) expect(resources[logicalId(fn)]!.Properties.Environment.Variables.SECRETS_KEY_FILE).toBeUndefined();

    const keyPolicy = resources[keyId()]!.Properties.KeyPolicy.Statement as CfnJson[];
    expect(keyPolicy).toContainEqual({
      Sid: 'OnlyTheCallbackSenderOpensSigningSecrets',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: ['kms:Decrypt', 'kms:ReEncryptFrom'],
      Resource: '*',
      Condition: { ArnNotEquals: { 'aws:PrincipalArn': senderRoleArn() } },
    });
    // The only Allow is the account's (so IAM policies apply, e.g. operators' kms:Encrypt); the Deny above wins over it.
    const allows = keyPolicy.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(JSON.stringify(allows[0].Principal)).toContain(':root');
  });

  it('exactly the functions of the routes that seal signing secrets may Encrypt with it, only under a {client_id, kind} encryption context', () => {
    const sealers = sealing();
    expect(sealers.length).toBeGreaterThan(0);
    for (const fn of sealers) {
      expect(resources[logicalId(fn)]!.Properties.Environment.Variables.SECRETS_KMS_KEY_ARN, fn.node.id).toEqual(keyArn());
      const onKey = statementsOf(fn).filter(reachesKey).filter((s) => actionsOf([s]).some((a) => a.startsWith('kms:')));
      expect(onKey, fn.node.id).toEqual([{ Effect: 'Allow', Action: 'kms:Encrypt', Resource: keyArn(), Condition: SIGNING_SECRET_CONTEXT_CONDITIONS }]);
    }
    // No other role of the stack (functions or not) may encrypt with it; the sender's grant is Decrypt alone (above).
    const encryptingRoles = ofType('AWS::IAM::Policy')
      .filter(([, policy]) =>
        (policy.Properties.PolicyDocument.Statement as CfnJson[]).some((s) => reachesKey(s) && actionsOf([s]).some((a) => ENCRYPTING.test(a))),
      )
      .flatMap(([, policy]) => policy.Properties.Roles.map((r: CfnJson) => r.Ref));
    expect(encryptingRoles.sort()).toEqual(sealers.map((fn) => logicalId(fn.role!)).sort());
  });
});

describe('monitoring', () => {
  const alarms = () => ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
  const topicId = () => logicalId(stack.monitoring.topic);

  it('alarms on the dead-letter queue, the 5xx rate, authorizer errors and callback failures, to the alarm topic', () => {
    const all = alarms();
    const byMetric = (name: string) => all.filter((a) => a.MetricName === name);
    const dlq = byMetric('ApproximateNumberOfMessagesVisible');
    expect(dlq).toHaveLength(1);
    expect(dlq[0].Dimensions[0].Value).toEqual({ 'Fn::GetAtt': [logicalId(stack.callbacks.deadLetterQueue), 'QueueName'] });
    expect(byMetric('5XXError')[0]).toMatchObject({ Statistic: 'Average', Threshold: 0.01 });
    const errors = byMetric('Errors').map((a) => a.Dimensions[0].Value);
    for (const fn of [stack.authorizerFunction, stack.callbackSenderFunction, stack.deliverySweeperFunction]) {
      expect(errors).toContainEqual({ Ref: logicalId(fn) });
    }
    // The names the callback sender publishes (functions/send-callback.ts).
    expect(byMetric(DELIVERY_METRICS.failed)[0]).toMatchObject({ Namespace: 'HotelIntegration', Statistic: 'Sum', Threshold: 1 });
    expect(byMetric(DELIVERY_METRICS.needsReview)).toHaveLength(1);
    for (const alarm of all) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId() }]);
      // Only the delivery backlog treats missing data as breaching: the sweeper reports every minute.
      expect(alarm.TreatMissingData).toBe(alarm.MetricName === 'OldestDueDeliveryAgeSeconds' ? 'breaching' : 'notBreaching');
    }
  });

  it('has an encrypted, TLS-only alarm topic and one dashboard', () => {
    expect(resources[topicId()]!.Properties.KmsMasterKeyId).toBeDefined();
    const policy = ofType('AWS::SNS::TopicPolicy')[0]![1].Properties.PolicyDocument.Statement[0];
    expect(policy).toMatchObject({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });
    expect(ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
  });
});

describe('least privilege', () => {
  const tableArn = { 'Fn::GetAtt': [logicalId(stack.table), 'Arn'] };
  // Production's shape too: no sandbox routes.
  const prodStack = new HotelIntegrationStack(testApp(), 'HotelIntegration-prod', { stage: 'prod' });
  const prodResources = mergedTemplate(prodStack).toJSON().Resources as Record<string, CfnResourceJson>;
  const resourcesOf = (target: HotelIntegrationStack): Record<string, CfnResourceJson> => (target === stack ? resources : prodResources);
  // The test stage's routes include every route of prod's.
  const routeById = new Map(stageRoutes.map((r) => [r.id, r]));

  it("lets API Gateway invoke each route's function from this API only, with one permission a function", () => {
    // One AWS::Lambda::Permission per function, its source this REST API's execute-api ARN for
    // any stage, method and path (`/*/*/*`), and the authorizer's for its two authorizers; one
    // per method made 72 of them and the stack 489 of CloudFormation's 500 resources
    // (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html;
    // execute-api ARNs: https://docs.aws.amazon.com/apigateway/latest/developerguide/arn-format-reference.html).
    for (const target of [stack, prodStack]) {
      const all = resourcesOf(target);
      const apiId = logicalIdOf(target.api.restApi);
      const fromApi = Object.values(all).filter((r) => r.Type === 'AWS::Lambda::Permission' && r.Properties.Principal === 'apigateway.amazonaws.com');
      const byFunction = new Map<string, string[]>();
      for (const permission of fromApi) {
        const [separator, parts] = permission.Properties.SourceArn['Fn::Join'];
        expect(separator).toBe('');
        expect(parts).toContainEqual({ Ref: apiId });
        const scope = parts.slice(parts.findIndex((p: CfnJson) => p?.Ref === apiId) + 1).map((p: CfnJson) => (typeof p === 'string' ? p : '{ref}')).join('');
        const fn = permission.Properties.FunctionName['Fn::GetAtt'][0] as string;
        byFunction.set(fn, [...(byFunction.get(fn) ?? []), scope]);
      }
      const authorizerFn = logicalIdOf(target.authorizerFunction);
      expect(byFunction.get(authorizerFn)).toEqual(['/authorizers/{ref}', '/authorizers/{ref}']);
      const routeFunctions = new Set(Object.values(all).filter((r) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.Integration?.Type === 'AWS_PROXY').map((r) => JSON.stringify(r.Properties.Integration.Uri)));
      byFunction.delete(authorizerFn);
      expect(byFunction.size).toBe(routeFunctions.size);
      for (const [fn, scopes] of byFunction) expect(scopes, fn).toEqual(['/*/*/*']);
    }
  });

  /** Every IAM policy statement of a stack (inline role policies included). */
  function allStatements(target: HotelIntegrationStack): CfnJson[] {
    const all = Object.values(resourcesOf(target));
    return [
      ...all.filter((r) => r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy').map((r) => r.Properties.PolicyDocument),
      ...all.filter((r) => r.Type === 'AWS::IAM::Role').flatMap((r) => (r.Properties.Policies ?? []).map((p: CfnJson) => p.PolicyDocument)),
    ].flatMap((document) => document.Statement);
  }

  /**
   * Each function's DynamoDB grants as read from the template, one line per action and resource:
   * `dynamodb:GetItem`, `dynamodb:Query on index/gsi2`, `dynamodb:DeleteItem under CLIENT# or IDEMPOTENCY#`.
   */
  function tableGrantsOf(target: HotelIntegrationStack): Map<string, string[]> {
    const targetResources = resourcesOf(target);
    const idOf = (construct: IConstruct) => logicalIdOf(construct);
    const table = { 'Fn::GetAtt': [idOf(target.table), 'Arn'] };
    const resourceName = (resource: CfnJson): string => {
      if (JSON.stringify(resource) === JSON.stringify(table)) return '';
      const [separator, [base, suffix]] = resource['Fn::Join'] ?? [];
      if (separator === '' && JSON.stringify(base) === JSON.stringify(table) && /^\/index\/[a-z0-9]+$/.test(suffix)) return ` on ${suffix.slice(1)}`;
      throw new Error(`unexpected DynamoDB resource ${JSON.stringify(resource)}`);
    };
    const condition = (statement: CfnJson): string => {
      if (!statement.Condition) return '';
      expect(Object.keys(statement.Condition)).toEqual(['ForAllValues:StringLike']);
      const { 'dynamodb:LeadingKeys': prefixes, ...others } = statement.Condition['ForAllValues:StringLike'];
      expect(others).toEqual({});
      return ` under ${[prefixes].flat().map((p: string) => p.replace(/\*$/, '')).sort().join(' or ')}`;
    };
    const functions = new Map([
      ...target.routeFunctions,
      ['authorizer', target.authorizerFunction],
      ['send-callback', target.callbackSenderFunction],
      ['sweep-deliveries', target.deliverySweeperFunction],
    ]);
    return new Map(
      [...functions].map(([name, fn]) => {
        const statements = Object.values(targetResources)
          .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: CfnJson) => role.Ref === idOf(fn.role!)))
          .flatMap((p) => p.Properties.PolicyDocument.Statement);
        const grants = statements.flatMap((statement) =>
          actionsOf([statement])
            .filter((action) => action.startsWith('dynamodb:'))
            .flatMap((action) => {
              expect(statement.Effect).toBe('Allow');
              return [statement.Resource].flat().map((resource: CfnJson) => `${action}${resourceName(resource)}${condition(statement)}`);
            }),
        );
        return [name, grants.sort()];
      }),
    );
  }

  /** The grants a declaration should produce, in the form tableGrantsOf reads them: writes under their prefixes. */
  const declaredGrants = (access: TableAccess): string[] =>
    [
      ...access.actions.map((action) => `dynamodb:${action}${isWriteAction(action) ? ` under ${[...access.writes!].sort().join(' or ')}` : ''}`),
      ...(access.queries ?? []).map((index) => `dynamodb:Query on index/${index}`),
      ...(access.deletes?.length ? [`dynamodb:DeleteItem under ${[...access.deletes].sort().join(' or ')}`] : []),
    ].sort();

  it('grants every function exactly the table access it declares', () => {
    for (const target of [stack, prodStack]) {
      const grants = tableGrantsOf(target);
      // By route id: every route's function has exactly what the route declares (routes sharing one declare the same).
      const declared = new Map<string, TableAccess>([
        ...[...target.routeFunctions.keys()].map((id): [string, TableAccess] => [id, routeById.get(id)!.access.dynamodb]),
        ...Object.entries(supportFunctionAccess),
      ]);
      expect([...grants.keys()].sort()).toEqual([...declared.keys()].sort());
      for (const [name, access] of declared) expect(grants.get(name), name).toEqual(declaredGrants(access));
    }
  });

  it('grants the public routes, the authorizer, the sender and the sweeper exactly these', () => {
    const settlement = 'under BOOKINGID# or CLIENT# or DELIVERY# or EMAIL# or ORDER# or SEARCH#';
    // Query on the table: the rate check reads the room's rate plans and their months (docs/behaviour.md "Rates and restrictions per date").
    const reconcile = ['dynamodb:GetItem', `dynamodb:PutItem ${settlement}`, 'dynamodb:Query', 'dynamodb:Query on index/gsi2', `dynamodb:UpdateItem ${settlement}`];
    const expected = {
      VerifyPaymentOrder: reconcile,
      // Stripe's refund events also read the order's refunds (Query on its partition) to settle them.
      StripeWebhook: reconcile,
      // One function serves the sandbox checkout's page and form.
      SandboxCheckoutPage: ['dynamodb:GetItem', 'dynamodb:UpdateItem under SANDBOX#'],
      SandboxCheckoutSubmit: ['dynamodb:GetItem', 'dynamodb:UpdateItem under SANDBOX#'],
      authorizer: ['dynamodb:GetItem', 'dynamodb:UpdateItem under APIKEY#'],
      'send-callback': ['dynamodb:GetItem', 'dynamodb:UpdateItem under DELIVERY#'],
      // Due deliveries, due e-mails to guests, due refunds (driven as refunds.ts does), and the
      // bulk resends' deliveries, of all endpoints (gsi2: the operators' "retry all") or one (gsi4:
      // the receivers' replay).
      'sweep-deliveries': [
        'dynamodb:GetItem',
        'dynamodb:PutItem under DELIVERY# or EMAIL# or ORDER# or SANDBOX#',
        'dynamodb:Query',
        'dynamodb:Query on index/gsi1',
        'dynamodb:Query on index/gsi2',
        'dynamodb:Query on index/gsi4',
        'dynamodb:UpdateItem under DELIVERY# or EMAIL# or ORDER# or SANDBOX#',
      ],
    };
    const grants = tableGrantsOf(stack);
    const publicRoutes = [...routes, ...sandboxRoutes].filter((r) => r.auth.kind === 'public').map((r) => r.id);
    expect(Object.keys(expected).sort()).toEqual([...publicRoutes, ...Object.keys(supportFunctionAccess)].sort());
    for (const [name, actions] of Object.entries(expected)) expect(grants.get(name), name).toEqual(actions);
  });

  it('lets no public route delete or batch-write, and no function scan', () => {
    for (const target of [stack, prodStack]) {
      for (const [name, grants] of tableGrantsOf(target)) {
        expect(grants.filter((g) => g.startsWith('dynamodb:Scan')), name).toEqual([]);
        if (routeById.get(name)?.auth.kind !== 'public') continue;
        expect(grants.filter((g) => /^dynamodb:(DeleteItem|BatchWriteItem)\b/.test(g)), name).toEqual([]);
      }
    }
    expect(tableGrantsOf(prodStack).get('VerifyPaymentOrder')).toBeDefined();
  });

  it('has no statement anywhere granting Scan, dynamodb:* or * on DynamoDB, nor a write beyond a partition-key prefix', () => {
    for (const target of [stack, prodStack]) {
      for (const statement of allStatements(target)) {
        const actions = actionsOf([statement]);
        expect(actions.filter((a) => a === '*' || /^dynamodb:.*(\*|Scan)/i.test(a)), JSON.stringify(statement)).toEqual([]);
        if (actions.some((a) => /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/.test(a))) {
          expect(Object.keys(statement.Condition ?? {})).toEqual(['ForAllValues:StringLike']);
        }
      }
    }
  });

  it('gives every idempotent route what Powertools idempotency calls on its records, under their own key prefix', () => {
    expect(`${keys.idempotency.prefix}#`).toBe('IDEMPOTENCY#');
    expect(keys.clientPartition('c').pk).toBe('CLIENT#c');
    for (const route of routes.filter((r) => r.idempotent)) {
      expect(route.access.dynamodb.actions, route.id).toEqual(expect.arrayContaining(['GetItem', 'PutItem', 'UpdateItem']));
      expect(route.access.dynamodb.deletes, route.id).toContain('IDEMPOTENCY#');
    }
  });

  it('lets the authorizer only GetItem and UpdateItem on the table, besides its logs and X-Ray', () => {
    const statements = statementsOf(stack.authorizerFunction);
    const dynamo = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toEqual([
      expect.objectContaining({ Effect: 'Allow', Action: 'dynamodb:GetItem', Resource: tableArn }),
      // Key bookkeeping only (its last use): dynamodb:LeadingKeys, test/infra/least-privilege.test.ts.
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: tableArn,
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] } },
      }),
    ]);
    const others = actionsOf(statements.filter((s) => !dynamo.includes(s)));
    expect(others.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
  });

  it('grants sqs:SendMessage only to functions that enqueue callbacks, the sender and the sweeper', () => {
    const senders = allFunctions.filter((fn) => actionsOf(statementsOf(fn)).includes('sqs:SendMessage'));
    const expected = [
      // Each function once, however many of its routes enqueue.
      ...new Set(stageRoutes.filter((r) => r.access.enqueuesCallbacks).map((r) => fnOf(r.id))),
      stack.callbackSenderFunction,
      stack.deliverySweeperFunction,
    ];
    expect(expected.length).toBeGreaterThan(1);
    expect(senders.map(logicalId).sort()).toEqual(expected.map(logicalId).sort());
  });

  it('lets only the functions that talk to Stripe read its secret parameters, each exactly the ones it needs', () => {
    const parameterArn = (name: string) => ({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:parameter/${name}`]],
    });
    const arns = {
      stripeSecretKey: parameterArn('hotel-integration/test/stripe/secret-key'),
      stripeWebhookSecret: parameterArn('hotel-integration/test/stripe/webhook-secret'),
    };
    for (const fn of allFunctions) {
      const statements = statementsOf(fn);
      const ssm = statements.filter((s) => actionsOf([s]).some((a) => a.startsWith('ssm:')));
      const route = stageRoutes.find((r) => stack.routeFunctions.get(r.id) === fn);
      const secrets = providerSecretsOf(fn, route);
      if (secrets.length === 0) {
        expect(ssm, route?.id ?? logicalId(fn)).toEqual([]);
      } else {
        expect(ssm, route?.id ?? logicalId(fn)).toHaveLength(1);
        expect(ssm[0]).toMatchObject({ Effect: 'Allow', Action: 'ssm:GetParameter' });
        expect([ssm[0].Resource].flat()).toEqual(secrets.map((secret) => arns[secret]));
      }
      // The default aws/ssm key needs no kms:Decrypt grant (the sender's on the signing secrets key is checked below).
      const otherKms = statements.filter((s) => !JSON.stringify(s.Resource).includes(logicalId(stack.signingSecretsKey.key)));
      expect(actionsOf(otherKms).filter((a) => a.startsWith('kms:')), route?.id).toEqual([]);
    }
  });

  it('lets each function write only to its own log group, without managed policies', () => {
    for (const fn of allFunctions) {
      const logs = statementsOf(fn).filter((s) => actionsOf([s]).some((a) => a.startsWith('logs:')));
      expect(logs).toEqual([
        expect.objectContaining({ Resource: { 'Fn::GetAtt': [logicalId(fn.logGroup), 'Arn'] } }),
      ]);
      expect(resources[logicalId(fn.role!)]!.Properties.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('cdk-nag AwsSolutions', () => {
  it('reports no unacknowledged errors or warnings', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    const findings = report.violations.map(
      (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    expect(findings).toEqual([]);
  });

  const acknowledged = app.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.keys(entry.data as object))
      .map((id) => ({ construct, id: id.replace(/^annotation::/i, '') })),
  );

  it('acknowledges only these findings, each on specific constructs', () => {
    expect([...new Set(acknowledged.map((a) => a.id))].sort()).toEqual(
      [
        'AwsSolutions-APIG2',
        'AwsSolutions-APIG4',
        'AwsSolutions-COG2',
        'AwsSolutions-COG4',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'AwsSolutions-IAM5[Resource::*]',
        'AwsSolutions-SMG4',
      ].sort(),
    );
    for (const { construct } of acknowledged) {
      expect(construct).not.toBe(app);
      expect(construct).not.toBe(stack);
    }
  });

  it('acknowledges missing authorization only on the methods that have none', () => {
    const apig4 = acknowledged.filter((a) => a.id === 'AwsSolutions-APIG4').map((a) => logicalId(a.construct));
    const unauthenticated = methods.filter((m) => m.props.AuthorizationType === 'NONE').map((m) => m.id);
    expect(apig4.sort()).toEqual(unauthenticated.sort());
    // Public routes, dashboard pages (their functions verify the operator's session) and the 405 mocks.
    const withoutAuthorizer = gatewayRoutes.filter((r) => r.auth.kind === 'public' || r.auth.kind === 'dashboard');
    expect(unauthenticated).toHaveLength(withoutAuthorizer.length + routePaths.length);
  });
});
