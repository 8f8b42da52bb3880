/**
 * Global setup of the projects that need the emulators (vitest.config.ts): starts the run's
 * emulators once and creates the shared table; test files read the endpoints with inject().
 * Also bundles the operator CLI once per run (test/support/ops-cli.ts runs the bundle).
 * The integration and browser projects each load this file; the first to start brings the
 * emulators up, the other shares them, and the last to finish stops them.
 *
 * Vitest runs every project's global setup before the first test file of the run, unit and infra
 * included, which need no emulator. So the setup does not wait for them: it picks their ports,
 * provides the endpoints at once and starts them in the background (a JVM and three Node
 * processes: about 10 s before the first unit file on this 2-core machine when it waited), while
 * the unit and CDK template files run. A file that needs them waits in its setup file
 * (test/support/emulators-ready.ts) for the marker written here when they are up, or fails with
 * the reason they did not start.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { cognitoLocalPool } from '../../infra/local/cognito-pool';
import type { Emulator } from '../../infra/local/emulators';
import { freePort } from '../../infra/local/ports';
import type { LocalCognito } from '../../infra/local/stack';

interface Emulators {
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  tableName: string;
  cognito: LocalCognito;
  sesEndpoint: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    emulators: Emulators;
    /** The operator CLI bundled once for the run (an .mjs file), or '' to run bin/ops.ts through tsx. */
    opsCliBundle: string;
    /** The folder where the emulators' start leaves `ready` or `failed` (test/support/emulators-ready.ts). */
    emulatorsMarkerDir: string;
  }
}

interface Ports {
  dynamodb: number;
  sqs: number;
  cognito: number;
  ses: number;
}

interface RunState {
  users: number;
  ports: Ports;
  cognitoDir: string;
  bundleDir: string;
  markerDir: string;
  /** Settles once the emulators are up (or failed to start): never rejects. */
  started: Promise<void>;
  running: Emulator[];
}

// Each project loads this module apart; the run's state lives on the process, not the module.
const STATE = Symbol.for('hotel-integration.test-emulators');
const global = globalThis as unknown as Record<symbol, RunState | undefined>;

const TABLE_NAME = 'hotel-integration-test';
const local = (port: number) => `http://127.0.0.1:${port}`;

/**
 * An emulator's start, tried again when it was not ready in time: on a machine busy with other
 * work a JVM or a Node emulator can take longer than its start allows (the failed one is killed).
 */
async function retried<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !/not ready within/.test(String(error))) throw error;
    }
  }
}

async function start(state: RunState): Promise<void> {
  // Imported here, in the background: loading the AWS SDK and esbuild through Vitest's module
  // runner took about 4 s of the run's start.
  const { startCognitoLocal, startDynamoLocal, startSesEmulator, startSqsEmulator } = await import('../../infra/local/emulators');
  const { ensureTable } = await import('../../infra/local/local-table');
  const { bundleOpsCli } = await import('./ops-cli-bundle');
  const { ports } = state;
  const bundling = bundleOpsCli(state.bundleDir);
  const started = await Promise.allSettled([
    retried(() => startDynamoLocal({ port: ports.dynamodb })),
    retried(() => startSqsEmulator({ port: ports.sqs })),
    retried(() => startCognitoLocal({ port: ports.cognito, dataDir: state.cognitoDir })),
    retried(() => startSesEmulator({ port: ports.ses })),
  ]);
  state.running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  // One emulator that did not start fails the start; teardown still stops the others it left running.
  if (failed) throw failed.reason;
  await ensureTable(local(ports.dynamodb), TABLE_NAME);
  await bundling;
}

export async function setup(project: TestProject) {
  let state = global[STATE];
  if (!state) {
    const ports = { dynamodb: await freePort(), sqs: await freePort(), cognito: await freePort(), ses: await freePort() };
    state = {
      users: 0,
      ports,
      cognitoDir: mkdtempSync(join(tmpdir(), 'test-cognito-')),
      bundleDir: mkdtempSync(join(tmpdir(), 'test-ops-cli-')),
      markerDir: mkdtempSync(join(tmpdir(), 'test-emulators-')),
      started: Promise.resolve(),
      running: [],
    };
    const { markerDir } = state;
    // The marker is written whole under a temporary name, then renamed: a reader sees all or nothing.
    const mark = (name: 'ready' | 'failed', text: string) => {
      writeFileSync(join(markerDir, `${name}.tmp`), text);
      renameSync(join(markerDir, `${name}.tmp`), join(markerDir, name));
    };
    state.started = start(state).then(
      () => mark('ready', ''),
      (error: unknown) => mark('failed', error instanceof Error ? (error.stack ?? error.message) : String(error)),
    );
    global[STATE] = state;
  }
  state.users += 1;
  const { ports } = state;
  project.provide('emulators', {
    dynamodbEndpoint: local(ports.dynamodb),
    sqsEndpoint: local(ports.sqs),
    tableName: TABLE_NAME,
    cognito: { endpoint: local(ports.cognito), ...cognitoLocalPool(local(ports.cognito)) },
    sesEndpoint: local(ports.ses),
  });
  project.provide('opsCliBundle', join(state.bundleDir, 'ops.mjs'));
  project.provide('emulatorsMarkerDir', state.markerDir);
}

export async function teardown() {
  const state = global[STATE];
  if (!state) return;
  state.users -= 1;
  if (state.users > 0) return;
  global[STATE] = undefined;
  await state.started;
  await Promise.all(state.running.map((e) => e.stop()));
  for (const dir of [state.cognitoDir, state.bundleDir, state.markerDir]) rmSync(dir, { recursive: true, force: true });
}
