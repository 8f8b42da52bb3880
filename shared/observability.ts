/**
 * Powertools instances shared by every function. Powertools reads its own POWERTOOLS_*
 * variables (service name, metrics namespace, log level), which the stack sets on every function.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj } from '@middy/core';
import { tracingPossible } from './config';
import { withoutSdkLogger } from './sdk-logger';

const defaults = { serviceName: 'hotel-integration-api' };

export const logger = new Logger(defaults);
export const metrics = new Metrics({ ...defaults, namespace: 'HotelIntegration' });

/**
 * The X-Ray tracer, in Lambda (the stack turns active tracing on for every function): created at
 * init, as every SDK client is wrapped with it when it is created and every invocation is traced.
 * Undefined where it cannot trace (locally, in tests: see tracingPossible), and then not even
 * imported: its module loads the X-Ray SDK (with semver and cls-hooked) and patches http and
 * https, all for nothing.
 */
export const tracer: Tracer | undefined = tracingPossible() ? new (await import('@aws-lambda-powertools/tracer')).Tracer(defaults) : undefined;

/** An AWS SDK v3 client wrapped for X-Ray (Powertools `captureAWSv3Client`); the client itself where tracing is off. */
export function traced<T>(client: T): T {
  return tracer ? tracer.captureAWSv3Client(client) : client;
}

/** An AWS SDK v3 client as the service uses it: without the SDK's logger middleware (./sdk-logger.ts), and traced. */
export function serviceClient<T extends { middlewareStack: { remove(toRemove: string): boolean } }>(client: T): T {
  return traced(withoutSdkLogger(client));
}

/**
 * How every handler is traced: never its response, which carries session cookies, one-time
 * secrets and guest tokens in Location headers (errors are recorded without their message by
 * POWERTOOLS_TRACER_CAPTURE_ERROR, definitions/service-defaults.ts TRACER_ENVIRONMENT).
 */
export const HANDLER_TRACING = { captureResponse: false } as const;

/** The tracer's middy middleware (a subsegment per invocation, ColdStart annotation), or none where tracing is off. */
export function tracing<TEvent, TResult>(using: Tracer | undefined = tracer): MiddlewareObj<TEvent, TResult>[] {
  return using ? [captureLambdaHandler(using, HANDLER_TRACING) as MiddlewareObj<TEvent, TResult>] : [];
}
