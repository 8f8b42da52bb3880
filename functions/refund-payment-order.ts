import { refundPaymentOrderRoute } from '../definitions/payment-routes';
import { refundCreatedView, refundPaymentOrder } from '../shared/domain/payments/refunds';
import { errors } from '../shared/errors';
import { keyedHandler } from '../shared/http/handler';
import { orderReferenceParam, refundIssue, refundRequest } from '../shared/schemas/payments';

// A reference the service could not have minted is an unknown order, without a table read.
const notFound = (params: Record<string, string>) => errors.paymentOrderNotFound(params.order_reference ?? '');

export const handler = keyedHandler(
  refundPaymentOrderRoute,
  { body: refundRequest, mapIssues: refundIssue, params: orderReferenceParam, notFound, optionalBody: true },
  async ({ principal, params, body, headers }) => {
    // The Idempotency-Key names the refund too: the same key on this order never refunds twice, even
    // after the replay record's 24 hours. Apart from the keys the service uses itself (`cancel:<booking_id>`).
    const key = headers['idempotency-key'];
    const refund = await refundPaymentOrder(principal.clientId, params.order_reference ?? '', { ...body, ...(key ? { idempotencyKey: `api:${key}` } : {}) });
    return { status: 201, body: refundCreatedView(refund) };
  },
);
