import { findRoute } from '../infra/routes';
import { AppError } from '../shared/errors';
import { publicHandler } from '../shared/http/handler';
import { getSandboxSession } from '../shared/payments/sandbox';
import { sandboxCheckoutPage } from '../shared/payments/sandbox-page';

export const handler = publicHandler(findRoute('SandboxCheckoutPage'), {}, async ({ params }) => {
  const session = await getSandboxSession(params.provider_reference ?? '');
  if (!session) throw new AppError(404, 'NOT_FOUND', 'No such checkout session');
  return {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY' },
    rawBody: sandboxCheckoutPage(session),
  };
});
