import { getAvailabilityRoute } from '../definitions/property-sync-routes';
import { findAvailableRooms } from '../shared/domain/property-sync/availability';
import { keyedHandler } from '../shared/http/handler';
import { availabilityQuery } from '../shared/schemas/property-sync';

export const handler = keyedHandler(getAvailabilityRoute, { query: availabilityQuery }, async ({ principal, query }) => ({
  status: 200,
  body: await findAvailableRooms(principal.clientId, query),
}));
