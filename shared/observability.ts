/**
 * Powertools instances shared by every function. Powertools reads its own POWERTOOLS_*
 * variables (service name, metrics namespace, log level), which the stack sets on every function.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { MiddlewareObj } from '@middy/core';
import { tracingPossible } from './config';
import { withoutSdkLogger } from './sdk-logger';

const defaults = { serviceName: 'hotel-integration-api' };

export const logger = new Logger(defaults);
export const metrics = new Metrics({ ...defaults, namespace: 'HotelIntegration' });

/**
 * The X-Ray tracer, in Lambda (the stack turns active tracing on for every function), loaded
 * after an instance's first response rather than at init: Powertools Tracer's module loads the
 * X-Ray SDK (with semver and cls-hooked, about 87 KB of each bundle) and patches http and https,
 * which was most of every function's cold start beyond the document client (BENCHMARKS.md). The
 * instance's first invocation is traced by Lambda's own segments (active tracing: the function's
 * Initialization, Invocation and Overhead), without Powertools's handler subsegment or SDK call
 * subsegments; every later one as before. The package is left out of index.mjs and bundled
 * beside it (infra/bundling.ts `lazyPackages`). Undefined where it cannot trace (locally, in
 * tests: see tracingPossible), and then never imported.
 */
export let tracer: Tracer | undefined;
const tracingOn = tracingPossible();
/** Clients made before the tracer was loaded: wrapped when it is (captureAWSv3Client adds to their middleware stack). */
const clientsToTrace: unknown[] = [];
let loading: Promise<void> | undefined;

/** Loads the tracer once, and wraps the clients made before it. */
function loadTracer(): Promise<void> {
  loading ??= Promise.all([import('@aws-lambda-powertools/tracer'), import('@aws-lambda-powertools/tracer/middleware')]).then(
    ([{ Tracer }, { captureLambdaHandler }]) => {
      // The instance's cold start was the invocation before: no later one is annotated ColdStart.
      const loaded = new (class extends Tracer {
        constructor() {
          super(defaults);
          this.coldStart = false;
        }
      })();
      for (const client of clientsToTrace.splice(0)) loaded.captureAWSv3Client(client);
      handlerTracing = captureLambdaHandler(loaded, HANDLER_TRACING) as MiddlewareObj;
      tracer = loaded;
    },
    (error: unknown) => logger.warn('the X-Ray tracer did not load; this instance is traced by Lambda alone', { error }),
  );
  return loading;
}
let handlerTracing: MiddlewareObj | undefined;

/**
 * How every handler is traced: never its response, which carries session cookies, one-time
 * secrets and guest tokens in Location headers (errors are recorded without their message by
 * POWERTOOLS_TRACER_CAPTURE_ERROR, definitions/service-defaults.ts TRACER_ENVIRONMENT; the stack
 * also sets POWERTOOLS_TRACER_CAPTURE_RESPONSE=false: both, so neither alone can turn it back on).
 */
export const HANDLER_TRACING = { captureResponse: false } as const;

/** Starts loading the tracer once the invocation's response is on its way (a timer: the handler's promise and the runtime's reply go first). */
function loadAfterResponse(): void {
  if (tracingOn && !loading) setTimeout(() => void loadTracer(), 0);
}

/**
 * For a handler without the middy middleware (authorizer, sender, sweeper: no handler subsegment,
 * their SDK calls traced): loads the tracer after its first invocation, as `tracing()` does.
 */
export function tracingAfterFirstResponse<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  if (!tracingOn) return handler;
  return async (...args) => {
    try {
      return await handler(...args);
    } finally {
      loadAfterResponse();
    }
  };
}

/** An AWS SDK v3 client wrapped for X-Ray (Powertools `captureAWSv3Client`), now or once the tracer is loaded; the client itself where tracing is off. */
export function traced<T>(client: T): T {
  if (tracer) return tracer.captureAWSv3Client(client);
  if (tracingOn) clientsToTrace.push(client);
  return client;
}

/** An AWS SDK v3 client as the service uses it: without the SDK's logger middleware (./sdk-logger.ts), and traced. */
export function serviceClient<T extends { middlewareStack: { remove(toRemove: string): boolean } }>(client: T): T {
  return traced(withoutSdkLogger(client));
}

/**
 * The tracer's middy middleware (a subsegment per invocation), or none where tracing is off. Until
 * the tracer is loaded it only starts the loading, after the invocation's response is on its way
 * (a timer, so the handler's promise and the runtime's reply go first).
 */
export function tracing<TEvent, TResult>(): MiddlewareObj<TEvent, TResult>[] {
  if (!tracingOn) return [];
  const tracedRequests = new WeakSet<object>();
  return [
    {
      before: async (request) => {
        if (!handlerTracing) return;
        tracedRequests.add(request);
        await handlerTracing.before?.(request as never);
      },
      after: async (request) => {
        if (tracedRequests.has(request)) await handlerTracing!.after?.(request as never);
        else loadAfterResponse();
      },
      onError: async (request) => {
        if (tracedRequests.has(request)) await handlerTracing!.onError?.(request as never);
        else loadAfterResponse();
      },
    },
  ];
}
