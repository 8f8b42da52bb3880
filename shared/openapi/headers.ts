/** Response headers shared by every operation (`components.headers`). */

export const HEADERS = {
  'X-Request-Id': {
    description: 'The request id; the same value is the error body\'s `request_id` and is in the service logs.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored outcome of an earlier request with the same `Idempotency-Key` and body (replayed byte for byte; an error body gets this request\'s `request_id`).',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

export const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
