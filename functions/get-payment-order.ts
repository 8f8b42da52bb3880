import { findRoute } from '../infra/routes';
import { getPaymentOrderStatus } from '../shared/domain/payments/payment-orders';
import { keyedHandler } from '../shared/http/handler';

export const handler = keyedHandler(findRoute('GetPaymentOrder'), {}, async ({ principal, params }) => ({
  status: 200,
  body: await getPaymentOrderStatus(principal, params.order_reference ?? ''),
}));
