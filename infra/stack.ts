import { ArnFormat, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type FunctionUrl, FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { checkAuthorizerCacheTtl, DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS } from '../definitions/authorizers';
import { type ApiThrottling, ServiceApi } from './constructs/api';
import { DEFAULT_GUEST_BOOKING_RATE_LIMIT, DEFAULT_KEYED_RATE_LIMIT, DEFAULT_PUBLIC_RATE_LIMIT, type PublicRateLimit } from './constructs/public-rate-limit';
import { DEFAULT_PLAN_LIMITS, type Plan, type PlanLimits, PLANS } from '../definitions/plans';
import { CallbackQueue } from './constructs/callback-queue';
import { Monitoring } from './constructs/monitoring';
import { defaultProviderSecretNames, ProviderSecrets } from './constructs/provider-secrets';
import { ServiceFunction } from './constructs/service-function';
import { SigningSecretsKey } from './constructs/signing-secrets-key';
import { ServiceTable } from './constructs/table';
import { OperatorUserPool } from './constructs/user-pool';
import { callbackQueue as callbackQueueDefinition } from '../definitions/queues';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, type Route, routesOfStage, servedByApi } from '../definitions/routes';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS, DEFAULT_SUPPORTED_CURRENCIES } from '../definitions/service-defaults';
import { supportFunctionAccess } from '../definitions/table-access';

/**
 * Every method's ceiling, all clients together: clients are limited one by one by their plans'
 * usage plans, so this is only a backstop, ten times the highest plan so that one client at its
 * limit never exhausts it for the others.
 */
export const DEFAULT_THROTTLING: ApiThrottling = { rateLimit: 1_000, burstLimit: 2_000 };

export interface HotelIntegrationStackProps extends StackProps {
  /** Names the API Gateway stage and is passed to every function as STAGE. */
  stage: string;
  /** @default DEFAULT_THROTTLING */
  throttling?: ApiThrottling;
  /** Per-client rate limits of each plan (its usage plan), for the plans given. @default DEFAULT_PLAN_LIMITS */
  planLimits?: Partial<Record<Plan, PlanLimits>>;
  /**
   * How long API Gateway caches the sync authorizer's policy per Authorization header, 1 to 30 s
   * (with the authorizer's 30 s key cache a revoked key stops within 60 s).
   * @default DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS
   */
  authorizerCacheTtlSeconds?: number;
  /** The WAF rate-based rule per source IP on the public routes. @default DEFAULT_PUBLIC_RATE_LIMIT */
  publicRateLimit?: PublicRateLimit;
  /** The WAF rate-based rule per source IP on guest booking POSTs. @default DEFAULT_GUEST_BOOKING_RATE_LIMIT */
  guestBookingRateLimit?: PublicRateLimit;
  /** The WAF rate-based rule per source IP on the keyed routes. @default DEFAULT_KEYED_RATE_LIMIT */
  keyedRateLimit?: PublicRateLimit;
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
  /**
   * Deploys the sandbox payment provider (its hosted page and form, on a function URL of its
   * own), for a partner-testing stage. Anyone can mark a sandbox order paid without money:
   * refused for the stage `prod`.
   * @default false
   */
  sandboxPayments?: boolean;
  /**
   * The address e-mails to guests are sent from (booking confirmations, the "Confirm your booking"
   * link of pay at the hotel), a verified SES identity of the stage's account and region
   * (docs/operations.md). The functions that send may send from it only. @default none: the
   * stage sends no e-mail, and pay at the hotel cannot be turned on
   */
  senderEmail?: string;
  /**
   * The verified SES identity the sender belongs to, when it is its domain rather than the address
   * itself (`example.com` for `bookings@example.com`). @default senderEmail
   */
  senderIdentity?: string;
}

/** The stage name the local stack runs as: a deployed stage named so would get its relaxations. */
const RESERVED_STAGE = 'local';
/** The stage that may never run the sandbox provider. */
export const PRODUCTION_STAGE = 'prod';

