/**
 * Loading function modules and invoking them as Lambda does, for the local stack. Each
 * invocation runs in an async context naming its function, so the table guard
 * (table-guard.ts) can hold it to the table access the stack grants that function.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { Route } from '../../definitions/routes';
import { type SupportFunction, supportFunctionAccess, type TableAccess } from '../../definitions/table-access';
import { inInvocationScope } from './invocation-scope';

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

/** A function as the stack deploys it: its name, its handler file and its table access. */
export interface LocalFunction {
  name: string;
  handler: string;
  tableAccess: TableAccess;
}

export const routeFunction = (route: Route): LocalFunction => ({ name: route.function ?? route.id, handler: route.handler, tableAccess: route.access.dynamodb });

export const supportFunction = (handler: SupportFunction): LocalFunction => ({ name: handler, handler, tableAccess: supportFunctionAccess[handler] });

const invocation = new AsyncLocalStorage<LocalFunction>();

/** The function whose invocation is running; undefined outside any (test setup, the ops CLI). */
export function runningFunction(): LocalFunction | undefined {
  return invocation.getStore();
}

/** Runs `work` as part of an invocation of `fn`. */
export function withinInvocation<T>(fn: LocalFunction, work: () => T): T {
  return invocation.run(fn, work);
}

/**
 * One invocation (the first one loads the module, as Lambda's init does), inside the function's
 * async context, its handler in a scope of its own (invocation-scope.ts).
 */
export function invoke(fn: LocalFunction, event: unknown, timeoutMs: number): Promise<unknown> {
  return withinInvocation(fn, async () => {
    const handler = await loadHandler(fn.handler);
    const context = lambdaContext(fn.name, timeoutMs);
    return inInvocationScope(context.awsRequestId, () => handler(event, context));
  });
}
