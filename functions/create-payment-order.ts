import { findRoute } from '../definitions/routes';
import { config } from '../shared/config';
import { createPaymentOrder } from '../shared/domain/payments/create-payment-order';
import { keyedHandler } from '../shared/http/handler';
import { paymentOrderIssue, paymentOrderRequest } from '../shared/schemas/payments';

export const handler = keyedHandler(
  findRoute('CreatePaymentOrder'),
  { body: paymentOrderRequest, mapIssues: paymentOrderIssue },
  async ({ principal, body, baseUrl }) => {
    const created = await createPaymentOrder(principal, body, { baseUrl, allowHttp: config().isLocal });
    return { status: created.status, body: created.body };
  },
);
