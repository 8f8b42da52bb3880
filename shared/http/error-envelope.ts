/** The one place that turns any thrown value into the error envelope (docs/behaviour.md "Errors"). */
import { $ZodError } from 'zod/v4/core';
import { AppError, type ErrorDetail, errors } from '../errors';
import { logger } from '../observability';

/** Errors a dependency raises when it is throttled, overloaded or slow: retry later, not a 500. */
const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

export function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // Powertools wraps persistence failures; what matters is the cause.
  if (error.name.startsWith('Idempotency') && error.cause) return isTransient(error.cause);
  const code = (error as { code?: string }).code;
  if (TRANSIENT.has(error.name) || (code && TRANSIENT_CODES.has(code))) return true;
  // TransactionCanceledException caused only by throttling or conflicts is transient too.
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (
    error.name === 'TransactionCanceledException' &&
    !!reasons?.length &&
    reasons.every((r) => !r.Code || r.Code === 'None' || r.Code === 'ThrottlingError' || r.Code === 'TransactionConflict') &&
    reasons.some((r) => r.Code === 'ThrottlingError' || r.Code === 'TransactionConflict')
  );
}

/** `rooms[3].price` from a zod path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let result = '';
  for (const part of path) {
    if (typeof part === 'number') result += `[${part}]`;
    else result += result ? `.${String(part)}` : String(part);
  }
  return result || '(root)';
}

export function zodDetails(error: $ZodError, prefix: readonly PropertyKey[] = []): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: formatPath([...prefix, ...issue.path]), message: issue.message }));
}

/** Errors thrown by @middy/http-json-body-parser (it uses 415 for both cases). */
function fromBodyParser(error: unknown): AppError | undefined {
  const cause = (error as { cause?: { package?: string } }).cause;
  if (cause?.package !== '@middy/http-json-body-parser') return undefined;
  return (error as Error).message === 'Unsupported Media Type' ? errors.unsupportedMediaType() : errors.invalidJson();
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof $ZodError) return errors.validation(zodDetails(error));
  const parserError = fromBodyParser(error);
  if (parserError) return parserError;
  if (isTransient(error)) {
    logger.warn('dependency unavailable', { error: error as Error });
    return errors.serviceUnavailable();
  }
  logger.error('unhandled error', { error: error as Error });
  return errors.internal();
}

export function errorBody(error: AppError, requestId: string) {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}
