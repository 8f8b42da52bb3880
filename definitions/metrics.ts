/**
 * Custom metrics the functions publish (namespace HotelIntegration, dimension service), kept
 * apart from the CDK construct so the functions' bundles do not import aws-cdk-lib.
 */
export const DELIVERY_METRICS = {
  delivered: 'DeliveryDelivered',
  retrying: 'DeliveryRetrying',
  failed: 'DeliveryFailed',
  needsReview: 'DeliveryNeedsReview',
} as const;

/** Published when an order is settled (verify, provider webhooks). */
export const PAYMENT_METRICS = {
  /** The provider cannot find the checkout of an order's current attempt: the order stays processing. */
  checkoutNotFound: 'PaymentCheckoutNotFound',
  /** The provider reports a payment whose amount or currency is not the order's. */
  amountMismatch: 'PaymentAmountMismatch',
} as const;

/** Counted from the API's access log by a metric filter (infra/constructs/monitoring.ts), not by a function. */
export const API_METRICS = {
  /** Requests API Gateway answered 429: a client's usage plan or the stage's throttle. */
  tooManyRequests: 'ApiTooManyRequests',
} as const;

/** Published by the delivery sweeper on every run. */
export const SWEEPER_METRICS = {
  /**
   * Seconds since the oldest delivery still waiting on the due index became due, as the run
   * starts (0 when none): read from the first entry of each shard, no extra query.
   */
  oldestDueAgeSeconds: 'OldestDueDeliveryAgeSeconds',
  /**
   * 1 for a run that could not carry on the open bulk resends (a replay, "retry all"): their
   * deliveries wait unsent until a run can (an error its retries cannot get past: a missing grant,
   * an unreadable item). Published only then.
   */
  bulkResendNotContinued: 'BulkResendNotContinued',
} as const;

/** Published by the dashboard when money is routed elsewhere (docs/behaviour.md "Payment safety in deployed stages"). */
export const MONEY_ROUTING_METRICS = {
  /** An admin chose another payment provider or Stripe account for a client: its payments now go there. */
  providerAccountChanged: 'ProviderAccountChanged',
} as const;
