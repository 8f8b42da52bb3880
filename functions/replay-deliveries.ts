import { findRoute } from '../definitions/routes';
import { replayOwnDeliveries } from '../shared/domain/callbacks/delivery-api';
import { keyedHandler } from '../shared/http/handler';
import { replayDeliveriesBody } from '../shared/schemas/deliveries';

export const handler = keyedHandler(findRoute('ReplayDeliveries'), { body: replayDeliveriesBody }, async ({ principal, body }) => ({
  status: 202,
  body: await replayOwnDeliveries(principal, body),
}));
