/**
 * The one route table. The CDK stack creates one API Gateway method per entry and one function
 * per entry (or per `function`, for the dashboard's resources); the local gateway serves exactly
 * the same entries. Paths use API Gateway syntax. The sandbox checkout's entries (`sandboxRoutes`)
 * are served on an origin of their own instead: a function URL in the stack, SANDBOX_PORT locally.
 */
import { guestBookingTableAccess } from './guest-booking-access';
import type { TableAccess } from './table-access';
import type { PartitionPrefix } from './partitions';

export const SYNC_SCOPES = [
  'room_categories:write',
  'rooms:write',
  'bookings:write',
  'checkins:write',
  'availability:read',
] as const;
export type SyncScope = (typeof SYNC_SCOPES)[number];
export type KeyKind = 'sync' | 'payment';

/** Platform secrets of the payment providers (SSM SecureString parameters in the stack). */
export const PROVIDER_SECRETS = ['stripeSecretKey', 'stripeWebhookSecret'] as const;
export type ProviderSecret = (typeof PROVIDER_SECRETS)[number];

/** Who may open a dashboard page: every operator of the client, or its admins only. */
export type OperatorAccess = 'staff' | 'admin';

export type RouteAuth =
  | { kind: 'sync'; scope: SyncScope }
  | { kind: 'payment' }
  | { kind: 'public' }
  /**
   * A hotel dashboard page: an operator's Cognito session (cookies), verified by the function
   * itself on every request (shared/dashboard/session.ts), so API Gateway runs no authorizer.
   */
  | { kind: 'dashboard'; role: OperatorAccess };

/** What the OpenAPI document says of an operation (Markdown). */
export interface RouteDocs {
  /** A few words: the operation's heading. */
  summary: string;
  /** What it does and what a caller must know; a sync route's scope is added to it. */
  description: string;
}

export interface Route {
  /** Stable id: names the method (and the function construct, unless `function` groups it). */
  id: string;
  /**
   * The function serving it, when several routes of one resource share one (a dashboard page and
   * its form actions). Routes of one function have the same handler, access and timeout (pageRoutes
   * builds them so). @default id
   */
  function?: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  /** Handler file under functions/, without extension. */
  handler: string;
  auth: RouteAuth;
  /** Honours the Idempotency-Key header. */
  idempotent?: boolean;
  /**
   * Function timeout (default 10 s), at most MAX_ROUTE_TIMEOUT_SECONDS. Sync writes of 500 items
   * get the most, and stop themselves before it (shared/domain/property-sync/time-budget.ts).
   */
  timeoutSeconds?: number;
  /** What the function may do; the stack grants exactly this (least privilege). */
  access: {
    /**
     * The DynamoDB actions its use case calls (definitions/table-access.ts). Every idempotent route
     * also needs Powertools' record actions: GetItem, PutItem, UpdateItem, and DeleteItem under
     * IDEMPOTENCY# (the record of a failed request is deleted so a retry runs again).
     */
    dynamodb: TableAccess;
    enqueuesCallbacks?: boolean;
    /** Payment provider secrets the function may read (it talks to Stripe / verifies its webhooks). */
    providerSecrets?: readonly ProviderSecret[];
    /** Reads the key order references are derived with (it creates orders). */
    orderReferenceKey?: boolean;
    /** Seals callback and webhook signing secrets (kms:Encrypt on the signing-secrets key). */
    sealsSigningSecrets?: boolean;
    /** Talks to the operators' user pool (signs operators in and out): a public dashboard route. */
    operatorSessions?: boolean;
    /**
     * Sends e-mail to guests through SES (ses:SendEmail on the stage's sender identity only, and
     * SENDER_EMAIL); in a stage deployed without `-c senderEmail` it sends none and gets neither.
     * The local stack gives every function the emulator and the sender, as it ignores the other
     * grants.
     */
    sendsEmail?: boolean;
  };
  /** One line: the Lambda function's description (and the reason a public route is public). */
  description: string;
  /**
   * The operation's text in the API document (shared/openapi/), required of every API route
   * (test/unit/openapi.test.ts); its schemas, examples and errors are in shared/openapi/operations.
   */
  docs?: RouteDocs;
  /**
   * A page for people (dashboard, guest booking): HTML behind a session or for a browser, not part
   * of the API, so it is left out of the OpenAPI document and needs no `docs`. (The sandbox
   * checkout page stands in for a payment provider's page and is documented as one.)
   */
  page?: true;
  /**
   * Where the route is served. Unset: on the API (API Gateway in the stack, the local gateway).
   * `sandbox`: on the sandbox payment provider's own origin, never the API's (docs/behaviour.md "Sandbox
   * payment provider"), and only in a stage that turns the sandbox on (the local stack always; a
   * deployed stage with -c sandboxPayments=true, never prod): a Lambda function URL in the stack,
   * SANDBOX_PORT on the local stack. A function URL serves one function: the origin's routes share it.
   */
  origin?: 'sandbox';
}

