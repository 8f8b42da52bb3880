/**
 * Every partition-key prefix of the table: each `pk` (shared/store/keys.ts) starts with one of these. IAM grants
 * writes by them (definitions/table-access.ts: `dynamodb:LeadingKeys`), and the local table guard
 * checks them; a new kind of partition is one line here, then named in the `writes` of the
 * functions that write it (test/infra/least-privilege.test.ts checks this list against the keys).
 */
export const PARTITION_PREFIXES = [
  /**
   * A client's property data, bookings, holds, guards (`ORDEREXT#`) and audit; the public
   * functions write here. (Versions before also kept its profile, provider settings and endpoints
   * here: read as a fallback only, never written.)
   */
  'CLIENT#',
  /**
   * A client's configuration: profile (plan, usage key, settings), provider settings, callback and
   * webhook endpoints, linked Stripe accounts, operators' re-auth records. Written only by the
   * admins' integrations page and the ops CLI, never by a public function.
   */
  'CLIENTCONFIG#',
  /** Hotels' booking-page slugs, each naming its client (unique across clients). */
  'SLUG#',
  /** API keys by hash, their id pointers, and the local stack's usage keys. */
  'APIKEY#',
  'APIKEYID#',
  'USAGEKEY#',
  /** Service-made bookings' client pointer, guest bookings by token hash. */
  'BOOKINGID#',
  'GUESTBOOKING#',
  /** The open checkout holds of one source address at one client (guest booking page). */
  'GUESTSOURCE#',
  /** Payment orders with their attempts, events and transactions; the sandbox provider's sessions. */
  'ORDER#',
  'SANDBOX#',
  /** Outbound callback and webhook deliveries. */
  'DELIVERY#',
  /** Bookings' search entries, a client's by kind and shard (shared/store/search-store.ts). */
  'SEARCH#',
  /** E-mails to guests (shared/store/email-store.ts). */
  'EMAIL#',
  /**
   * An operator's authenticator set-up under way at sign-in, by the SHA-256 of the Cognito
   * username (shared/store/totp-setup-store.ts): written only by the sign-in function.
   */
  'OPERATORSETUP#',
  /** Powertools idempotency records. */
  'IDEMPOTENCY#',
] as const;
export type PartitionPrefix = (typeof PARTITION_PREFIXES)[number];
