/**
 * What a client's Integrations page shows, read at once: the client, its API keys, its callback
 * and webhook URLs, its payment provider and the Stripe accounts linked to it, and its guest
 * booking settings; and one URL, for the page that confirms rotating its secret. Reads by key
 * and the client's own keys and accounts, never its history.
 */
import type { ApiKeyRecord, ClientRecord } from '../store/api-key-store';
import { type EndpointConfig, type EndpointKind, getEndpoint } from '../store/endpoint-store';
import { getProviderSettings, type ProviderSettings } from '../store/payment-store';
import { listClientKeys, requireClient } from './clients';
import { type GuestClient, guestBookingClient } from './guest-booking/guest-client';
import { type LinkedStripeAccount, linkedStripeAccounts } from './payments/provider-accounts';

export type { ApiKeyRecord, EndpointConfig, EndpointKind, ProviderSettings };

export interface Integrations {
  client: ClientRecord;
  keys: ApiKeyRecord[];
  endpoints: Record<EndpointKind, EndpointConfig | undefined>;
  /** Undefined when none was chosen (the stage's sandbox, if any). */
  provider?: ProviderSettings;
  linkedAccounts: LinkedStripeAccount[];
  guestBooking: GuestClient;
}

/** Everything the page shows; 404 NOT_FOUND for an unknown client. */
export async function integrationsOf(clientId: string): Promise<Integrations> {
  const [client, keys, callback, webhook, provider, linkedAccounts, guestBooking] = await Promise.all([
    requireClient(clientId),
    listClientKeys(clientId),
    getEndpoint(clientId, 'callback'),
    getEndpoint(clientId, 'webhook'),
    getProviderSettings(clientId),
    linkedStripeAccounts(clientId),
    guestBookingClient(clientId),
  ]);
  return { client, keys, endpoints: { callback, webhook }, ...(provider ? { provider } : {}), linkedAccounts, guestBooking };
}

/** Where the client's `kind` events go, or undefined when it has set no such URL. */
export function endpointOf(clientId: string, kind: EndpointKind): Promise<EndpointConfig | undefined> {
  return getEndpoint(clientId, kind);
}
