/**
 * Response bodies and event payloads, as zod schemas, for the OpenAPI document
 * (shared/openapi/document.ts). They describe exactly what the functions answer and what the
 * callback sender posts (snake_case, `null` where the service writes null). No function
 * validates its answers with these; the integration test openapi-responses.test.ts checks real
 * answers against the document built from them, and test/unit/openapi.test.ts checks their
 * field names against the functions' return types.
 *
 * zod/mini, like every schema here (common.ts says why), and free of the OpenAPI generator.
 */
import * as z from 'zod/mini';
import { CHANGE_SOURCES } from './bookings';
import { calendarDate } from './common';
import { BOOKING_STATUSES, PAYMENT_STATUSES } from './booking-statuses';
import { RESTRICTIONS } from './rate-fields';
import { SANDBOX_OUTCOMES } from './payments';

// ---- shared pieces

/** A copy of `schema` with OpenAPI metadata (classic zod's `.meta()`): a shared piece keeps its own. */
function described<T extends z.ZodMiniType>(schema: T, metadata: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy as z.ZodMiniType, metadata);
  return copy;
}

/** Ids the service mints: UUIDs (random, or name-based version 5 for synced records). */
export const serviceId = described(z.uuid(), { description: 'An id the service minted (UUID).' });

/** Every timestamp the service writes: ISO 8601 UTC with `Z`. */
export const utcTimestamp = described(z.iso.datetime(), { description: 'ISO 8601 UTC timestamp with `Z`.', example: '2027-06-01T12:00:00.000Z' });

// ---- errors

export const errorDetail = described(
  z.object({
    path: described(z.string(), { description: 'Where the problem is, e.g. `rooms[3].price`, `headers.Idempotency-Key` or `(root)`.' }),
    message: z.string(),
  }),
  { description: 'One problem of a request.' },
);

/**
 * The envelope of every error (docs/behaviour.md "Errors"), restricted to the codes one
 * response can carry.
 */
export function errorEnvelope(codes: readonly [string, ...string[]]) {
  return z.object({
    error: z.object({
      code: z.enum(codes),
      message: z.string(),
      request_id: z.string(),
      details: z.optional(z.array(errorDetail)),
    }),
  });
}

/** The same envelope with every code and the meaning of each field (a component of the document). */
export function describedErrorEnvelope(code: z.core.$ZodType<string>) {
  return described(
    z.object({
      error: z.object({
        code,
        message: described(z.string(), { description: 'Human-readable; may change. Never a stack trace or an internal message.' }),
        request_id: described(z.string(), { description: 'The same value as the `X-Request-Id` response header and in the service logs; quote it in support requests.' }),
        details: described(z.optional(z.array(errorDetail)), {
          description: 'On validation errors (and `UNKNOWN_REFERENCE`, `ROOM_NUMBER_CONFLICT`, `RETURN_URL_NOT_ALLOWED`, `TOO_MANY_ITEMS`): one entry per problem.',
        }),
      }),
    }),
    { description: 'The body of every error. Each response of each operation lists the codes it can carry.' },
  );
}

// ---- Area A: sync writes

export const SYNC_ACTIONS = ['created', 'updated', 'unchanged', 'linked'] as const;

const syncCounts = {
  external_source: described(z.string(), { description: 'Echo of the request\'s `external_source`.' }),
  received: described(z.number().check(z.int(), z.minimum(0)), { description: 'Items in the request.' }),
  created: z.number().check(z.int(), z.minimum(0)),
  updated: described(z.number().check(z.int(), z.minimum(0)), { description: 'Updated items, including rooms linked by room number.' }),
  unchanged: described(z.number().check(z.int(), z.minimum(0)), { description: 'Items whose stored content was identical; not rewritten.' }),
};

const upsertAction = z.enum(['created', 'updated', 'unchanged']);

export const categorySyncItem = z.object({ external_category_id: z.string(), id: serviceId, action: upsertAction });
export const roomSyncItem = z.object({
  external_room_id: z.string(),
  id: serviceId,
  action: described(z.enum(SYNC_ACTIONS), { description: '`linked`: an existing room of the same `room_number` got this external id.' }),
});
export const bookingSyncItem = z.object({ external_booking_id: z.string(), id: serviceId, action: upsertAction });
export const checkinSyncItem = z.object({ external_checkin_id: z.string(), id: serviceId, action: upsertAction });

export const bookingConflict = described(
  z.object({
    external_booking_id: z.string(),
    room_id: serviceId,
    overlapping_booking_id: described(serviceId, { description: 'The other active booking (of any origin) holding the room for overlapping nights.' }),
  }),
  { description: 'An overlap with another active booking of the same room; the booking is recorded anyway.' },
);

