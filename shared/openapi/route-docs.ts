/**
 * What the API document says of each operation in words (Markdown): a summary and a description,
 * keyed by route id. Every route of the document has its text here and no other key does: the
 * type checks both (`DocumentedRouteId`). A sync route's scope is added to its description
 * (paths.ts); schemas, examples and errors are in operations.ts.
 */
import type { DocumentedRouteId, Route } from '../../definitions/routes';

export interface RouteDocs {
  /** A few words: the operation's heading. */
  summary: string;
  /** What it does and what a caller must know; a sync route's scope is added to it. */
  description: string;
}

const ROUTE_DOCS: Record<DocumentedRouteId, RouteDocs> = {
  PutRoomCategories: {
    summary: 'Upsert room categories',
    description:
      'Creates or updates room categories by `external_category_id`. The whole request is validated before anything is written; items whose stored content is identical are not rewritten.',
  },
  PutRooms: {
    summary: 'Upsert rooms',
    description:
      'Creates or updates rooms by client + `external_source` + `external_room_id` and links them to synced categories. A new external room whose `room_number` already exists in the client links that room (`linked`) instead of creating a duplicate. Sync categories first.',
  },
  PutBookings: {
    summary: 'Mirror bookings',
    description:
      'Creates or updates external bookings by `external_source` + `external_booking_id`. Overlaps with other active bookings of the same room (of any origin) are reported in `conflicts` and recorded anyway. Synced bookings never emit callbacks. Sync rooms first.',
  },
  PutCheckins: {
    summary: 'Push check-in and check-out activity',
    description:
      'Upserts check-in records by `external_checkin_id`. Per booking the latest new event (by `occurred_at`) moves it to `checked_in` or `checked_out`; a check-out frees the room from the check-out day on. An event older than the latest applied one is recorded but does not change the booking.',
  },
  GetAvailability: {
    summary: 'Rooms available for a stay',
    description:
      'Rooms that are active, have `max_occupancy >= guests`, and have no active booking of any origin (synced, reception, paid order) with check-in before the requested check-out and check-out after the requested check-in. Optional filters narrow the rooms. A room held by an open guest checkout on the booking page (30 minutes from the moment the checkout opens, as long as the checkout can be paid) is not available either. Rooms come in natural room-number order; `categories` counts the available rooms per synced category.',
  },
  PutRatePlans: {
    summary: 'Upsert rate plans',
    description:
      'Creates or updates rate plans by `external_source` + `external_rate_plan_id`. A plan belongs to one synced room category (`external_category_id`, else **422** `UNKNOWN_REFERENCE`); a category may have several. The whole request is validated before anything is written; plans whose stored content is identical are not rewritten. A plan with `active: false` is not sold.',
  },
  PutRates: {
    summary: 'Push prices and restrictions per date',
    description: [
      'Sets the price of a night and the rules of stay of a plan for a date or a range of dates (`days` narrows a range to those weekdays), as deltas: a field left out is left as it is. Updates apply in array order; a later one wins.',
      '',
      '- `sequence` (optional, e.g. your change-log id): a value written with a higher sequence is never overwritten by a lower one; such days are counted in `days_stale`.',
      '- The whole request is validated before anything is written, every problem listed in `details[].path` (such as `updates[4].max_stay`). A range ending before the hotel\'s today, or a date more than 730 days after it: **400**; a range starting before today is clamped to today. At most 500 updates and 20,000 plan-days: **400** `TOO_MANY_ITEMS`. A plan not synced: **422** `UNKNOWN_REFERENCE`.',
      '- `days_changed`, `days_unchanged`, `days_stale` count plan-days by their values after the whole request. Pushing the same values again writes nothing.',
    ].join('\n'),
  },
  GetRates: {
    summary: 'Read back prices and restrictions per date',
    description:
      'Every date of the range (both ends included, at most 366 days) for each plan of `external_source`, or the one named: the price (`price_source: "base"` where no price was pushed: the category\'s `base_price`, or null) and every rule at its value (unset: `min_stay_* 1`, `max_stay 0` (none), flags false).',
  },
  CancelServiceBooking: {
    summary: 'Cancel a booking the service made',
    description: [
      'Cancels a booking the service made (a guest, reception or paid-order booking; its `id` is `booking.id` of the `booking.confirmed` callback) because the guest cancelled it in the PMS. Its nights are free in availability at once, in the same transaction as the status change; the guest gets a cancellation e-mail. The body is optional (`{}` or none at all).',
      '',
      '- **200** with the cancelled booking. Cancelling a cancelled booking answers the same body again (whoever cancelled it first: `cancelled_by`) and changes nothing.',
      '- Nothing is sent back to your callback URL: the change is yours. (A cancel by the hotel\'s staff or by the guest sends `booking.cancelled`.)',
      '- A paid booking\'s payment is not refunded by this call: a refund is the payment partner\'s or the hotel\'s.',
      '- A booking synced by a PMS (yours to cancel with `PUT /bookings`), another client\'s, or an unknown id: **404** `NOT_FOUND`. A `checked_in`, `checked_out` or `no_show` booking: **409** `BOOKING_NOT_CANCELLABLE`.',
    ].join('\n'),
  },
  CreatePaymentOrder: {
    summary: 'Create a payment order',
    description: [
      'Creates a payment order and its hosted checkout; send the guest to `checkout_url`. Call from your server, never from browser code.',
      '',
      '- New `reference`: **201** with `reused: false`.',
      '- Same `reference`, amount and currency again: **200** with the existing order and `reused: true`. If that order is `failed`, `cancelled` or `expired`, a new payment attempt with a new `checkout_url` is made first and the order is `processing` again.',
      '- Same `reference`, other amount or currency: **409** `EXTERNAL_REFERENCE_CONFLICT`.',
      '',
      'Never treat the redirect to your `success_url` as proof of payment: confirm with the status lookup (or a verified `payment_order.paid` webhook).',
    ].join('\n'),
  },
  VerifyPaymentOrder: {
    summary: 'Provider return URL: verify, then redirect the guest',
    description: [
      'Public (no key): the payment provider sends the guest here. The service asks the provider about the current checkout (it never trusts the redirect) and marks the order `paid` only when the provider says paid and amount and currency match. In the same transaction it records the attempt outcome, the provider event and the transaction, mirrors a `room_booking` order with both dates into a confirmed hotel booking, and queues the `booking.confirmed` callback and `payment_order.paid` webhook.',
      '',
      'Then it redirects (303) to `success_url` with `payment=success`, or to `cancel_url` with `payment=failed`, appending `payment_order` and `reference` (both the `order_reference`; an existing query is kept). While the provider still reports the checkout open, the order stays `processing` and the guest goes to `cancel_url`; the order can still be paid and verified later. Verifying a paid order again redirects to success and records nothing twice.',
      '',
      "The provider is asked on the provider and account the order's current attempt was made on, whatever the client's settings are now. A checkout the provider cannot find leaves the order `processing` (the guest goes to `cancel_url`), logged and alarmed.",
      '',
      "The return URL the provider is given carries `return`, a secret of the order's current attempt (the table keeps only its hash). An order made by the service's own guest booking page returns to the guest's confirmation page, which reads and cancels the booking: without that attempt's `return`, verify answers **200** with a page saying whether the payment was received (\"Your payment was received; your confirmation is on its way by e-mail\") and nothing else. A partner's order is redirected as above whatever `return` says.",
    ].join('\n'),
  },
  GetPaymentOrder: {
    summary: 'Payment order status',
    description:
      "The order as it stands, with `paid_at` and the hotel booking it became (`service_booking_sync`). This is how your server confirms a payment. Another client's order is 404, as is a reference the service could not have minted.",
  },
  RefundPaymentOrder: {
    summary: 'Refund a payment order',
    description: [
      'Refunds a paid order, in full or in part, through the provider and account it was paid with (Stripe: its Refunds API, with the refund id as idempotency key). Without `amount_minor`, what is left is refunded.',
      '',
      '- Refunds never add up to more than was paid, however concurrent: **409** `REFUND_EXCEEDS_PAYMENT` (refunds still `pending` count as made).',
      '- An order that is not paid: **409** `ORDER_NOT_PAID`.',
      '- The order becomes `partially_refunded`, then `refunded`; the status lookup shows `amount_refunded_minor` and `refunds`, and a `payment_order.refunded` webhook is sent once a refund succeeds.',
      "- A provider answering `pending` settles the refund later (Stripe's `refund.updated` webhook); a refund that fails gives its amount back to refund again.",
      '- The same `Idempotency-Key` on the same order answers the same refund and never refunds twice.',
      '',
      'A refund does not cancel a booking by itself.',
    ].join('\n'),
  },
  StripeWebhook: {
    summary: 'Stripe webhook',
    description:
      "Public, but only Stripe can sign: the `Stripe-Signature` header is checked over the exact raw body before anything else. For `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed` and `checkout.session.expired` of one of this service's Stripe orders, the order is reconciled by asking Stripe again, exactly as the guest's return does (the event itself never marks an order paid). For `refund.created`, `refund.updated`, `refund.failed`, `charge.refunded` and `charge.refund.updated`, the refunds of this service they name are asked of Stripe again and recorded (a pending refund succeeds or fails; a failed one gives its amount back). Anything else is acknowledged with 200 so Stripe does not retry it; a failure to reconcile answers 5xx so Stripe does.",
  },
  ListDeliveries: {
    summary: 'List your deliveries',
    description:
      "Your deliveries, newest first: a sync key's are the client's callbacks (`booking.*`), a payment key's its webhooks (`payment_order.*`). Filters: `status`, `event`, `since` and `until` (creation times, inclusive). `limit` 1 to 100 (default 50); `next_cursor` (only when more follow) gives the next page with the same filters, and works for no other client or key kind (400 `VALIDATION_ERROR` at `cursor`). A filtered request reads at most 1,000 deliveries: when it stops there it answers the matches found so far (maybe fewer than `limit`, maybe none) and a `next_cursor` to read on from. Deliveries are kept 30 days.",
  },
  GetDelivery: {
    summary: 'One delivery, with the exact body sent',
    description:
      'The delivery with every attempt (time, HTTP status, duration, error) and `body`: the exact bytes every attempt sends and a retry sends again. Another client\'s delivery, one of the other key kind, or one older than 30 days is 404.',
  },
  RetryDelivery: {
    summary: 'Send one delivery again',
    description:
      'Sends the delivery again under its own id (`X-Service-Delivery`, `webhook-id`) with the same body, whatever its status: it becomes `pending` and is attempted shortly, with the usual retries. A `pending` delivery is on its way already and is left as it is.',
  },
  ReplayDeliveries: {
    summary: 'Replay deliveries of a time range',
    description:
      'Sends again every one of your deliveries created between `since` and `until` (inclusive) with one of `status` (default: all but `pending`, which are on their way) and one of `event` (default: all), each under its own id with its own body. Answers at once with how many are `queued`: the request does bounded work and the service sends the rest at its own pace (thousands a minute). Each is accepted once by a receiver that deduplicates on the delivery id.',
  },
  SandboxCheckoutPage: {
    summary: 'Sandbox hosted checkout page',
    description:
      "The sandbox provider's hosted page (`checkout_url`), on the sandbox's own origin: amount, currency and customer, and a form that POSTs `outcome` = `paid`, `cancelled` or `failed` to the same URL. A completed or expired session shows its state instead of the buttons.",
  },
  SandboxCheckoutSubmit: {
    summary: 'Sandbox checkout outcome',
    description:
      "The hosted page's form: records the tester's choice (once; a completed session keeps its first outcome) and redirects (303) the guest to the service's verify URL, on the API's origin.",
  },
};

/** The route's text, or undefined for a route the document leaves out (a page for people). */
export function docsOfRoute(route: Pick<Route, 'id'>): RouteDocs | undefined {
  return Object.hasOwn(ROUTE_DOCS, route.id) ? ROUTE_DOCS[route.id as DocumentedRouteId] : undefined;
}
