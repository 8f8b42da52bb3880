import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type ApiThrottling, ServiceApi } from './constructs/api';
import { CallbackQueue } from './constructs/callback-queue';
import { Monitoring } from './constructs/monitoring';
import { defaultProviderSecretNames, ProviderSecrets } from './constructs/provider-secrets';
import { ServiceFunction } from './constructs/service-function';
import { ServiceTable } from './constructs/table';
import { callbackQueue as callbackQueueDefinition } from './queue-definitions';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, type Route, routes } from './routes';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS, DEFAULT_SUPPORTED_CURRENCIES } from './service-defaults';

export const DEFAULT_THROTTLING: ApiThrottling = { rateLimit: 50, burstLimit: 100 };

export interface HotelIntegrationStackProps extends StackProps {
  /** Names the API Gateway stage and is passed to every function as STAGE. */
  stage: string;
  /** @default DEFAULT_THROTTLING */
  throttling?: ApiThrottling;
  /** Delays between automatic callback attempts. @default DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS */
  callbackRetryDelaysSeconds?: readonly number[];
  /** ISO 4217 codes payment orders accept. @default DEFAULT_SUPPORTED_CURRENCIES */
  supportedCurrencies?: readonly string[];
  /** E-mail address subscribed to the alarm topic. @default none (subscribe later) */
  alarmEmail?: string;
  /** Retention of function logs and API access logs. @default one month */
  logRetention?: RetentionDays;
  /**
   * SSM SecureString parameter holding the Stripe platform secret key (sk_…), created by the
   * operator. Read only when a client uses Stripe. @default /hotel-integration/STAGE/stripe/secret-key
   */
  stripeSecretKeyParameterName?: string;
  /**
   * SSM SecureString parameter holding the Stripe webhook signing secret(s) (whsec_…,
   * comma-separated for several endpoints). @default /hotel-integration/STAGE/stripe/webhook-secret
   */
  stripeWebhookSecretParameterName?: string;
  /** Customer managed KMS key of those parameters, if not the AWS managed aws/ssm key. */
  stripeSecretsKmsKeyArn?: string;
}

/** Output keys the operator CLI reads from the deployed stack. */
export const stackOutputKeys = {
  apiUrl: 'ApiUrl',
  tableName: 'TableName',
  callbackQueueUrl: 'CallbackQueueUrl',
  callbackDlqUrl: 'CallbackDlqUrl',
  secretBoxKeyArn: 'SecretBoxKeyArn',
} as const;

