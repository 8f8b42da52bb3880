/**
 * Each local invocation's own Lambda context, as Lambda gives each instance its own. The local
 * stack runs every function in one process, several invocations at once, and Powertools keeps
 * per-invocation state (the Logger's Lambda context and keys, Metrics, the batch processor's
 * records) in one module instance each. Lambda's Node.js runtime, where one instance serves
 * invocations concurrently (AWS_LAMBDA_MAX_CONCURRENCY set), keeps that state per invocation in
 * `globalThis.awslambda.InvokeStore`, an AsyncLocalStorage, and Powertools reads it from there
 * (@aws/lambda-invoke-store; Powertools' LogAttributesStore, MetricsStore, BatchProcessingStore).
 * The local runtime does the same: without it, a log line of the sweeper carried the function
 * name and request id of whichever invocation had last set the shared Logger's context.
 *
 * Unlike Lambda's store, code outside any invocation (test setup, the ops CLI run in-process)
 * reads and writes one store of its own instead of failing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const REQUEST_ID = Symbol.for('_AWS_LAMBDA_REQUEST_ID');
const X_RAY_TRACE_ID = Symbol.for('_AWS_LAMBDA_X_RAY_TRACE_ID');
const PROTECTED = [REQUEST_ID, X_RAY_TRACE_ID, ...['TENANT_ID', 'TRACEPARENT', 'TRACESTATE', 'BAGGAGE'].map((name) => Symbol.for(`_AWS_LAMBDA_${name}`))];

type Scope = Record<string | symbol, unknown>;

/** The InvokeStore interface Powertools calls (@aws/lambda-invoke-store's InvokeStoreBase). */
class LocalInvokeStore {
  readonly #invocations = new AsyncLocalStorage<Scope>();
  readonly #outside: Scope = {};

  #scope(): Scope {
    return this.#invocations.getStore() ?? this.#outside;
  }
  getContext(): Scope | undefined {
    return this.#invocations.getStore();
  }
  hasContext(): boolean {
    return this.#invocations.getStore() !== undefined;
  }
  get<T = unknown>(key: string | symbol): T | undefined {
    return this.#scope()[key] as T | undefined;
  }
  set<T = unknown>(key: string | symbol, value: T): void {
    if (PROTECTED.includes(key as symbol)) throw new Error(`Cannot modify protected Lambda context field: ${String(key)}`);
    this.#scope()[key] = value;
  }
  run<T>(scope: Scope, fn: () => T): T {
    return this.#invocations.run(scope, fn);
  }
  getRequestId(): string {
    return this.get<string>(REQUEST_ID) ?? '-';
  }
  getXRayTraceId(): string | undefined {
    return this.get<string>(X_RAY_TRACE_ID);
  }
  getTenantId(): undefined {
    return undefined;
  }
  getTraceparent(): undefined {
    return undefined;
  }
  getTracestate(): undefined {
    return undefined;
  }
  getBaggage(): undefined {
    return undefined;
  }
}

const store = new LocalInvokeStore();

/**
 * Turns per-invocation state on for this process, as Lambda's runtime does for an instance that
 * serves invocations concurrently (Powertools checks AWS_LAMBDA_MAX_CONCURRENCY on every call).
 */
export function installInvocationScopes(): void {
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '1000';
  const lambdaGlobal = globalThis as unknown as { awslambda?: { InvokeStore?: unknown } };
  lambdaGlobal.awslambda ??= {};
  lambdaGlobal.awslambda.InvokeStore = store;
}

/** Runs one invocation's handler in a scope of its own, named by its request id. */
export function inInvocationScope<T>(requestId: string, fn: () => T): T {
  return store.run({ [REQUEST_ID]: requestId }, fn);
}
