/** Starts the run's emulators once and creates the table; test files read the endpoints with inject(). */
import type { TestProject } from 'vitest/node';
import { type Emulator, ensureTable, startDynamoLocal, startSqsEmulator } from '../../infra/local/emulators';

declare module 'vitest' {
  export interface ProvidedContext {
    emulators: { dynamodbEndpoint: string; sqsEndpoint: string; tableName: string };
  }
}

let running: Emulator[] = [];

export async function setup(project: TestProject) {
  const [dynamo, sqs] = await Promise.all([startDynamoLocal(), startSqsEmulator()]);
  running = [dynamo, sqs];
  const tableName = 'hotel-integration-test';
  await ensureTable(dynamo.endpoint, tableName);
  project.provide('emulators', { dynamodbEndpoint: dynamo.endpoint, sqsEndpoint: sqs.endpoint, tableName });
}

export async function teardown() {
  await Promise.all(running.map((e) => e.stop()));
}
