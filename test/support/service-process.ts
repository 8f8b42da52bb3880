/**
 * The service alone, for the crash test's service kills (docs/behaviour.md "Nothing lost across
 * crashes"): the local gateway, the sandbox origin, the functions, the callback sender and the
 * sweeper, in one process, on emulators that run elsewhere (the test's own process), so that a
 * SIGKILL ends the service and leaves DynamoDB Local and the SQS emulator running, as a killed
 * Lambda instance leaves DynamoDB and SQS in AWS. It prints what `npm start` prints that the
 * crash workload reads (the demo keys on first start, `ready:`) and writes the same stack.json
 * and demo.json under LOCAL_DATA_DIR.
 *
 * Env: PORT, SANDBOX_PORT, LOCAL_DATA_DIR, DYNAMODB_ENDPOINT, SQS_ENDPOINT, and what the functions read.
 * KILL_AFTER_CANCEL_COMMIT=1: the process SIGKILLs itself the moment a booking cancellation's
 * transaction is acknowledged, before anything after it runs (the crash test's kill point between
 * a cancel and its refund).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureKeyFile } from '../../infra/local/key-files';
import { ensureQueues } from '../../infra/local/local-queues';
import { ensureTable } from '../../infra/local/local-table';
import { serve } from '../../infra/local/serve';
import { DEFAULT_TABLE_NAME } from '../../infra/local/stack';

const required = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

async function main() {
  const dataDir = required('LOCAL_DATA_DIR');
  const dynamodbEndpoint = required('DYNAMODB_ENDPOINT');
  const sqsEndpoint = required('SQS_ENDPOINT');
  mkdirSync(dataDir, { recursive: true });
  await ensureTable(dynamodbEndpoint, DEFAULT_TABLE_NAME);
  const queues = await ensureQueues(sqsEndpoint, 'hotel-integration');
  const serving = await serve({
    port: Number(required('PORT')),
    sandboxPort: Number(required('SANDBOX_PORT')),
    tableName: DEFAULT_TABLE_NAME,
    dynamodbEndpoint,
    sqsEndpoint,
    queues,
    secretsKeyFile: ensureKeyFile(join(dataDir, 'secrets.key')),
    orderReferenceKeyFile: ensureKeyFile(join(dataDir, 'order-reference.key')),
  });
  if (process.env.KILL_AFTER_CANCEL_COMMIT === '1') await killAfterCancelCommit();
  writeFileSync(join(dataDir, 'stack.json'), `${JSON.stringify(serving.info, null, 2)}\n`);
  const demoFile = join(dataDir, 'demo.json');
  if (!existsSync(demoFile)) {
    const { createClientAccount, issueApiKey } = await import('../../shared/domain/clients');
    const client = await createClientAccount({ name: 'Demo Hotel', plan: 'premium' });
    const sync = await issueApiKey({ clientId: client.client_id, kind: 'sync', name: 'demo sync key' });
    const payment = await issueApiKey({ clientId: client.client_id, kind: 'payment', name: 'demo payment key' });
    writeFileSync(demoFile, `${JSON.stringify({ client_id: client.client_id }, null, 2)}\n`);
    console.log(`demo sync key (shown once):    ${sync.key}`);
    console.log(`demo payment key (shown once): ${payment.key}`);
  }
  console.log(`ready: ${serving.info.apiUrl}`);
}

/** The kill point: after DynamoDB acknowledged a transaction that cancels a booking, nothing more of this process runs. */
async function killAfterCancelCommit() {
  // Loaded now: the functions' environment is set, and this is the client every function uses.
  const { dynamoClient } = await import('../../shared/store/dynamo');
  dynamoClient.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const input = JSON.stringify((args as { input?: unknown }).input ?? {});
      if (context.commandName === 'TransactWriteItemsCommand' && input.includes('"cancelled_at"')) {
        console.log('killed after a cancellation committed');
        process.kill(process.pid, 'SIGKILL');
      }
      return result;
    },
    { step: 'initialize', name: 'killAfterCancelCommit' },
  );
}

main().catch((error: Error) => {
  console.error('the service failed to start:', error);
  process.exit(1);
});
