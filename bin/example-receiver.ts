/**
 * Runs the receiver kit's example receiver (shared/receiver-kit/example-receiver.ts):
 *   CALLBACK_SECRET=whsec_... PORT=8080 npx tsx bin/example-receiver.ts
 * CALLBACK_SECRET may list several secrets, comma-separated, during a rotation. It takes every
 * event the service sends: as a callback URL, booking.confirmed, booking.modified,
 * booking.cancelled and booking.no_show (each booking upserted by `booking.id`, by
 * `booking.sequence`); as a webhook URL, payment_order.paid and payment_order.refunded. It prints
 * each event it receives.
 */
import { BOOKING_EVENT_NAMES, PAYMENT_ORDER_EVENT_NAMES } from '../shared/receiver-kit';
import { startExampleReceiver } from '../shared/receiver-kit/example-receiver';

const secret = process.env.CALLBACK_SECRET;
if (!secret) console.warn('CALLBACK_SECRET is not set: signatures are not verified');
const receiver = await startExampleReceiver({
  secret: secret?.split(','),
  port: Number(process.env.PORT ?? 8080),
  onEvent: async (event, meta) => {
    console.log(`${meta.eventName} ${meta.deliveryId}`, JSON.stringify(event));
  },
});
console.log(`receiving at ${receiver.url}`);
console.log(`callback events: ${BOOKING_EVENT_NAMES.join(', ')}; webhook events: ${PAYMENT_ORDER_EVENT_NAMES.join(', ')}`);
