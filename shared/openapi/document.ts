/**
 * The OpenAPI 3.1 document of the API, built from the zod schemas the handlers validate with
 * (shared/schemas/property-sync.ts, payments.ts) and the response schemas of
 * shared/schemas/responses.ts, for every route of infra/routes.ts. Those are zod/mini schemas;
 * the generator gets their classic zod equivalents (classic.ts).
 *
 * Only this module (and the scripts and tests around it) imports the generator; no function
 * does, so it never reaches a Lambda bundle. OpenAPI names and metadata for the handlers' own
 * schemas are kept in the generator's registry (`zodToOpenAPIRegistry`), keyed by the schema
 * instances: nothing is added to or changed on the schemas themselves, so parsing is unaffected.
 *
 * `npm run openapi` writes it to openapi.json; the local stack serves it at /api/v1/openapi.json.
 */
import { readFileSync } from 'node:fs';
import {
  OpenApiGeneratorV31,
  OpenAPIRegistry,
  type ResponseConfig,
  type RouteConfig,
  zodToOpenAPIRegistry,
} from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { type Route, routes, SYNC_SCOPES } from '../../infra/routes';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS } from '../../infra/service-defaults';
import { MAX_BODY_BYTES, MAX_SYNC_ITEMS } from '../config';
import { calendarDate, email, images, MAX_ITEM_BYTES, MAX_STAY_NIGHTS, money, phone, timestamp } from '../schemas/common';
import { orderReferenceParam, paymentOrderRequest, verifyQuery } from '../schemas/payments';
import { availabilityQuery, putBookingsBody, putCategoriesBody, putCheckinsBody, putRoomsBody } from '../schemas/property-sync';
import {
  availabilityResult,
  availableRoom,
  bookingConfirmedPayload,
  bookingConflict,
  bookingSyncResult,
  categorySyncResult,
  checkinSyncResult,
  describedErrorEnvelope,
  errorDetail,
  errorEnvelope,
  paymentOrderCreated,
  paymentOrderPaidPayload,
  paymentOrderStatus,
  roomSyncResult,
  sandboxCheckoutForm,
  serviceBookingSync,
  stripeWebhookReceived,
} from '../schemas/responses';
import { classic } from './classic';
import { ERROR_CODES, type ErrorCode, HTTP_ERROR_CODES } from './error-codes';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../config';

/** The path the local stack serves the document at. */
export const OPENAPI_PATH = '/api/v1/openapi.json';

/** Mirrors shared/http/idempotency.ts (which cannot be imported here: it opens the table). */

// ---- names and metadata for existing schema instances (no change to the schemas)

type AnySchema = z.core.$ZodType;

/**
 * Adds OpenAPI metadata (and a component name) to a schema instance (its classic equivalent, the
 * one the generator sees), in the generator's own registry.
 */
function annotate<T extends AnySchema>(schema: T, metadata: Record<string, unknown>, refId?: string) {
  const target = classic<z.ZodType<z.output<T>, z.input<T>>>(schema);
  const current = zodToOpenAPIRegistry.get(target) ?? {};
  zodToOpenAPIRegistry.add(target, { ...current, ...metadata, ...(refId ? { _internal: { ...current._internal, refId } } : {}) });
  return target;
}

const component = <T extends AnySchema>(refId: string, schema: T, metadata: Record<string, unknown> = {}) => annotate(schema, metadata, refId);

/** Element schema of a sync array (the item schema wrapped in its size check). */
const element = (array: AnySchema) => classic<z.ZodArray>(array).element as AnySchema;

let named = false;

