/** Which provider adapter serves a client. */
import { AppError } from '../../errors';
import type { PaymentProvider } from '../../payments/provider';
import { sandboxProvider } from '../../payments/sandbox';
import type { ProviderSettings } from '../../store/payment-store';

export function providerFor(settings: ProviderSettings, baseUrl: string): PaymentProvider {
  switch (settings.provider) {
    case 'sandbox':
      return sandboxProvider(baseUrl);
    case 'stripe':
      throw new AppError(501, 'NOT_IMPLEMENTED', 'The Stripe provider is not available yet');
  }
}
