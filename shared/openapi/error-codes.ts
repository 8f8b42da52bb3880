/**
 * Every error code the service has, with its HTTP status, for the OpenAPI document. The statuses
 * are those of docs/behaviour.md "Errors" and of the code that throws them;
 * test/unit/openapi.test.ts scans the sources (`new AppError(status, 'CODE'`, shared/errors.ts,
 * the gateway responses) and fails when a code is missing here or has another status.
 */
import { DEFAULT_PLAN_LIMITS, PLANS } from '../../definitions/plans';
import { MAX_SYNC_ITEMS } from '../config';

export interface ErrorCodeInfo {
  status: number;
  /** When the service answers it (used in response descriptions unless a route says more). */
  meaning: string;
  /** A message the service really sends with it (for examples). */
  message: string;
  /** `api`: answered by the HTTP API. `cli`: the operator CLI's own errors (`npm run ops`), never an HTTP response. */
  surface: 'api' | 'cli';
}

export const ERROR_CODES = {
  VALIDATION_ERROR: {
    status: 400,
    meaning: 'The request does not match the schema; `details[]` names each problem (`path` like `rooms[3].price`).',
    message: 'The request body is not valid',
    surface: 'api',
  },
  INVALID_JSON: { status: 400, meaning: 'The body is not valid JSON.', message: 'The request body is not valid JSON', surface: 'api' },
  TOO_MANY_ITEMS: {
    status: 400,
    meaning: `More than ${MAX_SYNC_ITEMS} items in the sync array; \`details[0].path\` names the array. Nothing is written.`,
    message: `At most ${MAX_SYNC_ITEMS} items are accepted in one request`,
    surface: 'api',
  },
  CUSTOMER_EMAIL_REQUIRED: {
    status: 400,
    meaning: '`customer` or `customer.email` is missing, or the e-mail address is not valid.',
    message: 'customer.email must be a valid e-mail address',
    surface: 'api',
  },
  INVALID_AMOUNT: {
    status: 400,
    meaning: '`amount_minor` is not a whole number from 1 to 10^12.',
    message: 'amount_minor must be a whole number from 1 to 1000000000000 in the smallest currency unit',
    surface: 'api',
  },
  UNSUPPORTED_CURRENCY: {
    status: 400,
    meaning: '`currency` is not an uppercase ISO 4217 code of the supported list (`SUPPORTED_CURRENCIES`; default USD, EUR, GBP, NGN, GHS, KES, ZAR, JPY).',
    message: 'currency XYZ is not supported',
    surface: 'api',
  },
  RETURN_URL_NOT_ALLOWED: {
    status: 400,
    meaning: 'The payment key has allowed origins and `success_url` or `cancel_url` is on another origin.',
    message: "success_url must use one of the API key's allowed origins",
    surface: 'api',
  },
  INVALID_SIGNATURE: {
    status: 400,
    meaning: 'The `Stripe-Signature` header is missing, or matches none of the configured webhook secrets over the raw body (or is outside Stripe\'s 5-minute tolerance).',
    message: 'The Stripe-Signature header does not match the payload',
    surface: 'api',
  },
  MISSING_API_KEY: {
    status: 401,
    meaning: 'No API key was sent: no `Authorization` header on a sync route (sync routes read the key there only), neither `Authorization: Bearer` nor `x-api-key` on a payment route.',
    message: 'An API key is required',
    surface: 'api',
  },
  INVALID_API_KEY: {
    status: 401,
    meaning: 'The key is unknown, malformed or revoked (a revoked key stops working within 60 s), or a sync key was sent in `x-api-key` to a payment route.',
    message: 'The API key is not valid',
    surface: 'api',
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    meaning: "The key lacks the route's scope, or is a key of the other kind (a payment key on a sync route, a sync key on a payment route).",
    message: 'The API key lacks the scope rooms:write',
    surface: 'api',
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    meaning: "A payment key was sent with an `Origin` header that is not one of the key's allowed origins.",
    message: 'The Origin is not allowed for this API key',
    surface: 'api',
  },
  NOT_FOUND: {
    status: 404,
    meaning: 'No such route (or a path parameter that cannot name anything: over 128 characters).',
    message: 'No such route',
    surface: 'api',
  },
  PAYMENT_ORDER_NOT_FOUND: {
    status: 404,
    meaning: "No payment order with this reference for this client (another client's order is indistinguishable from a missing one).",
    message: 'No payment order PO-7KQ2M9XR4TLP',
    surface: 'api',
  },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'The path exists, but not with this method.', message: 'Method not allowed on this route', surface: 'api' },
  EXTERNAL_REFERENCE_CONFLICT: {
    status: 409,
    meaning: 'The `reference` is already used by an order of this client with another amount or currency.',
    message: 'reference INV-1001 is already used with another amount or currency',
    surface: 'api',
  },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    status: 409,
    meaning: 'A request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds.',
    message: 'A request with this Idempotency-Key is still being processed',
    surface: 'api',
  },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The request body is larger than 1 MiB.', message: 'The request body is larger than 1 MiB', surface: 'api' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'The `Content-Type` is not `application/json`.',
    message: 'The request body must be application/json',
    surface: 'api',
  },
  UNKNOWN_REFERENCE: {
    status: 422,
    meaning: 'An item refers to a category, room or booking not synced for this `external_source`; `details[]` names each. Nothing is written.',
    message: 'The request refers to records that have not been synced; nothing was written',
    surface: 'api',
  },
  ROOM_NUMBER_CONFLICT: {
    status: 422,
    meaning:
      'A `room_number` belongs to another room, is already linked to another `external_room_id` of this source, or appears twice in the request; `details[]` names each. Nothing is written (unless a concurrent request took the number mid-way: then the message says the other rooms were written).',
    message: 'A room number belongs to another room; nothing was written',
    surface: 'api',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    meaning: 'This `Idempotency-Key` was used with a different request body (same client, method and path) in the last 24 hours.',
    message: 'This Idempotency-Key was used with a different request body',
    surface: 'api',
  },
  PROVIDER_NOT_CONFIGURED: {
    status: 422,
    meaning:
      "The client's payment provider is not set up: no provider configured in a stage without the sandbox provider, Stripe without a connected account, or an account that is not connected to the platform or does not allow this. Verify answers it for an order whose attempt was made on a provider this stage does not run (the sandbox).",
    message: 'Stripe payments are not set up for this client: it has no connected Stripe account',
    surface: 'api',
  },
  PROVIDER_REJECTED: {
    status: 422,
    meaning: 'The payment provider refused the request (Stripe: an invalid request or card error); the message carries its reason.',
    message: 'Stripe rejected the checkout (amount_too_small): Amount must be at least $0.50 usd',
    surface: 'api',
  },
  RATE_LIMITED: {
    status: 429,
    meaning: `The client is over its plan's rate limit (all its keys together: ${PLANS.map((p) => `\`${p}\` ${DEFAULT_PLAN_LIMITS[p].rateLimit} requests/s, bursts of ${DEFAULT_PLAN_LIMITS[p].burstLimit}`).join('; ')}), or, on the public routes, one address sent too many requests; retry after \`Retry-After\` seconds.`,
    message: 'Too many requests',
    surface: 'api',
  },
  INTERNAL_ERROR: { status: 500, meaning: 'An unexpected fault. The body never carries a stack trace or an internal message.', message: 'Internal error', surface: 'api' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    meaning: 'A dependency (DynamoDB, the authorizer, SSM, the payment provider) was throttled, timed out or is unavailable, or the request did not finish within API Gateway\'s 29 s; retry after `Retry-After` seconds.',
    message: 'A dependency is temporarily unavailable; retry shortly',
    surface: 'api',
  },
  ROOM_NOT_AVAILABLE: {
    status: 409,
    meaning:
      'Operator CLI `bookings create` and `bookings assign` only: an active booking overlaps the stay in that room, the room is not active, or it takes fewer guests.',
    message: 'Cannot book room …: the room is taken for some of these nights',
    surface: 'cli',
  },
  PAY_AT_PROPERTY_DISABLED: {
    status: 403,
    meaning: 'Guest booking page only: the guest chose to pay at the hotel, which this client has not allowed (dashboard, Integrations).',
    message: 'This hotel takes payment when you book',
    surface: 'cli',
  },
  EMAIL_NOT_CONFIGURED: {
    status: 409,
    meaning: 'Dashboard only: pay at the hotel cannot be turned on in a stage that sends no e-mail (deployed without `-c senderEmail`): its bookings are confirmed by a link sent by e-mail.',
    message: 'Pay at the hotel needs e-mail to guests, and this stage sends none (it was deployed without a sender address)',
    surface: 'cli',
  },
  BOOKING_ALREADY_ASSIGNED: {
    status: 409,
    meaning: 'Operator CLI `bookings assign` only (and the dashboard): the booking already has a room.',
    message: 'Booking … already has room …',
    surface: 'cli',
  },
  BOOKING_NOT_ASSIGNABLE: {
    status: 409,
    meaning:
      'Operator CLI `bookings assign` only (and the dashboard): the booking is no longer active (cancelled, checked out, no-show), or was synced from a PMS, which assigns its rooms.',
    message: 'Booking … is cancelled; only active bookings get a room',
    surface: 'cli',
  },
  PLAN_REQUIRED: {
    status: 403,
    meaning: "Operator CLI `keys create --kind payment` (and the dashboard): payment keys exist only on the `premium` plan; the client is on `standard`.",
    message: 'Payment keys need the premium plan; this client is on standard',
    surface: 'cli',
  },
  DELIVERY_NOT_RETRYABLE: {
    status: 409,
    meaning: 'Operator CLI `deliveries retry` only: the delivery is neither `failed` nor `needs_review`.',
    message: 'Delivery … is delivered; only failed or needs_review deliveries are retried',
    surface: 'cli',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** Codes an HTTP response can carry (the `ErrorCode` component's enum). */
export const HTTP_ERROR_CODES = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].surface === 'api');

/** The Markdown table of every code, by status, that the API description ends with. */
export function errorCatalogue(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[])
    .sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status || (a < b ? -1 : a > b ? 1 : 0))
    .map((code) => {
      const info = ERROR_CODES[code];
      return `| \`${code}\` | ${info.status} | ${info.meaning} |`;
    });
  return ['| Code | HTTP | When |', '|---|---|---|', ...rows].join('\n');
}
