import { createPaymentOrderRoute } from '../definitions/payment-routes';
import { config } from '../shared/config';
import { createPaymentOrder } from '../shared/domain/payments/create-payment-order';
import { keyedHandler } from '../shared/http/handler';
import { paymentOrderIssue, paymentOrderRequest } from '../shared/schemas/payments';

export const handler = keyedHandler(
  createPaymentOrderRoute,
  { body: paymentOrderRequest, mapIssues: paymentOrderIssue },
  async ({ principal, body, baseUrl }) => {
    const created = await createPaymentOrder(principal, body, { baseUrl, allowHttp: config().isLocal });
    return { status: created.status, body: created.body };
  },
);
