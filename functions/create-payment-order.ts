import { findRoute } from '../infra/routes';
import { errors } from '../shared/errors';
import { keyedHandler } from '../shared/http/handler';

// Area B lands with the payment orders issue; until then the route answers 501 in the envelope.
export const handler = keyedHandler(findRoute('CreatePaymentOrder'), {}, async () => {
  throw errors.notImplemented('Payment order creation');
});
