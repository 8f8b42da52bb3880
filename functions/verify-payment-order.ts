import { verifyPaymentOrderRoute } from '../definitions/payment-routes';
import { verifyPaymentOrder } from '../shared/domain/payments/reconcile-payment-order';
import { errors } from '../shared/errors';
import { publicHandler } from '../shared/http/handler';
import { verifyQuery } from '../shared/schemas/payments';

// Public: the provider sends the guest here. Unknown orders get a 404, never a redirect.
export const handler = publicHandler(verifyPaymentOrderRoute, { query: verifyQuery }, async ({ query }) => {
  const location = await verifyPaymentOrder(query.reference);
  if (!location) throw errors.paymentOrderNotFound(query.reference);
  return { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' }, rawBody: '' };
});
