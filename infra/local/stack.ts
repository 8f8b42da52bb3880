/**
 * The whole service on this machine: emulators, the table and queues from the stack's
 * definitions, the local gateway over the route table, and the queue poller for the sender.
 * `npm start` and the integration tests both run it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { newSecretBoxKey } from '../../shared/secret-box';
import { join } from 'node:path';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { OPENAPI_PATH, serializeOpenApiDocument } from '../../shared/openapi/document';
import { callbackQueue } from '../queue-definitions';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS, DEFAULT_SUPPORTED_CURRENCIES } from '../service-defaults';
import {
  type Emulator,
  ensureQueues,
  ensureTable,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  type LocalQueues,
  sqsClient,
  startDynamoLocal,
  startSqsEmulator,
} from './emulators';
import { type ExtraRoute, type LocalGateway, startLocalGateway } from './gateway';
import { lambdaContext, loadHandler } from './lambda-runtime';
import { type QueuePoller, startQueuePoller } from './queue-poller';

export const DEFAULT_TABLE_NAME = 'hotel-integration';

export interface LocalStackInfo {
  apiUrl: string;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  callbackQueueUrl: string;
  callbackDlqUrl: string;
  region: string;
  /** Key that seals signing secrets on the table (local only; the stack uses Secrets Manager). */
  secretBoxKey: string;
}

/** Environment the functions see, as the stack sets it in Lambda (plus emulator endpoints). */
export function functionEnvironment(info: Omit<LocalStackInfo, 'apiUrl'> & { apiUrl?: string }): Record<string, string> {
  return {
    STAGE: 'local',
    TABLE_NAME: info.tableName,
    CALLBACK_QUEUE_URL: info.callbackQueueUrl,
    AWS_ENDPOINT_URL_DYNAMODB: info.dynamodbEndpoint,
    SQS_ENDPOINT: info.sqsEndpoint,
    AWS_REGION: info.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    SECRET_BOX_KEY: info.secretBoxKey,
    POWERTOOLS_SERVICE_NAME: 'hotel-integration-api',
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    POWERTOOLS_LOG_LEVEL: process.env.LOG_LEVEL ?? 'WARN',
    CALLBACK_RETRY_DELAYS_SECONDS: process.env.CALLBACK_RETRY_DELAYS_SECONDS ?? DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS.join(','),
    SUPPORTED_CURRENCIES: process.env.SUPPORTED_CURRENCIES ?? DEFAULT_SUPPORTED_CURRENCIES.join(','),
    ...(info.apiUrl ? { PUBLIC_BASE_URL: info.apiUrl } : {}),
  };
}

export interface ServeOptions {
  port: number;
  tableName: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queues: LocalQueues;
  secretBoxKey: string;
  onRequest?: (line: string) => void;
  extraRoutes?: ExtraRoute[];
  /** How often the delivery sweeper runs (the deployed stack: every minute). */
  sweepIntervalMs?: number;
}

export interface ServingStack {
  info: LocalStackInfo;
  gateway: LocalGateway;
  poller: QueuePoller;
  sqs: SQSClient;
  stop(): Promise<void>;
}

/**
 * Serves the API and runs the poller against running emulators. Sets process.env for the
 * functions before any of them is loaded.
 */
export async function serve(options: ServeOptions): Promise<ServingStack> {
  const base = {
    tableName: options.tableName,
    dynamodbEndpoint: options.dynamodbEndpoint,
    sqsEndpoint: options.sqsEndpoint,
    callbackQueueUrl: options.queues.callbackQueueUrl,
    callbackDlqUrl: options.queues.callbackDlqUrl,
    region: LOCAL_REGION,
    secretBoxKey: options.secretBoxKey,
  };
  Object.assign(process.env, functionEnvironment(base));
  const gateway = await startLocalGateway({
    port: options.port,
    onRequest: options.onRequest,
    extraRoutes: [openApiRoute(), ...(options.extraRoutes ?? [])],
  });
  const info: LocalStackInfo = { ...base, apiUrl: gateway.url };
  process.env.PUBLIC_BASE_URL = gateway.url;

  const sqs = sqsClient(options.sqsEndpoint);
  const poller = startQueuePoller({
    sqs,
    queueUrl: options.queues.callbackQueueUrl,
    queueArn: options.queues.callbackQueueArn,
    handler: 'send-callback',
    batchSize: callbackQueue.batchSize,
    visibilityTimeoutSeconds: callbackQueue.visibilityTimeoutSeconds,
    onError: (error) => console.error('callback sender failed:', (error as Error).message),
  });
  const sweeper = startSweeper(options.sweepIntervalMs ?? 10_000);
  return {
    info,
    gateway,
    poller,
    sqs,
    async stop() {
      await sweeper.stop();
      await poller.stop();
      await gateway.close();
      sqs.destroy();
    },
  };
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

/** The scheduled delivery sweeper, run on an interval as EventBridge runs it in the stack. */
function startSweeper(intervalMs: number) {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(async () => (await loadHandler('sweep-deliveries'))({}, lambdaContext('sweep-deliveries', 60_000)))
      .catch((error) => console.error('delivery sweeper failed:', (error as Error).message));
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** The local stack's sealing key, made on first start and kept with its data. */
function localSecretBoxKey(dataDir: string): string {
  const file = join(dataDir, 'secret-box.key');
  if (!existsSync(file)) writeFileSync(file, `${newSecretBoxKey()}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

export interface LocalStackOptions {
  port: number;
  dynamodbPort: number;
  sqsPort: number;
  dataDir: string;
  onRequest?: (line: string) => void;
  extraRoutes?: ExtraRoute[];
}

export interface LocalStack extends ServingStack {
  emulators: Emulator[];
}

/** Everything `npm start` runs; data persists in dataDir (DynamoDB Local's files). */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  mkdirSync(options.dataDir, { recursive: true });
  const emulators: Emulator[] = [];
  try {
    const [dynamo, sqs] = await Promise.all([
      startDynamoLocal({ port: options.dynamodbPort, dataDir: join(options.dataDir, 'dynamodb'), logFile: join(options.dataDir, 'dynamodb.log') }),
      startSqsEmulator({ port: options.sqsPort, logFile: join(options.dataDir, 'sqs.log') }),
    ]);
    emulators.push(dynamo, sqs);
    await ensureTable(dynamo.endpoint, DEFAULT_TABLE_NAME);
    const queues = await ensureQueues(sqs.endpoint, 'hotel-integration');
    const serving = await serve({
      port: options.port,
      tableName: DEFAULT_TABLE_NAME,
      dynamodbEndpoint: dynamo.endpoint,
      sqsEndpoint: sqs.endpoint,
      queues,
      secretBoxKey: localSecretBoxKey(options.dataDir),
      onRequest: options.onRequest,
      extraRoutes: options.extraRoutes,
    });
    writeFileSync(join(options.dataDir, 'stack.json'), `${JSON.stringify(serving.info, null, 2)}\n`);
    return {
      ...serving,
      emulators,
      async stop() {
        await serving.stop();
        await Promise.all(emulators.map((e) => e.stop()));
      },
    };
  } catch (error) {
    await Promise.all(emulators.map((e) => e.stop()));
    throw error;
  }
}
