/**
 * One area of the route table in a nested stack of its own (infra/route-areas.ts): a function per
 * route (or per page resource) with exactly the access its route declares, and the API Gateway
 * resources and methods of the area's paths, on the root stack's REST API. What it needs of the
 * root stack (table, queue, keys, user pool, the API) reaches it as nested stack parameters,
 * which the CDK adds for each reference; nothing is exported.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, type Route } from '../definitions/routes';
import type { ServiceApi } from './constructs/api';
import { ApiRoutes } from './constructs/api-routes';
import type { CallbackQueue } from './constructs/callback-queue';
import type { ProviderSecrets } from './constructs/provider-secrets';
import { ServiceFunction } from './constructs/service-function';
import type { SigningSecretsKey } from './constructs/signing-secrets-key';
import type { ServiceTable } from './constructs/table';
import type { OperatorUserPool } from './constructs/user-pool';
import type { RouteArea } from './route-areas';

/** The root stack's parts an area's functions are given, and the stage's settings they read. */
export interface StageResources {
  stage: string;
  logRetention: RetentionDays;
  sandboxPayments: boolean;
  supportedCurrencies: readonly string[];
  senderEmail?: string;
  grantSend?: (grantee: IGrantable) => void;
  table: ServiceTable;
  callbacks: CallbackQueue;
  providerSecrets: ProviderSecrets;
  orderReferenceKey: ISecret;
  signingSecretsKey: SigningSecretsKey;
  operators: OperatorUserPool;
  api: ServiceApi;
}

export interface RouteAreaStackProps {
  area: RouteArea;
  /** The stage's routes of this area. */
  routes: readonly Route[];
  resources: StageResources;
}

export class RouteAreaStack extends NestedStack {
  /** The function behind each route of the area, by route id. */
  readonly routeFunctions: ReadonlyMap<string, ServiceFunction>;
  /** Each function of the area once, by function id (a route's `function`, else its id). */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  readonly apiRoutes?: ApiRoutes;

  constructor(scope: Construct, id: string, props: RouteAreaStackProps) {
    super(scope, id, { description: props.area.description });
    const { resources: stage } = props;
    const handlers = new Map<string, ServiceFunction>();
    const functionsById = new Map<string, ServiceFunction>();
    for (const route of props.routes) {
      const functionId = route.function ?? route.id;
      const fn = functionsById.get(functionId) ?? routeFunction(this, `${functionId}Function`, route, stage);
      functionsById.set(functionId, fn);
      handlers.set(route.id, fn);
    }
    const apiRoutes = props.routes.filter((route) => route.origin === undefined);
    if (apiRoutes.length) {
      // Named after the area: logical ids stay unique across the stage's templates.
      this.apiRoutes = new ApiRoutes(this, `${props.area.id}Api`, { api: stage.api, basePath: props.area.basePath, ...(props.area.paths ? { paths: props.area.paths } : {}), routes: apiRoutes, handlers });
    }
    this.routeFunctions = handlers;
    this.functions = functionsById;
  }
}

/** A route's function: its handler, timeout, environment and exactly the access it declares. */
function routeFunction(scope: Construct, id: string, route: Route, stage: StageResources): ServiceFunction {
  const { table, callbacks, providerSecrets, orderReferenceKey, signingSecretsKey, operators, senderEmail } = stage;
  const sessions = route.auth.kind === 'dashboard' || route.access.operatorSessions === true;
  const fn = new ServiceFunction(scope, id, {
    stage: stage.stage,
    table,
    logRetention: stage.logRetention,
    handler: route.handler,
    description: route.description,
    timeout: Duration.seconds(route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS),
    environment: {
      ...(isPaymentRoute(route) ? { SUPPORTED_CURRENCIES: stage.supportedCurrencies.join(','), SANDBOX_PAYMENTS: String(stage.sandboxPayments) } : {}),
      ...(route.access.orderReferenceKey ? { ORDER_REFERENCE_KEY_SECRET_ARN: orderReferenceKey.secretArn } : {}),
      ...(route.access.enqueuesCallbacks ? { CALLBACK_QUEUE_URL: callbacks.queue.queueUrl } : {}),
      ...(route.access.sealsSigningSecrets ? { SECRETS_KMS_KEY_ARN: signingSecretsKey.key.keyArn } : {}),
      ...(sessions
        ? { USER_POOL_ID: operators.userPool.userPoolId, USER_POOL_CLIENT_ID: operators.client.userPoolClientId, SANDBOX_PAYMENTS: String(stage.sandboxPayments) }
        : {}),
      ...providerSecrets.environment(route.access.providerSecrets ?? []),
      // The dashboard's pages say whether the stage sends e-mail (pay at the hotel needs it).
      ...(senderEmail && (route.access.sendsEmail || route.auth.kind === 'dashboard') ? { SENDER_EMAIL: senderEmail } : {}),
    },
  });
  fn.grantTableAccess(table, route.access.dynamodb);
  if (route.access.enqueuesCallbacks) callbacks.queue.grantSendMessages(fn);
  if (route.access.sealsSigningSecrets) signingSecretsKey.allowToSeal(fn.role!);
  providerSecrets.grantRead(fn, route.access.providerSecrets ?? []);
  if (route.access.orderReferenceKey) orderReferenceKey.grantRead(fn);
  if (route.access.sendsEmail) stage.grantSend?.(fn);
  // Pages behind a session renew it; the sign-in function opens and ends sessions.
  if (sessions) operators.allowSessions(fn);
  return fn;
}

/**
 * Payment order functions validate currencies and choose or settle on a provider: the payment
 * routes, the sandbox's, and the functions that create orders (the guest booking pages).
 */
function isPaymentRoute(route: Route): boolean {
  return route.path.startsWith('/api/v1/payments/') || route.origin === 'sandbox' || route.access.orderReferenceKey === true;
}