import { stackOutputKeys } from '../definitions/stack-outputs';

export { stackOutputKeys };

/** The output holding each plan's usage plan id. */
export const usagePlanOutputKey = {
  standard: stackOutputKeys.usagePlanStandardId,
  premium: stackOutputKeys.usagePlanPremiumId,
} as const satisfies Record<Plan, string>;

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
  readonly signingSecretsKey: SigningSecretsKey;
  /** The sandbox checkout's origin, where the stage runs the sandbox provider. */
  readonly sandboxCheckoutUrl?: FunctionUrl;

  constructor(scope: Construct, id: string, props: HotelIntegrationStackProps) {
    super(scope, id, props);
    const { stage } = props;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(stage)) throw new Error(`Invalid stage name "${stage}": use letters, digits, - and _`);
    if (stage === RESERVED_STAGE) throw new Error(`The stage name "${RESERVED_STAGE}" is the local stack's (http and loopback URLs allowed): choose another`);
    const sandboxPayments = props.sandboxPayments ?? false;
    if (sandboxPayments && stage === PRODUCTION_STAGE) {
      throw new Error(
        `sandboxPayments cannot be turned on for the stage "${PRODUCTION_STAGE}": its checkout lets anyone mark an order paid without money, ` +
          'which would confirm bookings and lock rooms. Use it on a partner-testing stage only.',
      );
    }
    const stageRoutes = routesOfStage({ sandboxPayments });
    const email = emailSending(this, props);
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

    // One function per route, or per resource where routes share one (dashboard pages and their
    // forms: pageRoutes gives them one handler, access and timeout).
    const functionsById = new Map<string, ServiceFunction>();
    for (const route of stageRoutes) {
      const functionId = route.function ?? route.id;
      const existing = functionsById.get(functionId);
      if (existing) {
        handlers.set(route.id, existing);
        continue;
      }
      const fn = new ServiceFunction(this, `${functionId}Function`, {
        ...common,
        handler: route.handler,
        description: route.description,
        timeout: Duration.seconds(route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS),
        environment: {
          ...(isPaymentRoute(route) ? { SUPPORTED_CURRENCIES: currencies.join(','), SANDBOX_PAYMENTS: String(sandboxPayments) } : {}),
          ...(route.access.orderReferenceKey ? { ORDER_REFERENCE_KEY_SECRET_ARN: orderReferenceKey.secretArn } : {}),
          ...(route.access.enqueuesCallbacks ? { CALLBACK_QUEUE_URL: callbacks.queue.queueUrl } : {}),
          ...(route.access.sealsSigningSecrets ? { SECRETS_KMS_KEY_ARN: signingSecretsKey.key.keyArn } : {}),
          ...(route.auth.kind === 'dashboard' || route.access.operatorSessions
            ? { USER_POOL_ID: operators.userPool.userPoolId, USER_POOL_CLIENT_ID: operators.client.userPoolClientId, SANDBOX_PAYMENTS: String(sandboxPayments) }
            : {}),
          ...providerSecrets.environment(route.access.providerSecrets ?? []),
          // The dashboard's pages say whether the stage sends e-mail (pay at the hotel needs it).
          ...(email && (route.access.sendsEmail || route.auth.kind === 'dashboard') ? { SENDER_EMAIL: email.sender } : {}),
        },
      });
      fn.grantTableAccess(table, route.access.dynamodb);
      if (route.access.enqueuesCallbacks) callbacks.queue.grantSendMessages(fn);
      if (route.access.sealsSigningSecrets) signingSecretsKey.allowToSeal(fn.role!);
      providerSecrets.grantRead(fn, route.access.providerSecrets ?? []);
      if (route.access.orderReferenceKey) orderReferenceKey.grantRead(fn);
      if (route.access.sendsEmail) email?.grantSend(fn);
      // Pages behind a session renew it; the sign-in function opens and ends sessions.
      if (route.auth.kind === 'dashboard' || route.access.operatorSessions) operators.allowSessions(fn);
      functionsById.set(functionId, fn);
      handlers.set(route.id, fn);
    }

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
      environment: { CALLBACK_QUEUE_URL: callbacks.queue.queueUrl, ...(email ? { SENDER_EMAIL: email.sender } : {}) },
    });
    sweeper.grantTableAccess(table, supportFunctionAccess['sweep-deliveries']);
    callbacks.queue.grantSendMessages(sweeper);
    // It also tries again the e-mails to guests whose send failed.
    email?.grantSend(sweeper);
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
      handlers,
      authorizerFunction: authorizer,
      authorizerCacheTtlSeconds: checkAuthorizerCacheTtl(props.authorizerCacheTtlSeconds ?? DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS),
      throttling: props.throttling ?? DEFAULT_THROTTLING,
      planLimits: checkPlanLimits({ ...DEFAULT_PLAN_LIMITS, ...props.planLimits }),
      publicRateLimit: props.publicRateLimit ?? DEFAULT_PUBLIC_RATE_LIMIT,
      guestBookingRateLimit: props.guestBookingRateLimit ?? DEFAULT_GUEST_BOOKING_RATE_LIMIT,
      keyedRateLimit: props.keyedRateLimit ?? DEFAULT_KEYED_RATE_LIMIT,
      logRetention,
    });

    const monitoring = new Monitoring(this, 'Monitoring', {
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
      alarmEmail: props.alarmEmail,
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
    this.operators = operators;
  }
}

