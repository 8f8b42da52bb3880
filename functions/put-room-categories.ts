import { putRoomCategoriesRoute } from '../definitions/property-sync-routes';
import { syncCategories } from '../shared/domain/property-sync/sync-categories';
import { keyedHandler } from '../shared/http/handler';
import { putCategoriesBody } from '../shared/schemas/property-sync';

export const handler = keyedHandler(putRoomCategoriesRoute, { body: putCategoriesBody }, async ({ principal, body, remainingTimeMs }) => ({
  status: 200,
  body: await syncCategories(principal.clientId, body, { budget: { remainingMs: remainingTimeMs } }),
}));
