import { listDeliveriesRoute } from '../definitions/delivery-routes';
import { listOwnDeliveries } from '../shared/domain/callbacks/delivery-api';
import { keyedHandler } from '../shared/http/handler';
import { listDeliveriesQuery } from '../shared/schemas/deliveries';

export const handler = keyedHandler(listDeliveriesRoute, { query: listDeliveriesQuery }, async ({ principal, query }) => ({
  status: 200,
  body: await listOwnDeliveries(principal, query),
}));
