import { findRoute } from '../infra/routes';
import { AppError, errors } from '../shared/errors';
import { publicHandler } from '../shared/http/handler';
import { completeSandboxSession } from '../shared/payments/sandbox';
import { SANDBOX_OUTCOMES, type SandboxOutcome } from '../shared/schemas/payments';

// The hosted page's form: records the tester's choice, then sends the guest to the return URL.
export const handler = publicHandler(findRoute('SandboxCheckoutSubmit'), {}, async ({ params, headers, body }) => {
  if (!(headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) throw errors.unsupportedMediaType('application/x-www-form-urlencoded');
  const outcome = new URLSearchParams(typeof body === 'string' ? body : '').get('outcome');
  if (!SANDBOX_OUTCOMES.includes(outcome as SandboxOutcome)) {
    throw errors.validation([{ path: 'outcome', message: `must be one of ${SANDBOX_OUTCOMES.join(', ')}` }]);
  }
  const session = await completeSandboxSession(params.provider_reference ?? '', outcome as SandboxOutcome);
  if (!session) throw new AppError(404, 'NOT_FOUND', 'No such checkout session');
  return { status: 303, headers: { Location: session.return_url, 'Cache-Control': 'no-store' }, rawBody: '' };
});
