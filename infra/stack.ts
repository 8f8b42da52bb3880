/**
 * The CDK stack of one stage: the table, the callback queue, the keys, the user pool, the support
 * functions (authorizer, callback sender, delivery sweeper), the API, and the outputs the operator
 * CLI reads; with nested stacks (one `cdk deploy` still) for each area of the route table (one
 * function per route or page resource, with exactly the access its route declares, and its
 * methods: infra/route-areas.ts, area-stack.ts) and for monitoring. What an operator sets per
 * stage, its defaults and its checks are in stage-settings.ts.
 */
import { CfnOutput, Duration, NestedStack, RemovalPolicy, Stack, Tags, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type FunctionUrl, FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { type Plan, PLANS } from '../definitions/plans';
import { callbackQueue as callbackQueueDefinition } from '../definitions/queues';
import { routesOfStage, servedByApi } from '../definitions/routes';
import { stackOutputKeys } from '../definitions/stack-outputs';
import { supportFunctionAccess } from '../definitions/table-access';
import { RouteAreaStack, type StageResources } from './area-stack';
import { ServiceApi } from './constructs/api';
import { CallbackQueue } from './constructs/callback-queue';
import { sendGrant } from './constructs/email-sender';
import { Monitoring } from './constructs/monitoring';
import { ProviderSecrets } from './constructs/provider-secrets';
import { ServiceFunction } from './constructs/service-function';
import { SigningSecretsKey } from './constructs/signing-secrets-key';
import { ServiceTable } from './constructs/table';
import { OperatorUserPool } from './constructs/user-pool';
import { areaOf, ROUTE_AREAS } from './route-areas';
import { type HotelIntegrationStackProps, stageSettings } from './stage-settings';

/** The output holding each plan's usage plan id. */
export const usagePlanOutputKey = {
  standard: stackOutputKeys.usagePlanStandardId,
  premium: stackOutputKeys.usagePlanPremiumId,
} as const satisfies Record<Plan, string>;

/** What the delivery sweeper reads to finish refunds on Stripe (shared/domain/payments/refunds.ts driveDueRefunds). */
const SWEEPER_PROVIDER_SECRETS = ['stripeSecretKey'] as const;

export class HotelIntegrationStack extends Stack {
  /** The function behind each route, by route id. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  readonly authorizerFunction: ServiceFunction;
  readonly callbackSenderFunction: ServiceFunction;
  readonly operators: OperatorUserPool;
  readonly deliverySweeperFunction: ServiceFunction;
  readonly table: ServiceTable;
  readonly callbacks: CallbackQueue;
  readonly providerSecrets: ProviderSecrets;
  readonly api: ServiceApi;
  readonly monitoring: Monitoring;
  /** The nested stack of each area of the route table that the stage serves, and monitoring's. */
  readonly areaStacks: readonly RouteAreaStack[];
  readonly signingSecretsKey: SigningSecretsKey;
  /** The sandbox checkout's origin, where the stage runs the sandbox provider. */
  readonly sandboxCheckoutUrl?: FunctionUrl;

  constructor(scope: Construct, id: string, props: HotelIntegrationStackProps) {
    super(scope, id, props);
    const settings = stageSettings(props);
    const { stage, sandboxPayments, logRetention } = settings;
    const stageRoutes = routesOfStage({ sandboxPayments });
    const senderEmail = settings.sender?.address;
    const grantSend = settings.sender && sendGrant(this, settings.sender);
    const retryDelays = settings.callbackRetryDelaysSeconds;
    const currencies = settings.supportedCurrencies;

    Tags.of(this).add('service', 'hotel-integration-api');
    Tags.of(this).add('stage', stage);

    const table = new ServiceTable(this, 'Table');
    const callbacks = new CallbackQueue(this, 'Callbacks');
    const common = { stage, table, logRetention };
    const providerSecrets = new ProviderSecrets(this, 'ProviderSecrets', {
      parameterNames: settings.providerSecretNames,
      kmsKeyArn: settings.stripeSecretsKmsKeyArn,
    });

    // Derives order references (a keyed HMAC: they cannot be computed from public data). Rotating
    // it is safe: existing orders are found through their reference guard item, not recomputed.
    const orderReferenceKey = new Secret(this, 'OrderReferenceKey', {
      description: 'Key order references are derived with (HMAC); readable by the order-creating functions only',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(orderReferenceKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'No rotation Lambda: the key only derives new order references, so an operator rotates it by putting a new random value (docs/operations.md); existing orders are unaffected',
    });

    // Seals callback and webhook signing secrets on the table; only the sender opens them.
    const signingSecretsKey = new SigningSecretsKey(this, 'SigningSecrets', { stage });
    // The operators of the hotel dashboard; its pages verify their tokens against this pool.
    const operators = new OperatorUserPool(this, 'Operators', { stage });

    const authorizer = new ServiceFunction(this, 'AuthorizerFunction', {
      ...common,
      handler: 'authorizer',
      description: 'API key authorizer for sync and payment routes',
    });
    authorizer.grantTableAccess(table, supportFunctionAccess.authorizer);

    const sender = new ServiceFunction(this, 'SendCallbackFunction', {
      ...common,
      handler: 'send-callback',
      description: 'Delivers signed callbacks from the callback queue',
      // Several 10 s attempts per batch; the queue's visibility timeout is longer still.
      timeout: Duration.seconds(60),
      environment: {
        CALLBACK_QUEUE_URL: callbacks.queue.queueUrl,
        CALLBACK_RETRY_DELAYS_SECONDS: retryDelays.join(','),
        SECRETS_KMS_KEY_ARN: signingSecretsKey.key.keyArn,
      },
    });
    sender.grantTableAccess(table, supportFunctionAccess['send-callback']);
    signingSecretsKey.allowOnlyToOpen(sender.role!);
    // Retries are re-enqueued with a delay.
    callbacks.queue.grantSendMessages(sender);
    sender.addEventSource(
      new SqsEventSource(callbacks.queue, {
        batchSize: callbackQueueDefinition.batchSize,
        maxBatchingWindow: Duration.seconds(callbackQueueDefinition.maxBatchingWindowSeconds),
        maxConcurrency: callbackQueueDefinition.maxConcurrency,
        reportBatchItemFailures: true,
      }),
    );

    // Enqueues deliveries whose enqueue failed and retries delayed beyond SQS's 15 minutes: every
    // due-index shard, until none is due or the run nears its timeout (the next run continues).
    const sweeper = new ServiceFunction(this, 'SweepDeliveriesFunction', {
      ...common,
      handler: 'sweep-deliveries',
      description: 'Puts due callback deliveries on the callback queue',
      timeout: Duration.seconds(60),
      environment: {
        CALLBACK_QUEUE_URL: callbacks.queue.queueUrl,
        ...(senderEmail ? { SENDER_EMAIL: senderEmail } : {}),
        // It finishes the refunds nobody finished, on the provider each order was paid with.
        SANDBOX_PAYMENTS: String(sandboxPayments),
        ...providerSecrets.environment(SWEEPER_PROVIDER_SECRETS),
      },
    });
    sweeper.grantTableAccess(table, supportFunctionAccess['sweep-deliveries']);
    providerSecrets.grantRead(sweeper, SWEEPER_PROVIDER_SECRETS);
    callbacks.queue.grantSendMessages(sweeper);
    // It also tries again the e-mails to guests whose send failed.
    grantSend?.(sweeper);
    // The schedule invokes it asynchronously: a failed run is not retried by Lambda (up to 2 more
    // runs by default, overlapping the next minute's), nor by EventBridge; the next run continues
    // (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-configure.html).
    sweeper.configureAsyncInvoke({ retryAttempts: 0 });
    new Rule(this, 'SweepDeliveriesSchedule', {
      description: 'Every minute: enqueue due callback deliveries',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(sweeper, { retryAttempts: 0 })],
    });

    const api = new ServiceApi(this, 'Api', {
      stage,
      routes: stageRoutes.filter(servedByApi),
      authorizerFunction: authorizer,
      authorizerCacheTtlSeconds: settings.authorizerCacheTtlSeconds,
      throttling: settings.throttling,
      planLimits: settings.planLimits,
      publicRateLimit: settings.publicRateLimit,
      guestBookingRateLimit: settings.guestBookingRateLimit,
      keyedRateLimit: settings.keyedRateLimit,
      logRetention,
    });

    // One nested stack per area of the route table (infra/route-areas.ts): one function per route,
    // or per resource where routes share one (dashboard pages and their forms: pageRoutes gives
    // them one handler, access and timeout), and the area's methods on the API.
    const resources: StageResources = {
      stage,
      logRetention,
      sandboxPayments,
      supportedCurrencies: currencies,
      senderEmail,
      grantSend,
      table,
      callbacks,
      providerSecrets,
      orderReferenceKey,
      signingSecretsKey,
      operators,
      api,
    };
    const areas = ROUTE_AREAS.map((area) => ({ area, routes: stageRoutes.filter((route) => areaOf(route) === area) }))
      .filter(({ routes }) => routes.length > 0)
      .map(({ area, routes }) => new RouteAreaStack(this, area.id, { area, routes, resources }));
    const handlers = new Map(areas.flatMap((areaStack) => [...areaStack.routeFunctions]));
    const functionsById = new Map(areas.flatMap((areaStack) => [...areaStack.functions]));

    // The sandbox checkout on an origin of its own, as a provider's checkout is (docs/behaviour.md
    // "Sandbox payment provider"): its function's URL, open to anyone (a guest's browser opens it)
    // and never a path of the API. The functions that open checkouts (order creation, the guest
    // pages, whose forms lead there) are told where it is.
    const sandboxCheckout = stageRoutes.find((route) => route.origin === 'sandbox');
    if (sandboxCheckout) {
      const fn = functionsById.get(sandboxCheckout.function ?? sandboxCheckout.id)!;
      this.sandboxCheckoutUrl = fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
      for (const route of stageRoutes) if (route.access.orderReferenceKey) handlers.get(route.id)!.addEnvironment('SANDBOX_BASE_URL', this.sandboxCheckoutUrl.url);
      new CfnOutput(this, 'SandboxCheckoutUrl', { value: this.sandboxCheckoutUrl.url, description: "The sandbox checkout's origin (checkout_url is on it)" });
    }

    // Alarms and the dashboard in a nested stack of their own: one alarm per function grows with the routes.
    const monitoringStack = new NestedStack(this, 'Monitoring', { description: 'Alarms, their topic and the CloudWatch dashboard' });
    const monitoring = new Monitoring(monitoringStack, 'Monitoring', {
      stage,
      restApi: api.restApi,
      accessLogs: api.accessLogs,
      table,
      authorizer,
      sender,
      sweeper,
      routeFunctions: [...functionsById.values()],
      queue: callbacks.queue,
      deadLetterQueue: callbacks.deadLetterQueue,
      alarmEmail: settings.alarmEmail,
    });

    // Fixed logical ids, no exports: the operator CLI reads them by OutputKey.
    new CfnOutput(this, stackOutputKeys.apiUrl, { value: api.url, description: 'Base URL of the API stage' });
    new CfnOutput(this, stackOutputKeys.tableName, { value: table.tableName });
    new CfnOutput(this, stackOutputKeys.callbackQueueUrl, { value: callbacks.queue.queueUrl });
    new CfnOutput(this, stackOutputKeys.callbackDlqUrl, { value: callbacks.deadLetterQueue.queueUrl });
    new CfnOutput(this, stackOutputKeys.secretsKeyArn, {
      value: signingSecretsKey.key.keyArn,
      description: 'KMS key sealing signing secrets: operators need kms:Encrypt on it to set callback and webhook URLs',
    });
    for (const plan of PLANS) {
      new CfnOutput(this, usagePlanOutputKey[plan], {
        value: api.usagePlans[plan].usagePlanId,
        description: `Usage plan of the ${plan} plan: the operator CLI registers each ${plan} client's usage key in it`,
      });
    }
    new CfnOutput(this, stackOutputKeys.sandboxPayments, { value: String(sandboxPayments), description: 'Whether this stage runs the sandbox payment provider' });
    new CfnOutput(this, stackOutputKeys.userPoolId, { value: operators.userPool.userPoolId, description: 'Operators of the hotel dashboard (npm run ops -- operators ...)' });
    new CfnOutput(this, stackOutputKeys.userPoolClientId, { value: operators.client.userPoolClientId, description: "The dashboard's app client" });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn, description: 'Subscribe to receive alarms' });

    this.table = table;
    this.callbacks = callbacks;
    this.providerSecrets = providerSecrets;
    this.routeFunctions = handlers;
    this.authorizerFunction = authorizer;
    this.callbackSenderFunction = sender;
    this.deliverySweeperFunction = sweeper;
    this.signingSecretsKey = signingSecretsKey;
    this.api = api;
    this.monitoring = monitoring;
    this.areaStacks = areas;
    this.operators = operators;
  }
}
