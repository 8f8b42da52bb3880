import { getDeliveryRoute } from '../definitions/delivery-routes';
import { showOwnDelivery } from '../shared/domain/callbacks/delivery-api';
import { errors } from '../shared/errors';
import { keyedHandler } from '../shared/http/handler';
import { deliveryIdParam } from '../shared/schemas/deliveries';

// An id the service could not have minted names no delivery, without a table read.
const notFound = (params: Record<string, string>) => errors.deliveryNotFound(params.delivery_id ?? '');

export const handler = keyedHandler(getDeliveryRoute, { params: deliveryIdParam, notFound }, async ({ principal, params }) => ({
  status: 200,
  body: await showOwnDelivery(principal, params.delivery_id ?? ''),
}));