/**
 * Payment order functions validate currencies and choose or settle on a provider: the payment
 * routes, the sandbox's, and the functions that create orders (the guest booking pages).
 */
function isPaymentRoute(route: Route): boolean {
  return route.path.startsWith('/api/v1/payments/') || route.origin === 'sandbox' || route.access.orderReferenceKey === true;
}

/** An e-mail address as SES takes it for a sender (no display name: the functions add the hotel's). */
const SENDER_ADDRESS = /^[^\s@<>",;]+@([^\s@<>",;]+\.[^\s@<>",;]+)$/;

/**
 * The stage's e-mail sender, when it has one: the address, and a grant of `ses:SendEmail` on its
 * verified identity only (the address, or its domain). IAM authorizes SendEmail against the
 * identity resource `arn:aws:ses:REGION:ACCOUNT:identity/NAME` ("Actions, resources, and condition
 * keys for Amazon Simple Email Service - SES v2",
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsimpleemailservicev2.html).
 */
function emailSending(scope: Stack, props: HotelIntegrationStackProps): { sender: string; grantSend(grantee: IGrantable): void } | undefined {
  if (props.senderEmail === undefined) {
    if (props.senderIdentity !== undefined) throw new Error('senderIdentity needs senderEmail');
    return undefined;
  }
  const sender = props.senderEmail.trim();
  const domain = SENDER_ADDRESS.exec(sender)?.[1];
  if (!domain) throw new Error(`senderEmail must be an e-mail address such as bookings@example.com, not "${props.senderEmail}"`);
  const identity = props.senderIdentity?.trim() ?? sender;
  if (identity.toLowerCase() !== sender.toLowerCase() && identity.toLowerCase() !== domain.toLowerCase()) {
    throw new Error(`senderIdentity must be senderEmail itself or its domain ${domain}, not "${identity}"`);
  }
  const identityArn = scope.formatArn({ service: 'ses', resource: 'identity', resourceName: identity, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
  return {
    sender,
    grantSend: (grantee) => grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['ses:SendEmail'], resources: [identityArn] })),
  };
}

/** Usage plan throttles: a positive rate, a whole burst of at least one request. */
function checkPlanLimits(limits: Record<Plan, PlanLimits>): Record<Plan, PlanLimits> {
  for (const plan of PLANS) {
    const { rateLimit, burstLimit } = limits[plan];
    if (!(rateLimit > 0) || !Number.isInteger(burstLimit) || burstLimit < 1) {
      throw new Error(`planLimits.${plan}: rateLimit must be above 0 and burstLimit a whole number from 1`);
    }
  }
  return limits;
}