export class HotelIntegrationStack extends Stack {
  /** The function behind each route, by route id. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  readonly authorizerFunction: ServiceFunction;
  readonly callbackSenderFunction: ServiceFunction;
  readonly deliverySweeperFunction: ServiceFunction;
  readonly table: ServiceTable;
  readonly callbacks: CallbackQueue;
  readonly providerSecrets: ProviderSecrets;
  readonly api: ServiceApi;
  readonly monitoring: Monitoring;
  readonly secretBoxKey: Secret;

  constructor(scope: Construct, id: string, props: HotelIntegrationStackProps) {
    super(scope, id, props);
    const { stage } = props;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(stage)) throw new Error(`Invalid stage name "${stage}": use letters, digits, - and _`);
    const retryDelays = props.callbackRetryDelaysSeconds ?? DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS;
    if (retryDelays.length === 0 || !retryDelays.every((d) => Number.isInteger(d) && d > 0)) {
      throw new Error('callbackRetryDelaysSeconds must be positive whole numbers of seconds');
    }
    const currencies = props.supportedCurrencies ?? DEFAULT_SUPPORTED_CURRENCIES;
    if (currencies.length === 0 || !currencies.every((c) => /^[A-Z]{3}$/.test(c))) {
      throw new Error('supportedCurrencies must be uppercase ISO 4217 codes');
    }
    const logRetention = props.logRetention ?? RetentionDays.ONE_MONTH;

    Tags.of(this).add('service', 'hotel-integration-api');
    Tags.of(this).add('stage', stage);

    const table = new ServiceTable(this, 'Table');
    const callbacks = new CallbackQueue(this, 'Callbacks');
    const common = { stage, table, logRetention };
    const defaultSecretNames = defaultProviderSecretNames(stage);
    const providerSecrets = new ProviderSecrets(this, 'ProviderSecrets', {
      parameterNames: {
        stripeSecretKey: props.stripeSecretKeyParameterName ?? defaultSecretNames.stripeSecretKey,
        stripeWebhookSecret: props.stripeWebhookSecretParameterName ?? defaultSecretNames.stripeWebhookSecret,
      },
      kmsKeyArn: props.stripeSecretsKmsKeyArn,
    });

    const handlers = new Map<string, ServiceFunction>();
    for (const route of routes) {
      const fn = new ServiceFunction(this, `${route.id}Function`, {
        ...common,
        handler: route.handler,
        description: route.description,
        timeout: Duration.seconds(route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS),
        environment: {
          ...(isPaymentRoute(route) ? { SUPPORTED_CURRENCIES: currencies.join(',') } : {}),
          ...(route.access.enqueuesCallbacks ? { CALLBACK_QUEUE_URL: callbacks.queue.queueUrl } : {}),
          ...providerSecrets.environment(route.access.providerSecrets ?? []),
        },
      });
      fn.grantTableAccess(table, route.access.table);
      if (route.access.enqueuesCallbacks) callbacks.queue.grantSendMessages(fn);
      providerSecrets.grantRead(fn, route.access.providerSecrets ?? []);
      handlers.set(route.id, fn);
    }

    const authorizer = new ServiceFunction(this, 'AuthorizerFunction', {
      ...common,
      handler: 'authorizer',
      description: 'API key authorizer for sync and payment routes',
    });
    // Looks keys up by hash and records last_used_at; nothing else.
    authorizer.addToRolePolicy(
      new PolicyStatement({ actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [table.tableArn] }),
    );

    // Seals callback and webhook signing secrets on the table; only the sender opens them.
    const secretBoxKey = new Secret(this, 'SecretBoxKey', {
      description: 'Key that seals callback and webhook signing secrets stored on the table',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(secretBoxKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating this key would need every sealed signing secret re-sealed; rotate by re-setting the endpoints (npm run ops -- callbacks set) after replacing the secret',
    });

    const sender = new ServiceFunction(this, 'SendCallbackFunction', {
      ...common,
      handler: 'send-callback',
      description: 'Delivers signed callbacks from the callback queue',
      // Several 10 s attempts per batch; the queue's visibility timeout is longer still.
      timeout: Duration.seconds(60),
      environment: {
        CALLBACK_QUEUE_URL: callbacks.queue.queueUrl,
        CALLBACK_RETRY_DELAYS_SECONDS: retryDelays.join(','),
        SECRET_BOX_KEY_SECRET_ARN: secretBoxKey.secretArn,
      },
    });
    sender.grantTableAccess(table, 'readwrite');
    secretBoxKey.grantRead(sender);
    // Retries are re-enqueued with a delay.
    callbacks.queue.grantSendMessages(sender);
    sender.addEventSource(
      new SqsEventSource(callbacks.queue, {
        batchSize: callbackQueueDefinition.batchSize,
        maxBatchingWindow: Duration.seconds(callbackQueueDefinition.maxBatchingWindowSeconds),
        reportBatchItemFailures: true,
      }),
    );

    // Enqueues deliveries whose enqueue failed and retries delayed beyond SQS's 15 minutes.
    const sweeper = new ServiceFunction(this, 'SweepDeliveriesFunction', {
      ...common,
      handler: 'sweep-deliveries',
      description: 'Puts due callback deliveries on the callback queue',
      timeout: Duration.seconds(60),
      environment: { CALLBACK_QUEUE_URL: callbacks.queue.queueUrl },
    });
    sweeper.grantTableAccess(table, 'readwrite');
    callbacks.queue.grantSendMessages(sweeper);
    new Rule(this, 'SweepDeliveriesSchedule', {
      description: 'Every minute: enqueue due callback deliveries',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(sweeper, { retryAttempts: 0 })],
    });

    const api = new ServiceApi(this, 'Api', {
      stage,
      routes,
      handlers,
      authorizerFunction: authorizer,
      throttling: props.throttling ?? DEFAULT_THROTTLING,
      logRetention,
    });

    const monitoring = new Monitoring(this, 'Monitoring', {
      stage,
      restApi: api.restApi,
      authorizer,
      sender,
      sweeper,
      routeFunctions: [...handlers.values()],
      queue: callbacks.queue,
      deadLetterQueue: callbacks.deadLetterQueue,
      alarmEmail: props.alarmEmail,
    });

    // Fixed logical ids, no exports: the operator CLI reads them by OutputKey.
    new CfnOutput(this, stackOutputKeys.apiUrl, { value: api.url, description: 'Base URL of the API stage' });
    new CfnOutput(this, stackOutputKeys.tableName, { value: table.tableName });
    new CfnOutput(this, stackOutputKeys.callbackQueueUrl, { value: callbacks.queue.queueUrl });
    new CfnOutput(this, stackOutputKeys.callbackDlqUrl, { value: callbacks.deadLetterQueue.queueUrl });
    new CfnOutput(this, stackOutputKeys.secretBoxKeyArn, { value: secretBoxKey.secretArn, description: 'Operators need secretsmanager:GetSecretValue on it to set callback URLs' });
    new CfnOutput(this, 'AlarmTopicArn', { value: monitoring.topic.topicArn, description: 'Subscribe to receive alarms' });

    this.table = table;
    this.callbacks = callbacks;
    this.providerSecrets = providerSecrets;
    this.routeFunctions = handlers;
    this.authorizerFunction = authorizer;
    this.callbackSenderFunction = sender;
    this.deliverySweeperFunction = sweeper;
    this.secretBoxKey = secretBoxKey;
    this.api = api;
    this.monitoring = monitoring;
  }
}

/** Payment order functions validate currencies. */
function isPaymentRoute(route: Route): boolean {
  return route.path.startsWith('/api/v1/payments/');
}
