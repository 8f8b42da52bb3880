import { putRoomsRoute } from '../definitions/property-sync-routes';
import { syncRooms } from '../shared/domain/property-sync/sync-rooms';
import { keyedHandler } from '../shared/http/handler';
import { putRoomsBody } from '../shared/schemas/property-sync';

export const handler = keyedHandler(putRoomsRoute, { body: putRoomsBody }, async ({ principal, body, remainingTimeMs }) => ({
  status: 200,
  body: await syncRooms(principal.clientId, body, { budget: { remainingMs: remainingTimeMs } }),
}));
