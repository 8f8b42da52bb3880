/**
 * How guests pay, each change with its audit entry: the payment provider an admin chooses among
 * the linked accounts (the dashboard's Integrations), the provider the platform sets on any
 * account, linking it (`ops providers set`), and paying at the hotel (no CLI command).
 */
import { getProviderSettings, type ProviderSettings } from '../../store/payment-store';
import { setPayAtProperty } from '../guest-booking/guest-client';
import { chooseProvider, type ProviderChoice } from '../payments/provider-accounts';
import { configureProvider } from '../payments/providers';
import { type Actor, recordAction } from './actor';

/**
 * The provider, for Stripe one of the accounts linked to the client (chooseProvider's rules and
 * refusals); records `provider.set` with the settings before as `previous`, changed or not.
 */
export async function choosePaymentProvider(actor: Actor, input: { provider: string; account?: string }, now = new Date()): Promise<ProviderChoice> {
  const choice = await chooseProvider(actor.client_id, input);
  await recordProvider(actor, choice.settings, choice.previous, now);
  return choice;
}

/**
 * The provider, for Stripe on any connected account, which is linked to the client too
 * (configureProvider's rules and refusals); records `provider.set` as choosePaymentProvider does.
 */
export async function setPaymentProvider(actor: Actor, input: { provider: string; account?: string }, now = new Date()): Promise<ProviderSettings> {
  const previous = await getProviderSettings(actor.client_id);
  const settings = await configureProvider(actor.client_id, input);
  await recordProvider(actor, settings, previous, now);
  return settings;
}

const recordProvider = (actor: Actor, settings: ProviderSettings, previous: ProviderSettings | undefined, now: Date) =>
  recordAction(
    actor,
    {
      action: 'provider.set',
      changes: { provider: settings.provider, account: settings.account ?? null },
      previous: { provider: previous?.provider ?? null, account: previous?.account ?? null },
    },
    now,
  );

/** Whether guests may book and pay at the hotel (setPayAtProperty's refusals); records `guest_booking.pay_at_property`. */
export async function choosePayAtProperty(actor: Actor, enabled: boolean, now = new Date()): Promise<void> {
  await setPayAtProperty(actor.client_id, enabled);
  await recordAction(actor, { action: 'guest_booking.pay_at_property', changes: { pay_at_property: enabled } }, now);
}
