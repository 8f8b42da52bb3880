/**
 * Global setup of the projects that need the emulators (vitest.config.ts): starts the run's
 * emulators once and creates the shared table; test files read the endpoints with inject().
 * Also bundles the operator CLI once per run (test/support/ops-cli.ts runs the bundle).
 * The integration and browser projects each load this file; the first to start brings the
 * emulators up, the other shares them, and the last to finish stops them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalCognito } from '../../infra/local/stack';
import { type Emulator, startCognitoLocal, startDynamoLocal, startSesEmulator, startSqsEmulator } from '../../infra/local/emulators';
import { ensureTable } from '../../infra/local/local-table';
import { bundleOpsCli } from './ops-cli-bundle';

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
  }
}

interface RunState {
  users: number;
  ready: Promise<{ emulators: Emulators; opsCliBundle: string }>;
  running: Emulator[];
  dirs: string[];
}

// Each project loads this module apart; the run's state lives on the process, not the module.
const STATE = Symbol.for('hotel-integration.test-emulators');
const global = globalThis as unknown as Record<symbol, RunState | undefined>;

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

async function start(state: RunState): Promise<{ emulators: Emulators; opsCliBundle: string }> {
  const cognitoDir = mkdtempSync(join(tmpdir(), 'test-cognito-'));
  const bundleDir = mkdtempSync(join(tmpdir(), 'test-ops-cli-'));
  state.dirs.push(cognitoDir, bundleDir);
  const bundling = bundleOpsCli(bundleDir);
  const started = await Promise.allSettled([
    retried(() => startDynamoLocal()),
    retried(() => startSqsEmulator()),
    retried(() => startCognitoLocal({ dataDir: cognitoDir })),
    retried(() => startSesEmulator()),
  ]);
  state.running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  // One emulator that did not start: throw; teardown stops the others, which would otherwise outlive the run.
  if (failed) throw failed.reason;
  const [dynamo, sqs, cognito, ses] = started.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as [
    Awaited<ReturnType<typeof startDynamoLocal>>,
    Awaited<ReturnType<typeof startSqsEmulator>>,
    Awaited<ReturnType<typeof startCognitoLocal>>,
    Awaited<ReturnType<typeof startSesEmulator>>,
  ];
  const tableName = 'hotel-integration-test';
  await ensureTable(dynamo.endpoint, tableName);
  return {
    emulators: {
      dynamodbEndpoint: dynamo.endpoint,
      sqsEndpoint: sqs.endpoint,
      tableName,
      cognito: { endpoint: cognito.endpoint, userPoolId: cognito.userPoolId, userPoolClientId: cognito.userPoolClientId, issuer: cognito.issuer },
      sesEndpoint: ses.endpoint,
    },
    opsCliBundle: await bundling,
  };
}

export async function setup(project: TestProject) {
  let state = global[STATE];
  if (!state) {
    state = { users: 0, running: [], dirs: [] } as unknown as RunState;
    state.ready = start(state);
    global[STATE] = state;
  }
  state.users += 1;
  try {
    const { emulators, opsCliBundle } = await state.ready;
    project.provide('emulators', emulators);
    project.provide('opsCliBundle', opsCliBundle);
  } catch (error) {
    await teardown();
    throw error;
  }
}

export async function teardown() {
  const state = global[STATE];
  if (!state) return;
  state.users -= 1;
  if (state.users > 0) return;
  global[STATE] = undefined;
  await Promise.all(state.running.map((e) => e.stop()));
  for (const dir of state.dirs) rmSync(dir, { recursive: true, force: true });
}
