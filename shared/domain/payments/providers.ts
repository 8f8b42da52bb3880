/**
 * Which provider adapter serves a payment attempt, and the operator's setting of a client's
 * provider. The sandbox provider lets anyone mark an order paid without money, so it exists only
 * where the stage turns it on (docs/behaviour.md "Payment safety in deployed stages"): everywhere
 * else no code path can reach it, whatever a client's settings or an old attempt say.
 */
import { config } from '../../config';
import { errors } from '../../errors';
import type { PaymentProvider } from '../../payments/provider';
import { sandboxProvider } from '../../payments/sandbox';
import { STRIPE_ACCOUNT_PATTERN, stripeProvider } from '../../payments/stripe';
import { getProviderSettings, type ProviderName, type ProviderSettings, putLinkedStripeAccount, putProviderSettings } from '../../store/payment-store';

export const PROVIDERS: readonly ProviderName[] = ['sandbox', 'stripe'];

export function providerFor(provider: ProviderName): PaymentProvider {
  switch (provider) {
    case 'sandbox':
      if (!config().sandboxPayments) throw errors.sandboxProviderUnavailable();
      return sandboxProvider();
    case 'stripe':
      return stripeProvider();
  }
}

/**
 * The provider and account a client's new checkouts are created on: its configured provider, or
 * the sandbox where the stage has one. A client with neither cannot take payments yet.
 */
export async function checkoutSettingsOf(clientId: string): Promise<ProviderSettings> {
  const settings = await getProviderSettings(clientId);
  if (settings) return settings;
  if (config().sandboxPayments) return { provider: 'sandbox' };
  throw errors.noProviderConfigured();
}

/**
 * The settings an operator asked for, checked: sandbox (where the stage has it), or Stripe with
 * the connected account (acct_…) its checkouts are created on.
 */
export function providerSettingsOf(input: { provider: string; account?: string }): ProviderSettings {
  if (!(PROVIDERS as readonly string[]).includes(input.provider)) {
    throw errors.unknownProvider(PROVIDERS);
  }
  if (input.provider === 'stripe') {
    if (!input.account || !STRIPE_ACCOUNT_PATTERN.test(input.account)) {
      throw errors.stripeAccountRequired();
    }
    return { provider: 'stripe', account: input.account };
  }
  if (input.account) throw errors.accountForStripeOnly();
  if (!config().sandboxPayments) {
    throw errors.sandboxProviderOff();
  }
  return { provider: 'sandbox' };
}

/**
 * Sets a client's provider (`providers set`, the platform's command): a Stripe account set this
 * way is linked to the client too, as `clients link-stripe-account` links it. Orders already
 * processing keep being settled on the provider and account their attempt was made on.
 * Hotel staff choose among linked accounts only (provider-accounts.ts `chooseProvider`).
 */
export async function configureProvider(clientId: string, input: { provider: string; account?: string }): Promise<ProviderSettings> {
  const settings = providerSettingsOf(input);
  if (settings.account) await putLinkedStripeAccount(clientId, { account: settings.account, linked_at: new Date().toISOString() });
  await putProviderSettings(clientId, settings);
  return settings;
}
