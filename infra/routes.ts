/**
 * The one route table. The CDK stack creates one function and one API Gateway method per
 * entry; the local gateway serves exactly the same entries. Paths use API Gateway syntax.
 */
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
  /** Function timeout (default 10 s). Sync writes of 500 items get API Gateway's 29 s. */
  timeoutSeconds?: number;
  /** What the function may do; the stack grants exactly this (least privilege). */
  access: {
    table: 'read' | 'readwrite';
    enqueuesCallbacks?: boolean;
    /** Payment provider secrets the function may read (it talks to Stripe / verifies its webhooks). */
    providerSecrets?: readonly ProviderSecret[];
  };
  description: string;
}

export const routes: readonly Route[] = [
  {
    id: 'PutRoomCategories',
    method: 'PUT',
    path: '/api/v1/property-sync/room-categories',
    handler: 'put-room-categories',
    auth: { kind: 'sync', scope: 'room_categories:write' },
    idempotent: true,
    timeoutSeconds: 29,
    access: { table: 'readwrite' },
    description: 'Create or update room categories by external_category_id',
  },
  {
    id: 'PutRooms',
    method: 'PUT',
    path: '/api/v1/property-sync/rooms',
    handler: 'put-rooms',
    auth: { kind: 'sync', scope: 'rooms:write' },
    idempotent: true,
    timeoutSeconds: 29,
    access: { table: 'readwrite' },
    description: 'Create or update rooms and link them to categories',
  },
  {
    id: 'PutBookings',
    method: 'PUT',
    path: '/api/v1/property-sync/bookings',
    handler: 'put-bookings',
    auth: { kind: 'sync', scope: 'bookings:write' },
    idempotent: true,
    timeoutSeconds: 29,
    access: { table: 'readwrite' },
    description: 'Mirror external bookings',
  },
  {
    id: 'PutCheckins',
    method: 'PUT',
    path: '/api/v1/property-sync/checkins',
    handler: 'put-checkins',
    auth: { kind: 'sync', scope: 'checkins:write' },
    idempotent: true,
    timeoutSeconds: 29,
    access: { table: 'readwrite' },
    description: 'Push check-in and check-out activity',
  },
  {
    id: 'GetAvailability',
    method: 'GET',
    path: '/api/v1/property-sync/availability',
    handler: 'get-availability',
    auth: { kind: 'sync', scope: 'availability:read' },
    access: { table: 'read' },
    description: 'Rooms available for a stay range',
  },
  {
    id: 'CreatePaymentOrder',
    method: 'POST',
    path: '/api/v1/payments/payment-orders',
    handler: 'create-payment-order',
    auth: { kind: 'payment' },
    idempotent: true,
    access: { table: 'readwrite', providerSecrets: ['stripeSecretKey'] },
    description: 'Create a payment order and its hosted checkout',
  },
  {
    id: 'VerifyPaymentOrder',
    method: 'GET',
    path: '/api/v1/payments/payment-orders/verify',
    handler: 'verify-payment-order',
    auth: { kind: 'public' },
    access: { table: 'readwrite', enqueuesCallbacks: true, providerSecrets: ['stripeSecretKey'] },
    description: 'Provider return URL: verify with the provider, then redirect the guest',
  },
  {
    id: 'GetPaymentOrder',
    method: 'GET',
    path: '/api/v1/payments/payment-orders/{order_reference}',
    handler: 'get-payment-order',
    auth: { kind: 'payment' },
    access: { table: 'read' },
    description: 'Payment order status lookup',
  },
  {
    id: 'SandboxCheckoutPage',
    method: 'GET',
    path: '/sandbox/checkout/{provider_reference}',
    handler: 'sandbox-checkout-page',
    auth: { kind: 'public' },
    access: { table: 'read' },
    description: 'Sandbox provider hosted checkout page',
  },
  {
    id: 'SandboxCheckoutSubmit',
    method: 'POST',
    path: '/sandbox/checkout/{provider_reference}',
    handler: 'sandbox-checkout-submit',
    auth: { kind: 'public' },
    access: { table: 'readwrite' },
    description: 'Sandbox provider checkout outcome',
  },
  {
    id: 'StripeWebhook',
    method: 'POST',
    path: '/api/v1/payments/provider-webhooks/stripe',
    handler: 'stripe-webhook',
    auth: { kind: 'public' },
    access: { table: 'readwrite', enqueuesCallbacks: true, providerSecrets: ['stripeSecretKey', 'stripeWebhookSecret'] },
    description: 'Stripe webhook (signature-checked): re-verifies the order with Stripe when a checkout completes, fails or expires',
  },
];

export const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 10;

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
