import type { Route } from './routes';

/**
 * The sandbox payment provider's hosted checkout (docs/behaviour.md "Sandbox payment provider"), on an
 * origin of its own as Stripe's is: `checkout_url` = `{sandbox origin}/checkout/{provider_reference}`.
 * The stack serves these from one function's Lambda function URL, the local stack on SANDBOX_PORT;
 * API Gateway never serves them. They stand in for a provider's hosted page and are documented as
 * one, with the origin they are served on.
 */
const sandboxCheckout = {
  function: 'SandboxCheckout',
  path: '/checkout/{provider_reference}',
  handler: 'sandbox-checkout',
  auth: { kind: 'public' },
  // The session by GetItem; the outcome by conditional UpdateItem (read again when already completed).
  access: { dynamodb: { actions: ['GetItem', 'UpdateItem'], writes: ['SANDBOX#'] } },
  description: 'Sandbox provider hosted checkout, on its own origin: the page and its form',
  origin: 'sandbox',
} as const satisfies Partial<Route>;

export const sandboxCheckoutPageRoute = { ...sandboxCheckout, id: 'SandboxCheckoutPage', method: 'GET' } as const satisfies Route;
export const sandboxCheckoutSubmitRoute = { ...sandboxCheckout, id: 'SandboxCheckoutSubmit', method: 'POST' } as const satisfies Route;

export const sandboxRouteTable = [sandboxCheckoutPageRoute, sandboxCheckoutSubmitRoute] as const satisfies readonly Route[];
