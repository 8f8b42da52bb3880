/** The events the service POSTs to a client (`webhooks`): the signed callback and webhook. */
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DEFAULT_CALLBACK_RETRY_DELAYS_SECONDS } from '../../definitions/service-defaults';
import {
  bookingCancelledPayload,
  bookingConfirmedPayload,
  bookingModifiedPayload,
  bookingNoShowPayload,
  paymentOrderPaidPayload,
  paymentOrderRefundedPayload,
} from '../schemas/responses';
import { examples } from './examples';
import { json } from './operations';

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
    'webhook-id': z.uuid().meta({ param: { description: 'Standard Webhooks: the delivery id, the same as `X-Service-Delivery`.' } }),
    'webhook-timestamp': z
      .string()
      .regex(/^\d+$/)
      .meta({ param: { description: 'Standard Webhooks: Unix seconds of this attempt. Refuse one more than 5 minutes from your clock.' } }),
    'webhook-signature': z.string().meta({
      param: {
        description: `Standard Webhooks: \`v1,\` + base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{body}\`, keyed with the bytes a \`whsec_\` ${secret} encodes (any other secret: its UTF-8 bytes); several, space-separated, while a rotation's overlap lasts. The \`standardwebhooks\` and \`svix\` libraries verify it.`,
      },
    }),
  });
}

const deliveryDescription = (secret: string) =>
  [
    `Security: the service sends no credential (\`security: []\`); each delivery is signed instead. \`X-Service-Signature\` is the HMAC-SHA256 of the exact raw body with the client's ${secret}: a receiver that verifies it knows the service sent this body.`,
    '',
    'Delivery: HTTP POST with `Content-Type: application/json`; the body is serialized once when the event happens and every attempt sends the same bytes.',
    '',
    'Receiver contract: read the raw body before parsing; verify `X-Service-Signature` with the ' + secret + '; use `X-Service-Delivery` to detect duplicates; return 2xx only after the event is safely recorded, and the same 2xx for a delivery id already processed.',
    '',
    `Attempts time out after 10 s. 2xx: \`delivered\`. 429, 5xx, a timeout or a network error: retried automatically after ${retrySchedule} (\`CALLBACK_RETRY_DELAYS_SECONDS\`), then \`failed\`. 400, 401, 403, 409, 422, any other 4xx and redirects: \`needs_review\`, no automatic retry. Operators retry \`failed\` and \`needs_review\` deliveries with \`npm run ops -- deliveries retry\` (same \`X-Service-Delivery\`).`,
  ].join('\n');

export function registerWebhooks(registry: OpenAPIRegistry): void {
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
    // Redocly's security-defined: the receiver authenticates the signature, not a credential.
    security: [],
    responses: RECEIVER_RESPONSES,
  });
  const confirmed = examples.bookingConfirmed;
  const laterEvents = [
    {
      event: 'booking.modified',
      operationId: 'BookingModifiedCallback',
      when: 'Sent when hotel staff change a booking the service made (its dates, room or guests). The body carries the whole booking as it now is.',
      schema: bookingModifiedPayload,
      example: { ...confirmed, event: 'booking.modified', booking: { ...confirmed.booking, check_out_date: '2027-06-13', sequence: 2 } },
    },
    {
      event: 'booking.cancelled',
      operationId: 'BookingCancelledCallback',
      when: 'Sent when a booking the service made is cancelled by hotel staff or by its guest. A cancellation made through this API (`CancelServiceBooking`) is not sent back. Its nights are free from this moment.',
      schema: bookingCancelledPayload,
      example: {
        ...confirmed,
        event: 'booking.cancelled',
        booking: { ...confirmed.booking, status: 'cancelled', sequence: 3, cancellation_reason: 'The guest cannot travel' },
      },
    },
    {
      event: 'booking.no_show',
      operationId: 'BookingNoShowCallback',
      when: 'Sent when hotel staff mark a booking the service made as a no-show, once its check-in day has passed. Its nights from then on are free.',
      schema: bookingNoShowPayload,
      example: { ...confirmed, event: 'booking.no_show', booking: { ...confirmed.booking, status: 'no_show', sequence: 2 } },
    },
  ] as const;
  for (const later of laterEvents) {
    registry.registerWebhook({
      method: 'post',
      path: later.event,
      operationId: later.operationId,
      tags: ['Property sync'],
      summary: `${later.event} callback (to your callback URL)`,
      description: [
        `${later.when} Same headers, signature, delivery guarantees and retries as \`booking.confirmed\`; \`booking.sequence\` orders the events of one booking: upsert by \`booking.id\` and ignore an event whose sequence is lower than the one you have.`,
        '',
        deliveryDescription('callback secret'),
      ].join('\n'),
      request: {
        headers: eventHeaders(later.event, 'callback secret'),
        body: { required: true, content: json(later.schema, later.example) },
      },
      // Redocly's security-defined: the receiver authenticates the signature, not a credential.
      security: [],
      responses: RECEIVER_RESPONSES,
    });
  }
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
    // Redocly's security-defined: the receiver authenticates the signature, not a credential.
    security: [],
    responses: RECEIVER_RESPONSES,
  });
  registry.registerWebhook({
    method: 'post',
    path: 'payment_order.refunded',
    operationId: 'PaymentOrderRefundedWebhook',
    tags: ['Payment orders'],
    summary: 'payment_order.refunded webhook (to your webhook URL)',
    description: [
      'Sent when a refund of a payment order succeeds (at once, or when the provider settles a pending one) and the client has a webhook URL. One per refund; `payment_order.amount_refunded_minor` counts every succeeded refund of the order, this one included.',
      '',
      deliveryDescription('webhook secret'),
    ].join('\n'),
    request: {
      headers: eventHeaders('payment_order.refunded', 'webhook secret'),
      body: { required: true, content: json(paymentOrderRefundedPayload, examples.paymentOrderRefunded) },
    },
    // Redocly's security-defined: the receiver authenticates the signature, not a credential.
    security: [],
    responses: RECEIVER_RESPONSES,
  });
}
