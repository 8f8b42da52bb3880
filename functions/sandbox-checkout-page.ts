import { findRoute } from '../infra/routes';
import { errors } from '../shared/errors';
import { publicHandler } from '../shared/http/handler';

// Area B lands with the payment orders issue; until then the route answers 501 in the envelope.
export const handler = publicHandler(findRoute('SandboxCheckoutPage'), {}, async () => {
  throw errors.notImplemented('The sandbox checkout');
});
