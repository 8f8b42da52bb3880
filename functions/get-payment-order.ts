import { findRoute } from '../definitions/routes';
import { getPaymentOrderStatus } from '../shared/domain/payments/order-views';
import { AppError } from '../shared/errors';
import { keyedHandler } from '../shared/http/handler';
import { orderReferenceParam } from '../shared/schemas/payments';

// A reference the service could not have minted is an unknown order, without a table read.
const notFound = () => new AppError(404, 'PAYMENT_ORDER_NOT_FOUND', 'No such payment order');

export const handler = keyedHandler(findRoute('GetPaymentOrder'), { params: orderReferenceParam, notFound }, async ({ principal, params }) => ({
  status: 200,
  body: await getPaymentOrderStatus(principal, params.order_reference ?? ''),
}));
