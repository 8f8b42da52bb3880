import { findRoute } from '../definitions/routes';
import { listOwnDeliveries } from '../shared/domain/callbacks/delivery-api';
import { keyedHandler } from '../shared/http/handler';
import { listDeliveriesQuery } from '../shared/schemas/deliveries';

export const handler = keyedHandler(findRoute('ListDeliveries'), { query: listDeliveriesQuery }, async ({ principal, query }) => ({
  status: 200,
  body: await listOwnDeliveries(principal, query),
}));
