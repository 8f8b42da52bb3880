/**
 * The service served against running emulators: the function environment, the local gateway
 * over the stage's routes, the sandbox checkout on a port of its own (as the stack's function
 * URL), the queue poller for the callback sender, the delivery sweeper and the table guard that
 * holds every function to the table access the stack grants it; and stopping all of it well.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { checkAuthorizerCacheTtl, DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS } from '../../definitions/authorizers';
import { functionEnvironment, type LocalCognito, type LocalStackInfo, LOCAL_REGION, LOCAL_SENDER_EMAIL } from '../../definitions/local-stack';
import { DEFAULT_PLAN_LIMITS, type Plan, type PlanLimits } from '../../definitions/plans';
import { callbackQueue } from '../../definitions/queues';
import { DEFAULT_FUNCTION_TIMEOUT_SECONDS, type Route, routesOfStage, servedByApi } from '../../definitions/routes';
import { resetConfig } from '../../shared/config';
import { OPENAPI_PATH, serializeOpenApiDocument } from '../../shared/openapi/document';
import { installInvocationScopes } from './invocation-scope';
import { startSweeper } from './delivery-sweeper';
import { sqsClient } from './emulators';
import { type LocalFunctionUrl, startLocalFunctionUrl } from './function-url';
import { DEFAULT_FUNCTION_CONCURRENCY, type LocalGateway, startLocalGateway } from './gateway';
import { routeFunction, supportFunction } from './lambda-runtime';
import type { ConcurrencyOptions } from './limits';
import type { LocalQueues } from './local-queues';
import { type QueuePoller, startQueuePoller } from './queue-poller';
import type { ExtraRoute } from './route-matching';
import { installTableGuard } from './table-guard';

export interface ServeOptions {
  port: number;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queues: LocalQueues;
  /** Path of the key file (mode 600, see ./key-files.ts) that seals signing secrets. */
  secretsKeyFile: string;
  onRequest?: (line: string) => void;
  extraRoutes?: ExtraRoute[];
  /** How often the delivery sweeper runs (the deployed stack: every minute). */
  sweepIntervalMs?: number;
  /** @default true: the local stack always has the sandbox provider; a test may switch it off. */
  sandboxPayments?: boolean;
  /** The sandbox checkout's port (SANDBOX_PORT). @default 0: a free port */
  sandboxPort?: number;
  orderReferenceKeyFile: string;
  /** The operators' user pool on cognito-local; without it, no operator sign-in. */
  cognito?: LocalCognito;
  /** The SES v2 emulator's endpoint; without it the stack sends no e-mail (as a stage without `-c senderEmail`). */
  sesEndpoint?: string;
  /** Each plan's per-client limits (a stage may override them, as the stack prop `planLimits`). @default DEFAULT_PLAN_LIMITS */
  planLimits?: Readonly<Record<Plan, PlanLimits>>;
  /** The sync authorizer's result TTL. @default AUTHORIZER_CACHE_TTL_SECONDS, else the stack's default */
  authorizerCacheTtlSeconds?: number;
  /** Invocations of one function at once, and waiting. @default LOCAL_FUNCTION_CONCURRENCY, else DEFAULT_FUNCTION_CONCURRENCY */
  functionConcurrency?: ConcurrencyOptions;
}

export interface ServingStack {
  info: LocalStackInfo;
  gateway: LocalGateway;
  poller: QueuePoller;
  sqs: SQSClient;
  /** The scheduled sweeper's runs started so far, ended (a test that sweeps itself waits for the run at start). */
  sweeperSettled(): Promise<void>;
  /**
   * Stops well: the gateway takes no new request and lets those in flight finish (at most
   * STOP_DRAIN_MS), while the sweeper and the poller finish their run and batches (as long, each);
   * whatever is still running then is cut off. Nothing is half-written by a cut: every write is
   * one conditional call or transaction, and a delivery whose attempt was cut is on the due index.
   */
  stop(): Promise<void>;
}

/** How long stop() waits for requests in flight, the sweeper's run and the poller's batches. */
export const STOP_DRAIN_MS = 10_000;

/** `work`, or after `ms` a note that it was not waited for. */
async function bounded(what: string, work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([work.then(() => 'done' as const), late]).finally(() => clearTimeout(timer));
  if (outcome === 'late') console.warn(`${what} still running after ${ms / 1000} s; stopping without it`);
}

/**
 * Serves the API (and the sandbox checkout's origin) and runs the poller against running
 * emulators. Sets process.env for the functions before any of them is loaded.
 */
