/**
 * The scopes an API key can carry, apart from the route table (routes.ts re-exports them): the
 * functions that issue or show keys (the dashboard's, the CLI's) need these lists, not the table,
 * which would otherwise be bundled into them whole.
 */
export const SYNC_SCOPES = [
  'room_categories:write',
  'rooms:write',
  'bookings:write',
  'checkins:write',
  'availability:read',
] as const;
export type SyncScope = (typeof SYNC_SCOPES)[number];
/**
 * Rates and restrictions per date (docs/behaviour.md "Rates and restrictions per date"): sync
 * scopes beyond the spec's five, only given when asked for, so a key made without them keeps
 * exactly the scopes it had.
 */
export const RATE_SCOPES = ['rates:read', 'rates:write'] as const;
export type RateScope = (typeof RATE_SCOPES)[number];
/**
 * Beyond the spec's five: a receiver reading and resending its own deliveries (a sync key its
 * callbacks, a payment key its webhooks). Only given when asked for: a key made without them
 * keeps exactly the scopes it had.
 */
export const DELIVERY_SCOPES = ['deliveries:read', 'deliveries:write'] as const;
export type DeliveryScope = (typeof DELIVERY_SCOPES)[number];
/** Every scope a key can carry: a sync key any of them, a payment key the delivery scopes only. */
export const KEY_SCOPES = [...SYNC_SCOPES, ...RATE_SCOPES, ...DELIVERY_SCOPES] as const;
export type KeyKind = 'sync' | 'payment';
