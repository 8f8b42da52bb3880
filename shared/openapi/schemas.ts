/**
 * OpenAPI names and metadata for the handlers' own schema instances. They are kept in the
 * generator's registry (`zodToOpenAPIRegistry`), keyed by the (classic equivalents of the)
 * instances: nothing is added to or changed on the schemas themselves, so parsing is unaffected.
 */
import { zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { calendarDate, email, images, MAX_STAY_NIGHTS, money, phone, timestamp } from '../schemas/common';
import { cancelServiceBookingBody, serviceBookingIdParam } from '../schemas/bookings';
import { orderReferenceParam, paymentOrderRequest, refundRequest, verifyQuery } from '../schemas/payments';
import { availabilityQuery, putBookingsBody, putCategoriesBody, putCheckinsBody, putRoomsBody } from '../schemas/property-sync';
import {
  availabilityResult,
  availableRoom,
  bookingConfirmedPayload,
  bookingConflict,
  bookingSyncResult,
  cancelledServiceBooking,
  categorySyncResult,
  checkinSyncResult,
  errorDetail,
  paymentOrderCreated,
  paymentOrderPaidPayload,
  paymentOrderRefund,
  paymentOrderRefundedPayload,
  paymentOrderStatus,
  roomSyncResult,
  serviceBookingSync,
} from '../schemas/responses';
import { classic } from './classic';

export type AnySchema = z.core.$ZodType;

/**
 * Adds OpenAPI metadata (and a component name) to a schema instance (its classic equivalent, the
 * one the generator sees), in the generator's own registry.
 */
export function annotate<T extends AnySchema>(schema: T, metadata: Record<string, unknown>, refId?: string) {
  const target = classic<z.ZodType<z.output<T>, z.input<T>>>(schema);
  const current = zodToOpenAPIRegistry.get(target) ?? {};
  zodToOpenAPIRegistry.add(target, { ...current, ...metadata, ...(refId ? { _internal: { ...current._internal, refId } } : {}) });
  return target;
}

export const component = <T extends AnySchema>(refId: string, schema: T, metadata: Record<string, unknown> = {}) => annotate(schema, metadata, refId);

/** Element schema of a sync array (the item schema wrapped in its size check). */
const element = (array: AnySchema) => classic<z.ZodArray>(array).element as AnySchema;

let named = false;

/** Names the components and describes fields; once, before the first document is generated. */
export function nameSchemas(): void {
  if (named) return;
  named = true;
  // Field rules of docs/behaviour.md "Conventions" (lengths and bounds are in the schemas themselves).
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
  component('CancelledServiceBooking', cancelledServiceBooking);
  component('CancelServiceBookingRequest', cancelServiceBookingBody);
  annotate(serviceBookingIdParam.shape.booking_id, { param: { description: 'The booking\'s `id` (`booking.id` of its `booking.confirmed` callback).' }, example: 'e5d4c3b2-a1f0-5e9d-8c7b-6a5f4e3d2c1b' });
  component('PaymentOrderCreated', paymentOrderCreated);
  component('PaymentOrderStatus', paymentOrderStatus);
  component('ServiceBookingSync', serviceBookingSync);
  component('BookingConfirmedEvent', bookingConfirmedPayload, { description: 'Body of the signed `booking.confirmed` callback (the spec\'s "Booking-confirmed callback payload").' });
  component('PaymentOrderPaidEvent', paymentOrderPaidPayload, { description: 'Body of the signed `payment_order.paid` webhook.' });
  component('PaymentOrderRefundedEvent', paymentOrderRefundedPayload, { description: 'Body of the signed `payment_order.refunded` webhook.' });
  component('RefundRequest', refundRequest, { description: 'Unknown fields are ignored. Without `amount_minor`, what is left of the order is refunded.' });
  annotate(refundRequest.shape.amount_minor, { description: 'Integer in the order\'s minor units; at most what is left to refund.', example: 8000 });
  annotate(refundRequest.shape.reason, { description: 'Why (kept with the refund, up to 2,000 characters).', example: 'Guest left a night early' });
  component('PaymentOrderRefund', paymentOrderRefund);
}