export async function serve(options: ServeOptions): Promise<ServingStack> {
  // Each invocation's Powertools state its own, as Lambda keeps it (invocation-scope.ts).
  installInvocationScopes();
  const base = {
    tableName: options.tableName,
    dynamodbEndpoint: options.dynamodbEndpoint,
    sqsEndpoint: options.sqsEndpoint,
    callbackQueueUrl: options.queues.callbackQueueUrl,
    callbackDlqUrl: options.queues.callbackDlqUrl,
    region: LOCAL_REGION,
    secretsKeyFile: options.secretsKeyFile,
    sandboxPayments: options.sandboxPayments ?? true,
    orderReferenceKeyFile: options.orderReferenceKeyFile,
    ...(options.cognito
      ? {
          cognitoEndpoint: options.cognito.endpoint,
          userPoolId: options.cognito.userPoolId,
          userPoolClientId: options.cognito.userPoolClientId,
          cognitoIssuer: options.cognito.issuer,
        }
      : {}),
    ...(options.sesEndpoint ? { sesEndpoint: options.sesEndpoint, senderEmail: LOCAL_SENDER_EMAIL } : {}),
  };
  const stageRoutes = routesOfStage({ sandboxPayments: base.sandboxPayments });
  // The sandbox checkout on an origin of its own, as the stack's function URL serves it.
  const sandbox = await startSandboxOrigin(stageRoutes, options);
  const functions = { ...base, ...(sandbox ? { sandboxUrl: sandbox.url } : {}) };
  if (!sandbox) delete process.env.SANDBOX_BASE_URL;
  Object.assign(process.env, functionEnvironment(functions));
  resetConfig();
  const ttlFromEnv = process.env.AUTHORIZER_CACHE_TTL_SECONDS;
  const concurrencyFromEnv = process.env.LOCAL_FUNCTION_CONCURRENCY;
  const gateway = await startLocalGateway({
    routes: stageRoutes.filter(servedByApi),
    port: options.port,
    onRequest: options.onRequest,
    extraRoutes: [openApiRoute(), ...(options.extraRoutes ?? [])],
    // The same plan limits as the stack's usage plans; the ops CLI registers usage keys in the table.
    usagePlans: {
      limits: options.planLimits ?? DEFAULT_PLAN_LIMITS,
      planOfKey: async (usageKey) => (await import('../../shared/store/usage-key-store')).getUsagePlanOfKey(usageKey),
    },
    authorizerCacheTtlSeconds: checkAuthorizerCacheTtl(
      options.authorizerCacheTtlSeconds ?? (ttlFromEnv ? Number(ttlFromEnv) : DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS),
    ),
    functionConcurrency:
      options.functionConcurrency ??
      (concurrencyFromEnv ? { ...DEFAULT_FUNCTION_CONCURRENCY, perFunction: Number(concurrencyFromEnv) } : DEFAULT_FUNCTION_CONCURRENCY),
  }).catch(async (error: unknown) => {
    await sandbox?.close();
    throw error;
  });
  const info: LocalStackInfo = { ...functions, apiUrl: gateway.url };
  process.env.PUBLIC_BASE_URL = gateway.url;
  resetConfig();
  // Imported only now: the store reads the table name from process.env when it loads.
  installTableGuard((await import('../../shared/store/dynamo')).dynamoClient);

  const sqs = sqsClient(options.sqsEndpoint);
  const poller = startQueuePoller({
    sqs,
    queueUrl: options.queues.callbackQueueUrl,
    queueArn: options.queues.callbackQueueArn,
    fn: supportFunction('send-callback'),
    batchSize: callbackQueue.batchSize,
    maxConcurrency: callbackQueue.maxConcurrency,
    visibilityTimeoutSeconds: callbackQueue.localVisibilityTimeoutSeconds,
    onError: (error) => {
      // A whole batch failed (Powertools' FullBatchFailureError): name what each record hit.
      const causes = new Set(((error as { recordErrors?: Error[] }).recordErrors ?? []).map((e) => `${e.name}: ${e.message}`));
      console.error('callback sender failed:', (error as Error).message, ...causes);
    },
  });
  const sweeper = startSweeper(options.sweepIntervalMs ?? 10_000);
  return {
    info,
    gateway,
    poller,
    sqs,
    sweeperSettled: sweeper.settled,
    async stop() {
      // The gateway stops taking requests at once; the three drain side by side.
      await Promise.all([
        gateway.close({ drainMs: STOP_DRAIN_MS }),
        sandbox?.close({ drainMs: STOP_DRAIN_MS }),
        bounded('the delivery sweeper', sweeper.stop(), STOP_DRAIN_MS),
        bounded('the callback sender', poller.stop(), STOP_DRAIN_MS),
      ]);
      sqs.destroy();
    },
  };
}

/**
 * The sandbox checkout's origin, where the stage runs the sandbox: its routes' one function behind
 * a local function URL on `sandboxPort`, as the stack puts it behind a Lambda function URL.
 */
async function startSandboxOrigin(stageRoutes: readonly Route[], options: ServeOptions): Promise<LocalFunctionUrl | undefined> {
  const route = stageRoutes.find((r) => r.origin === 'sandbox');
  if (!route) return undefined;
  return startLocalFunctionUrl({
    fn: () => routeFunction(route),
    port: options.sandboxPort ?? 0,
    timeoutMs: (route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS) * 1000,
    onRequest: options.onRequest && ((line) => options.onRequest!(`sandbox ${line}`)),
  });
}

/** GET /api/v1/openapi.json: the OpenAPI document (openapi.json), built on the first request. */
function openApiRoute(): ExtraRoute {
  let document: string | undefined;
  return {
    method: 'GET',
    path: OPENAPI_PATH,
    respond: () => ({ status: 200, body: (document ??= serializeOpenApiDocument()), contentType: 'application/json' }),
  };
}
