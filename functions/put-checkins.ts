import { putCheckinsRoute } from '../definitions/property-sync-routes';
import { syncCheckins } from '../shared/domain/property-sync/sync-checkins';
import { keyedHandler } from '../shared/http/handler';
import { putCheckinsBody } from '../shared/schemas/property-sync';

export const handler = keyedHandler(putCheckinsRoute, { body: putCheckinsBody }, async ({ principal, body, remainingTimeMs }) => ({
  status: 200,
  body: await syncCheckins(principal.clientId, body, { budget: { remainingMs: remainingTimeMs } }),
}));
