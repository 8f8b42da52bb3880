/**
 * A client's settings changed, audited with the old and the new value of each setting that
 * changed: the hotel's settings an admin saves (the dashboard's Hotel settings), and any of them
 * with the booking horizon and below-rate orders as the platform sets them (`ops clients
 * settings`, `ops clients set-time-zone`).
 */
import type { ClientSettingsChange } from '../../store/api-key-store';
import type { AppliedSettings } from '../client-settings';
import { findClient, setClientSettings } from '../clients';
import { clientSettingsOf } from '../client-settings';
import { errors } from '../../errors';
import { type Actor, recordAction } from './actor';

export type { ClientSettingsChange };

/** The settings the Hotel settings page sets, in its order: the ones its entry records. */
export const HOTEL_SETTINGS = ['time_zone', 'taxes_included', 'tax_percent', 'cancellation_policy', 'check_in_time', 'address', 'phone', 'email', 'free_cancellation_hours', 'language'] as const;
export type HotelSetting = (typeof HOTEL_SETTINGS)[number];

/** Every setting of a client, the hotel's first: the ones the operator CLI's entry records. */
export const CLIENT_SETTINGS = [...HOTEL_SETTINGS, 'booking_horizon_days', 'below_rate_orders'] as const satisfies readonly (keyof AppliedSettings)[];
export type ClientSetting = (typeof CLIENT_SETTINGS)[number];

export interface SavedSettings<S extends ClientSetting = HotelSetting> {
  before: AppliedSettings;
  after: AppliedSettings;
  /** The recorded settings that changed, in their list's order; none: nothing is recorded. */
  changed: S[];
}

/**
 * Applies the change (setClientSettings' rules and refusals) and, when a hotel setting changed,
 * records `hotel_settings.set` with the changed settings' new values and, as `previous`, their old.
 */
export function saveHotelSettings(actor: Actor, change: ClientSettingsChange, now = new Date()): Promise<SavedSettings> {
  return saveSettings(actor, change, HOTEL_SETTINGS, now);
}

/** As saveHotelSettings, the booking horizon and below-rate orders recorded too when they changed. */
export function saveClientSettings(actor: Actor, change: ClientSettingsChange, now = new Date()): Promise<SavedSettings<ClientSetting>> {
  return saveSettings(actor, change, CLIENT_SETTINGS, now);
}

async function saveSettings<S extends ClientSetting>(actor: Actor, change: ClientSettingsChange, recorded: readonly S[], now: Date): Promise<SavedSettings<S>> {
  const found = await findClient(actor.client_id);
  // setClientSettings refuses a bad setting first, then an unknown client (404 NOT_FOUND).
  const after = await setClientSettings(actor.client_id, change);
  // A client created between the two reads has no before to compare: nothing is recorded.
  const before = found ? clientSettingsOf(found) : after;
  const changed = recorded.filter((name) => before[name] !== after[name]);
  if (changed.length) {
    const pick = (settings: AppliedSettings) => Object.fromEntries(changed.map((name) => [name, settings[name]]));
    await recordAction(actor, { action: 'hotel_settings.set', changes: pick(after), previous: pick(before) }, now);
  }
  return { before, after, changed };
}

/** A booking-page slug: 3 to 60 lowercase letters, digits and hyphens, and not shaped as a client id (the id address keeps working). */
const SLUG = /^[a-z0-9-]{3,60}$/;
const ID_SHAPED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Gives the hotel's booking page its own address, `/book/<slug>` (null: none), freeing the slug it
 * had; audited as a hotel setting when it changed. 400 VALIDATION_ERROR (path `slug`) for a slug
 * not of that shape or another client's; 404 NOT_FOUND for an unknown client; the previous slug
 * when the slug is unchanged.
 */
export async function saveClientSlug(actor: Actor, slug: string | null, now = new Date()): Promise<{ slug: string | null; previous: string | null }> {
  if (slug !== null && (!SLUG.test(slug) || ID_SHAPED.test(slug))) throw errors.slugInvalid(slug);
  const { replaceClientSlug } = await import('../../store/slug-store');
  // A concurrent change of the same client's slug: read again and retry, a few times.
  for (let attempt = 0; attempt < 5; attempt++) {
    const client = await findClient(actor.client_id);
    if (!client) throw errors.clientNotFound(actor.client_id);
    const previous = client.slug ?? null;
    if (previous === slug) return { slug, previous };
    const refusal = await replaceClientSlug(actor.client_id, slug, previous ?? undefined);
    if (refusal === 'taken') throw errors.slugTaken(slug!);
    if (!refusal) {
      await recordAction(actor, { action: 'hotel_settings.set', changes: { slug }, previous: { slug: previous } }, now);
      return { slug, previous };
    }
  }
  throw errors.serviceUnavailable();
}
