/**
 * The whole service on this machine, as `npm start` runs it: every port checked, the emulators
 * started (emulators.ts), the table and queues created from the stack's definitions, the service
 * served on them (serve.ts), data of earlier versions brought up to date; and all of it stopped
 * in order. Data persists in the data folder. The integration tests serve on their own emulators.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_TABLE_NAME, functionEnvironment, type LocalCognito, type LocalStackInfo, LOCAL_SENDER_EMAIL } from '../../definitions/local-stack';
import { type CognitoEmulator, type Emulator, startCognitoLocal, startDynamoLocal, startSesEmulator, startSqsEmulator } from './emulators';
import { ensureKeyFile } from './key-files';
import { ensureQueues } from './local-queues';
import { ensureTable } from './local-table';
import { ensurePortsFree } from './ports';
import type { ExtraRoute } from './route-matching';
import { serve, type ServingStack } from './serve';

/** The local stack's sealing key file, made (mode 600) on first start and kept with its data. */
function localSecretsKeyFile(dataDir: string): string {
  if (existsSync(join(dataDir, 'secret-box.key'))) {
    // Data from before signing secrets were sealed under an encryption context (docs/operations.md).
    console.warn(
      `note: ${join(dataDir, 'secret-box.key')} is from an older version. Callback and webhook secrets saved with it no longer open; ` +
        'set them again (npm run ops -- callbacks set / webhooks set) or start afresh (rm -rf the data folder), then delete that file.',
    );
  }
  return ensureKeyFile(resolve(dataDir, 'secrets.key'));
}

export interface LocalStackOptions {
  port: number;
  dynamodbPort: number;
  sqsPort: number;
  /** cognito-local's port (COGNITO_PORT, default 9229). */
  cognitoPort: number;
  /** The SES v2 emulator's port (SES_PORT, default 8005). */
  sesPort: number;
  /** The sandbox checkout's own origin (SANDBOX_PORT, default 3001). */
  sandboxPort: number;
  dataDir: string;
  onRequest?: (line: string) => void;
  extraRoutes?: ExtraRoute[];
}

export interface LocalStack extends ServingStack {
  emulators: Emulator[];
}

/**
 * Everything `npm start` runs; data persists in dataDir (DynamoDB Local's files). A start that
 * fails stops every child it started.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  // Every port before anything starts: one taken by anything (another stack's emulator would answer
  // the health checks as if it were ours) stops the start, naming the variable that sets it.
  await ensurePortsFree([
    ['PORT', options.port],
    ['DYNAMODB_PORT', options.dynamodbPort],
    ['SQS_PORT', options.sqsPort],
    ['COGNITO_PORT', options.cognitoPort],
    ['SES_PORT', options.sesPort],
    ['SANDBOX_PORT', options.sandboxPort],
  ]);
  mkdirSync(options.dataDir, { recursive: true });
  const emulators: Emulator[] = [];
  try {
    const cognitoDir = join(options.dataDir, 'cognito');
    mkdirSync(cognitoDir, { recursive: true });
    const started = await Promise.allSettled([
      startDynamoLocal({ port: options.dynamodbPort, dataDir: join(options.dataDir, 'dynamodb'), logFile: join(options.dataDir, 'dynamodb.log') }),
      startSqsEmulator({ port: options.sqsPort, logFile: join(options.dataDir, 'sqs.log') }),
      startCognitoLocal({ port: options.cognitoPort, dataDir: cognitoDir, logFile: join(options.dataDir, 'cognito.log') }),
      startSesEmulator({ port: options.sesPort, logFile: join(options.dataDir, 'ses.log') }),
    ]);
    for (const result of started) if (result.status === 'fulfilled') emulators.push(result.value);
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const [dynamo, sqs, cognito, ses] = emulators as [Emulator, Emulator, CognitoEmulator, Emulator];
    await ensureTable(dynamo.endpoint, DEFAULT_TABLE_NAME);
    const queues = await ensureQueues(sqs.endpoint, 'hotel-integration');
    const serving = await serve({
      port: options.port,
      tableName: DEFAULT_TABLE_NAME,
      dynamodbEndpoint: dynamo.endpoint,
      sqsEndpoint: sqs.endpoint,
      queues,
      secretsKeyFile: localSecretsKeyFile(options.dataDir),
      orderReferenceKeyFile: ensureKeyFile(join(options.dataDir, 'order-reference.key')),
      onRequest: options.onRequest,
      extraRoutes: options.extraRoutes,
      cognito: { endpoint: cognito.endpoint, userPoolId: cognito.userPoolId, userPoolClientId: cognito.userPoolClientId, issuer: cognito.issuer },
      sesEndpoint: ses.endpoint,
      sandboxPort: options.sandboxPort,
    });
    writeFileSync(join(options.dataDir, 'stack.json'), `${JSON.stringify(serving.info, null, 2)}\n`);
    // A data folder of a version before the clients' configuration partition: its profiles,
    // provider settings and endpoints copied there once (idempotent; outside any invocation).
    const migrated = await (await import('../../shared/domain/clients')).migrateClientConfigs().catch(async (error: unknown) => {
      await serving.stop();
      throw error;
    });
    if (migrated.copied) console.warn(`note: moved ${migrated.copied} configuration item(s) of ${migrated.clients} client(s) to their CLIENTCONFIG# partitions.`);
    // Bookings of a version before the check-in index and search entries: given both once.
    const reindexed = await (await import('../../shared/domain/bookings/reindex-bookings')).reindexBookings({ unindexedOnly: true }).catch(async (error: unknown) => {
      await serving.stop();
      throw error;
    });
    if (reindexed.reindexed) console.warn(`note: put ${reindexed.reindexed} booking(s) in check-in order, on the nights index (Reports) and in the search.`);
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

export { DEFAULT_TABLE_NAME, functionEnvironment, type LocalCognito, type LocalStackInfo, LOCAL_SENDER_EMAIL };
