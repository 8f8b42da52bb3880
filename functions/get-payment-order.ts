import { getPaymentOrderRoute } from '../definitions/payment-routes';
import { getPaymentOrderStatus } from '../shared/domain/payments/order-views';
import { errors } from '../shared/errors';
import { keyedHandler } from '../shared/http/handler';
import { orderReferenceParam } from '../shared/schemas/payments';

// A reference the service could not have minted is an unknown order, without a table read.
const notFound = (params: Record<string, string>) => errors.paymentOrderNotFound(params.order_reference ?? '');

export const handler = keyedHandler(getPaymentOrderRoute, { params: orderReferenceParam, notFound }, async ({ principal, params }) => ({
  status: 200,
  body: await getPaymentOrderStatus(principal, params.order_reference ?? ''),
}));
