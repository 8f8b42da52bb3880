/**
 * Where a client's money goes (docs/behaviour.md "Payment safety in deployed stages"): the platform
 * links a client's Stripe connected accounts (`ops clients link-stripe-account`), and the hotel's
 * admins choose among the linked ones only, so a hijacked dashboard session cannot route payments
 * to an account of its own. A change of provider or account raises the ProviderAccountChanged
 * alarm.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { MONEY_ROUTING_METRICS } from '../../../definitions/metrics';
import { errors } from '../../errors';
import { logger, metrics } from '../../observability';
import { STRIPE_ACCOUNT_PATTERN } from '../../payments/stripe';
import {
  getLinkedStripeAccount,
  getProviderSettings,
  type LinkedStripeAccount,
  listLinkedStripeAccounts,
  type ProviderSettings,
  putLinkedStripeAccount,
  putProviderSettings,
} from '../../store/payment-store';
import { providerSettingsOf } from './providers';

export type { LinkedStripeAccount };

/** Links a connected account to the client (again: the first link stands); the client's linked accounts after it. */
export async function linkStripeAccount(
  clientId: string,
  account: string,
  now = new Date(),
): Promise<{ linked: LinkedStripeAccount; accounts: LinkedStripeAccount[] }> {
  if (!STRIPE_ACCOUNT_PATTERN.test(account)) throw errors.notAStripeAccount(account);
  const linked = await putLinkedStripeAccount(clientId, { account, linked_at: now.toISOString() });
  return { linked, accounts: await listLinkedStripeAccounts(clientId) };
}

export function linkedStripeAccounts(clientId: string): Promise<LinkedStripeAccount[]> {
  return listLinkedStripeAccounts(clientId);
}

export interface ProviderChoice {
  /** The settings before; undefined when none were set (the stage's sandbox, if any). */
  previous?: ProviderSettings;
  settings: ProviderSettings;
  changed: boolean;
}

const sameSettings = (a: ProviderSettings | undefined, b: ProviderSettings) => a?.provider === b.provider && a?.account === b.account;

/**
 * A hotel admin's choice of provider: a Stripe account must be one the platform linked to the
 * client (else 400 VALIDATION_ERROR). A change is published as ProviderAccountChanged and logged.
 */
export async function chooseProvider(clientId: string, input: { provider: string; account?: string }): Promise<ProviderChoice> {
  const settings = providerSettingsOf(input);
  if (settings.account && !(await getLinkedStripeAccount(clientId, settings.account))) {
    throw errors.stripeAccountNotLinked(settings.account);
  }
  const previous = await getProviderSettings(clientId);
  const changed = !sameSettings(previous, settings);
  if (changed) {
    await putProviderSettings(clientId, settings);
    metrics.addMetric(MONEY_ROUTING_METRICS.providerAccountChanged, MetricUnit.Count, 1);
    logger.warn('the payment provider account changed', {
      client_id: clientId,
      previous_provider: previous?.provider ?? null,
      previous_account: previous?.account ?? null,
      provider: settings.provider,
      account: settings.account ?? null,
    });
  }
  return { ...(previous ? { previous } : {}), settings, changed };
}
