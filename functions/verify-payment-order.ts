import { verifyPaymentOrderRoute } from '../definitions/payment-routes';
import { verifyPaymentOrder } from '../shared/domain/payments/reconcile-payment-order';
import { errors } from '../shared/errors';
import { languageOfHeaders } from '../shared/guest/language';
import { paymentReturnPage } from '../shared/guest/payment-return-page';
import { publicHandler } from '../shared/http/handler';
import { verifyQuery } from '../shared/schemas/payments';

// Public: the provider sends the payer here. Unknown orders get a 404, never a redirect; a guest
// page's order without its checkout's return secret gets a page that leads nowhere.
export const handler = publicHandler(verifyPaymentOrderRoute, { query: verifyQuery }, async ({ query, baseUrl, headers }) => {
  const outcome = await verifyPaymentOrder(query.reference, query.return);
  if (!outcome) throw errors.paymentOrderNotFound(query.reference);
  if ('page' in outcome) {
    const page = await paymentReturnPage(outcome.page, outcome.clientId, baseUrl, languageOfHeaders(headers));
    return { status: 200, headers: page.headers, rawBody: page.html };
  }
  return { status: 303, headers: { Location: outcome.redirect, 'Cache-Control': 'no-store' }, rawBody: '' };
});
