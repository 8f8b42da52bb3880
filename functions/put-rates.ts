import { putRatesRoute } from '../definitions/property-sync-routes';
import { pushRates } from '../shared/domain/rates/push-rates';
import { keyedHandler } from '../shared/http/handler';
import { putRatesEnvelope } from '../shared/schemas/rates';

export const handler = keyedHandler(putRatesRoute, { body: putRatesEnvelope }, async ({ principal, body, remainingTimeMs }) => {
  const { writes: _writes, ...result } = await pushRates(principal.clientId, body, { budget: { remainingMs: remainingTimeMs } });
  return { status: 200, body: result };
});
