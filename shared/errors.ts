/**
 * Errors the service answers with on purpose. Domain code throws these; the HTTP layer maps
 * them (and anything else) to the error envelope in one place.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const errors = {
  invalidApiKey: () => new AppError(401, 'INVALID_API_KEY', 'The API key is not valid'),
  insufficientScope: (message = 'The API key does not allow this operation') =>
    new AppError(403, 'INSUFFICIENT_SCOPE', message),
  validation: (details: ErrorDetail[], message = 'The request is not valid') =>
    new AppError(400, 'VALIDATION_ERROR', message, details),
  invalidJson: () => new AppError(400, 'INVALID_JSON', 'The request body is not valid JSON'),
  unsupportedMediaType: (expected = 'application/json') =>
    new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', `The request body must be ${expected}`),
  payloadTooLarge: () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB'),
  tooManyItems: (path: string, max: number) =>
    new AppError(400, 'TOO_MANY_ITEMS', `At most ${max} items are accepted in one request`, [
      { path, message: `more than ${max} items` },
    ]),
  notFound: (message = 'Not found') => new AppError(404, 'NOT_FOUND', message),
  serviceUnavailable: () =>
    new AppError(503, 'SERVICE_UNAVAILABLE', 'A dependency is temporarily unavailable; retry shortly', undefined, {
      'Retry-After': '1',
    }),
  internal: () => new AppError(500, 'INTERNAL_ERROR', 'Internal error'),
};
