/**
 * A client's plain settings as they apply (its own values, else the defaults): read by the
 * booking page, the dashboard and order settling, set by the operator CLI and the dashboard
 * (clients.ts `setClientSettings`, which checks them with `settingsProblems`). Kept apart from
 * clients.ts so that public functions do not load the key and plan code.
 */
import type { ClientRecord, ClientSettings, ClientSettingsChange } from '../store/api-key-store';
import { email as emailSchema, phone as phoneSchema } from '../schemas/common';
import { isTimeZone } from './hotel-time';
import { DEFAULT_LANGUAGE, isLanguage, type Language, LANGUAGES } from '../i18n/languages';

/** Guests may book at most this many days ahead on the booking page, unless the client says otherwise. */
export const DEFAULT_BOOKING_HORIZON_DAYS = 365;
/** The longest horizon a client may set: ten years. */
export const MAX_BOOKING_HORIZON_DAYS = 3650;
/** A hotel's zone until it says otherwise. */
export const DEFAULT_TIME_ZONE = 'UTC';
/** The longest cancellation policy or address a client may set, in characters. */
export const MAX_SETTING_TEXT = 1000;
/** Guests may cancel their own booking until this many hours before check-in, unless the client says otherwise. */
export const DEFAULT_FREE_CANCELLATION_HOURS = 48;
/** The longest free-cancellation window a client may set: a year, in hours. */
export const MAX_FREE_CANCELLATION_HOURS = 8760;

/** What each setting is, as `ops clients settings` and the dashboard show it. */
export interface AppliedSettings {
  booking_horizon_days: number;
  below_rate_orders: NonNullable<ClientSettings['below_rate_orders']>;
  time_zone: string;
  /** Unset: the guest page says nothing about taxes. */
  taxes_included: boolean | null;
  cancellation_policy: string | null;
  check_in_time: string | null;
  address: string | null;
  free_cancellation_hours: number;
  /** The hotel's contact for guests (pages, e-mails; the e-mail is their Reply-To). */
  phone: string | null;
  email: string | null;
  /** Taxes on the room price in percent; 0: none. */
  tax_percent: number;
  /** The guests' language when neither they nor their browser chose one of ours. */
  language: Language;
}

/** A client's settings as they apply: its own values, else the defaults. */
export function clientSettingsOf(client: ClientRecord): AppliedSettings {
  return {
    booking_horizon_days: client.booking_horizon_days ?? DEFAULT_BOOKING_HORIZON_DAYS,
    below_rate_orders: client.below_rate_orders ?? 'lock',
    time_zone: client.time_zone ?? DEFAULT_TIME_ZONE,
    taxes_included: client.taxes_included ?? null,
    cancellation_policy: client.cancellation_policy ?? null,
    check_in_time: client.check_in_time ?? null,
    address: client.address ?? null,
    free_cancellation_hours: client.free_cancellation_hours ?? DEFAULT_FREE_CANCELLATION_HOURS,
    phone: client.phone ?? null,
    email: client.email ?? null,
    tax_percent: client.tax_percent ?? 0,
    language: isLanguage(client.language) ? client.language : DEFAULT_LANGUAGE,
  };
}

/** The hotel's time zone (IANA name): `UTC` for a client that has not set one. */
export function timeZoneOf(client: Pick<ClientRecord, 'time_zone'>): string {
  return client.time_zone ?? DEFAULT_TIME_ZONE;
}

const BELOW_RATE = ['lock', 'manual'];

/** What is wrong with settings about to be saved, field by field (empty: nothing); null (back to the default) is never wrong. */
export function settingsProblems(settings: ClientSettingsChange): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const horizon = settings.booking_horizon_days;
  if (horizon != null && (!Number.isInteger(horizon) || horizon < 1 || horizon > MAX_BOOKING_HORIZON_DAYS)) {
    problems.push({ path: 'booking_horizon_days', message: `must be a whole number of days from 1 to ${MAX_BOOKING_HORIZON_DAYS}` });
  }
  const hours = settings.free_cancellation_hours;
  if (hours != null && (!Number.isInteger(hours) || hours < 0 || hours > MAX_FREE_CANCELLATION_HOURS)) {
    problems.push({ path: 'free_cancellation_hours', message: `must be a whole number of hours from 0 to ${MAX_FREE_CANCELLATION_HOURS}` });
  }
  if (settings.below_rate_orders != null && !BELOW_RATE.includes(settings.below_rate_orders)) {
    problems.push({ path: 'below_rate_orders', message: `must be one of ${BELOW_RATE.join(', ')}` });
  }
  if (settings.time_zone != null && !isTimeZone(settings.time_zone)) {
    problems.push({ path: 'time_zone', message: 'must be a time zone name such as Europe/London or America/New_York' });
  }
  if (settings.check_in_time != null && !/^([01]\d|2[0-3]):[0-5]\d$/.test(settings.check_in_time)) {
    problems.push({ path: 'check_in_time', message: 'must be a time of day such as 15:00' });
  }
  const tax = settings.tax_percent;
  if (tax != null && (typeof tax !== 'number' || !Number.isFinite(tax) || tax < 0 || tax > 100 || Math.round(tax * 1000) !== tax * 1000)) {
    problems.push({ path: 'tax_percent', message: 'must be a percentage from 0 to 100, such as 10 or 8.875' });
  }
  if (settings.phone != null && !phoneSchema.safeParse(settings.phone).success) {
    problems.push({ path: 'phone', message: 'must be a phone number in international format, such as +15551234567' });
  }
  if (settings.email != null && !emailSchema.safeParse(settings.email).success) {
    problems.push({ path: 'email', message: 'must be an e-mail address, such as desk@example.com' });
  }
  if (settings.language != null && !isLanguage(settings.language)) {
    problems.push({ path: 'language', message: `must be one of ${LANGUAGES.join(', ')}` });
  }
  for (const path of ['cancellation_policy', 'address'] as const) {
    const text = settings[path];
    if (text != null && text.length > MAX_SETTING_TEXT) problems.push({ path, message: `must be at most ${MAX_SETTING_TEXT} characters` });
  }
  return problems;
}
