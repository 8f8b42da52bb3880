/**
 * A client's plain settings as they apply (its own values, else the defaults): read by the
 * booking page and order settling, set by the operator CLI (clients.ts `setClientSettings`).
 * Kept apart from clients.ts so that public functions do not load the key and plan code.
 */
import type { ClientRecord, ClientSettings } from '../store/api-key-store';

/** Guests may book at most this many days ahead on the booking page, unless the client says otherwise. */
export const DEFAULT_BOOKING_HORIZON_DAYS = 365;
/** The longest horizon a client may set: ten years. */
export const MAX_BOOKING_HORIZON_DAYS = 3650;

/** A client's settings as they apply: its own values, else the defaults. */
export function clientSettingsOf(client: ClientRecord): Required<ClientSettings> {
  return {
    booking_horizon_days: client.booking_horizon_days ?? DEFAULT_BOOKING_HORIZON_DAYS,
    below_rate_orders: client.below_rate_orders ?? 'lock',
  };
}