/**
 * What settling a payment order writes (verify, provider webhooks): the order and its records, a
 * mirrored booking, its room hold and the released checkout hold (the client's partition), the
 * booking's search entries, its client pointer, the deliveries, a guest's confirmation e-mail.
 */
const SETTLEMENT_WRITES: readonly PartitionPrefix[] = ['ORDER#', 'CLIENT#', 'SEARCH#', 'BOOKINGID#', 'DELIVERY#', 'EMAIL#'];

export const routes: readonly Route[] = [
  {
    id: 'PutRoomCategories',
    method: 'PUT',
    path: '/api/v1/property-sync/room-categories',
    handler: 'put-room-categories',
    auth: { kind: 'sync', scope: 'room_categories:write' },
    idempotent: true,
    timeoutSeconds: 28,
    // The client's categories by Query; the changed ones by BatchWriteItem.
    access: { dynamodb: { actions: ['Query', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] } },
    description: 'Create or update room categories by external_category_id',
    docs: {
      summary: 'Upsert room categories',
      description:
        'Creates or updates room categories by `external_category_id`. The whole request is validated before anything is written; items whose stored content is identical are not rewritten.',
    },
  },
  {
    id: 'PutRooms',
    method: 'PUT',
    path: '/api/v1/property-sync/rooms',
    handler: 'put-rooms',
    auth: { kind: 'sync', scope: 'rooms:write' },
    idempotent: true,
    timeoutSeconds: 28,
    // Categories and rooms by Query; a room and its number guard by PutItem (alone or in a
    // transaction), the old guard deleted in the transaction when the number changes.
    access: { dynamodb: { actions: ['Query', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['CLIENT#', 'IDEMPOTENCY#'] } },
    description: 'Create or update rooms and link them to categories',
    docs: {
      summary: 'Upsert rooms',
      description:
        'Creates or updates rooms by client + `external_source` + `external_room_id` and links them to synced categories. A new external room whose `room_number` already exists in the client links that room (`linked`) instead of creating a duplicate. Sync categories first.',
    },
  },
  {
    id: 'PutBookings',
    method: 'PUT',
    path: '/api/v1/property-sync/bookings',
    handler: 'put-bookings',
    auth: { kind: 'sync', scope: 'bookings:write' },
    idempotent: true,
    timeoutSeconds: 28,
    // Rooms by Query, bookings by BatchGetItem, the active stays of rooms with written bookings on
    // gsi2; each booking by conditional PutItem (new) or UpdateItem (changed attributes), read
    // again by GetItem when a concurrent write won; its new search entries (SEARCH#) put before
    // it and those it lost deleted after it, by BatchWriteItem.
    access: {
      dynamodb: {
        actions: ['Query', 'BatchGetItem', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'],
        queries: ['gsi2'],
        writes: ['CLIENT#', 'SEARCH#', 'IDEMPOTENCY#'],
        deletes: ['IDEMPOTENCY#'],
      },
    },
    description: 'Mirror external bookings',
    docs: {
      summary: 'Mirror bookings',
      description:
        'Creates or updates external bookings by `external_source` + `external_booking_id`. Overlaps with other active bookings of the same room (of any origin) are reported in `conflicts` and recorded anyway. Synced bookings never emit callbacks. Sync rooms first.',
    },
  },
  {
    id: 'PutCheckins',
    method: 'PUT',
    path: '/api/v1/property-sync/checkins',
    handler: 'put-checkins',
    auth: { kind: 'sync', scope: 'checkins:write' },
    idempotent: true,
    timeoutSeconds: 28,
    // Bookings and check-ins by BatchGetItem, rooms by Query; each booking's activity by
    // conditional UpdateItem (read again by GetItem when a concurrent write won; when the event
    // moves the booking, its search entry by room put before and the old one deleted after, by
    // BatchWriteItem), then the check-ins by BatchWriteItem.
    access: {
      dynamodb: {
        actions: ['Query', 'BatchGetItem', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'],
        writes: ['CLIENT#', 'SEARCH#', 'IDEMPOTENCY#'],
        deletes: ['IDEMPOTENCY#'],
      },
    },
    description: 'Push check-in and check-out activity',
    docs: {
      summary: 'Push check-in and check-out activity',
      description:
        'Upserts check-in records by `external_checkin_id`. Per booking the latest new event (by `occurred_at`) moves it to `checked_in` or `checked_out`; a check-out frees the room from the check-out day on. An event older than the latest applied one is recorded but does not change the booking.',
    },
  },
  {
    id: 'GetAvailability',
    method: 'GET',
    path: '/api/v1/property-sync/availability',
    handler: 'get-availability',
    auth: { kind: 'sync', scope: 'availability:read' },
    // Rooms and categories by Query; the client's active stays on gsi1.
    access: { dynamodb: { actions: ['Query'], queries: ['gsi1'] } },
    description: 'Rooms available for a stay range',
    docs: {
      summary: 'Rooms available for a stay',
      description:
        'Rooms that are active, have `max_occupancy >= guests`, and have no active booking of any origin (synced, reception, paid order) with check-in before the requested check-out and check-out after the requested check-in. Optional filters narrow the rooms. A room held by an open guest checkout on the booking page (30 minutes from the moment the checkout opens, as long as the checkout can be paid) is not available either. Rooms come in natural room-number order; `categories` counts the available rooms per synced category.',
    },
  },
  {
    id: 'CreatePaymentOrder',
    method: 'POST',
    path: '/api/v1/payments/payment-orders',
    handler: 'create-payment-order',
    auth: { kind: 'payment' },
    idempotent: true,
    // Order, reference guard and provider settings by GetItem; the sandbox session by PutItem;
    // order, guard and attempt in a transaction of Puts.
    access: {
      // CLIENT#: the reference guard.
      dynamodb: { actions: ['GetItem', 'PutItem', 'UpdateItem'], writes: ['ORDER#', 'CLIENT#', 'SANDBOX#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] },
      providerSecrets: ['stripeSecretKey'],
      orderReferenceKey: true,
    },
    description: 'Create a payment order and its hosted checkout',
    docs: {
      summary: 'Create a payment order',
      description: [
        'Creates a payment order and its hosted checkout; send the guest to `checkout_url`. Call from your server, never from browser code.',
        '',
        '- New `reference`: **201** with `reused: false`.',
        '- Same `reference`, amount and currency again: **200** with the existing order and `reused: true`. If that order is `failed`, `cancelled` or `expired`, a new payment attempt with a new `checkout_url` is made first and the order is `processing` again.',
        '- Same `reference`, other amount or currency: **409** `EXTERNAL_REFERENCE_CONFLICT`.',
        '',
        'Never treat the redirect to your `success_url` as proof of payment: confirm with the status lookup (or a verified `payment_order.paid` webhook).',
      ].join('\n'),
    },
  },
  {
    id: 'VerifyPaymentOrder',
    method: 'GET',
    path: '/api/v1/payments/payment-orders/verify',
    handler: 'verify-payment-order',
    auth: { kind: 'public' },
    // Order, settings, sandbox session, room, room hold and endpoints by GetItem; the room's
    // active stays on gsi2; the settled order, booking and deliveries in a transaction of Puts;
    // each delivery moved to its resend-after time on the due index by UpdateItem once enqueued. Never a delete.
    access: {
      dynamodb: { actions: ['GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'], writes: SETTLEMENT_WRITES },
      enqueuesCallbacks: true,
      providerSecrets: ['stripeSecretKey'],
      // A guest's paid booking: its confirmation e-mail.
      sendsEmail: true,
    },
    description: 'Provider return URL: verify with the provider, then redirect the guest',
    docs: {
      summary: 'Provider return URL: verify, then redirect the guest',
      description: [
        'Public (no key): the payment provider sends the guest here. The service asks the provider about the current checkout (it never trusts the redirect) and marks the order `paid` only when the provider says paid and amount and currency match. In the same transaction it records the attempt outcome, the provider event and the transaction, mirrors a `room_booking` order with both dates into a confirmed hotel booking, and queues the `booking.confirmed` callback and `payment_order.paid` webhook.',
        '',
        'Then it redirects (303) to `success_url` with `payment=success`, or to `cancel_url` with `payment=failed`, appending `payment_order` and `reference` (both the `order_reference`; an existing query is kept). While the provider still reports the checkout open, the order stays `processing` and the guest goes to `cancel_url`; the order can still be paid and verified later. Verifying a paid order again redirects to success and records nothing twice.',
        '',
        "The provider is asked on the provider and account the order's current attempt was made on, whatever the client's settings are now. A checkout the provider cannot find leaves the order `processing` (the guest goes to `cancel_url`), logged and alarmed.",
      ].join('\n'),
    },
  },
  {
    id: 'GetPaymentOrder',
    method: 'GET',
    path: '/api/v1/payments/payment-orders/{order_reference}',
    handler: 'get-payment-order',
    auth: { kind: 'payment' },
    access: { dynamodb: { actions: ['GetItem'] } },
    description: 'Payment order status lookup',
    docs: {
      summary: 'Payment order status',
      description:
        "The order as it stands, with `paid_at` and the hotel booking it became (`service_booking_sync`). This is how your server confirms a payment. Another client's order is 404, as is a reference the service could not have minted.",
    },
  },
  {
    id: 'StripeWebhook',
    method: 'POST',
    path: '/api/v1/payments/provider-webhooks/stripe',
    handler: 'stripe-webhook',
    auth: { kind: 'public' },
    // Reconciles the order exactly as VerifyPaymentOrder does.
    access: {
      dynamodb: { actions: ['GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'], writes: SETTLEMENT_WRITES },
      enqueuesCallbacks: true,
      providerSecrets: ['stripeSecretKey', 'stripeWebhookSecret'],
      sendsEmail: true,
    },
    description: 'Stripe webhook (signature-checked): re-verifies the order with Stripe when a checkout completes, fails or expires',
    docs: {
      summary: 'Stripe webhook',
      description:
        "Public, but only Stripe can sign: the `Stripe-Signature` header is checked over the exact raw body before anything else. For `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed` and `checkout.session.expired` of one of this service's Stripe orders, the order is reconciled by asking Stripe again, exactly as the guest's return does (the event itself never marks an order paid). Anything else is acknowledged with 200 so Stripe does not retry it; a failure to reconcile answers 5xx so Stripe does.",
    },
  },
];

/** A page resource: one function serving a page and its forms (dashboard, guest booking). */
interface PageResource {
  function: string;
  handler: string;
  auth: Extract<RouteAuth, { kind: 'dashboard' | 'public' }>;
  access: Route['access'];
  description: string;
  /** [route id, method, path] */
  routes: readonly (readonly [string, Route['method'], string])[];
}

function pageRoutes(resource: PageResource): Route[] {
  return resource.routes.map(([id, method, path]) => ({
    id,
    method,
    path,
    function: resource.function,
    handler: resource.handler,
    auth: resource.auth,
    access: resource.access,
    description: resource.description,
    page: true as const,
  }));
}

/**
 * The hotel dashboard: server-rendered pages for a client's operators, behind their Cognito
 * session (shared/dashboard/). Every action calls the use case the ops CLI calls.
 */
export const dashboardRoutes: readonly Route[] = [
  ...pageRoutes({
    function: 'DashboardSession',
    handler: 'dashboard-session',
    auth: { kind: 'public' },
    // Only the user pool: e-mail and password to tokens, the first new password, the code of the
    // operator's authenticator app and setting one up, sign-out.
    access: { dynamodb: { actions: [] }, operatorSessions: true },
    description: 'Dashboard sign-in (password, then a new password, a TOTP code or TOTP set-up) and sign-out (Cognito)',
    routes: [
      ['DashboardSignInPage', 'GET', '/dashboard/sign-in'],
      ['DashboardSignIn', 'POST', '/dashboard/sign-in'],
      ['DashboardNewPassword', 'POST', '/dashboard/new-password'],
      ['DashboardSignInCode', 'POST', '/dashboard/sign-in/code'],
      ['DashboardMfaSetup', 'POST', '/dashboard/sign-in/mfa-setup'],
      ['DashboardSignOut', 'POST', '/dashboard/sign-out'],
      ['DashboardStylesheet', 'GET', '/dashboard/style.css'],
    ],
  }),
  ...pageRoutes({
    function: 'DashboardOverview',
    handler: 'dashboard-overview',
    auth: { kind: 'dashboard', role: 'staff' },
    access: { dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem'], queries: ['gsi1', 'gsi2'] } },
    description: "Dashboard overview: today's arrivals and departures, 14-night occupancy, deliveries needing attention",
    routes: [['DashboardOverview', 'GET', '/dashboard']],
  }),
  ...pageRoutes({
    function: 'DashboardRooms',
    handler: 'dashboard-rooms',
    auth: { kind: 'dashboard', role: 'staff' },
    access: { dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem'], queries: ['gsi1', 'gsi2'], writes: ['CLIENT#'] } },
    description: 'Dashboard rooms: the rooms, a 14-night grid, Add room; the reception QR sheet',
    routes: [
      ['DashboardRooms', 'GET', '/dashboard/rooms'],
      ['DashboardAddRoom', 'POST', '/dashboard/rooms'],
      // Every operator prints it for the reception desk (the guest booking page's QR code).
      ['DashboardQrSheet', 'GET', '/dashboard/qr-sheet'],
    ],
  }),
  ...pageRoutes({
    function: 'DashboardBookings',
    handler: 'dashboard-bookings',
    auth: { kind: 'dashboard', role: 'staff' },
    access: {
      // The booking, hold and audit (CLIENT#), its search entries, its client pointer, the paid
      // order's booking_sync, the deliveries. gsi3: the list in check-in order; search reads the
      // search entries (SEARCH#), the room-number guards, bookings and orders by key.
      dynamodb: {
        actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
        queries: ['gsi1', 'gsi2', 'gsi3'],
        writes: ['CLIENT#', 'SEARCH#', 'BOOKINGID#', 'ORDER#', 'DELIVERY#'],
      },
      enqueuesCallbacks: true,
    },
    description: 'Dashboard bookings: every origin, search, reception bookings, room assignment',
    routes: [
      ['DashboardBookings', 'GET', '/dashboard/bookings'],
      ['DashboardSearch', 'GET', '/dashboard/search'],
      ['DashboardNewBookingForm', 'GET', '/dashboard/bookings/new'],
      ['DashboardNewBooking', 'POST', '/dashboard/bookings'],
      ['DashboardBooking', 'GET', '/dashboard/bookings/{booking_id}'],
      ['DashboardAssignRoomForm', 'GET', '/dashboard/bookings/{booking_id}/assign'],
      ['DashboardAssignRoom', 'POST', '/dashboard/bookings/{booking_id}/assign'],
    ],
  }),
  ...pageRoutes({
    function: 'DashboardPayments',
    handler: 'dashboard-payments',
    auth: { kind: 'dashboard', role: 'staff' },
    access: { dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem'], queries: ['gsi1', 'gsi2'] } },
    description: 'Dashboard payments: orders with their attempts, provider events and transactions',
    routes: [
      ['DashboardPayments', 'GET', '/dashboard/payments'],
      ['DashboardPayment', 'GET', '/dashboard/payments/{order_reference}'],
    ],
  }),
  ...pageRoutes({
    function: 'DashboardDeliveries',
    handler: 'dashboard-deliveries',
    auth: { kind: 'dashboard', role: 'staff' },
    access: {
      dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'], writes: ['CLIENT#', 'DELIVERY#'] },
      enqueuesCallbacks: true,
    },
    description: 'Dashboard deliveries: callbacks and webhooks with their attempts, Retry',
    routes: [
      ['DashboardDeliveries', 'GET', '/dashboard/deliveries'],
      ['DashboardDelivery', 'GET', '/dashboard/deliveries/{delivery_id}'],
      ['DashboardRetryDelivery', 'POST', '/dashboard/deliveries/{delivery_id}/retry'],
      ['DashboardRetryFailed', 'POST', '/dashboard/deliveries/retry-failed'],
    ],
  }),
  ...pageRoutes({
    function: 'DashboardIntegrations',
    handler: 'dashboard-integrations',
    auth: { kind: 'dashboard', role: 'admin' },
    // Keys (APIKEY#, APIKEYID#); endpoints, provider, guest booking settings and operators'
    // password confirmations (CLIENTCONFIG#); audit (CLIENT#).
    access: {
      dynamodb: {
        actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
        queries: ['gsi1'],
        writes: ['CLIENT#', 'CLIENTCONFIG#', 'APIKEY#', 'APIKEYID#'],
      },
      sealsSigningSecrets: true,
    },
    description: 'Dashboard integrations (admins): keys, callback and webhook URLs, payment provider, guest booking page; hotel settings',
    routes: [
      ['DashboardIntegrations', 'GET', '/dashboard/integrations'],
      ['DashboardCreateKey', 'POST', '/dashboard/integrations/keys'],
      // Revoking a key and rotating a secret: a confirmation page (GET), then its form (POST).
      ['DashboardRevokeKeyPage', 'GET', '/dashboard/integrations/keys/{key_id}/revoke'],
      ['DashboardRevokeKey', 'POST', '/dashboard/integrations/keys/{key_id}/revoke'],
      ['DashboardSetEndpoint', 'POST', '/dashboard/integrations/endpoints/{kind}'],
      ['DashboardRotateSecretPage', 'GET', '/dashboard/integrations/endpoints/{kind}/rotate'],
      ['DashboardRotateSecret', 'POST', '/dashboard/integrations/endpoints/{kind}/rotate'],
      ['DashboardSetProvider', 'POST', '/dashboard/integrations/provider'],
      ['DashboardSetPayAtProperty', 'POST', '/dashboard/integrations/guest-booking/pay-at-property'],
      // The hotel's time zone and what guests are told (client settings).
      ['DashboardHotelSettings', 'GET', '/dashboard/settings'],
      ['DashboardSaveHotelSettings', 'POST', '/dashboard/settings'],
    ],
  }),
  ...pageRoutes({
    function: 'DashboardAudit',
    handler: 'dashboard-audit',
    auth: { kind: 'dashboard', role: 'staff' },
    // The audit entries; the hotel's name for the header (every dashboard page: GetItem); the
    // bookings, deliveries and rooms a page of entries names (BatchGetItem, GetItem; categories: Query).
    access: { dynamodb: { actions: ['Query', 'GetItem', 'BatchGetItem'] } },
    description: "Dashboard audit: every operator action, who and when",
    routes: [['DashboardAudit', 'GET', '/dashboard/audit']],
  }),
  ...pageRoutes({
    function: 'DashboardSecurity',
    handler: 'dashboard-security',
    auth: { kind: 'dashboard', role: 'staff' },
    // The operator's own account in the user pool (their access token); the audit entry (CLIENT#);
    // the hotel's name for the header (every dashboard page: GetItem).
    access: { dynamodb: { actions: ['GetItem', 'PutItem'], writes: ['CLIENT#'] } },
    description: "Dashboard security: the operator's own second factor (TOTP), turned on",
    routes: [
      ['DashboardSecurity', 'GET', '/dashboard/security'],
      ['DashboardStartTotp', 'POST', '/dashboard/security/totp'],
      ['DashboardEnableTotp', 'POST', '/dashboard/security/totp/verify'],
    ],
  }),
];

/**
 * The guest booking pages (docs/behaviour.md "Guest booking and the reception QR code"): public,
 * server-rendered pages for walk-in and web guests of a client, no key, one function. The WAF
 * rate rule covers them with every other unkeyed route (`/book/`).
 */
export const guestRoutes: readonly Route[] = [
  ...pageRoutes({
    function: 'GuestBooking',
    handler: 'guest-booking',
    auth: { kind: 'public' },
    // The use cases' own list (shared/domain/guest-booking/guest-bookings.ts): the client, rooms,
    // categories and open holds by GetItem and Query, active stays on gsi1 (search) and gsi2 (the
    // chosen room); the hold, the guest booking, the order or the pay-at-property booking and its
    // delivery by transactions of Puts (UpdateItem to release a hold, to take a delivery off the
    // due index). Opening a checkout creates a payment order of the client (order-reference key,
    // Stripe's secret); paying at the hotel e-mails the guest its link, which confirms the booking
    // (queues booking.confirmed, e-mails the confirmation).
    access: { dynamodb: guestBookingTableAccess, orderReferenceKey: true, providerSecrets: ['stripeSecretKey'], enqueuesCallbacks: true, sendsEmail: true },
    description: 'Guest booking pages: search a stay, the rooms with their totals, guest details, checkout, confirmation; the reception QR code',
    routes: [
      ['GuestBookingSearch', 'GET', '/book/{client_id}'],
      ['GuestBookingDetails', 'GET', '/book/{client_id}/details'],
      ['GuestBookingCreate', 'POST', '/book/{client_id}/bookings'],
      ['GuestBookingConfirmation', 'GET', '/book/{client_id}/confirmation/{token}'],
      ['GuestBookingQrCode', 'GET', '/book/{client_id}/qr.svg'],
      ['GuestBookingStylesheet', 'GET', '/book/style.css'],
      // The link of a pay-at-the-hotel booking's "Confirm your booking" e-mail: its page, and its button.
      ['GuestBookingConfirmLink', 'GET', '/book/{client_id}/confirm/{token}'],
      ['GuestBookingConfirmLinkSubmit', 'POST', '/book/{client_id}/confirm/{token}'],
    ],
  }),
];

/**
 * The sandbox payment provider's hosted checkout (docs/behaviour.md "Sandbox payment provider"), on an
 * origin of its own as Stripe's is: `checkout_url` = `{sandbox origin}/checkout/{provider_reference}`.
 * The stack serves these from one function's Lambda function URL, the local stack on SANDBOX_PORT;
 * API Gateway never serves them. They stand in for a provider's hosted page and are documented as
 * one, with the origin they are served on.
 */
const sandboxCheckout = {
  function: 'SandboxCheckout',
  path: '/checkout/{provider_reference}',
  handler: 'sandbox-checkout',
  auth: { kind: 'public' },
  // The session by GetItem; the outcome by conditional UpdateItem (read again when already completed).
  access: { dynamodb: { actions: ['GetItem', 'UpdateItem'], writes: ['SANDBOX#'] } },
  description: 'Sandbox provider hosted checkout, on its own origin: the page and its form',
  origin: 'sandbox',
} as const satisfies Partial<Route>;

export const sandboxRoutes: readonly Route[] = [
  {
    ...sandboxCheckout,
    id: 'SandboxCheckoutPage',
    method: 'GET',
    docs: {
      summary: 'Sandbox hosted checkout page',
      description:
        "The sandbox provider's hosted page (`checkout_url`), on the sandbox's own origin: amount, currency and customer, and a form that POSTs `outcome` = `paid`, `cancelled` or `failed` to the same URL. A completed or expired session shows its state instead of the buttons.",
    },
  },
  {
    ...sandboxCheckout,
    id: 'SandboxCheckoutSubmit',
    method: 'POST',
    docs: {
      summary: 'Sandbox checkout outcome',
      description:
        "The hosted page's form: records the tester's choice (once; a completed session keeps its first outcome) and redirects (303) the guest to the service's verify URL, on the API's origin.",
    },
  },
];

export const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 10;
/** API Gateway gives up on an integration after 29 s: a route function stops first. */
export const MAX_ROUTE_TIMEOUT_SECONDS = 28;

/**
 * The routes a stage serves, on its API and on the sandbox's origin: the sandbox provider's only
 * where the stage turns it on.
 */
export function routesOfStage(stage: { sandboxPayments: boolean }): readonly Route[] {
  return [...routes, ...dashboardRoutes, ...guestRoutes, ...(stage.sandboxPayments ? sandboxRoutes : [])];
}

/** Served by the API (API Gateway, the local gateway), not on an origin of its own. */
export const servedByApi = (route: Route): boolean => route.origin === undefined;

/** The routes of the API document: all but the pages for people (the sandbox's are documented with their own origin). */
export function apiRoutes(all: readonly Route[] = [...routes, ...sandboxRoutes]): readonly Route[] {
  return all.filter((route) => !route.page);
}

export function findRoute(id: string): Route {
  const route = [...routes, ...dashboardRoutes, ...guestRoutes, ...sandboxRoutes].find((r) => r.id === id);
  if (!route) throw new Error(`No route with id ${id}`);
  return route;
}

/** Matches a concrete path against an API Gateway resource path; returns path parameters. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    const actual = got[i]!;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (actual === '') return undefined;
      params[segment.slice(1, -1)] = decodeURIComponent(actual);
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}