export const categorySyncResult = z.object({ ...syncCounts, items: z.array(categorySyncItem) });
export const roomSyncResult = z.object({ ...syncCounts, items: z.array(roomSyncItem) });
export const bookingSyncResult = z.object({ ...syncCounts, items: z.array(bookingSyncItem), conflicts: z.array(bookingConflict) });
export const checkinSyncResult = z.object({ ...syncCounts, items: z.array(checkinSyncItem) });

// ---- Area A: availability

export const categorySummary = z.object({
  external_category_id: z.string(),
  name: z.string(),
  base_price: described(z.nullable(z.number()), { description: '`null` when the category was synced without a base price.' }),
});

/** A stay on one rate plan (docs/behaviour.md "Rates and restrictions per date"). */
export const ratePlanOnStay = z.object({
  external_rate_plan_id: z.string(),
  name: z.string(),
  bookable: described(z.boolean(), { description: 'No rule of the plan refuses the stay.' }),
  total: described(z.number(), { description: 'The sum of the nights\' prices, in the client\'s currency.' }),
  nights: z.array(z.object({ date: calendarDate, price: described(z.number(), { description: 'The pushed price of the night, else the category\'s base price, else the room\'s price.' }) })),
  blocked_by: described(z.array(z.object({ date: calendarDate, restriction: z.enum(RESTRICTIONS) })), {
    description: 'Every rule that refuses the stay, by the date it is set on; `[]` for a bookable plan.',
  }),
});
const ratePlansOnStay = described(z.optional(z.array(ratePlanOnStay)), {
  description: 'Every active rate plan of the room\'s category, bookable or not, cheapest bookable first. Absent for a category without plans (sold as before: `price` each night).',
});

export const availableRoom = z.object({
  id: serviceId,
  room_number: z.string(),
  room_type: z.string(),
  price: described(z.number(), { description: 'Decimal, in the client\'s currency.' }),
  max_occupancy: z.number().check(z.int()),
  external_source: described(z.nullable(z.string()), { description: '`null` for a room set up in the service and never linked by a sync.' }),
  external_room_id: z.nullable(z.string()),
  external_category_id: z.nullable(z.string()),
  category: described(z.nullable(categorySummary), { description: 'The synced category of the room, or `null`.' }),
  rate_plans: ratePlansOnStay,
});

export const availabilityResult = z.object({
  check_in_date: calendarDate,
  check_out_date: calendarDate,
  nights: z.number().check(z.int(), z.minimum(1)),
  guests: z.number().check(z.int(), z.minimum(1)),
  available_rooms: described(z.array(availableRoom), { description: 'In natural room-number order.' }),
  categories: z.array(z.extend(categorySummary, { available_count: z.number().check(z.int(), z.minimum(1)), rate_plans: ratePlansOnStay })),
});

// ---- Area A: rates and restrictions per date

export const rateSyncResult = z.object({
  ...syncCounts,
  items: z.array(z.object({ external_rate_plan_id: z.string(), id: serviceId, action: upsertAction })),
});

const dayCount = (description: string) => described(z.number().check(z.int(), z.minimum(0)), { description });
export const ratesPushResult = z.object({
  external_source: z.string(),
  received: dayCount('Updates in the request.'),
  days_changed: dayCount('Plan-days whose values differ after the request.'),
  days_unchanged: dayCount('Plan-days whose values end as stored, whichever updates touched them.'),
  days_stale: dayCount('Plan-days left as stored because a value there was set with a higher `sequence`.'),
});

export const rateDay = z.object({
  price: described(z.nullable(z.number()), { description: 'The pushed price, else the category\'s base price (`null` when it has none).' }),
  price_source: z.enum(['rate', 'base']),
  min_stay_arrival: z.number().check(z.int()),
  min_stay_through: z.number().check(z.int()),
  max_stay: described(z.number().check(z.int()), { description: '0: none.' }),
  closed_to_arrival: z.boolean(),
  closed_to_departure: z.boolean(),
  stop_sell: z.boolean(),
});
export const ratesReadResult = z.object({
  rate_plans: described(z.record(z.string(), z.record(z.string(), rateDay)), { description: 'By `external_rate_plan_id`, then by date: every date of the range.' }),
});

// ---- Area A: a PMS cancelling a booking the service made

