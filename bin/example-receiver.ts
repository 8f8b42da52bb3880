/**
 * Runs the receiver kit's example receiver (shared/receiver-kit/example-receiver.ts):
 *   CALLBACK_SECRET=whsec_... PORT=8080 npx tsx bin/example-receiver.ts
 * CALLBACK_SECRET may list several secrets, comma-separated, during a rotation.
 */
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
