/**
 * The error catalogue: every error code the service answers with, its HTTP status, and one named
 * constructor per refusal, each with its one message. Domain code throws these; the HTTP layer maps
 * them (and anything else) to the error envelope in one place (shared/http/error-envelope.ts).
 * No other module builds an AppError from a literal code (test/unit/error-catalogue.test.ts);
 * shared/openapi/error-codes.ts documents the codes from here.
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

/** Every code, with the HTTP status it is always answered with (docs/behaviour.md "Errors"). */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  TOO_MANY_ITEMS: 400,
  CUSTOMER_EMAIL_REQUIRED: 400,
  INVALID_AMOUNT: 400,
  UNSUPPORTED_CURRENCY: 400,
  RETURN_URL_NOT_ALLOWED: 400,
  INVALID_SIGNATURE: 400,
  MISSING_API_KEY: 401,
  INVALID_API_KEY: 401,
  INSUFFICIENT_SCOPE: 403,
  ORIGIN_NOT_ALLOWED: 403,
  FORBIDDEN: 403,
  PAY_AT_PROPERTY_DISABLED: 403,
  PLAN_REQUIRED: 403,
  NOT_FOUND: 404,
  PAYMENT_ORDER_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EXTERNAL_REFERENCE_CONFLICT: 409,
  IDEMPOTENCY_REQUEST_IN_PROGRESS: 409,
  ROOM_NOT_AVAILABLE: 409,
  EMAIL_NOT_CONFIGURED: 409,
  BOOKING_ALREADY_ASSIGNED: 409,
  BOOKING_NOT_ASSIGNABLE: 409,
  BOOKING_NOT_CANCELLABLE: 409,
  DELIVERY_NOT_RETRYABLE: 409,
  REFUND_EXCEEDS_PAYMENT: 409,
  ORDER_NOT_PAID: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNKNOWN_REFERENCE: 422,
  ROOM_NUMBER_CONFLICT: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  PROVIDER_NOT_CONFIGURED: 422,
  PROVIDER_REJECTED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

function fail(code: ErrorCode, message: string, details?: ErrorDetail[], headers?: Record<string, string>): AppError {
  return new AppError(ERROR_STATUS[code], code, message, details, headers);
}

const list = (values: readonly string[]) => values.join(', ');
const roomField = (code: ErrorCode, message: string) => fail(code, message, [{ path: 'room_id', message }]);