export const cancelledServiceBooking = z.object({
  booking_id: serviceId,
  booking_reference: z.nullable(z.string()),
  status: described(z.literal('cancelled'), { description: 'Always `cancelled`: a first cancel and every repeat answer the same body.' }),
  cancellation_reason: described(z.nullable(z.string()), { description: 'The reason given with the first cancel (by whoever cancelled), or `null`.' }),
  cancelled_at: described(utcTimestamp, { description: 'When the booking was first cancelled.' }),
  cancelled_by: described(z.enum(CHANGE_SOURCES), { description: 'Who cancelled it first: `pms` (this API), `staff` (the hotel dashboard or operator CLI), or `guest` (from their confirmation page).' }),
  room_id: described(z.nullable(serviceId), { description: 'The room whose nights it held, free again since the cancel; `null` when it had none.' }),
  check_in_date: calendarDate,
  check_out_date: calendarDate,
});

// ---- Area B: payment orders

export const ORDER_STATUSES = ['processing', 'paid', 'failed', 'cancelled', 'expired', 'partially_refunded', 'refunded'] as const;
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export const BOOKING_SYNC_STATUSES = ['synced', 'not_applicable', 'failed'] as const;
export const ROOM_ASSIGNMENTS = ['locked', 'manual'] as const;

const orderReference = described(z.string().check(z.regex(/^PO-[A-Z0-9]{12}$/)), { description: 'The service\'s own reference of the order.', example: 'PO-7KQ2M9XR4TLP' });
const orderStatus = z.enum(ORDER_STATUSES);
const provider = described(z.enum(PAYMENT_PROVIDERS), { description: 'The payment provider of the current attempt.' });

export const paymentOrderCreated = z.object({
  payment_order_id: serviceId,
  order_reference: orderReference,
  external_reference: described(z.string(), { description: 'Echo of the request\'s `reference`.' }),
  status: described(orderStatus, { description: '`processing` for a new order or a new attempt; a reused order answers its current status.' }),
  amount_minor: z.number().check(z.int()),
  amount: described(z.number(), { description: 'Amount in major units (`amount_minor` / 10^minor units of the currency).' }),
  currency: z.string(),
  provider,
  provider_reference: described(z.string(), { description: 'The provider\'s reference of the checkout (sandbox `sbx_…`, Stripe Checkout Session `cs_…`).' }),
  checkout_url: described(z.url(), { description: 'Hosted checkout: send the guest here.' }),
  reused: described(z.boolean(), { description: '`true` when an existing order of the same `reference`, amount and currency was returned (HTTP 200).' }),
});

export const serviceBookingSync = z.object({
  status: described(z.enum(BOOKING_SYNC_STATUSES), {
    description: '`synced`: a paid `room_booking` order with both stay dates became a confirmed hotel booking; `not_applicable`: not paid yet, or not a room booking.',
  }),
  booking_id: z.nullable(serviceId),
  booking_reference: z.nullable(z.string()),
  confirmation_code: z.nullable(z.string()),
  room_id: described(z.nullable(serviceId), { description: 'The locked room, or `null` when the booking awaits manual room assignment.' }),
  room_assignment: described(z.nullable(z.enum(ROOM_ASSIGNMENTS)), { description: '`locked`: `context.service_room_id` was free and is held; `manual`: recorded for manual room assignment.' }),
  below_rate: described(z.boolean(), {
    description:
      "`true` when the order paid less than its room's rate total (price x nights, in the hotel's currency) or in another currency than the hotel's. The hotel's `below_rate_orders` setting decides whether such a booking may lock its room.",
  }),
  room_assignment_reason: described(z.nullable(z.enum(['below_rate'])), {
    description: "`below_rate`: the booking was paid below its rate and the hotel's setting leaves it for staff to assign a room; otherwise `null`.",
  }),
});

export const REFUND_STATUSES = ['succeeded', 'pending', 'failed'] as const;

export const paymentOrderRefund = z.object({
  refund_id: serviceId,
  amount_minor: described(z.number().check(z.int(), z.minimum(1)), { description: 'Refunded amount in the order\'s minor units.' }),
  currency: z.string(),
  status: described(z.enum(REFUND_STATUSES), {
    description: '`succeeded`; `pending` while the provider settles it (it then succeeds or fails); `failed`: nothing was refunded and its amount can be refunded again.',
  }),
  created_at: utcTimestamp,
});

export const paymentOrderStatus = z.object({
  payment_order_id: serviceId,
  order_reference: orderReference,
  external_reference: z.string(),
  status: orderStatus,
  amount_minor: z.number().check(z.int()),
  currency: z.string(),
  provider,
  provider_reference: z.string(),
  paid_at: described(z.nullable(utcTimestamp), { description: 'When the provider\'s payment was verified; `null` until paid.' }),
  service_booking_sync: serviceBookingSync,
  amount_refunded_minor: described(z.number().check(z.int(), z.minimum(0)), { description: 'What succeeded refunds gave back, in minor units (0 without refunds).' }),
  refunds: described(z.array(paymentOrderRefund), { description: 'The order\'s refunds, oldest first.' }),
});

