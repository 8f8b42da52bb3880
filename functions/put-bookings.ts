import { putBookingsRoute } from '../definitions/property-sync-routes';
import { syncBookings } from '../shared/domain/property-sync/sync-bookings';
import { keyedHandler } from '../shared/http/handler';
import { putBookingsBody } from '../shared/schemas/property-sync';

export const handler = keyedHandler(putBookingsRoute, { body: putBookingsBody }, async ({ principal, body, remainingTimeMs }) => ({
  status: 200,
  body: await syncBookings(principal.clientId, body, { budget: { remainingMs: remainingTimeMs } }),
}));
