import { cancelServiceBookingRoute } from '../definitions/property-sync-routes';
import { cancelForPms } from '../shared/domain/property-sync/cancel-service-booking';
import { keyedHandler } from '../shared/http/handler';
import { cancelServiceBookingBody, serviceBookingIdParam } from '../shared/schemas/bookings';

export const handler = keyedHandler(
  cancelServiceBookingRoute,
  { body: cancelServiceBookingBody, params: serviceBookingIdParam, optionalBody: true },
  async ({ principal, params, body }) => ({
    status: 200,
    body: await cancelForPms(principal.clientId, params.booking_id ?? '', body),
  }),
);