export const stripeWebhookReceived = z.object({ received: z.literal(true) });

/** The sandbox hosted page's form (functions/sandbox-checkout.ts reads `outcome` from it). */
export const sandboxCheckoutForm = z.object({
  outcome: described(z.enum(SANDBOX_OUTCOMES), { description: 'The tester\'s choice.' }),
});

// ---- outbound events (signed POSTs to the client's callback / webhook URL)

/** Strings the booking does not have are sent as "" (the spec types them as strings). */
const textOrEmpty = (description?: string) => (description ? described(z.string(), { description }) : z.string());

const eventBooking = z.object({
  id: serviceId,
  booking_reference: z.string(),
  confirmation_code: z.string(),
  guest_name: z.string(),
  guest_email: textOrEmpty('E-mail address of the guest.'),
  guest_phone: textOrEmpty('E.164 phone number, or "" when the booking has none.'),
  guests: z.number().check(z.int(), z.minimum(1)),
  check_in_date: calendarDate,
  check_out_date: calendarDate,
  total_amount: described(z.number(), { description: 'Decimal in the client\'s currency (a paid order: its amount in major units).' }),
  status: described(z.enum(BOOKING_STATUSES), { description: 'The booking\'s status after the event: `confirmed` (confirmed, modified), `cancelled`, `no_show`.' }),
  payment_status: z.enum(PAYMENT_STATUSES),
  payment_method: textOrEmpty('The payment provider of a paid order (`sandbox`, `stripe`), or "" for a reception booking.'),
  gateway_reference: textOrEmpty('The provider payment reference of a paid order, or "" for a reception booking.'),
  sequence: described(z.number().check(z.int(), z.minimum(1)), {
    description:
      'Grows strictly with each event of this booking (1 for its first `booking.confirmed`). Deliveries may arrive out of order or again: keep the highest sequence seen per `booking.id` and ignore an event with a lower one.',
  }),
});

const eventRoom = described(
  z.nullable(
    z.object({
      id: serviceId,
      room_number: z.string(),
      room_type: z.string(),
      external_source: textOrEmpty('"" when the room was never linked by a sync.'),
      external_room_id: textOrEmpty(),
      external_category_id: textOrEmpty(),
    }),
  ),
  { description: '`null` when a paid booking awaits manual room assignment (no free room was named).' },
);

/** A booking event's body: the booking.confirmed payload with its event name (docs/behaviour.md "Booking changes, cancellations and refunds"). */
function bookingEvent<E extends string>(event: E) {
  return z.object({
    event: z.literal(event),
    created_at: utcTimestamp,
    hotel_id: described(serviceId, { description: 'The client (hotel) id; the same value as the `X-Service-Client` header.' }),
    booking: eventBooking,
    room: eventRoom,
  });
}

export const bookingConfirmedPayload = bookingEvent('booking.confirmed');
export const bookingModifiedPayload = bookingEvent('booking.modified');
export const bookingCancelledPayload = z.object({
  event: z.literal('booking.cancelled'),
  created_at: utcTimestamp,
  hotel_id: described(serviceId, { description: 'The client (hotel) id; the same value as the `X-Service-Client` header.' }),
  booking: z.extend(eventBooking, {
    cancellation_reason: textOrEmpty('Why it was cancelled, as staff or the guest gave it; "" when no reason was given.'),
  }),
  room: eventRoom,
});
export const bookingNoShowPayload = bookingEvent('booking.no_show');

export const paymentOrderPaidPayload = z.object({
  event: z.literal('payment_order.paid'),
  payment_order: z.object({
    order_reference: orderReference,
    external_reference: z.string(),
    status: z.literal('paid'),
    amount_minor: z.number().check(z.int()),
    currency: z.string(),
  }),
});

export const paymentOrderRefundedPayload = z.object({
  event: z.literal('payment_order.refunded'),
  payment_order: z.object({
    order_reference: orderReference,
    external_reference: z.string(),
    status: described(z.enum(['paid', 'partially_refunded', 'refunded']), { description: 'The order\'s status after the refund (`paid` again only after a refund failed later).' }),
    amount_minor: z.number().check(z.int()),
    amount_refunded_minor: described(z.number().check(z.int()), { description: 'All succeeded refunds of the order, this one included.' }),
    currency: z.string(),
  }),
  refund: z.object({ refund_id: serviceId, amount_minor: z.number().check(z.int(), z.minimum(1)) }),
});
