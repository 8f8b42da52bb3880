/**
 * The bench's own local stack: DynamoDB Local (in memory), the SQS emulator and cognito-local (the
 * dashboard's operators) on free ports, the table and queues from the stack's definitions, and
 * `serve()` (local gateway, queue poller, functions in-process). The capacity meter is attached
 * to the functions' DynamoDB client.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Emulator, startCognitoLocal, startDynamoLocal, startSqsEmulator } from '../../../infra/local/emulators';
import { ensureQueues } from '../../../infra/local/local-queues';
import { ensureTable } from '../../../infra/local/local-table';
import { ensureKeyFile } from '../../../infra/local/key-files';
import { serve, type ServingStack } from '../../../infra/local/serve';
import { type CapacityMeter, installCapacityMeter } from './capacity';
import { httpClient, type HttpClient } from './http';

export const BENCH_TABLE = 'hotel-integration-bench';
export const PING_PATH = '/bench/ping';

export interface BenchStack {
  url: string;
  serving: ServingStack;
  meter: CapacityMeter;
  http: HttpClient;
  /** The emulators' processes, whose CPU the drains report (lib/cpu.ts). */
  pids: { dynamodb?: number; sqs?: number };
  createTenant(name: string): Promise<Tenant>;
}

export interface Tenant {
  clientId: string;
  syncKey: string;
  paymentKey: string;
}

/**
 * Whatever runs is pushed onto `started` as soon as it runs (emulators, then the served stack),
 * so the runner stops it, last first, also after a failure.
 */
export async function startBenchStack(workDir: string, started: { stop(): Promise<void> }[]): Promise<BenchStack> {
  const emulators: Emulator[] = [];
  const stopEmulators = { stop: () => Promise.all(emulators.map((e) => e.stop())).then(() => undefined) };
  started.push(stopEmulators);
  const cognitoDir = join(workDir, 'cognito');
  mkdirSync(cognitoDir, { recursive: true });
  const [dynamo, sqs, cognito] = await Promise.all([
    startDynamoLocal({ logFile: join(workDir, 'dynamodb.log') }).then((e) => (emulators.push(e), e)),
    startSqsEmulator({ logFile: join(workDir, 'sqs.log') }).then((e) => (emulators.push(e), e)),
    startCognitoLocal({ dataDir: cognitoDir, logFile: join(workDir, 'cognito.log') }).then((e) => (emulators.push(e), e)),
  ]);
  await ensureTable(dynamo.endpoint, BENCH_TABLE);
  const queues = await ensureQueues(sqs.endpoint, 'bench');
  const serving = await serve({
    port: 0,
    tableName: BENCH_TABLE,
    dynamodbEndpoint: dynamo.endpoint,
    sqsEndpoint: sqs.endpoint,
    queues,
    secretsKeyFile: ensureKeyFile(join(workDir, 'secrets.key')),
    orderReferenceKeyFile: ensureKeyFile(join(workDir, 'order-reference.key')),
    // The sweeper is a safety net for failed enqueues; a periodic sweep would add its reads to
    // the measured requests, so it stays out of the way during the run.
    sweepIntervalMs: 60 * 60_000,
    cognito: { endpoint: cognito.endpoint, userPoolId: cognito.userPoolId, userPoolClientId: cognito.userPoolClientId, issuer: cognito.issuer },
    // The bench measures the service's capacity with one client per scenario, not the plans' rate limits.
    planLimits: { standard: { rateLimit: 100_000, burstLimit: 100_000 }, premium: { rateLimit: 100_000, burstLimit: 100_000 } },
    // An HTTP round trip through the gateway with no function behind it (overhead breakdown).
    extraRoutes: [{ method: 'GET', path: PING_PATH, respond: () => ({ status: 200, body: '{}', contentType: 'application/json' }) }],
  });
  // Loaded only now: the functions' modules read their configuration from process.env at import.
  const { dynamoClient } = await import('../../../shared/store/dynamo');
  const meter = installCapacityMeter(dynamoClient);
  const clients = await import('../../../shared/domain/clients');
  const http = httpClient(serving.info.apiUrl);
  started.push({ stop: () => (http.close(), serving.stop()) });
  return {
    url: serving.info.apiUrl,
    serving,
    meter,
    http,
    pids: { dynamodb: dynamo.pid, sqs: sqs.pid },
    async createTenant(name) {
      const client = await clients.createClientAccount({ name, plan: 'premium' });
      const sync = await clients.issueApiKey({ clientId: client.client_id, kind: 'sync' });
      const payment = await clients.issueApiKey({ clientId: client.client_id, kind: 'payment' });
      return { clientId: client.client_id, syncKey: sync.key, paymentKey: payment.key };
    },
  };
}
