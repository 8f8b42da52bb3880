/**
 * The one route table. The CDK stack creates one function and one API Gateway method per
 * entry; the local gateway serves exactly the same entries. Paths use API Gateway syntax.
 */
import type { TableAccess } from './table-access';

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

export type RouteAuth =
  | { kind: 'sync'; scope: SyncScope }
  | { kind: 'payment' }
  | { kind: 'public' };

export interface Route {
  /** Stable id: names the function construct and the handler file. */
  id: string;
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
     * The DynamoDB actions its use case calls (infra/table-access.ts). Every idempotent route
     * also needs Powertools' record actions: GetItem, PutItem, UpdateItem, and DeleteItem under
     * IDEMPOTENCY# (the record of a failed request is deleted so a retry runs again).
     */
    dynamodb: TableAccess;
    enqueuesCallbacks?: boolean;
    /** Payment provider secrets the function may read (it talks to Stripe / verifies its webhooks). */
    providerSecrets?: readonly ProviderSecret[];
    /** Reads the key order references are derived with (it creates orders). */
    orderReferenceKey?: boolean;
  };
  description: string;
  /**
   * A route of the sandbox payment provider: it exists only in a stage that turns the sandbox on
   * (the local stack always; a deployed stage with -c sandboxPayments=true, never prod).
   */
  sandbox?: true;
}

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
    access: { dynamodb: { actions: ['Query', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'], deletes: ['IDEMPOTENCY#'] } },
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
    access: { dynamodb: { actions: ['Query', 'GetItem', 'PutItem', 'UpdateItem'], deletes: ['CLIENT#', 'IDEMPOTENCY#'] } },
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
    // again by GetItem when a concurrent write won.
    access: {
      dynamodb: { actions: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'], deletes: ['IDEMPOTENCY#'] },
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
    // conditional UpdateItem (read again by GetItem when a concurrent write won), then the
    // check-ins by BatchWriteItem.
    access: {
      dynamodb: { actions: ['Query', 'BatchGetItem', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'], deletes: ['IDEMPOTENCY#'] },
    },
    description: 'Push check-in and check-out activity',
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
      dynamodb: { actions: ['GetItem', 'PutItem', 'UpdateItem'], deletes: ['IDEMPOTENCY#'] },
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
    // each delivery taken off the due index by UpdateItem once enqueued. Never a delete.
    access: {
      dynamodb: { actions: ['GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'] },
      enqueuesCallbacks: true,
      providerSecrets: ['stripeSecretKey'],
    },
    description: 'Provider return URL: verify with the provider, then redirect the guest',
  },
  {
    id: 'GetPaymentOrder',
    method: 'GET',
    path: '/api/v1/payments/payment-orders/{order_reference}',
    handler: 'get-payment-order',
    auth: { kind: 'payment' },
    access: { dynamodb: { actions: ['GetItem'] } },
    description: 'Payment order status lookup',
  },
  {
    id: 'SandboxCheckoutPage',
    method: 'GET',
    path: '/sandbox/checkout/{provider_reference}',
    handler: 'sandbox-checkout-page',
    auth: { kind: 'public' },
    access: { dynamodb: { actions: ['GetItem'] } },
    description: 'Sandbox provider hosted checkout page',
    sandbox: true,
  },
  {
    id: 'SandboxCheckoutSubmit',
    method: 'POST',
    path: '/sandbox/checkout/{provider_reference}',
    handler: 'sandbox-checkout-submit',
    auth: { kind: 'public' },
    // Completes the session by conditional UpdateItem; reads it again when already completed.
    access: { dynamodb: { actions: ['GetItem', 'UpdateItem'] } },
    description: 'Sandbox provider checkout outcome',
    sandbox: true,
  },
  {
    id: 'StripeWebhook',
    method: 'POST',
    path: '/api/v1/payments/provider-webhooks/stripe',
    handler: 'stripe-webhook',
    auth: { kind: 'public' },
    // Reconciles the order exactly as VerifyPaymentOrder does.
    access: {
      dynamodb: { actions: ['GetItem', 'PutItem', 'UpdateItem'], queries: ['gsi2'] },
      enqueuesCallbacks: true,
      providerSecrets: ['stripeSecretKey', 'stripeWebhookSecret'],
    },
    description: 'Stripe webhook (signature-checked): re-verifies the order with Stripe when a checkout completes, fails or expires',
  },
];

export const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 10;
/** API Gateway gives up on an integration after 29 s: a route function stops first. */
export const MAX_ROUTE_TIMEOUT_SECONDS = 28;

/** The routes a stage serves: the sandbox provider's only where the stage turns it on. */
export function routesOfStage(stage: { sandboxPayments: boolean }): readonly Route[] {
  return routes.filter((route) => !route.sandbox || stage.sandboxPayments);
}

export function findRoute(id: string): Route {
  const route = routes.find((r) => r.id === id);
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
