/**
 * The one route table. The CDK stack creates one API Gateway method per entry and one function
 * per entry (or per `function`, for the dashboard's resources); the local gateway serves exactly
 * the same entries. Paths use API Gateway syntax. Here: the API's routes and the sandbox
 * checkout's (`sandboxRoutes`, served on an origin of their own: a function URL in the stack,
 * SANDBOX_PORT locally), what a route is, and the lookups over the table. The pages for people are
 * in page-routes.ts, what a function may do in route-access.ts, the API document's words for each
 * route in shared/openapi/route-docs.ts.
 */
import { dashboardRoutes, guestRoutes } from './page-routes';
import { deliveryRouteTable } from './delivery-routes';
import { REFUND_WRITES, type RouteAccess, SETTLEMENT_WRITES } from './route-access';

export { DELIVERY_SCOPES, type DeliveryScope, KEY_SCOPES, type KeyKind, RATE_SCOPES, type RateScope, SYNC_SCOPES, type SyncScope } from './scopes';
import type { DeliveryScope, KeyKind, RateScope, SyncScope } from './scopes';

/** Who may open a dashboard page: every operator of the client, or its admins only. */
export type OperatorAccess = 'staff' | 'admin';

export type RouteAuth =
  | { kind: 'sync'; scope: SyncScope | RateScope }
  | { kind: 'payment' }
  /** Either kind of key, with this scope: the deliveries API (each key sees its own kind's deliveries). */
  | { kind: 'key'; scope: DeliveryScope }
  | { kind: 'public' }
  /**
   * A hotel dashboard page: an operator's Cognito session (cookies), verified by the function
   * itself on every request (shared/dashboard/session.ts), so API Gateway runs no authorizer.
   */
  | { kind: 'dashboard'; role: OperatorAccess };

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
  access: RouteAccess;
  /** One line: the Lambda function's description (and the reason a public route is public). */
  description: string;
  /**
   * A page for people (dashboard, guest booking): HTML behind a session or for a browser, not part
   * of the API, so it is left out of the OpenAPI document and has no text in
   * shared/openapi/route-docs.ts. (The sandbox checkout page stands in for a payment provider's
   * page and is documented as one.)
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

const apiRouteTable = [
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
  },
  {
    id: 'GetAvailability',
    method: 'GET',
    path: '/api/v1/property-sync/availability',
    handler: 'get-availability',
    auth: { kind: 'sync', scope: 'availability:read' },
    // Rooms, categories, rate plans and the plans' months of the stay by Query; the client's
    // active stays on gsi1.
    access: { dynamodb: { actions: ['Query'], queries: ['gsi1'] } },
    description: 'Rooms available for a stay range',
  },
  {
    id: 'PutRatePlans',
    method: 'PUT',
    path: '/api/v1/property-sync/rate-plans',
    handler: 'put-rate-plans',
    auth: { kind: 'sync', scope: 'rates:write' },
    idempotent: true,
    timeoutSeconds: 28,
    // Categories and plans by Query; the changed plans by BatchWriteItem.
    access: { dynamodb: { actions: ['Query', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] } },
    description: 'Create or update rate plans of room categories',
  },
  {
    id: 'PutRates',
    method: 'PUT',
    path: '/api/v1/property-sync/rates',
    handler: 'put-rates',
    auth: { kind: 'sync', scope: 'rates:write' },
    idempotent: true,
    timeoutSeconds: 28,
    // The client (its time zone) by GetItem, plans by Query, the plan-months by BatchGetItem; each
    // changed month by conditional PutItem, read again by GetItem when a concurrent push won.
    access: {
      dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] },
    },
    description: 'Push prices and restrictions per date (deltas)',
  },
  {
    id: 'GetRates',
    method: 'GET',
    path: '/api/v1/property-sync/rates',
    handler: 'get-rates',
    auth: { kind: 'sync', scope: 'rates:read' },
    // Plans and categories by Query; the plan-months of the range by BatchGetItem.
    access: { dynamodb: { actions: ['Query', 'BatchGetItem'] } },
    description: 'Read back prices and restrictions per date',
  },
  {
    id: 'CancelServiceBooking',
    method: 'POST',
    path: '/api/v1/property-sync/service-bookings/{booking_id}/cancel',
    handler: 'cancel-service-booking',
    auth: { kind: 'sync', scope: 'bookings:write' },
    idempotent: true,
    // The booking, its room and the room's hold item by GetItem; the cancelled booking, the hold
    // without its nights (version-checked) and the guest's e-mail in one transaction (a cancel
    // keeps the search entries); the e-mail marked sent by UpdateItem. Emits no event: the PMS
    // made the change.
    access: {
      dynamodb: { actions: ['GetItem', 'PutItem', 'UpdateItem'], writes: ['CLIENT#', 'EMAIL#', 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] },
      sendsEmail: true,
    },
    description: 'Cancel a booking the service made (guest, reception, paid order)',
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
      // Query: the rate plans of the room's category and their months (the rate check).
      dynamodb: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], queries: ['gsi2'], writes: SETTLEMENT_WRITES },
      enqueuesCallbacks: true,
      providerSecrets: ['stripeSecretKey'],
      // A guest's paid booking: its confirmation e-mail.
      sendsEmail: true,
    },
    description: 'Provider return URL: verify with the provider, then redirect the guest',
  },
  {
    id: 'GetPaymentOrder',
    method: 'GET',
    path: '/api/v1/payments/payment-orders/{order_reference}',
    handler: 'get-payment-order',
    auth: { kind: 'payment' },
    // The order by GetItem; its refunds (once it has any) by Query of its partition.
    access: { dynamodb: { actions: ['GetItem', 'Query'] } },
    description: 'Payment order status lookup',
  },
  {
    id: 'RefundPaymentOrder',
    method: 'POST',
    path: '/api/v1/payments/payment-orders/{order_reference}/refunds',
    handler: 'refund-payment-order',
    auth: { kind: 'payment' },
    idempotent: true,
    // Order, refund, endpoint and client by GetItem; its refunds and payment transaction by Query;
    // the reservation and the settled refund (with its transaction, event, webhook delivery and
    // guest e-mail) in transactions of Update and Put; the sandbox's refund record.
    access: {
      dynamodb: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], writes: [...REFUND_WRITES, 'IDEMPOTENCY#'], deletes: ['IDEMPOTENCY#'] },
      enqueuesCallbacks: true,
      providerSecrets: ['stripeSecretKey'],
      sendsEmail: true,
    },
    description: 'Refund a paid payment order (all that is left, or part) through its provider',
  },
  {
    id: 'StripeWebhook',
    method: 'POST',
    path: '/api/v1/payments/provider-webhooks/stripe',
    handler: 'stripe-webhook',
    auth: { kind: 'public' },
    // Reconciles the order exactly as VerifyPaymentOrder does; settles its refunds (their records and
    // the order's payment transaction by Query).
    access: {
      dynamodb: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], queries: ['gsi2'], writes: SETTLEMENT_WRITES },
      enqueuesCallbacks: true,
      providerSecrets: ['stripeSecretKey', 'stripeWebhookSecret'],
      sendsEmail: true,
    },
    description: 'Stripe webhook (signature-checked): re-verifies the order with Stripe when a checkout completes, fails or expires, or a refund changes',
  },
  ...deliveryRouteTable,
] as const satisfies readonly Route[];

/** The API's routes: property sync, payment orders, provider webhooks, deliveries. */
export const routes: readonly Route[] = apiRouteTable;

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

const sandboxRouteTable = [
  {
    ...sandboxCheckout,
    id: 'SandboxCheckoutPage',
    method: 'GET',
  },
  {
    ...sandboxCheckout,
    id: 'SandboxCheckoutSubmit',
    method: 'POST',
  },
] as const satisfies readonly Route[];

export const sandboxRoutes: readonly Route[] = sandboxRouteTable;

/** The routes the API document describes, by id: shared/openapi/route-docs.ts has the words of each. */
export type DocumentedRouteId = Exclude<(typeof apiRouteTable)[number] | (typeof sandboxRouteTable)[number], { page: true }>['id'];

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
