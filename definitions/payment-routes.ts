/**
 * The payment order routes (Area B): create, verify (the provider's return URL), look up, refund,
 * and the provider's webhooks. Each route is its own constant, so a function's bundle carries its
 * own route's definition and not the route table's (test/unit/bundles.test.ts);
 * definitions/routes.ts gathers them into the table.
 */
import { REFUND_WRITES, SETTLEMENT_WRITES } from './route-access';
import type { Route } from './routes';

export const createPaymentOrderRoute = {
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
} as const satisfies Route;

export const verifyPaymentOrderRoute = {
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
} as const satisfies Route;

export const getPaymentOrderRoute = {
  id: 'GetPaymentOrder',
  method: 'GET',
  path: '/api/v1/payments/payment-orders/{order_reference}',
  handler: 'get-payment-order',
  auth: { kind: 'payment' },
  // The order by GetItem; its refunds (once it has any) by Query of its partition.
  access: { dynamodb: { actions: ['GetItem', 'Query'] } },
  description: 'Payment order status lookup',
} as const satisfies Route;

export const refundPaymentOrderRoute = {
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
    dynamodb: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], // A pure call, not a spread: a bundle that does not use this route drops it (esbuild keeps a spread).
    writes: /* @__PURE__ */ REFUND_WRITES.concat('IDEMPOTENCY#'), deletes: ['IDEMPOTENCY#'] },
    enqueuesCallbacks: true,
    providerSecrets: ['stripeSecretKey'],
    sendsEmail: true,
  },
  description: 'Refund a paid payment order (all that is left, or part) through its provider',
} as const satisfies Route;

export const stripeWebhookRoute = {
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
} as const satisfies Route;

export const paymentRouteTable = [createPaymentOrderRoute, verifyPaymentOrderRoute, getPaymentOrderRoute, refundPaymentOrderRoute, stripeWebhookRoute] as const satisfies readonly Route[];
