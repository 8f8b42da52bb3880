/**
 * The deliveries API (docs/behaviour.md "Receivers in control"): a receiver lists, reads and
 * resends its own deliveries with a key of either kind carrying `deliveries:read` or
 * `deliveries:write`; a sync key sees the client's callbacks, a payment key its webhooks. Behind
 * the uncached authorizer (definitions/authorizers.ts), rate limited like every keyed route.
 */
import type { Route } from './routes';

export const listDeliveriesRoute = {
  id: 'ListDeliveries',
  method: 'GET',
  path: '/api/v1/deliveries',
  handler: 'list-deliveries',
  auth: { kind: 'key', scope: 'deliveries:read' },
  // The client's deliveries of the key's endpoint on gsi4 (newest first), then BatchGetItem.
  access: { dynamodb: { actions: ['Query', 'BatchGetItem'], queries: ['gsi4'] } },
  description: "List the caller's deliveries, newest first",
} as const satisfies Route;

export const getDeliveryRoute = {
  id: 'GetDelivery',
  method: 'GET',
  path: '/api/v1/deliveries/{delivery_id}',
  handler: 'get-delivery',
  auth: { kind: 'key', scope: 'deliveries:read' },
  access: { dynamodb: { actions: ['GetItem'] } },
  description: 'One delivery with its attempts and the exact body sent',
} as const satisfies Route;

export const retryDeliveryRoute = {
  id: 'RetryDelivery',
  method: 'POST',
  path: '/api/v1/deliveries/{delivery_id}/retry',
  handler: 'retry-delivery',
  auth: { kind: 'key', scope: 'deliveries:write' },
  // The delivery by GetItem; marked due by conditional UpdateItem, put on the queue, moved to its resend-after time.
  access: { dynamodb: { actions: ['GetItem', 'UpdateItem'], writes: ['DELIVERY#'] }, enqueuesCallbacks: true },
  description: 'Send one delivery again under its own id',
} as const satisfies Route;

export const replayDeliveriesRoute = {
  id: 'ReplayDeliveries',
  method: 'POST',
  path: '/api/v1/deliveries/replay',
  handler: 'replay-deliveries',
  auth: { kind: 'key', scope: 'deliveries:write' },
  // The matching entries on gsi4 (keys, status and event); each marked due by conditional
  // UpdateItem within the request's budget and put on the queue; the rest as a bulk-resend item
  // (PutItem) the sweeper carries on; the audit entry in the client's partition.
  access: { dynamodb: { actions: ['Query', 'UpdateItem', 'PutItem'], queries: ['gsi4'], writes: ['DELIVERY#', 'CLIENT#'] }, enqueuesCallbacks: true },
  description: 'Send every matching delivery again, each under its own id',
} as const satisfies Route;

export const deliveryRouteTable = [listDeliveriesRoute, getDeliveryRoute, retryDeliveryRoute, replayDeliveriesRoute] as const satisfies readonly Route[];
