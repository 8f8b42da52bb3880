/**
 * One booking as its pages read it (the booking page, Change, Cancel booking): its story, and the
 * hotel's clock that says whether its check-in day has passed. Only an id the service could have
 * minted is looked up; another client's booking is as absent as a missing one (404).
 */
import { type BookingStory, bookingStory } from '../../domain/bookings/booking-story';
import { clientSettingsOf } from '../../domain/client-settings';
import { requireClient } from '../../domain/clients';
import { type HotelClock, hotelClock } from '../../domain/hotel-time';
import type { TaxSettings } from '../../domain/bookings/stay-total';
import { errors } from '../../errors';
import type { PageRequest } from '../page-function';
import { BOOKING_ID } from './bookings-common';

export interface BookingFacts {
  story: BookingStory;
  /** The hotel's today, in its time zone. */
  clock: HotelClock;
  /** The hotel's taxes now: what a recalculated total adds (stay-total.ts). */
  taxes: TaxSettings;
}

/** The booking's id from the path. */
export function bookingIdOf(request: PageRequest): string {
  const bookingId = request.params.booking_id ?? '';
  if (!BOOKING_ID.test(bookingId)) throw errors.noSuchBooking();
  return bookingId;
}

export const titleOf = (b: BookingStory['booking']) => `Booking ${b.booking_reference ?? b.external_booking_id ?? `of ${b.guest_name}`}`;

/** The operator's client's booking of the path, with its story and the hotel's clock. */
export async function bookingFactsOf(request: PageRequest): Promise<BookingFacts> {
  const clientId = request.operator.client_id;
  const [story, client] = await Promise.all([bookingStory(clientId, bookingIdOf(request)), requireClient(clientId)]);
  if (!story) throw errors.noSuchBooking();
  const settings = clientSettingsOf(client);
  return { story, clock: hotelClock(settings.time_zone, request.now), taxes: { tax_percent: settings.tax_percent, taxes_included: settings.taxes_included } };
}
