/** Loading function modules and giving them a Lambda-like context, for the local stack. */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyHandler = (event: any, context: Context) => Promise<any>;

const loaded = new Map<string, Promise<AnyHandler>>();

/** Imports functions/<name>.ts once; configuration must already be in process.env. */
export function loadHandler(name: string): Promise<AnyHandler> {
  let handler = loaded.get(name);
  if (!handler) {
    handler = import(`../../functions/${name}.ts`).then((module: { handler?: AnyHandler }) => {
      if (typeof module.handler !== 'function') throw new Error(`functions/${name}.ts exports no handler`);
      return module.handler;
    });
    loaded.set(name, handler);
  }
  return handler;
}

export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const awsRequestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${awsRequestId}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