export const errors = {
  // ---- the HTTP layer: credentials, bodies, routes, faults
  invalidApiKey: () => fail('INVALID_API_KEY', 'The API key is not valid'),
  /** A key of the other kind (a payment key on a sync route, or the reverse). */
  insufficientScope: () => fail('INSUFFICIENT_SCOPE', 'The API key does not allow this operation'),
  missingScope: (scope: string) => fail('INSUFFICIENT_SCOPE', `The API key lacks the scope ${scope}`),
  /** Schema problems, each named in `details`; the message may summarise them. */
  validation: (details: ErrorDetail[], message = 'The request is not valid') => fail('VALIDATION_ERROR', message, details),
  invalidJson: () => fail('INVALID_JSON', 'The request body is not valid JSON'),
  unsupportedMediaType: (expected = 'application/json') => fail('UNSUPPORTED_MEDIA_TYPE', `The request body must be ${expected}`),
  payloadTooLarge: () => fail('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB'),
  tooManyItems: (path: string, max: number) =>
    fail('TOO_MANY_ITEMS', `At most ${max} items are accepted in one request`, [{ path, message: `more than ${max} items` }]),
  /** A path parameter that cannot name a record. */
  notFound: () => fail('NOT_FOUND', 'Not found'),
  noSuchRoute: () => fail('NOT_FOUND', 'No such route'),
  methodNotAllowed: (allowed: readonly string[]) => fail('METHOD_NOT_ALLOWED', 'Method not allowed on this route', undefined, { Allow: list(allowed) }),
  idempotencyKeyReused: () => fail('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request body'),
  idempotencyRequestInProgress: () =>
    fail('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed', undefined, { 'Retry-After': '1' }),
  serviceUnavailable: () => fail('SERVICE_UNAVAILABLE', 'A dependency is temporarily unavailable; retry shortly', undefined, { 'Retry-After': '1' }),
  internal: () => fail('INTERNAL_ERROR', 'Internal error'),

  // ---- property sync
  unknownReference: (details: ErrorDetail[]) => fail('UNKNOWN_REFERENCE', 'The request refers to records that have not been synced; nothing was written', details),
  syncRoomNumberConflict: (details: ErrorDetail[]) => fail('ROOM_NUMBER_CONFLICT', 'A room number belongs to another room; nothing was written', details),
  syncRoomNumberTakenMidway: (details: ErrorDetail[]) =>
    fail('ROOM_NUMBER_CONFLICT', 'A room number was taken by a concurrent request; the other rooms of this request were written', details),
  syncOutOfTime: () =>
    fail('SERVICE_UNAVAILABLE', 'The request could not be completed in time; send it again (items already written are reported unchanged)', undefined, {
      'Retry-After': '2',
    }),

  // ---- rates and restrictions per date
  tooManyPlanDays: (max: number) =>
    fail('TOO_MANY_ITEMS', `At most ${max} plan-days are accepted in one request`, [{ path: 'updates', message: `more than ${max} plan-days` }]),

  // ---- payment orders and providers
  invalidAmount: (max: number) => fail('INVALID_AMOUNT', `amount_minor must be a whole number from 1 to ${max} in the smallest currency unit`),
  invalidCurrency: () => fail('UNSUPPORTED_CURRENCY', 'currency must be a supported uppercase ISO 4217 code'),
  currencyNotSupported: (currency: string) => fail('UNSUPPORTED_CURRENCY', `currency ${currency} is not supported`),
  customerEmailRequired: () => fail('CUSTOMER_EMAIL_REQUIRED', 'customer.email must be a valid e-mail address'),
  returnUrlNotAllowed: (field: string, origin: string) =>
    fail('RETURN_URL_NOT_ALLOWED', `${field} must use one of the API key's allowed origins`, [{ path: field, message: `origin ${origin} is not allowed for this key` }]),
  externalReferenceConflict: (reference: string) => fail('EXTERNAL_REFERENCE_CONFLICT', `reference ${reference} is already used with another amount or currency`),
  paymentOrderNotFound: (reference: string) => fail('PAYMENT_ORDER_NOT_FOUND', `No payment order ${reference}`),
  refundExceedsPayment: (orderReference: string, leftMinor: number) =>
    fail('REFUND_EXCEEDS_PAYMENT', `Refunds of ${orderReference} cannot add up to more than was paid: ${leftMinor} (minor units) is left to refund`),
  orderNotPaid: (orderReference: string, status: string) => fail('ORDER_NOT_PAID', `Payment order ${orderReference} is ${status}; only a paid order can be refunded`),
  noSuchCheckoutSession: () => fail('NOT_FOUND', 'No such checkout session'),
  stripeWebhooksNotConfigured: () => fail('NOT_FOUND', 'Stripe webhooks are not configured'),
  stripeSignatureMissing: () => fail('INVALID_SIGNATURE', 'The Stripe-Signature header is missing'),
  stripeSignatureMismatch: () => fail('INVALID_SIGNATURE', 'The Stripe-Signature header does not match the payload'),
  stripeAccountMissing: () => fail('PROVIDER_NOT_CONFIGURED', 'Stripe payments are not set up for this client: it has no connected Stripe account'),
  stripeAccountNotConnected: (account: string) =>
    fail('PROVIDER_NOT_CONFIGURED', `The Stripe account ${account} is not connected to this platform or does not allow this`),
  providerRejected: (reason: string | undefined, message: string) => fail('PROVIDER_REJECTED', `Stripe rejected the checkout${reason ? ` (${reason})` : ''}: ${message}`),
  providerRejectedRefund: (reason: string | undefined, message: string) => fail('PROVIDER_REJECTED', `Stripe rejected the refund${reason ? ` (${reason})` : ''}: ${message}`),
  sandboxProviderUnavailable: () => fail('PROVIDER_NOT_CONFIGURED', 'The sandbox payment provider is not available in this stage'),
  noProviderConfigured: () => fail('PROVIDER_NOT_CONFIGURED', 'No payment provider is configured for this client'),
  onlinePaymentUnavailable: (currency: string) => fail('PROVIDER_NOT_CONFIGURED', `Online payment in ${currency} is not available`),
  unknownProvider: (providers: readonly string[]) =>
    fail('VALIDATION_ERROR', `provider must be one of ${list(providers)}`, [{ path: 'provider', message: `must be one of ${list(providers)}` }]),
  stripeAccountRequired: () =>
    fail('VALIDATION_ERROR', 'Stripe needs the connected account id (acct_…)', [{ path: 'account', message: 'must be a Stripe account id like acct_1A2b3C' }]),
  accountForStripeOnly: () => fail('VALIDATION_ERROR', 'An account is only set for Stripe', [{ path: 'account', message: 'only for --provider stripe' }]),
  sandboxProviderOff: () =>
    fail('VALIDATION_ERROR', 'The sandbox provider is off in this stage (deploy it with -c sandboxPayments=true, never in prod)', [
      { path: 'provider', message: 'sandbox is off in this stage' },
    ]),
  notAStripeAccount: (account: string) =>
    fail('VALIDATION_ERROR', `Not a Stripe account id (acct_…): ${account}`, [{ path: 'account', message: 'must be a Stripe account id like acct_1A2b3C' }]),
  stripeAccountNotLinked: (account: string) =>
    fail('VALIDATION_ERROR', `The Stripe account ${account} is not linked to your hotel: choose a linked one, or ask us to link it`, [
      { path: 'account', message: 'not linked to this client' },
    ]),

  // ---- clients, keys and operators
  clientNotFound: (clientId: string) => fail('NOT_FOUND', `No client ${clientId}`),
  clientNameRequired: () => fail('VALIDATION_ERROR', 'A client needs a name'),
  clientCurrencyInvalid: () => fail('VALIDATION_ERROR', 'currency must be an ISO 4217 code'),
  unknownPlan: (plans: readonly string[]) => fail('VALIDATION_ERROR', `plan must be one of ${list(plans)}`, [{ path: 'plan', message: `must be one of ${list(plans)}` }]),
  planRequired: (plans: readonly string[], plan: string) =>
    fail('PLAN_REQUIRED', `Payment keys need the ${plans.join(' or ')} plan; this client is on ${plan}`),
  unknownScopes: (unknown: readonly string[], known: readonly string[]) => fail('VALIDATION_ERROR', `Unknown scopes: ${list(unknown)} (known: ${list(known)})`),
  paymentKeyScopes: () => fail('VALIDATION_ERROR', 'Payment keys carry no scopes but deliveries:read and deliveries:write (their webhooks)'),
  notAnOrigin: (value: string) => fail('VALIDATION_ERROR', `Not an origin: ${value}`),
  originsForPaymentKeys: () => fail('VALIDATION_ERROR', 'Allowed origins apply to payment keys only'),
  noSuchKey: () => fail('NOT_FOUND', 'No such key'),
  apiKeyNotFound: (keyId: string) => fail('NOT_FOUND', `No API key ${keyId}`),
  chooseKeyKind: () => fail('VALIDATION_ERROR', 'Choose a sync or a payment key'),
  notAnEmail: (email: string) => fail('VALIDATION_ERROR', `Not an e-mail address: ${email}`),
  unknownRole: (role: string) => fail('VALIDATION_ERROR', `Unknown role ${role} (known: admin, staff)`),
  unknownMfaSetting: (mfa: string, known: readonly string[]) => fail('VALIDATION_ERROR', `Unknown MFA setting ${mfa} (known: ${list(known)})`),
  weakPassword: (problem: string) => fail('VALIDATION_ERROR', `The password needs ${problem}`),
  operatorExists: (email: string) => fail('VALIDATION_ERROR', `An operator ${email} exists`),
  operatorNotFound: (email: string) => fail('NOT_FOUND', `No operator ${email}`),

  // ---- rooms and bookings
  roomNotFound: (roomId: string) => fail('NOT_FOUND', `No room ${roomId}`),
  roomNumberTaken: (roomNumber: string) =>
    fail('ROOM_NUMBER_CONFLICT', `Room number ${roomNumber} belongs to another room of this client`, [{ path: 'room_number', message: 'belongs to another room' }]),
  bookingNotFound: (bookingId: string) => fail('NOT_FOUND', `No booking ${bookingId}`),
  /** A service booking that must have its room, and the room does not exist. */
  bookingRoomNotFound: (roomId: string | undefined, problem: string) => fail('NOT_FOUND', `Cannot book room ${roomId}: ${problem}`),
  bookingRoomNotAvailable: (roomId: string | undefined, problem: string) => fail('ROOM_NOT_AVAILABLE', `Cannot book room ${roomId}: ${problem}`),
  bookingAlreadyAssigned: (bookingId: string, roomId: string) => fail('BOOKING_ALREADY_ASSIGNED', `Booking ${bookingId} already has room ${roomId}`),
  bookingSyncedFromPms: (bookingId: string, source: string | undefined) =>
    fail('BOOKING_NOT_ASSIGNABLE', `Booking ${bookingId} was synced from ${source}; its PMS assigns its room`),
  bookingNotActive: (bookingId: string, status: string) => fail('BOOKING_NOT_ASSIGNABLE', `Booking ${bookingId} is ${status}; only active bookings get a room`),
  /** A change to a booking the service made: a PMS-synced one belongs to its PMS. */
  bookingOwnedByPms: (bookingId: string, source: string | undefined) =>
    fail('NOT_FOUND', `No service booking ${bookingId}: it was synced from ${source}, and its PMS changes it`),
  bookingNotCancellable: (bookingId: string, status: string) =>
    fail('BOOKING_NOT_CANCELLABLE', `Booking ${bookingId} is ${status}; only a booking not yet checked in can be cancelled`),
  /** A guest's own cancellation after the client's free-cancellation window ended (ISO `until`). */
  freeCancellationEnded: (bookingId: string, until: string) =>
    fail('BOOKING_NOT_CANCELLABLE', `Booking ${bookingId} could be cancelled by its guest until ${until}; the guest contacts the hotel now`),
  bookingNotChangeable: (bookingId: string, status: string) =>
    fail('BOOKING_NOT_CANCELLABLE', `Booking ${bookingId} is ${status}; only a confirmed booking not yet checked in can be changed`),
  noShowTooEarly: (bookingId: string, checkIn: string) =>
    fail('BOOKING_NOT_CANCELLABLE', `Booking ${bookingId} checks in on ${checkIn}; it can be marked a no-show once that day has passed`),
  bookingChangeInvalid: (details: ErrorDetail[]) => fail('VALIDATION_ERROR', details.map((d) => `${d.path} ${d.message}`).join('; '), details),
  roomNotAssignable: (roomNumber: string, roomId: string, problem: string) =>
    fail('ROOM_NOT_AVAILABLE', `Cannot assign room ${roomNumber} (${roomId}): ${problem}`),
  /** The reception desk's refusals of a chosen room, said on the form's room field. */
  receptionRoomUnknown: () => roomField('NOT_FOUND', 'There is no such room: choose one of the rooms free for the stay'),
  receptionRoomInactive: (roomNumber: string) => roomField('ROOM_NOT_AVAILABLE', `Room ${roomNumber} is not in use: choose another room`),
  receptionRoomTooSmall: (roomNumber: string, maxOccupancy: number) =>
    roomField('ROOM_NOT_AVAILABLE', `Room ${roomNumber} takes at most ${maxOccupancy === 1 ? '1 guest' : `${maxOccupancy} guests`}: choose another room`),
  receptionRoomTaken: (roomNumber: string) => roomField('ROOM_NOT_AVAILABLE', `Room ${roomNumber} is already booked for some of these nights: choose another room`),

  // ---- callbacks and webhooks
  slugInvalid: (slug: string) =>
    fail('VALIDATION_ERROR', `"${slug}" cannot be a booking page address: use 3 to 60 lowercase letters, digits and hyphens, such as hale-kai`, [
      { path: 'slug', message: 'must be 3 to 60 lowercase letters, digits and hyphens, such as hale-kai' },
    ]),
  slugTaken: (slug: string) =>
    fail('VALIDATION_ERROR', `"${slug}" is already the booking page address of another hotel: choose another`, [
      { path: 'slug', message: 'is already the address of another hotel' },
    ]),
  secretTooShort: () => fail('VALIDATION_ERROR', 'A secret needs at least 16 characters'),
  endpointNotSet: (kind: string) => fail('NOT_FOUND', `No ${kind} URL is set, so there is no signing secret to rotate`),
  deliveryNotFound: (deliveryId: string) => fail('NOT_FOUND', `No delivery ${deliveryId}`),
  deliveryNotRetryable: (deliveryId: string, status: string) =>
    fail('DELIVERY_NOT_RETRYABLE', `Delivery ${deliveryId} is ${status}; only failed or needs_review deliveries are retried`),

  // ---- the guest booking pages
  noSuchHotel: () => fail('NOT_FOUND', 'No such hotel'),
  noSuchGuestRoom: () => fail('NOT_FOUND', 'No such room'),
  roomNotBookable: (roomNumber: string, problem: string) => fail('ROOM_NOT_AVAILABLE', `Room ${roomNumber} cannot be booked: ${problem}`),
  roomTypeTaken: (roomType: string) => fail('ROOM_NOT_AVAILABLE', `No ${roomType} room is free for these dates any more`),
  roomHasNoPrice: (roomNumber: string) => fail('INVALID_AMOUNT', `Room ${roomNumber} has no price to pay online`),
  payAtPropertyDisabled: () => fail('PAY_AT_PROPERTY_DISABLED', 'This hotel takes bookings with online payment only'),
  emailNotConfigured: () =>
    fail('EMAIL_NOT_CONFIGURED', 'Pay at the hotel needs e-mail to guests, and this stage sends none (it was deployed without a sender address)'),
  /** One source (address) with too many bookings in progress; retry when its first hold ends. */
  tooManyOpenHolds: (open: number, seconds: number) =>
    fail(
      'RATE_LIMITED',
      `You already have ${open} bookings in progress at this hotel. Finish paying for one of them, or try again in ${Math.ceil(seconds / 60)} minutes.`,
      undefined,
      { 'Retry-After': String(seconds) },
    ),

  /** Beside the form's e-mail field on the guest page. */
  tooManyConfirmEmails: (most: number, seconds: number) => {
    const message = `This address was sent ${most} "Confirm your booking" e-mails in the last hour already. Please try again in ${Math.ceil(seconds / 60)} minutes, or pay online.`;
    return fail('RATE_LIMITED', message, [{ path: 'email', message }], { 'Retry-After': String(seconds) });
  },

  // ---- HTML pages (the dashboard and the guest pages): sentences a person reads
  noSuchPage: () => fail('NOT_FOUND', 'There is no such page.'),
  noSuchBooking: () => fail('NOT_FOUND', 'There is no such booking.'),
  noSuchPaymentOrder: () => fail('NOT_FOUND', 'There is no such payment order.'),
  noSuchDelivery: () => fail('NOT_FOUND', 'There is no such delivery.'),
  formTooLarge: () => fail('PAYLOAD_TOO_LARGE', 'The form is too large'),
  formNotUrlEncoded: () => fail('UNSUPPORTED_MEDIA_TYPE', 'Forms are sent as application/x-www-form-urlencoded'),
  crossSiteForm: () => fail('FORBIDDEN', 'This form was not sent from the dashboard itself, so nothing was done.'),
  integrationsAdminOnly: () => fail('FORBIDDEN', 'Only an admin of your hotel can open Integrations.'),
  ratesAdminOnly: () => fail('FORBIDDEN', 'Only an admin of your hotel can set rates.'),
};

export type ErrorName = keyof typeof errors;
