/**
 * Every error code the service has, for the OpenAPI document: when it is answered (this file's
 * prose) with the status and a real message from the error catalogue (shared/errors.ts). Every
 * catalogue code has exactly one entry here (type-checked); test/unit/openapi.test.ts checks the
 * codes of the gateway responses and the authorizer's decisions against the catalogue too.
 */
import { DEFAULT_PLAN_LIMITS, PLANS } from '../../definitions/plans';
import { MAX_SYNC_ITEMS } from '../config';
import { type AppError, ERROR_STATUS, type ErrorCode, errors } from '../errors';
import { MAX_AMOUNT_MINOR } from '../schemas/payments';

export type { ErrorCode };

export interface ErrorCodeInfo {
  status: number;
  /** When the service answers it (used in response descriptions unless a route says more). */
  meaning: string;
  /** A message the service really sends with it (for examples). */
  message: string;
  /** `api`: answered by the HTTP API. `cli`: not an API response: the operator CLI's own errors (`npm run ops`), the dashboard's and the guest pages'. */
  surface: 'api' | 'cli';
}

interface CodeDoc {
  meaning: string;
  /**
   * The code's example: a catalogue error built as the service builds it, or, for a code only API
   * Gateway or the authorizer answers with (definitions/gateway-responses.ts, shared/auth), its text.
   */
  example: AppError | string;
  surface: ErrorCodeInfo['surface'];
}

