/**
 * The hotel of a booking page, as its guests see it: the client (its name, currency, booking
 * horizon, time zone and what it tells guests), the room a guest chose among its rooms, and the
 * dashboard's "pay at the hotel" setting.
 */
import { errors } from '../../errors';
import { getClient } from '../../store/api-key-store';
import { putPayAtProperty } from '../../store/guest-booking-store';
import type { RoomRecord } from '../../store/room-store';
import { getRoom } from '../../store/service-booking-store';
import { clientIdOfSlug } from '../../store/slug-store';
import { clientSettingsOf } from '../client-settings';
import { emailEnabled } from '../guest-email/outbox';
import { UUID } from './tokens';
import type { Language } from '../../i18n/languages';

export interface GuestClient {
  client_id: string;
  /** Its booking page's address under /book/: its slug, else its id (both lead there). */
  page: string;
  name: string;
  currency: string;
  pay_at_property: boolean;
  /** Check-in at most this many days after today (client setting, default 365). */
  booking_horizon_days: number;
  /** The hotel's time zone (client setting, default UTC): its today is the date there. */
  time_zone: string;
  /** Guests cancel their own booking until this many hours before check-in (client setting, default 48). */
  free_cancellation_hours: number;
  /**
   * What the pages tell guests, where the hotel has said it (client settings; absent: not said):
   * whether its prices include taxes, its cancellation policy, its check-in time ("HH:MM") and
   * its address.
   */
  taxes_included?: boolean;
  cancellation_policy?: string;
  check_in_time?: string;
  address?: string;
  /** The hotel's contact for guests, where set. */
  phone?: string;
  email?: string;
  /** Taxes on the room price in percent (0: none). */
  tax_percent: number;
  /** The guests' language when neither they nor their browser chose one (client setting, default en). */
  language?: Language;
}

/** The settings the pages tell guests, each only where the hotel has set it. */
function toldToGuests(settings: ReturnType<typeof clientSettingsOf>): Pick<GuestClient, 'taxes_included' | 'cancellation_policy' | 'check_in_time' | 'address' | 'phone' | 'email'> {
  const { taxes_included, cancellation_policy, check_in_time, address, phone, email } = settings;
  return {
    ...(phone ? { phone } : {}),
    ...(email ? { email } : {}),
    ...(taxes_included === null ? {} : { taxes_included }),
    ...(cancellation_policy?.trim() ? { cancellation_policy: cancellation_policy.trim() } : {}),
    ...(check_in_time ? { check_in_time } : {}),
    ...(address?.trim() ? { address: address.trim() } : {}),
  };
}

/** A slug's shape (operator-actions/hotel-settings.ts checks it when set): anything else is answered without a read. */
const SLUG = /^[a-z0-9-]{3,60}$/;

/**
 * The client whose booking page this is, by its id or its slug (one GetItem of the slug's item);
 * 404 AppError NOT_FOUND for an unknown or malformed address.
 */
export async function guestBookingClient(address: string): Promise<GuestClient> {
  const clientId = UUID.test(address) ? address : SLUG.test(address) ? await clientIdOfSlug(address) : undefined;
  const client = clientId ? await getClient(clientId) : undefined;
  if (!client) throw errors.noSuchHotel();
  const settings = clientSettingsOf(client);
  return {
    client_id: client.client_id,
    page: client.slug ?? client.client_id,
    tax_percent: settings.tax_percent,
    name: client.name,
    currency: client.currency,
    ...toldToGuests(settings),
    // Paying at the hotel is confirmed by e-mail: a stage that sends none cannot offer it.
    pay_at_property: client.pay_at_property === true && emailEnabled(),
    booking_horizon_days: settings.booking_horizon_days,
    free_cancellation_hours: settings.free_cancellation_hours,
    time_zone: settings.time_zone,
    language: settings.language,
  };
}

/** The client's room the guest chose; 404 for an unknown room, another client's, or a malformed id. */
export async function chosenRoom(clientId: string, roomId: unknown): Promise<RoomRecord> {
  const room = typeof roomId === 'string' && UUID.test(roomId) ? await getRoom(clientId, roomId) : undefined;
  if (!room) throw errors.noSuchGuestRoom();
  return room;
}

/**
 * The dashboard setting; audit is the caller's. 404 NOT_FOUND for an unknown client; 409
 * EMAIL_NOT_CONFIGURED to turn it on in a stage that sends no e-mail (deployed without
 * `-c senderEmail`): such a booking is confirmed by a link sent by e-mail.
 */
export async function setPayAtProperty(clientId: string, enabled: boolean): Promise<void> {
  if (enabled && !emailEnabled()) throw errors.emailNotConfigured();
  if (!UUID.test(clientId) || !(await putPayAtProperty(clientId, enabled))) throw errors.noSuchHotel();
}