function nameSchemas(): void {
  if (named) return;
  named = true;
  // Field rules of CONTRACT.md "Conventions" (lengths and bounds are in the schemas themselves).
  annotate(email, { example: 'ada@example.com' });
  annotate(money, { description: 'A decimal in the client\'s currency: 0, or from 1e-130 (the smallest number DynamoDB stores) to 10^9.' });
  annotate(phone, { description: 'E.164: `+` and up to 15 digits.', example: '+442071234567' });
  annotate(images, { description: 'Image URLs, or objects with a `url` and an optional `caption`.' });
  annotate(timestamp, { description: 'ISO 8601 date-time with `Z` or an offset.', example: '2027-06-10T14:05:00Z' });
  component('CalendarDate', calendarDate, { format: 'date', description: 'A real calendar date, `YYYY-MM-DD`.', example: '2027-06-10' });

  // Request bodies and their items (the instances the handlers parse with).
  component('RoomCategoryInput', element(putCategoriesBody.shape.categories), {
    description: 'A room category, upserted by `external_source` + `external_category_id`. Sync categories before rooms. Unknown fields are ignored.',
  });
  component('RoomInput', element(putRoomsBody.shape.rooms), {
    description:
      'A room, upserted by client + `external_source` + `external_room_id`. Without such a room but with a room of the same `room_number`, that room gets the external ids (`linked`). Unknown fields are ignored.',
  });
  component('BookingInput', element(putBookingsBody.shape.bookings), {
    description: `A booking, mirrored by \`external_source\` + \`external_booking_id\`. \`check_out_date\` is after \`check_in_date\`, at most ${MAX_STAY_NIGHTS} nights. \`pending\`, \`confirmed\` and \`checked_in\` block the room. Synced bookings never emit callbacks. Unknown fields are ignored.`,
  });
  component('CheckinInput', element(putCheckinsBody.shape.checkins), {
    description:
      'Check-in/check-out activity, upserted by `external_checkin_id`. `check_in` moves the booking to `checked_in`; `check_out` to `checked_out` and frees the room from the check-out day on. Unknown fields are ignored.',
  });
  component('PutRoomCategoriesRequest', putCategoriesBody);
  component('PutRoomsRequest', putRoomsBody);
  component('PutBookingsRequest', putBookingsBody);
  component('PutCheckinsRequest', putCheckinsBody);
  annotate(availabilityQuery.shape.guests, { param: { description: 'Number of guests: a whole number from 1, written as plain digits.' }, example: '2' });

  component('PaymentOrderRequest', paymentOrderRequest, {
    description: 'Unknown fields are ignored. `context.type = room_booking` with both stay dates mirrors the paid order into the hotel bookings.',
  });
  annotate(paymentOrderRequest.shape.reference, { description: 'Your reference; unique per client. 1 to 100 of `A-Z a-z 0-9 . _ : -`.', example: 'INV-1001' });
  annotate(paymentOrderRequest.shape.amount_minor, { description: 'Integer in the smallest currency unit (JPY 0 decimals, KWD/BHD/JOD/OMR/TND 3, most others 2).', example: 24000 });
  annotate(paymentOrderRequest.shape.currency, { description: 'Uppercase ISO 4217 code of the supported list.', example: 'USD' });
  const context = classic<z.ZodOptional<z.ZodObject>>(paymentOrderRequest.shape.context).unwrap();
  annotate(context, { description: 'Business context of the payment.' });
  annotate(context.shape.type, { description: '`room_booking` with both stay dates makes a paid order a confirmed hotel booking.', example: 'room_booking' });
  annotate(context.shape.service_room_id, { description: 'A room of the service (its `id` in availability): locked for the stay when free; otherwise the booking is recorded for manual room assignment.' });
  annotate(context.shape.guests, { description: 'Guests of the stay (default 1).' });
  annotate(paymentOrderRequest.shape.success_url, { description: `Where the guest goes after a verified payment; https outside local runs; on an allowed origin of the key if it has any.` });
  annotate(paymentOrderRequest.shape.cancel_url, { description: 'Where the guest goes otherwise (failed, cancelled, or still open at the provider).' });
  annotate(orderReferenceParam.shape.order_reference, { param: { description: 'The `order_reference` the creation returned.' }, example: 'PO-7KQ2M9XR4TLP' });
  annotate(verifyQuery.shape.reference, { param: { description: 'The `order_reference` (the provider puts it on the return URL).' }, example: 'PO-7KQ2M9XR4TLP' });

  // Responses and payloads.
  component('ErrorDetail', errorDetail);
  component('CategorySyncResult', categorySyncResult);
  component('RoomSyncResult', roomSyncResult);
  component('BookingSyncResult', bookingSyncResult);
  component('CheckinSyncResult', checkinSyncResult);
  component('BookingConflict', bookingConflict);
  component('AvailableRoom', availableRoom);
  component('AvailabilityResult', availabilityResult);
  component('PaymentOrderCreated', paymentOrderCreated);
  component('PaymentOrderStatus', paymentOrderStatus);
  component('ServiceBookingSync', serviceBookingSync);
  component('BookingConfirmedEvent', bookingConfirmedPayload, { description: 'Body of the signed `booking.confirmed` callback (the spec\'s "Booking-confirmed callback payload").' });
  component('PaymentOrderPaidEvent', paymentOrderPaidPayload, { description: 'Body of the signed `payment_order.paid` webhook.' });
}

// ---- examples

const EXAMPLE_REQUEST_ID = '7f9c2ba4-e88f-4a2b-9c7e-0d1f2a3b4c5d';
const ORDER_REF = 'PO-7KQ2M9XR4TLP';
const SANDBOX_REF = 'sbx_5f2b9c0e7a1d4e3f8b6c9a02';
const LOCAL = 'http://127.0.0.1:3000';

