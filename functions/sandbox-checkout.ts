import { sandboxCheckoutPageRoute, sandboxCheckoutSubmitRoute, sandboxRouteTable } from '../definitions/sandbox-routes';
import { errors } from '../shared/errors';
import { functionUrlHandler } from '../shared/http/function-url';
import { publicHandler } from '../shared/http/handler';
import { completeSandboxSession, getSandboxSession } from '../shared/payments/sandbox';
import { SANDBOX_CHECKOUT_CSP, sandboxCheckoutPage } from '../shared/payments/sandbox-page';
import { languageOr } from '../shared/i18n/languages';
import { translator } from '../shared/i18n/translator';
import { SANDBOX_OUTCOMES, type SandboxOutcome } from '../shared/schemas/payments';

const noSuchSession = errors.noSuchCheckoutSession;

// The hosted page: the amount, the customer and a button per outcome.
const page = publicHandler(sandboxCheckoutPageRoute, {}, async ({ params }) => {
  const session = await getSandboxSession(params.provider_reference ?? '');
  if (!session) throw noSuchSession();
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': SANDBOX_CHECKOUT_CSP,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
    },
    // The guest's language, kept on the session (a partner's order: English).
    rawBody: sandboxCheckoutPage(await translator(languageOr(session.language)), session),
  };
});

// The page's form: records the tester's choice, then sends the guest to the return URL (the API's verify).
const submit = publicHandler(sandboxCheckoutSubmitRoute, {}, async ({ params, headers, body }) => {
  if (!(headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) throw errors.unsupportedMediaType('application/x-www-form-urlencoded');
  const outcome = new URLSearchParams(typeof body === 'string' ? body : '').get('outcome');
  if (!SANDBOX_OUTCOMES.includes(outcome as SandboxOutcome)) {
    throw errors.validation([{ path: 'outcome', message: `must be one of ${SANDBOX_OUTCOMES.join(', ')}` }]);
  }
  const completed = await completeSandboxSession(params.provider_reference ?? '', outcome as SandboxOutcome);
  if (!completed) throw noSuchSession();
  return { status: 303, headers: { Location: completed.returnTo, 'Cache-Control': 'no-store' }, rawBody: '' };
});

// The sandbox checkout's origin: behind a function URL, every request of it comes here.
export const handler = functionUrlHandler(sandboxRouteTable, { SandboxCheckoutPage: page, SandboxCheckoutSubmit: submit });
