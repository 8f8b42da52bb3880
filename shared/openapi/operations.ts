/**
 * What the document says of each route beyond its text (which is in route-docs.ts): tag, request
 * and response schemas with examples, and the error codes and examples particular to it. Keyed by
 * route id; a route without an entry fails the build.
 */
import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { Route } from '../../definitions/routes';
import { MAX_SYNC_ITEMS } from '../config';
import { MAX_ITEM_BYTES, MAX_STAY_NIGHTS } from '../schemas/common';
import { cancelServiceBookingBody, serviceBookingIdParam } from '../schemas/bookings';
import { orderReferenceParam, paymentOrderRequest, refundRequest, verifyQuery } from '../schemas/payments';
import { availabilityQuery, putBookingsBody, putCategoriesBody, putCheckinsBody, putRoomsBody } from '../schemas/property-sync';
import {
  availabilityResult,
  bookingSyncResult,
  cancelledServiceBooking,
  categorySyncResult,
  checkinSyncResult,
  paymentOrderCreated,
  paymentOrderRefund,
  paymentOrderStatus,
  roomSyncResult,
  sandboxCheckoutForm,
  stripeWebhookReceived,
} from '../schemas/responses';
import { classic } from './classic';
import { DELIVERY_OPERATIONS } from './delivery-operations';
import { RATE_OPERATIONS } from './rate-operations';
import type { ErrorCode } from './error-codes';
import { examples, LOCAL, ORDER_REF, SANDBOX_REF } from './examples';
import type { AnySchema } from './schemas';

export type Tag = 'Property sync' | 'Payment orders' | 'Deliveries' | 'Sandbox provider' | 'Provider webhooks';

export const TAGS: { name: Tag; description: string }[] = [
  { name: 'Property sync', description: 'Area A: a PMS server with a scoped sync key pushes categories, rooms, bookings and check-in activity, and reads availability.' },
  { name: 'Payment orders', description: 'Area B: a partner server with a payment key creates payment orders paid on a hosted checkout, then confirms them with the status lookup.' },
  { name: 'Deliveries', description: 'Your callbacks (sync keys) or webhooks (payment keys) as the service sent them: list, read, send one again, replay a time range. Keys need `deliveries:read` or `deliveries:write`.' },
  { name: 'Sandbox provider', description: 'The sandbox payment provider\'s hosted checkout (the local default): an HTML page and its form, on an origin of its own as a provider\'s checkout is (see each operation\'s servers). Called by the guest\'s browser.' },
  { name: 'Provider webhooks', description: 'Events from payment providers (public routes, signature-checked).' },
];

export interface ErrorNote {
  code: ErrorCode;
  /** What triggers it on this route (else the catalogue's meaning). */
  when?: string;
}

export interface Operation {
  tag: Tag;
  request?: RouteConfig['request'];
  /** Success (and redirect) responses; headers common to the route are added. */
  responses: Record<number, ResponseConfig>;
  /** Error codes of this route beyond those every route of its kind has (see commonErrors). */
  errors?: ErrorNote[];
  /** The request body is JSON parsed by the handler (INVALID_JSON, 415, VALIDATION_ERROR). */
  jsonBody?: boolean;
  /** When the body's VALIDATION_ERROR has a route-specific description. */
  bodyValidation?: string;
  /** Examples of error bodies, by code (else the catalogue's message). */
  errorExamples?: Partial<Record<ErrorCode, { message: string; details?: { path: string; message: string }[] }>>;
}

export const json = (schema: AnySchema | object, example: unknown) => ({
  'application/json': { schema: '_zod' in schema ? classic(schema as AnySchema) : (schema as z.ZodType), example },
});

const syncWriteErrors = (array: string, references?: string): ErrorNote[] => [
  { code: 'TOO_MANY_ITEMS', when: `More than ${MAX_SYNC_ITEMS} items in \`${array}\`. Nothing is written.` },
  { code: 'VALIDATION_ERROR', when: `Two items of \`${array}\` share an external id. Nothing is written.` },
  { code: 'VALIDATION_ERROR', when: `An item is over ${MAX_ITEM_BYTES / 1024} KiB of JSON (\`path\` \`${array}[i]\`). Nothing is written.` },
  ...(references ? [{ code: 'UNKNOWN_REFERENCE' as const, when: references }] : []),
];

