import { replayDeliveriesRoute } from '../definitions/delivery-routes';
import { replayOwnDeliveries } from '../shared/domain/callbacks/delivery-api';
import { keyedHandler } from '../shared/http/handler';
import { replayDeliveriesBody } from '../shared/schemas/deliveries';

export const handler = keyedHandler(replayDeliveriesRoute, { body: replayDeliveriesBody }, async ({ principal, body }) => ({
  status: 202,
  body: await replayOwnDeliveries(principal, body),
}));
