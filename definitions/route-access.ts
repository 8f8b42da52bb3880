/**
 * What a route's function may do beyond answering: table access, callbacks, provider secrets,
 * keys, e-mail. Each route-table entry declares its own (`access`); the stack grants exactly this
 * (least privilege) and the local stack refuses table calls outside it (infra/local/table-guard.ts).
 */
import type { PartitionPrefix } from './partitions';
import type { TableAccess } from './table-access';

/** Platform secrets of the payment providers (SSM SecureString parameters in the stack). */
export const PROVIDER_SECRETS = ['stripeSecretKey', 'stripeWebhookSecret'] as const;
export type ProviderSecret = (typeof PROVIDER_SECRETS)[number];

export interface RouteAccess {
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
}

/**
 * What settling a payment order writes (verify, provider webhooks): the order and its records, a
 * mirrored booking, its room hold and the released checkout hold (the client's partition), the
 * booking's search entries, its client pointer, the deliveries, a guest's confirmation e-mail.
 */
export const SETTLEMENT_WRITES: readonly PartitionPrefix[] = ['ORDER#', 'CLIENT#', 'SEARCH#', 'BOOKINGID#', 'DELIVERY#', 'EMAIL#'];

/**
 * What refunding a paid order writes (shared/domain/payments/refunds.ts, whoever asks: the
 * partner's route, staff, a cancellation, a provider's webhook): the order, its refunds and
 * transactions, the sandbox's refund record, the payment_order.refunded delivery, the guest's
 * e-mail. Its reads: GetItem, and Query of the order's partition (its refunds, its payment).
 */
export const REFUND_WRITES: readonly PartitionPrefix[] = ['ORDER#', 'SANDBOX#', 'DELIVERY#', 'EMAIL#'];