const syncWrite = (
  result: AnySchema,
  resultExample: unknown,
  body: AnySchema,
  bodyExample: unknown,
  invalidField: { path: string; message: string },
) => ({
  tag: 'Property sync' as const,
  jsonBody: true,
  errorExamples: { VALIDATION_ERROR: { message: 'The request body is not valid', details: [invalidField] } },
  request: { body: { required: true, content: json(body, bodyExample) } },
  responses: {
    200: {
      description: 'Applied. `items` has one entry per request item, in request order, with the service id and what happened to it.',
      content: json(result, resultExample),
    },
  },
});

export const OPERATIONS: Record<string, Operation> = {
  ...DELIVERY_OPERATIONS,
  ...RATE_OPERATIONS,
  PutRoomCategories: {
    ...syncWrite(
      categorySyncResult,
      examples.categoriesResult,
      putCategoriesBody,
      examples.categoriesRequest,
      { path: 'categories[0].max_occupancy', message: 'Too small: expected number to be >=1' },
    ),
    errors: syncWriteErrors('categories'),
  },
  PutRooms: {
    ...syncWrite(
      roomSyncResult,
      examples.roomsResult,
      putRoomsBody,
      examples.roomsRequest,
      { path: 'rooms[3].price', message: 'Too small: expected number to be >=0' },
    ),
    errors: [
      ...syncWriteErrors('rooms', 'A room names an `external_category_id` not synced for this `external_source`. Nothing is written.'),
      { code: 'ROOM_NUMBER_CONFLICT' },
    ],
  },
  PutBookings: {
    ...syncWrite(
      bookingSyncResult,
      examples.bookingsResult,
      putBookingsBody,
      examples.bookingsRequest,
      { path: 'bookings[0].check_out_date', message: 'must be after check_in_date' },
    ),
    errors: syncWriteErrors('bookings', 'A booking names an `external_room_id` not synced for this `external_source`. Nothing is written.'),
  },
  PutCheckins: {
    ...syncWrite(
      checkinSyncResult,
      examples.checkinsResult,
      putCheckinsBody,
      examples.checkinsRequest,
      { path: 'checkins[1].event', message: 'Invalid option: expected one of "check_in"|"check_out"' },
    ),
    errors: syncWriteErrors(
      'checkins',
      'A record names an `external_booking_id` (or `external_room_id`) not synced for this `external_source`. Nothing is written.',
    ),
  },
  GetAvailability: {
    tag: 'Property sync',
    request: { query: classic<z.ZodObject>(availabilityQuery) },
    responses: { 200: { description: 'The available rooms.', content: json(availabilityResult, examples.availability) } },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when: `A query parameter is missing or invalid, \`check_out_date\` is not after \`check_in_date\`, the range is over ${MAX_STAY_NIGHTS} nights, or \`guests\` is not a whole number from 1.`,
      },
    ],
    errorExamples: {
      VALIDATION_ERROR: { message: 'The request query is not valid', details: [{ path: 'check_out_date', message: 'must be after check_in_date' }] },
    },
  },
  CancelServiceBooking: {
    tag: 'Property sync',
    jsonBody: true,
    bodyValidation: '`reason` is not a string of 1 to 2,000 characters.',
    request: {
      params: classic<z.ZodObject>(serviceBookingIdParam),
      body: { required: false, content: json(cancelServiceBookingBody, { reason: 'Guest cancelled by phone' }) },
    },
    responses: {
      200: { description: 'The cancelled booking; a repeated cancel answers the same body.', content: json(cancelledServiceBooking, examples.cancelledBooking) },
    },
    errors: [
      { code: 'NOT_FOUND', when: 'No booking the service made has this id for your client (a PMS-synced booking, another client\'s, an unknown id).' },
      { code: 'BOOKING_NOT_CANCELLABLE', when: 'The booking is `checked_in`, `checked_out` or `no_show`.' },
    ],
    errorExamples: {
      NOT_FOUND: { message: 'Not found' },
      BOOKING_NOT_CANCELLABLE: { message: 'Booking e5d4c3b2-a1f0-5e9d-8c7b-6a5f4e3d2c1b is checked_in; only a booking not yet checked in can be cancelled' },
    },
  },
  CreatePaymentOrder: {
    tag: 'Payment orders',
    jsonBody: true,
    bodyValidation: `Any other field does not match the schema (\`details[]\` names each problem); a return URL is not https outside local runs; the stay dates in \`context\` are not 1 to ${MAX_STAY_NIGHTS} nights apart.`,
    request: { body: { required: true, content: json(paymentOrderRequest, examples.orderRequest) } },
    responses: {
      201: { description: 'A new order (`reused: false`).', content: json(paymentOrderCreated, examples.orderCreated) },
      200: {
        description: 'The existing order of this `reference` (`reused: true`); a `failed`, `cancelled` or `expired` one got a new attempt and `checkout_url`.',
        content: json(paymentOrderCreated, { ...examples.orderCreated, reused: true }),
      },
    },
    errors: [
      {
        code: 'VALIDATION_ERROR',
        when: "A field is not valid: among others a `reference` starting `guest:` (the service's own guest booking page's), or a `customer.name` with a control character (a line break) or a web address (`http://`, `https://`, `www.`).",
      },
      { code: 'INVALID_AMOUNT' },
      { code: 'UNSUPPORTED_CURRENCY' },
      { code: 'CUSTOMER_EMAIL_REQUIRED' },
      { code: 'RETURN_URL_NOT_ALLOWED' },
      { code: 'EXTERNAL_REFERENCE_CONFLICT' },
      { code: 'PROVIDER_NOT_CONFIGURED', when: 'The client has no payment provider (in a stage without the sandbox), or its Stripe setup is incomplete.' },
      { code: 'PROVIDER_REJECTED' },
    ],
    errorExamples: {
      VALIDATION_ERROR: { message: 'The request body is not valid', details: [{ path: 'success_url', message: 'Invalid URL' }] },
    },
  },
  VerifyPaymentOrder: {
    tag: 'Payment orders',
    request: { query: classic<z.ZodObject>(verifyQuery) },
    responses: {
      200: {
        description:
          "An order the service's guest booking page made, verified without its checkout's return secret (only the provider's redirect of that checkout carries it): a page saying whether the payment was received, with neither the guest's details nor a link to the booking.",
        headers: {
          'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } },
          'Content-Security-Policy': { description: 'No script, no framing.', schema: { type: 'string' } },
        },
        content: {
          'text/html': {
            schema: { type: 'string' } as never,
            example: '<!doctype html><html lang="en">…<h1>Payment received</h1><p>Your payment was received; your confirmation is on its way by e-mail.</p>…</html>',
          },
        },
      },
      303: {
        description: 'To `success_url` (`payment=success`) or `cancel_url` (`payment=failed`). The body is empty.',
        headers: {
          Location: {
            description: 'The return URL with `payment`, `payment_order` and `reference` appended.',
            required: true,
            schema: { type: 'string', format: 'uri' },
            example: `https://partner.example/paid?payment=success&payment_order=${ORDER_REF}&reference=${ORDER_REF}`,
          },
          'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } },
        },
      },
    },
    errors: [
      { code: 'VALIDATION_ERROR', when: '`reference` is missing, empty or longer than 128 characters.' },
      { code: 'PAYMENT_ORDER_NOT_FOUND', when: 'No order has this reference (no redirect).' },
      { code: 'PROVIDER_NOT_CONFIGURED', when: "The attempt's Stripe account no longer allows retrieving the checkout, or the attempt was made on the sandbox provider and this stage does not run it." },
      { code: 'PROVIDER_REJECTED', when: 'Stripe refused the retrieval of the checkout.' },
    ],
  },
  GetPaymentOrder: {
    tag: 'Payment orders',
    request: { params: classic<z.ZodObject>(orderReferenceParam) },
    responses: { 200: { description: 'The order.', content: json(paymentOrderStatus, examples.orderStatus) } },
    errors: [{ code: 'PAYMENT_ORDER_NOT_FOUND' }],
  },
  RefundPaymentOrder: {
    tag: 'Payment orders',
    jsonBody: true,
    // Optional: without a body (or with `{}`) the whole amount left is refunded.
    request: { params: classic<z.ZodObject>(orderReferenceParam), body: { required: false, content: json(refundRequest, examples.refundRequest) } },
    responses: {
      201: {
        description: 'The refund, as the provider answered it: `succeeded`, `pending` (settled later) or `failed` (its amount can be refunded again). The same Idempotency-Key on this order answers this refund again.',
        content: json(paymentOrderRefund, examples.refundCreated),
      },
    },
    errors: [
      { code: 'INVALID_AMOUNT', when: '`amount_minor` is not a whole number from 1 to 10^12.' },
      { code: 'PAYMENT_ORDER_NOT_FOUND' },
      { code: 'ORDER_NOT_PAID' },
      { code: 'REFUND_EXCEEDS_PAYMENT' },
      { code: 'PROVIDER_NOT_CONFIGURED', when: "The order was paid on the sandbox provider and this stage does not run it, or the order's Stripe account no longer allows refunds." },
    ],
  },
  SandboxCheckoutPage: {
    tag: 'Sandbox provider',
    request: { params: z.object({ provider_reference: z.string().min(1).max(128).meta({ param: { description: 'The sandbox checkout session (`provider_reference`).' }, example: SANDBOX_REF }) }) },
    responses: {
      200: {
        description: 'The page.',
        headers: {
          'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } },
          'Content-Security-Policy': { description: 'No script, no framing, only the page\'s own inline style (by its hash).', schema: { type: 'string' } },
          'X-Frame-Options': { schema: { type: 'string', enum: ['DENY'] } },
        },
        content: {
          'text/html': {
            schema: { type: 'string' } as never,
            example: '<!doctype html>\n<html lang="en">…<form method="post" action="sbx_…"><button name="outcome" value="paid">Pay</button>…</form>…</html>',
          },
        },
      },
    },
    errors: [{ code: 'NOT_FOUND', when: 'No such checkout session.' }],
    errorExamples: { NOT_FOUND: { message: 'No such checkout session' } },
  },
  SandboxCheckoutSubmit: {
    tag: 'Sandbox provider',
    request: {
      params: z.object({ provider_reference: z.string().min(1).max(128).meta({ param: { description: 'The sandbox checkout session (`provider_reference`).' }, example: SANDBOX_REF }) }),
      body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: classic(sandboxCheckoutForm), example: { outcome: 'paid' } } } },
    },
    responses: {
      303: {
        description: 'To `{base}/api/v1/payments/payment-orders/verify?reference={order_reference}`. The body is empty.',
        headers: {
          Location: {
            description: 'The verify URL of the order.',
            required: true,
            schema: { type: 'string', format: 'uri' },
            example: `${LOCAL}/api/v1/payments/payment-orders/verify?reference=${ORDER_REF}`,
          },
          'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } },
        },
      },
    },
    errors: [
      { code: 'UNSUPPORTED_MEDIA_TYPE', when: 'The `Content-Type` is not `application/x-www-form-urlencoded`.' },
      { code: 'VALIDATION_ERROR', when: '`outcome` is missing or not `paid`, `cancelled` or `failed`.' },
      { code: 'NOT_FOUND', when: 'No such checkout session.' },
    ],
    errorExamples: {
      UNSUPPORTED_MEDIA_TYPE: { message: 'The request body must be application/x-www-form-urlencoded' },
      VALIDATION_ERROR: { message: 'The request is not valid', details: [{ path: 'outcome', message: 'must be one of paid, cancelled, failed' }] },
      NOT_FOUND: { message: 'No such checkout session' },
    },
  },
  StripeWebhook: {
    tag: 'Provider webhooks',
    request: {
      headers: z.object({
        'Stripe-Signature': z.string().meta({ param: { description: 'Stripe\'s signature of the raw body (`t=…,v1=…`).' }, example: 't=1767225600,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd' }),
      }),
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.looseObject({ id: z.string(), type: z.string(), account: z.string().optional(), data: z.looseObject({ object: z.looseObject({}) }) }).meta({
              description: 'A Stripe Event object, as Stripe sends it (read as raw bytes for the signature check).',
            }),
            example: {
              id: 'evt_1QmZ8d2eZvKYlo2C',
              type: 'checkout.session.completed',
              account: 'acct_1A2b3C4d5E6f7G8h',
              data: { object: { id: 'cs_test_a1B2c3D4', object: 'checkout.session', client_reference_id: ORDER_REF, metadata: { order_reference: ORDER_REF } } },
            },
          },
        },
      },
    },
    responses: { 200: { description: 'Received (reconciled, or not one of this service\'s orders or events).', content: json(stripeWebhookReceived, { received: true }) } },
    errors: [
      { code: 'INVALID_SIGNATURE' },
      { code: 'INVALID_JSON', when: 'The body is correctly signed but not JSON.' },
      { code: 'PROVIDER_NOT_CONFIGURED', when: "The Stripe account the order's attempt was made on no longer allows retrieving the checkout." },
      { code: 'PROVIDER_REJECTED', when: 'Stripe refused the retrieval of the checkout.' },
      { code: 'NOT_FOUND', when: 'The platform has no Stripe webhook secret (Stripe is not set up): there is no such endpoint.' },
    ],
    errorExamples: {
      INVALID_SIGNATURE: { message: 'The Stripe-Signature header does not match the payload' },
      NOT_FOUND: { message: 'Stripe webhooks are not configured' },
    },
  },
};

export function operationOf(route: Route): Operation {
  const operation = OPERATIONS[route.id];
  if (!operation) {
    throw new Error(`Route ${route.id} (${route.method} ${route.path}) has no operation in shared/openapi/operations.ts: describe it there.`);
  }
  return operation;
}
