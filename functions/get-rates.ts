import { getRatesRoute } from '../definitions/property-sync-routes';
import { readRates } from '../shared/domain/rates/read-rates';
import { keyedHandler } from '../shared/http/handler';
import { ratesQuery } from '../shared/schemas/rates';

export const handler = keyedHandler(getRatesRoute, { query: ratesQuery }, async ({ principal, query }) => ({
  status: 200,
  body: await readRates(principal.clientId, query),
}));
