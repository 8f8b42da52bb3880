import { retryDeliveryRoute } from '../definitions/delivery-routes';
import { retryOwnDelivery } from '../shared/domain/callbacks/delivery-api';
import { errors } from '../shared/errors';
import { keyedHandler } from '../shared/http/handler';
import { deliveryIdParam } from '../shared/schemas/deliveries';

const notFound = (params: Record<string, string>) => errors.deliveryNotFound(params.delivery_id ?? '');

export const handler = keyedHandler(retryDeliveryRoute, { params: deliveryIdParam, notFound }, async ({ principal, params }) => ({
  status: 202,
  body: await retryOwnDelivery(principal, params.delivery_id ?? ''),
}));
