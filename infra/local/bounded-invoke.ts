/**
 * The gateway's call of a function: in a slot of that function's concurrency (Lambda instances),
 * counted as an invocation, and given up on after API Gateway's integration timeout.
 */
import { invoke, type LocalFunction } from './lambda-runtime';
import type { FunctionConcurrency } from './limits';

/** API Gateway's integration timeout for REST APIs: 29 s, then INTEGRATION_TIMEOUT. */
export const INTEGRATION_TIMEOUT_MS = 29_000;

/** Thrown when a function does not answer within API Gateway's integration timeout. */
export class IntegrationTimeoutError extends Error {
  constructor(functionName: string) {
    super(`${functionName} did not answer within ${INTEGRATION_TIMEOUT_MS / 1000} s`);
    this.name = 'IntegrationTimeoutError';
  }
}

/** The gateway's functions: their concurrency, and the invocations so far by function name. */
export interface Invoker {
  functions: FunctionConcurrency;
  invocations: Map<string, number>;
}

/** One invocation in a slot of its function, given up on (as API Gateway does) after `giveUpMs`. */
export async function invokeBounded(state: Invoker, fn: LocalFunction, event: unknown, timeoutMs: number, giveUpMs: number): Promise<unknown> {
  const givenUp = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new IntegrationTimeoutError(fn.name);
      givenUp.abort(error);
      reject(error);
    }, giveUpMs);
  });
  try {
    const run = () => {
      state.invocations.set(fn.name, (state.invocations.get(fn.name) ?? 0) + 1);
      return invoke(fn, event, timeoutMs);
    };
    return await Promise.race([state.functions.run(fn.name, run, givenUp.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
