/**
 * The statuses of an outbound delivery (a callback or webhook), declared once: the store types
 * its records with them, the dashboard filters by them, the operator CLI offers them as choices.
 */

/** Every status, in the order operators read them. */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'needs_review'] as const;

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What an operator retries: the automatic attempts are over, or the receiver refused the event. */
export const RETRYABLE_DELIVERY_STATUSES = ['failed', 'needs_review'] as const satisfies readonly DeliveryStatus[];

export type RetryableDeliveryStatus = (typeof RETRYABLE_DELIVERY_STATUSES)[number];

/** Waiting for an attempt: on the queue, or due again after a failed one. */
export const WAITING_DELIVERY_STATUSES = ['pending', 'retrying'] as const satisfies readonly DeliveryStatus[];
