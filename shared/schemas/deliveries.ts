/**
 * The statuses of an outbound delivery (a callback or webhook), declared once: the store types
 * its records with them, the dashboard filters by them, the operator CLI offers them as choices.
 */
import * as z from 'zod/mini';
import { identifier, timestamp } from './common';

/** Every status, in the order operators read them. */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'needs_review'] as const;

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What an operator retries: the automatic attempts are over, or the receiver refused the event. */
export const RETRYABLE_DELIVERY_STATUSES = ['failed', 'needs_review'] as const satisfies readonly DeliveryStatus[];

export type RetryableDeliveryStatus = (typeof RETRYABLE_DELIVERY_STATUSES)[number];

/** Waiting for an attempt: on the queue, or due again after a failed one. */
export const WAITING_DELIVERY_STATUSES = ['pending', 'retrying'] as const satisfies readonly DeliveryStatus[];

// ---- the deliveries API (docs/behaviour.md "Receivers in control")


/** The events a delivery can carry: `booking.*` callbacks and `payment_order.*` webhooks. */
const eventName = z.string().check(z.regex(/^(booking|payment_order)\.[a-z_]{1,40}$/, 'must be an event name such as booking.confirmed'));
const status = z.enum(DELIVERY_STATUSES);
/** Query strings are text: `limit` a plain whole number from 1 to 100. */
const limitParam = z.pipe(z.string().check(z.regex(/^(100|[1-9]\d?)$/, 'must be a whole number from 1 to 100')), z.transform(Number));

export const listDeliveriesQuery = z.object({
  status: z.optional(status),
  event: z.optional(eventName),
  since: z.optional(timestamp),
  until: z.optional(timestamp),
  limit: z.optional(limitParam),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(1024))),
});
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;

export const deliveryIdParam = z.object({ delivery_id: z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'not a delivery id')) });

export const replayDeliveriesBody = z.object({
  since: timestamp,
  until: timestamp,
  status: z.optional(z.array(status).check(z.minLength(1), z.maxLength(DELIVERY_STATUSES.length))),
  event: z.optional(z.array(eventName).check(z.minLength(1), z.maxLength(20))),
});
export type ReplayDeliveriesBody = z.infer<typeof replayDeliveriesBody>;

const attempt = z.object({
  at: timestamp,
  status_code: z.nullable(z.number()),
  duration_ms: z.number(),
  error: z.nullable(z.string()),
});

export const deliverySummary = z.object({
  delivery_id: identifier,
  event: z.string(),
  status,
  created_at: timestamp,
  attempts: z.array(attempt),
});

export const deliveryDetail = z.object({
  ...deliverySummary.shape,
  updated_at: timestamp,
  next_attempt_at: z.nullable(timestamp),
  /** The exact bytes every attempt sends (and a retry sends again). */
  body: z.string(),
});

export const deliveryList = z.object({ deliveries: z.array(deliverySummary), next_cursor: z.optional(z.string()) });
export const deliveryRetried = z.object({ delivery_id: identifier, status });
export const deliveriesReplayed = z.object({ queued: z.number() });
