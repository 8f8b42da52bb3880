/** Which provider adapter serves a client, and the operator's setting of it. */
import { AppError } from '../../errors';
import type { PaymentProvider } from '../../payments/provider';
import { sandboxProvider } from '../../payments/sandbox';
import { STRIPE_ACCOUNT_PATTERN, stripeProvider } from '../../payments/stripe';
import { type ProviderSettings, putProviderSettings } from '../../store/payment-store';

export const PROVIDERS = ['sandbox', 'stripe'] as const;

export function providerFor(settings: ProviderSettings, baseUrl: string): PaymentProvider {
  switch (settings.provider) {
    case 'sandbox':
      return sandboxProvider(baseUrl);
    case 'stripe':
      return stripeProvider();
  }
}

/**
 * Sets a client's provider (`providers set`): sandbox, or Stripe with the connected account
 * (acct_…) its checkouts are created on. Orders already processing keep being verified with
 * the client's current settings.
 */
export async function configureProvider(clientId: string, input: { provider: string; account?: string }): Promise<ProviderSettings> {
  if (!(PROVIDERS as readonly string[]).includes(input.provider)) {
    throw new AppError(400, 'VALIDATION_ERROR', `provider must be one of ${PROVIDERS.join(', ')}`, [
      { path: 'provider', message: `must be one of ${PROVIDERS.join(', ')}` },
    ]);
  }
  let settings: ProviderSettings;
  if (input.provider === 'stripe') {
    if (!input.account || !STRIPE_ACCOUNT_PATTERN.test(input.account)) {
      throw new AppError(400, 'VALIDATION_ERROR', 'Stripe needs the connected account id (acct_…)', [
        { path: 'account', message: 'must be a Stripe account id like acct_1A2b3C' },
      ]);
    }
    settings = { provider: 'stripe', account: input.account };
  } else {
    if (input.account) {
      throw new AppError(400, 'VALIDATION_ERROR', 'An account is only set for Stripe', [{ path: 'account', message: 'only for --provider stripe' }]);
    }
    settings = { provider: 'sandbox' };
  }
  await putProviderSettings(clientId, settings);
  return settings;
}
