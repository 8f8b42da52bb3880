import { putRatePlansRoute } from '../definitions/property-sync-routes';
import { syncRatePlans } from '../shared/domain/rates/sync-rate-plans';
import { keyedHandler } from '../shared/http/handler';
import { putRatePlansBody } from '../shared/schemas/rates';

export const handler = keyedHandler(putRatePlansRoute, { body: putRatePlansBody }, async ({ principal, body, remainingTimeMs }) => ({
  status: 200,
  body: await syncRatePlans(principal.clientId, body, { budget: { remainingMs: remainingTimeMs } }),
}));