const examples = {
  categoriesRequest: {
    external_source: 'demo-pms',
    categories: [
      {
        external_category_id: 'DBL',
        name: 'Double room',
        base_price: 120,
        max_occupancy: 2,
        description: 'Queen bed, city view',
        amenities: ['wifi', 'breakfast'],
        images: ['https://cdn.example.com/rooms/dbl.jpg', { url: 'https://cdn.example.com/rooms/dbl-bath.jpg', caption: 'Bathroom' }],
        is_active: true,
      },
    ],
  },
  categoriesResult: {
    external_source: 'demo-pms',
    received: 1,
    created: 1,
    updated: 0,
    unchanged: 0,
    items: [{ external_category_id: 'DBL', id: '0b6e3c1f-5a2d-5c4e-9f7a-1d2e3f4a5b6c', action: 'created' }],
  },
  roomsRequest: {
    external_source: 'demo-pms',
    rooms: [
      { external_room_id: 'R101', external_category_id: 'DBL', room_number: '101', room_type: 'double', price: 120, max_occupancy: 2, is_active: true },
      { external_room_id: 'R102', external_category_id: 'DBL', room_number: '102', room_type: 'double', price: 125, max_occupancy: 2 },
    ],
  },
  roomsResult: {
    external_source: 'demo-pms',
    received: 2,
    created: 1,
    updated: 1,
    unchanged: 0,
    items: [
      { external_room_id: 'R101', id: '3c1d9e7a-2b4f-5a6c-8d9e-0f1a2b3c4d5e', action: 'created' },
      { external_room_id: 'R102', id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d', action: 'linked' },
    ],
  },
  bookingsRequest: {
    external_source: 'demo-pms',
    bookings: [
      {
        external_booking_id: 'B-1001',
        external_room_id: 'R101',
        guest_name: 'Ada Lovelace',
        guest_email: 'ada@example.com',
        guest_phone: '+442071234567',
        guests: 2,
        check_in_date: '2027-06-10',
        check_out_date: '2027-06-12',
        total_amount: 240,
        status: 'confirmed',
        payment_status: 'paid',
      },
    ],
  },
  bookingsResult: {
    external_source: 'demo-pms',
    received: 1,
    created: 1,
    updated: 0,
    unchanged: 0,
    items: [{ external_booking_id: 'B-1001', id: '5e4d3c2b-1a0f-5e9d-8c7b-6a5f4e3d2c1b', action: 'created' }],
    conflicts: [
      {
        external_booking_id: 'B-1001',
        room_id: '3c1d9e7a-2b4f-5a6c-8d9e-0f1a2b3c4d5e',
        overlapping_booking_id: 'd2c1b0a9-8f7e-4d6c-9b5a-4f3e2d1c0b9a',
      },
    ],
  },
  checkinsRequest: {
    external_source: 'demo-pms',
    checkins: [
      { external_checkin_id: 'C-5001', external_booking_id: 'B-1001', event: 'check_in', occurred_at: '2027-06-10T14:05:00Z', external_room_id: 'R101', notes: 'Late arrival' },
    ],
  },
  checkinsResult: {
    external_source: 'demo-pms',
    received: 1,
    created: 1,
    updated: 0,
    unchanged: 0,
    items: [{ external_checkin_id: 'C-5001', id: '1f2e3d4c-5b6a-5978-8a6b-5c4d3e2f1a0b', action: 'created' }],
  },
  availability: {
    check_in_date: '2027-06-10',
    check_out_date: '2027-06-12',
    nights: 2,
    guests: 2,
    available_rooms: [
      {
        id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
        room_number: '102',
        room_type: 'double',
        price: 125,
        max_occupancy: 2,
        external_source: 'demo-pms',
        external_room_id: 'R102',
        external_category_id: 'DBL',
        category: { external_category_id: 'DBL', name: 'Double room', base_price: 120 },
      },
      {
        id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
        room_number: '201',
        room_type: 'suite',
        price: 300,
        max_occupancy: 4,
        external_source: null,
        external_room_id: null,
        external_category_id: null,
        category: null,
      },
    ],
    categories: [{ external_category_id: 'DBL', name: 'Double room', base_price: 120, available_count: 1 }],
  },
  orderRequest: {
    reference: 'INV-1001',
    amount_minor: 24000,
    currency: 'USD',
    customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+442071234567' },
    context: { type: 'room_booking', booking_id: 'WEB-77', check_in_date: '2027-06-10', check_out_date: '2027-06-12', guests: 2, service_room_id: '3c1d9e7a-2b4f-5a6c-8d9e-0f1a2b3c4d5e' },
    success_url: 'https://partner.example/paid',
    cancel_url: 'https://partner.example/cancelled',
  },
  orderCreated: {
    payment_order_id: '6b1f0c2e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    order_reference: ORDER_REF,
    external_reference: 'INV-1001',
    status: 'processing',
    amount_minor: 24000,
    amount: 240,
    currency: 'USD',
    provider: 'sandbox',
    provider_reference: SANDBOX_REF,
    checkout_url: `${LOCAL}/sandbox/checkout/${SANDBOX_REF}`,
    reused: false,
  },
  orderStatus: {
    payment_order_id: '6b1f0c2e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    order_reference: ORDER_REF,
    external_reference: 'INV-1001',
    status: 'paid',
    amount_minor: 24000,
    currency: 'USD',
    provider: 'sandbox',
    provider_reference: SANDBOX_REF,
    paid_at: '2027-06-01T12:03:41.512Z',
    service_booking_sync: {
      status: 'synced',
      booking_id: 'e5d4c3b2-a1f0-5e9d-8c7b-6a5f4e3d2c1b',
      booking_reference: 'BK-7KQ2M9XR',
      confirmation_code: 'H4TLP2',
      room_id: '3c1d9e7a-2b4f-5a6c-8d9e-0f1a2b3c4d5e',
      room_assignment: 'locked',
    },
  },
  bookingConfirmed: {
    event: 'booking.confirmed',
    created_at: '2027-06-01T12:03:41.512Z',
    hotel_id: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
    booking: {
      id: 'e5d4c3b2-a1f0-5e9d-8c7b-6a5f4e3d2c1b',
      booking_reference: 'BK-7KQ2M9XR',
      confirmation_code: 'H4TLP2',
      guest_name: 'Ada Lovelace',
      guest_email: 'ada@example.com',
      guest_phone: '+442071234567',
      guests: 2,
      check_in_date: '2027-06-10',
      check_out_date: '2027-06-12',
      total_amount: 240,
      status: 'confirmed',
      payment_status: 'paid',
      payment_method: 'sandbox',
      gateway_reference: SANDBOX_REF,
    },
    room: {
      id: '3c1d9e7a-2b4f-5a6c-8d9e-0f1a2b3c4d5e',
      room_number: '101',
      room_type: 'double',
      external_source: 'demo-pms',
      external_room_id: 'R101',
      external_category_id: 'DBL',
    },
  },
  paymentOrderPaid: {
    event: 'payment_order.paid',
    payment_order: { order_reference: ORDER_REF, external_reference: 'INV-1001', status: 'paid', amount_minor: 24000, currency: 'USD' },
  },
};

// ---- headers

const HEADERS = {
  'X-Request-Id': {
    description: 'The request id; the same value is the error body\'s `request_id` and is in the service logs.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored outcome of an earlier request with the same `Idempotency-Key` and body (replayed byte for byte; an error body gets this request\'s `request_id`).',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

// ---- operations

type Tag = 'Property sync' | 'Payment orders' | 'Sandbox provider' | 'Provider webhooks';

const TAGS: { name: Tag; description: string }[] = [
  { name: 'Property sync', description: 'Area A: a PMS server with a scoped sync key pushes categories, rooms, bookings and check-in activity, and reads availability.' },
  { name: 'Payment orders', description: 'Area B: a partner server with a payment key creates payment orders paid on a hosted checkout, then confirms them with the status lookup.' },
  { name: 'Sandbox provider', description: 'The sandbox payment provider\'s hosted checkout (the local default): an HTML page and its form. Called by the guest\'s browser.' },
  { name: 'Provider webhooks', description: 'Events from payment providers (public routes, signature-checked).' },
];

interface ErrorNote {
  code: ErrorCode;
  /** What triggers it on this route (else the catalogue's meaning). */
  when?: string;
}

interface Operation {
  tag: Tag;
  summary: string;
  description: string;
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

const json = (schema: AnySchema | object, example: unknown) => ({
  'application/json': { schema: '_zod' in schema ? classic(schema as AnySchema) : (schema as z.ZodType), example },
});

const syncWriteErrors = (array: string, references?: string): ErrorNote[] => [
  { code: 'TOO_MANY_ITEMS', when: `More than ${MAX_SYNC_ITEMS} items in \`${array}\`. Nothing is written.` },
  { code: 'VALIDATION_ERROR', when: `Two items of \`${array}\` share an external id. Nothing is written.` },
  { code: 'VALIDATION_ERROR', when: `An item is over ${MAX_ITEM_BYTES / 1024} KiB of JSON (\`path\` \`${array}[i]\`). Nothing is written.` },
  ...(references ? [{ code: 'UNKNOWN_REFERENCE' as const, when: references }] : []),
];

const syncWrite = (
  summary: string,
  description: string,
  result: AnySchema,
  resultExample: unknown,
  body: AnySchema,
  bodyExample: unknown,
  invalidField: { path: string; message: string },
) => ({
  tag: 'Property sync' as const,
  summary,
  description,
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

const OPERATIONS: Record<string, Operation> = {
  PutRoomCategories: {
    ...syncWrite(
      'Upsert room categories',
      'Creates or updates room categories by `external_category_id`. The whole request is validated before anything is written; items whose stored content is identical are not rewritten.',
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
      'Upsert rooms',
      'Creates or updates rooms by client + `external_source` + `external_room_id` and links them to synced categories. A new external room whose `room_number` already exists in the client links that room (`linked`) instead of creating a duplicate. Sync categories first.',
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
      'Mirror bookings',
      'Creates or updates external bookings by `external_source` + `external_booking_id`. Overlaps with other active bookings of the same room (of any origin) are reported in `conflicts` and recorded anyway. Synced bookings never emit callbacks. Sync rooms first.',
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
      'Push check-in and check-out activity',
      'Upserts check-in records by `external_checkin_id`. Per booking the latest new event (by `occurred_at`) moves it to `checked_in` or `checked_out`; a check-out frees the room from the check-out day on. An event older than the latest applied one is recorded but does not change the booking.',
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
    summary: 'Rooms available for a stay',
    description:
      'Rooms that are active, have `max_occupancy >= guests`, and have no active booking of any origin (synced, reception, paid order) with check-in before the requested check-out and check-out after the requested check-in. Optional filters narrow the rooms. Rooms come in natural room-number order; `categories` counts the available rooms per synced category.',
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
  CreatePaymentOrder: {
    tag: 'Payment orders',
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
    summary: 'Provider return URL: verify, then redirect the guest',
    description: [
      'Public (no key): the payment provider sends the guest here. The service asks the provider about the current checkout (it never trusts the redirect) and marks the order `paid` only when the provider says paid and amount and currency match. In the same transaction it records the attempt outcome, the provider event and the transaction, mirrors a `room_booking` order with both dates into a confirmed hotel booking, and queues the `booking.confirmed` callback and `payment_order.paid` webhook.',
      '',
      'Then it redirects (303) to `success_url` with `payment=success`, or to `cancel_url` with `payment=failed`, appending `payment_order` and `reference` (both the `order_reference`; an existing query is kept). While the provider still reports the checkout open, the order stays `processing` and the guest goes to `cancel_url`; the order can still be paid and verified later. Verifying a paid order again redirects to success and records nothing twice.',
      '',
      "The provider is asked on the provider and account the order's current attempt was made on, whatever the client's settings are now. A checkout the provider cannot find leaves the order `processing` (the guest goes to `cancel_url`), logged and alarmed.",
    ].join('\n'),
    request: { query: classic<z.ZodObject>(verifyQuery) },
    responses: {
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
    summary: 'Payment order status',
    description:
      'The order as it stands, with `paid_at` and the hotel booking it became (`service_booking_sync`). This is how your server confirms a payment. Another client\'s order is 404, as is a reference the service could not have minted.',
    request: { params: classic<z.ZodObject>(orderReferenceParam) },
    responses: { 200: { description: 'The order.', content: json(paymentOrderStatus, examples.orderStatus) } },
    errors: [{ code: 'PAYMENT_ORDER_NOT_FOUND' }],
  },
  SandboxCheckoutPage: {
    tag: 'Sandbox provider',
    summary: 'Sandbox hosted checkout page',
    description: 'The sandbox provider\'s hosted page (`checkout_url`): amount, currency and customer, and a form that POSTs `outcome` = `paid`, `cancelled` or `failed` to the same URL. A completed session shows its outcome instead of the buttons.',
    request: { params: z.object({ provider_reference: z.string().min(1).max(128).meta({ param: { description: 'The sandbox checkout session (`provider_reference`).' }, example: SANDBOX_REF }) }) },
    responses: {
      200: {
        description: 'The page.',
        headers: {
          'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } },
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
    summary: 'Sandbox checkout outcome',
    description:
      'The hosted page\'s form: records the tester\'s choice (once; a completed session keeps its first outcome) and redirects (303) the guest to the service\'s verify URL.',
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
    summary: 'Stripe webhook',
    description:
      'Public, but only Stripe can sign: the `Stripe-Signature` header is checked over the exact raw body before anything else. For `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed` and `checkout.session.expired` of one of this service\'s Stripe orders, the order is reconciled by asking Stripe again, exactly as the guest\'s return does (the event itself never marks an order paid). Anything else is acknowledged with 200 so Stripe does not retry it; a failure to reconcile answers 5xx so Stripe does.',
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

// ---- errors of a route

/** Codes every route of this kind can answer, with what triggers them. */
function commonErrors(route: Route, operation: Operation): ErrorNote[] {
  const notes: ErrorNote[] = [];
  if (route.auth.kind !== 'public') {
    notes.push({ code: 'MISSING_API_KEY' }, { code: 'INVALID_API_KEY' }, { code: 'INSUFFICIENT_SCOPE' });
    if (route.auth.kind === 'payment') notes.push({ code: 'ORIGIN_NOT_ALLOWED' });
  }
  if (operation.jsonBody) {
    notes.push(
      { code: 'UNSUPPORTED_MEDIA_TYPE' },
      { code: 'INVALID_JSON' },
      {
        code: 'VALIDATION_ERROR',
        when: operation.bodyValidation ?? 'The body does not match the schema; `details[]` names each problem (`path` like `rooms[3].price`).',
      },
    );
  }
  if (route.idempotent) {
    notes.push(
      { code: 'VALIDATION_ERROR', when: `The \`Idempotency-Key\` header is empty or longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.` },
      { code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS' },
      { code: 'IDEMPOTENCY_KEY_REUSED' },
    );
  }
  notes.push(
    { code: 'VALIDATION_ERROR', when: 'The gateway refused a malformed request (oversized headers, a broken request line, a bad percent-escape in the path).' },
    { code: 'PAYLOAD_TOO_LARGE', when: `The request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.` },
    { code: 'RATE_LIMITED' },
    { code: 'INTERNAL_ERROR' },
    { code: 'SERVICE_UNAVAILABLE' },
  );
  return notes;
}

const CODE_ORDER = Object.keys(ERROR_CODES) as ErrorCode[];

/** Error codes by status (ascending), each with its reasons; codes in the catalogue's order. */
export function errorsOf(route: Route): Map<number, Map<ErrorCode, string[]>> {
  const operation = operationOf(route);
  const reasonsByCode = new Map<ErrorCode, string[]>();
  for (const note of [...(operation.errors ?? []), ...commonErrors(route, operation)]) {
    const reasons = reasonsByCode.get(note.code) ?? [];
    const reason = note.when ?? ERROR_CODES[note.code].meaning;
    if (!reasons.includes(reason)) reasons.push(reason);
    reasonsByCode.set(note.code, reasons);
  }
  const byStatus = new Map<number, Map<ErrorCode, string[]>>();
  for (const code of CODE_ORDER.filter((c) => reasonsByCode.has(c))) {
    const status = ERROR_CODES[code].status;
    const codes = byStatus.get(status) ?? new Map<ErrorCode, string[]>();
    codes.set(code, reasonsByCode.get(code)!);
    byStatus.set(status, codes);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'No valid API key',
  403: 'Not allowed for this key',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Not processable',
  429: 'Rate limited',
  500: 'Internal error',
  503: 'Temporarily unavailable',
};

function errorResponse(route: Route, status: number, codes: Map<ErrorCode, string[]>): ResponseConfig {
  const operation = operationOf(route);
  const list = [...codes.keys()] as [ErrorCode, ...ErrorCode[]];
  const first = list.find((code) => operation.errorExamples?.[code]) ?? list[0];
  const example = operation.errorExamples?.[first] ?? {
    message: ERROR_CODES[first].message,
    ...(first === 'VALIDATION_ERROR' ? { details: [{ path: '(root)', message: 'Malformed HTTP request' }] } : {}),
  };
  const retryAfter = list.some((c) => c === 'RATE_LIMITED' || c === 'SERVICE_UNAVAILABLE' || c === 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
  const replayable = route.idempotent && (status === 400 || status === 409 || status === 422);
  return {
    description: [
      `${STATUS_TEXT[status] ?? 'Error'}. \`error.code\` is one of:`,
      '',
      ...list.map((code) => {
        const reasons = codes.get(code)!;
        return reasons.length === 1 ? `- \`${code}\`: ${reasons[0]}` : [`- \`${code}\`:`, ...reasons.map((r) => `  - ${r}`)].join('\n');
      }),
    ].join('\n'),
    headers: {
      'X-Request-Id': headerRef('X-Request-Id'),
      ...(retryAfter
        ? {
            'Retry-After': {
              ...headerRef('Retry-After'),
              ...(status === 409 ? { description: 'With `IDEMPOTENCY_REQUEST_IN_PROGRESS`.' } : {}),
            },
          }
        : {}),
      ...(replayable ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {}),
    } as never,
    content: json(errorEnvelope(list), {
      error: { code: first, message: example.message, request_id: EXAMPLE_REQUEST_ID, ...(example.details ? { details: example.details } : {}) },
    }),
  };
}

function operationOf(route: Route): Operation {
  const operation = OPERATIONS[route.id];
  if (!operation) {
    throw new Error(`Route ${route.id} (${route.method} ${route.path}) has no operation in shared/openapi/document.ts: describe it there.`);
  }
  return operation;
}

function securityOf(route: Route): RouteConfig['security'] {
  switch (route.auth.kind) {
    case 'sync':
      return [{ syncKey: [route.auth.scope] }];
    case 'payment':
      return [{ paymentKey: [] }, { paymentApiKey: [] }];
    case 'public':
      return [];
  }
}

function headerParameters(route: Route): z.ZodObject | undefined {
  const shape: Record<string, z.ZodType> = {};
  if (route.idempotent) {
    shape['Idempotency-Key'] = z
      .string()
      .min(1)
      .max(MAX_IDEMPOTENCY_KEY_LENGTH)
      .optional()
      .meta({
        param: { description: `Optional, 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters; makes a retry safe. Scoped by client + method + path + key and kept 24 hours. The same key with the same body (compared as canonical JSON) after completion replays the stored status and body with \`Idempotent-Replayed: true\`; with a different body: 422 \`IDEMPOTENCY_KEY_REUSED\`; while the first request still runs: 409 \`IDEMPOTENCY_REQUEST_IN_PROGRESS\`. 5xx outcomes are not stored, so a retry runs again.` },
        example: 'sync-2027-06-01-0001',
      });
  }
  if (route.auth.kind === 'payment') {
    shape.Origin = z
      .string()
      .optional()
      .meta({
        param: {
          description:
            'Server-to-server calls normally send no `Origin` and are allowed with a valid payment key. If `Origin` is present it must be one of the key\'s allowed origins, else 403 `ORIGIN_NOT_ALLOWED`.',
        },
        example: 'https://partner.example',
      });
  }
  return Object.keys(shape).length ? z.object(shape) : undefined;
}

function routeConfig(route: Route): RouteConfig {
  const operation = operationOf(route);
  const successHeaders = (status: number) => ({
    'X-Request-Id': headerRef('X-Request-Id'),
    ...(route.idempotent && status < 300 ? { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') } : {}),
  });
  const responses: RouteConfig['responses'] = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] = { ...response, headers: { ...successHeaders(Number(status)), ...(response.headers as object) } as never };
  }
  for (const [status, codes] of errorsOf(route)) responses[String(status)] = errorResponse(route, status, codes);

  const headers = headerParameters(route);
  const request = { ...operation.request, ...(headers ? { headers } : {}) };
  const scopeNote = route.auth.kind === 'sync' ? `\n\nNeeds a sync key with the scope \`${route.auth.scope}\`.` : '';
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    path: route.path,
    operationId: route.id,
    tags: [operation.tag],
    summary: operation.summary,
    description: `${operation.description}${scopeNote}`,
    security: securityOf(route),
    ...(Object.keys(request).length ? { request } : {}),
    responses,
  };
}

// ---- outbound events

const RECEIVER_RESPONSES: RouteConfig['responses'] = {
  '2XX': { description: 'Delivered: the delivery is recorded as `delivered`. Answer 2xx only after the event is safely recorded, and the same 2xx again for a delivery id already processed.' },
  '400': { description: 'Terminal: `needs_review`, no automatic retry (an operator can retry).' },
  '401': { description: 'Terminal: `needs_review` (e.g. the signature did not verify).' },
  '403': { description: 'Terminal: `needs_review`.' },
  '409': { description: 'Terminal: `needs_review`.' },
  '422': { description: 'Terminal: `needs_review`.' },
  '429': { description: 'Temporarily unavailable: retried automatically.' },
  '5XX': { description: 'Temporarily unavailable (500, 502, 503, 504, …): retried automatically.' },
  default: { description: 'Any other status, including redirects (never followed): `needs_review`, no automatic retry.' },
};

const retrySchedule = DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS.map((s) => (s < 3600 ? `${s / 60} min` : `${s / 3600} h`)).join(', ');

function eventHeaders(event: string, secret: string) {
  return z.object({
    'X-Service-Event': z.literal(event).meta({ param: { description: 'The event name.' } }),
    'X-Service-Client': z.uuid().meta({ param: { description: 'The client (hotel or business) id; the same as the payload\'s `hotel_id` for `booking.confirmed`.' } }),
    'X-Service-Delivery': z.uuid().meta({
      param: { description: 'The delivery id: the same on every attempt and on operator retries. Use it to detect duplicates.' },
    }),
    'X-Service-Signature': z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({
        param: {
          description: `Lowercase hexadecimal HMAC-SHA256 of the exact raw UTF-8 body bytes, keyed with the client's ${secret}; no \`sha256=\` prefix. Recompute it over the raw body (before JSON parsing) and compare in constant time.`,
        },
      }),
  });
}

const deliveryDescription = (secret: string) =>
  [
    'Delivery: HTTP POST with `Content-Type: application/json`; the body is serialized once when the event happens and every attempt sends the same bytes.',
    '',
    'Receiver contract: read the raw body before parsing; verify `X-Service-Signature` with the ' + secret + '; use `X-Service-Delivery` to detect duplicates; return 2xx only after the event is safely recorded, and the same 2xx for a delivery id already processed.',
    '',
    `Attempts time out after 10 s. 2xx: \`delivered\`. 429, 5xx, a timeout or a network error: retried automatically after ${retrySchedule} (\`CALLBACK_RETRY_DELAYS_SECONDS\`), then \`failed\`. 400, 401, 403, 409, 422, any other 4xx and redirects: \`needs_review\`, no automatic retry. Operators retry \`failed\` and \`needs_review\` deliveries with \`npm run ops -- deliveries retry\` (same \`X-Service-Delivery\`).`,
  ].join('\n');

function registerWebhooks(registry: OpenAPIRegistry): void {
  registry.registerWebhook({
    method: 'post',
    path: 'booking.confirmed',
    operationId: 'BookingConfirmedCallback',
    tags: ['Property sync'],
    summary: 'booking.confirmed callback (to your callback URL)',
    description: [
      'Sent when a booking made by the service itself becomes confirmed: a paid `room_booking` order (see VerifyPaymentOrder) or a reception booking made by an operator. Bookings synced from the PMS never emit. No callback URL configured: no delivery is created.',
      '',
      deliveryDescription('callback secret'),
    ].join('\n'),
    request: {
      headers: eventHeaders('booking.confirmed', 'callback secret'),
      body: { required: true, content: json(bookingConfirmedPayload, examples.bookingConfirmed) },
    },
    responses: RECEIVER_RESPONSES,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'payment_order.paid',
    operationId: 'PaymentOrderPaidWebhook',
    tags: ['Payment orders'],
    summary: 'payment_order.paid webhook (to your webhook URL)',
    description: [
      'Sent when a payment order is verified as paid and the client has a webhook URL (`npm run ops -- webhooks set`). Verify its signature before trusting it; the status lookup remains the reference.',
      '',
      deliveryDescription('webhook secret'),
    ].join('\n'),
    request: {
      headers: eventHeaders('payment_order.paid', 'webhook secret'),
      body: { required: true, content: json(paymentOrderPaidPayload, examples.paymentOrderPaid) },
    },
    responses: RECEIVER_RESPONSES,
  });
}

// ---- the document

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function errorCatalogue(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[])
    .sort((a, b) => ERROR_CODES[a].status - ERROR_CODES[b].status || (a < b ? -1 : a > b ? 1 : 0))
    .map((code) => {
      const info = ERROR_CODES[code];
      return `| \`${code}\` | ${info.status} | ${info.meaning} |`;
    });
  return ['| Code | HTTP | When |', '|---|---|---|', ...rows].join('\n');
}

const DESCRIPTION = () =>
  [
    'Serverless hotel integration API beside a property management system (PMS).',
    '',
    '- **Property sync (Area A)**: a PMS server holding a scoped *sync key* pushes room categories, rooms, bookings and check-in/check-out activity, and reads availability. The service can POST a signed `booking.confirmed` callback to the PMS (see `webhooks`).',
    '- **Payment orders (Area B)**: a partner website\'s server holding a *payment key* creates payment orders paid on a hosted checkout; paid room bookings become confirmed hotel bookings. A signed `payment_order.paid` webhook is sent when configured.',
    '',
    '## Conventions',
    '',
    'JSON field names are snake_case. Timestamps are ISO 8601 UTC with `Z`; ids the service mints are UUIDs; dates are real calendar dates `YYYY-MM-DD`. Validation is strict: no type coercion, `null` is never accepted where a value is expected (omit optional fields), ids and references 1 to 128 characters, other strings at most 2,000. Unknown fields are ignored. Area A money is a decimal in the client\'s currency; Area B money is `amount_minor` in ISO 4217 minor units.',
    '',
    `Limits: request bodies up to ${MAX_BODY_BYTES / 1024 / 1024} MiB; at most ${MAX_SYNC_ITEMS} items per sync array; stays of 1 to ${MAX_STAY_NIGHTS} nights. The API is versioned in the path (\`/api/v1/\`).`,
    '',
    '## Credentials',
    '',
    `Two kinds, kept apart: sync keys (\`svc_sync_…\`, scopes ${SYNC_SCOPES.map((s) => `\`${s}\``).join(', ')}) for Area A only, payment keys (\`svc_pay_…\`) for payment orders only. Use them from your server, never in browser code. Every key belongs to one client, the only tenant a request can touch. No key: 401 \`MISSING_API_KEY\`; unknown, malformed or revoked: 401 \`INVALID_API_KEY\`; missing scope or the other kind of key: 403 \`INSUFFICIENT_SCOPE\`.`,
    '',
    '## Errors',
    '',
    'Every error, including those API Gateway produces itself (authorizer denials, unknown routes, throttling, oversized bodies), has the body `{"error": {"code", "message", "request_id"}}`, plus `details: [{path, message}]` for validation errors; the `X-Request-Id` header carries the same request id. An unknown path answers 404 `NOT_FOUND`, a known path with another method 405 `METHOD_NOT_ALLOWED`. Each operation lists the codes it can answer. All codes:',
    '',
    errorCatalogue(),
  ].join('\n');

/** Builds the document (deterministic: the same code gives the same document). */
export function buildOpenApiDocument() {
  nameSchemas();
  const registry = new OpenAPIRegistry();

  registry.registerComponent('securitySchemes', 'syncKey', {
    type: 'http',
    scheme: 'bearer',
    description: `Sync key (\`svc_sync_…\`) as \`Authorization: Bearer <key>\`, for Area A only. Each route needs one scope, named in its security requirement: ${SYNC_SCOPES.map((s) => `\`${s}\``).join(', ')}. Issued per client (\`npm run ops -- keys create --kind sync [--scopes a,b]\`), shown once, stored only as a SHA-256 digest; a revoked key stops working within 60 s.`,
  });
  registry.registerComponent('securitySchemes', 'paymentKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Payment key (`svc_pay_…`) as `Authorization: Bearer <key>`, for payment orders only. A key may have allowed origins: an `Origin` header must then be one of them, and `success_url`/`cancel_url` must use one of them.',
  });
  registry.registerComponent('securitySchemes', 'paymentApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'The same payment key in `x-api-key` (payment keys only: a sync key there is 401 `INVALID_API_KEY`). When both headers are sent, `Authorization` is used.',
  });
  for (const [name, header] of Object.entries(HEADERS)) registry.registerComponent('headers', name, header as never);
  // Components no operation refers to directly (the full code list and the generic envelope).
  const errorCode = component('ErrorCode', z.enum(HTTP_ERROR_CODES as [ErrorCode, ...ErrorCode[]]), {
    description: 'Every code an HTTP response of this API can carry; the table in the API description gives each status. Stable and machine-readable.',
  });
  const standalone = [{ type: 'schema' as const, schema: component('ErrorEnvelope', describedErrorEnvelope(errorCode)) }];
  const byId = new Set(routes.map((r) => r.id));
  const unknown = Object.keys(OPERATIONS).filter((id) => !byId.has(id));
  if (unknown.length) throw new Error(`shared/openapi/document.ts describes routes that infra/routes.ts does not have: ${unknown.join(', ')}`);
  for (const route of routes) registry.registerPath(routeConfig(route));
  registerWebhooks(registry);

  const generator = new OpenApiGeneratorV31([...registry.definitions, ...standalone], { sortComponents: 'alphabetically' });
  const document = generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Hotel integration API',
      version: packageVersion(),
      description: DESCRIPTION(),
    },
    servers: [
      { url: 'http://127.0.0.1:3000', description: 'Local stack (`npm start`; `PORT` overrides 3000)' },
      {
        url: 'https://{api_id}.execute-api.{region}.amazonaws.com/{stage}',
        description: 'Deployed stack (`npx cdk deploy -c stage=NAME`; the `ApiUrl` output)',
        variables: {
          api_id: { default: 'abcdef1234', description: 'The REST API id.' },
          region: { default: 'eu-west-1', description: 'The AWS region of the stack.' },
          stage: { default: 'dev', description: 'The stage name (`-c stage=NAME`).' },
        },
      },
    ],
    tags: TAGS,
  });
  return sortComponentSections(document);
}

/** Components sections and their entries in alphabetical order, whatever order they were registered in. */
function sortComponentSections<T extends { components?: object }>(document: T): T {
  if (!document.components) return document;
  const sections = document.components as Record<string, Record<string, unknown> | undefined>;
  const sorted: Record<string, unknown> = {};
  for (const section of Object.keys(sections).sort()) {
    const entries = sections[section];
    if (!entries || Object.keys(entries).length === 0) continue;
    sorted[section] = Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
  return { ...document, components: sorted };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** The document as committed in openapi.json and served by the local stack. */
export function serializeOpenApiDocument(document: object = buildOpenApiDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
