/** Starts the run's emulators once and creates the table; test files read the endpoints with inject(). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { LocalCognito } from '../../infra/local/stack';
import { type Emulator, ensureTable, startCognitoLocal, startDynamoLocal, startSesEmulator, startSqsEmulator } from '../../infra/local/emulators';

declare module 'vitest' {
  export interface ProvidedContext {
    emulators: { dynamodbEndpoint: string; sqsEndpoint: string; tableName: string; cognito: LocalCognito; sesEndpoint: string };
  }
}

let running: Emulator[] = [];
let cognitoDir: string | undefined;

export async function setup(project: TestProject) {
  cognitoDir = mkdtempSync(join(tmpdir(), 'test-cognito-'));
  const started = await Promise.allSettled([startDynamoLocal(), startSqsEmulator(), startCognitoLocal({ dataDir: cognitoDir }), startSesEmulator()]);
  running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result) => result.status === 'rejected');
  // One emulator that did not start: stop the others, which would otherwise outlive the run.
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  const [dynamo, sqs, cognito, ses] = started.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as [
    Awaited<ReturnType<typeof startDynamoLocal>>,
    Awaited<ReturnType<typeof startSqsEmulator>>,
    Awaited<ReturnType<typeof startCognitoLocal>>,
    Awaited<ReturnType<typeof startSesEmulator>>,
  ];
  const tableName = 'hotel-integration-test';
  await ensureTable(dynamo.endpoint, tableName);
  project.provide('emulators', {
    dynamodbEndpoint: dynamo.endpoint,
    sqsEndpoint: sqs.endpoint,
    tableName,
    cognito: { endpoint: cognito.endpoint, userPoolId: cognito.userPoolId, userPoolClientId: cognito.userPoolClientId, issuer: cognito.issuer },
    sesEndpoint: ses.endpoint,
  });
}

export async function teardown() {
  await Promise.all(running.map((e) => e.stop()));
  if (cognitoDir) rmSync(cognitoDir, { recursive: true, force: true });
}