const CODE_DOCS = {
  VALIDATION_ERROR: {
    meaning: 'The request does not match the schema; `details[]` names each problem (`path` like `rooms[3].price`).',
    example: errors.validation([]),
    surface: 'api',
  },
  INVALID_JSON: { meaning: 'The body is not valid JSON.', example: errors.invalidJson(), surface: 'api' },
  TOO_MANY_ITEMS: {
    meaning: `More than ${MAX_SYNC_ITEMS} items in the sync array; \`details[0].path\` names the array. Nothing is written.`,
    example: errors.tooManyItems('rooms', MAX_SYNC_ITEMS),
    surface: 'api',
  },
  CUSTOMER_EMAIL_REQUIRED: {
    meaning: '`customer` or `customer.email` is missing, or the e-mail address is not valid.',
    example: errors.customerEmailRequired(),
    surface: 'api',
  },
  INVALID_AMOUNT: {
    meaning: '`amount_minor` is not a whole number from 1 to 10^12.',
    example: errors.invalidAmount(MAX_AMOUNT_MINOR),
    surface: 'api',
  },
  UNSUPPORTED_CURRENCY: {
    meaning: '`currency` is not an uppercase ISO 4217 code of the supported list (`SUPPORTED_CURRENCIES`; default USD, EUR, GBP, NGN, GHS, KES, ZAR, JPY).',
    example: errors.currencyNotSupported('XYZ'),
    surface: 'api',
  },
  RETURN_URL_NOT_ALLOWED: {
    meaning: 'The payment key has allowed origins and `success_url` or `cancel_url` is on another origin.',
    example: errors.returnUrlNotAllowed('success_url', 'https://elsewhere.example'),
    surface: 'api',
  },
  INVALID_SIGNATURE: {
    meaning: 'The `Stripe-Signature` header is missing, or matches none of the configured webhook secrets over the raw body (or is outside Stripe\'s 5-minute tolerance).',
    example: errors.stripeSignatureMismatch(),
    surface: 'api',
  },
  MISSING_API_KEY: {
    meaning: 'No API key was sent: no `Authorization` header on a sync route (sync routes read the key there only), neither `Authorization: Bearer` nor `x-api-key` on a payment route.',
    example: 'An API key is required',
    surface: 'api',
  },
  INVALID_API_KEY: {
    meaning: 'The key is unknown, malformed or revoked (a revoked key stops working within 60 s), or a sync key was sent in `x-api-key` to a payment route.',
    example: errors.invalidApiKey(),
    surface: 'api',
  },
  INSUFFICIENT_SCOPE: {
    meaning: "The key lacks the route's scope, or is a key of the other kind (a payment key on a sync route, a sync key on a payment route).",
    example: errors.missingScope('rooms:write'),
    surface: 'api',
  },
  ORIGIN_NOT_ALLOWED: {
    meaning: "A payment key was sent with an `Origin` header that is not one of the key's allowed origins.",
    example: 'The Origin is not allowed for this API key',
    surface: 'api',
  },
  NOT_FOUND: {
    meaning: 'No such route (or a path parameter that cannot name anything: over 128 characters).',
    example: errors.noSuchRoute(),
    surface: 'api',
  },
  PAYMENT_ORDER_NOT_FOUND: {
    meaning: "No payment order with this reference for this client (another client's order is indistinguishable from a missing one).",
    example: errors.paymentOrderNotFound('PO-7KQ2M9XR4TLP'),
    surface: 'api',
  },
  METHOD_NOT_ALLOWED: { meaning: 'The path exists, but not with this method.', example: errors.methodNotAllowed(['GET']), surface: 'api' },
  EXTERNAL_REFERENCE_CONFLICT: {
    meaning: 'The `reference` is already used by an order of this client with another amount or currency.',
    example: errors.externalReferenceConflict('INV-1001'),
    surface: 'api',
  },
  REFUND_EXCEEDS_PAYMENT: {
    meaning: 'The refund, with the refunds already made or in progress, would add up to more than the order was paid (or nothing is left to refund).',
    example: errors.refundExceedsPayment('PO-7KQ2M9XR4TLP', 5000),
    surface: 'api',
  },
  ORDER_NOT_PAID: {
    meaning: 'The order is not paid (`processing`, `failed`, `cancelled` or `expired`): there is nothing to refund.',
    example: errors.orderNotPaid('PO-7KQ2M9XR4TLP', 'processing'),
    surface: 'api',
  },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    meaning: 'A request with this `Idempotency-Key` is still running; retry after `Retry-After` seconds.',
    example: errors.idempotencyRequestInProgress(),
    surface: 'api',
  },
  PAYLOAD_TOO_LARGE: { meaning: 'The request body is larger than 1 MiB.', example: errors.payloadTooLarge(), surface: 'api' },
  UNSUPPORTED_MEDIA_TYPE: {
    meaning: 'The `Content-Type` is not `application/json`.',
    example: errors.unsupportedMediaType(),
    surface: 'api',
  },
  UNKNOWN_REFERENCE: {
    meaning: 'An item refers to a category, room or booking not synced for this `external_source`; `details[]` names each. Nothing is written.',
    example: errors.unknownReference([]),
    surface: 'api',
  },
  ROOM_NUMBER_CONFLICT: {
    meaning:
      'A `room_number` belongs to another room, is already linked to another `external_room_id` of this source, or appears twice in the request; `details[]` names each. Nothing is written (unless a concurrent request took the number mid-way: then the message says the other rooms were written).',
    example: errors.syncRoomNumberConflict([]),
    surface: 'api',
  },
  IDEMPOTENCY_KEY_REUSED: {
    meaning: 'This `Idempotency-Key` was used with a different request body (same client, method and path) in the last 24 hours.',
    example: errors.idempotencyKeyReused(),
    surface: 'api',
  },
  PROVIDER_NOT_CONFIGURED: {
    meaning:
      "The client's payment provider is not set up: no provider configured in a stage without the sandbox provider, Stripe without a connected account, or an account that is not connected to the platform or does not allow this. Verify answers it for an order whose attempt was made on a provider this stage does not run (the sandbox).",
    example: errors.stripeAccountMissing(),
    surface: 'api',
  },
  PROVIDER_REJECTED: {
    meaning: 'The payment provider refused the request (Stripe: an invalid request or card error); the message carries its reason.',
    example: errors.providerRejected('amount_too_small', 'Amount must be at least $0.50 usd'),
    surface: 'api',
  },
  RATE_LIMITED: {
    meaning: `The client is over its plan's rate limit (all its keys together: ${PLANS.map((p) => `\`${p}\` ${DEFAULT_PLAN_LIMITS[p].rateLimit} requests/s, bursts of ${DEFAULT_PLAN_LIMITS[p].burstLimit}`).join('; ')}), or, on the public routes, one address sent too many requests; retry after \`Retry-After\` seconds.`,
    example: 'Too many requests',
    surface: 'api',
  },
  INTERNAL_ERROR: { meaning: 'An unexpected fault. The body never carries a stack trace or an internal message.', example: errors.internal(), surface: 'api' },
  SERVICE_UNAVAILABLE: {
    meaning: 'A dependency (DynamoDB, the authorizer, SSM, the payment provider) was throttled, timed out or is unavailable, or the request did not finish within API Gateway\'s 29 s; retry after `Retry-After` seconds.',
    example: errors.serviceUnavailable(),
    surface: 'api',
  },
  ROOM_NOT_AVAILABLE: {
    meaning:
      'Operator CLI `bookings create` and `bookings assign` only: an active booking overlaps the stay in that room, the room is not active, or it takes fewer guests.',
    example: errors.bookingRoomNotAvailable('…', 'the room is taken for some of these nights'),
    surface: 'cli',
  },
  PAY_AT_PROPERTY_DISABLED: {
    meaning: 'Guest booking page only: the guest chose to pay at the hotel, which this client has not allowed (dashboard, Integrations).',
    example: errors.payAtPropertyDisabled(),
    surface: 'cli',
  },
  EMAIL_NOT_CONFIGURED: {
    meaning: 'Dashboard only: pay at the hotel cannot be turned on in a stage that sends no e-mail (deployed without `-c senderEmail`): its bookings are confirmed by a link sent by e-mail.',
    example: errors.emailNotConfigured(),
    surface: 'cli',
  },
  BOOKING_ALREADY_ASSIGNED: {
    meaning: 'Operator CLI `bookings assign` only (and the dashboard): the booking already has a room.',
    example: errors.bookingAlreadyAssigned('…', '…'),
    surface: 'cli',
  },
  BOOKING_NOT_CANCELLABLE: {
    meaning:
      'The booking cannot be cancelled, changed or marked a no-show in its state: checked in or out (cancel), not confirmed (change), or its check-in day not yet passed (no-show). Nothing changed.',
    example: errors.bookingNotCancellable('…', 'checked_in'),
    surface: 'api',
  },
  BOOKING_NOT_ASSIGNABLE: {
    meaning:
      'Operator CLI `bookings assign` only (and the dashboard): the booking is no longer active (cancelled, checked out, no-show), or was synced from a PMS, which assigns its rooms.',
    example: errors.bookingNotActive('…', 'cancelled'),
    surface: 'cli',
  },
  PLAN_REQUIRED: {
    meaning: "Operator CLI `keys create --kind payment` (and the dashboard): payment keys exist only on the `premium` plan; the client is on `standard`.",
    example: errors.planRequired(['premium'], 'standard'),
    surface: 'cli',
  },
  DELIVERY_NOT_RETRYABLE: {
    meaning: 'Operator CLI `deliveries retry` only: the delivery is neither `failed` nor `needs_review`.',
    example: errors.deliveryNotRetryable('…', 'delivered'),
    surface: 'cli',
  },
  FORBIDDEN: {
    meaning:
      'Dashboard only: a form sent from another site (or without an `Origin`), or a page for admins (Integrations) opened by staff. Nothing is done.',
    example: errors.crossSiteForm(),
    surface: 'cli',
  },
} satisfies Record<ErrorCode, CodeDoc>;

/** The documentation of each code, with its status and example message from the catalogue. */
export const ERROR_CODES = Object.fromEntries(
  (Object.keys(CODE_DOCS) as ErrorCode[]).map((code) => {
    const { meaning, example, surface } = CODE_DOCS[code] as CodeDoc;
    const info: ErrorCodeInfo = { status: ERROR_STATUS[code], meaning, message: typeof example === 'string' ? example : example.message, surface };
    return [code, info];
  }),
) as Record<ErrorCode, ErrorCodeInfo>;

/** The catalogue errors the examples are built from (test/unit/error-catalogue.test.ts checks their codes). */
export const ERROR_EXAMPLES = Object.fromEntries(
  (Object.keys(CODE_DOCS) as ErrorCode[]).flatMap((code) => {
    const { example } = CODE_DOCS[code] as CodeDoc;
    return typeof example === 'string' ? [] : [[code, example]];
  }),
) as Partial<Record<ErrorCode, AppError>>;

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
